#pragma once
// The seam between the DEM step and a domain-decomposed run (doc/parallel.md).
//
// In a decomposed run every processor steps the particles it OWNS followed by
// HALO copies of its neighbours' particles that may touch one of them during
// the step. The engine stays serial and OpenFOAM-free; it calls an exchange
// (implemented by the OpenFOAM adapter with Pstream, or in memory by the
// tests) at two points of every substep:
//
//   1. after the first half kick: the halo copies take their owners' state
//      (exchangeStates), so both sides see the same bodies;
//   2. after the impulses and the overlap removal: the velocity and position
//      changes this processor made to halo copies go back to their owners,
//      which add them (exchangeCorrections).
//
// Which side resolves a contact: a contact between two owned particles is
// local; a contact between an owned particle and a halo copy is resolved by
// the processor that owns the particle with the SMALLER id (the other side
// does not even run its narrow phase); two halo copies, or a halo copy and a
// wall, belong to other processors. So every contact is resolved exactly
// once, the impulse on its two bodies is the same (momentum is conserved
// exactly), and a contact whose two bodies have no other contacts is
// resolved with the serial inputs, giving the serial answer to round-off.
// A cluster of contacts across the boundary is resolved block-Jacobi: each
// side's sweeps see the other side's impulses one substep late (taken back
// by the warm starts), so a dense bed differs from serial within chaos.
#include "geometry/Types.hpp"

#include <cstddef>
#include <vector>

namespace sef::dem {

// What a halo copy needs of its owner's body at the start of a substep.
struct BodyKinematics {
    Vec3 position;
    Quat orientation;
    Vec3 velocity;
    Vec3 angularVelocity;
};

// What a processor did to a halo copy in a substep, for its owner to add.
struct BodyCorrection {
    Vec3 velocity = Vec3::Zero();
    Vec3 angularVelocity = Vec3::Zero();
    Vec3 shift = Vec3::Zero(); // position (overlap removal)
};

class HaloExchange {
public:
    virtual ~HaloExchange() = default;

    // Particles [firstHalo(), size()) of the stepped system are halo copies.
    virtual std::size_t firstHalo() const = 0;

    // Owned particle indices whose state neighbours hold as halo copies, in
    // the order exchangeStates packs them (an index appears once per
    // neighbour that holds it).
    virtual const std::vector<std::size_t>& sentParticles() const = 0;

    // sent[k]: the state of particle sentParticles()[k]; on return halo[h]
    // is the state of halo particle firstHalo() + h (halo is sized by the
    // engine).
    virtual void exchangeStates(const std::vector<BodyKinematics>& sent,
                                std::vector<BodyKinematics>& halo) = 0;

    // The largest of value over all processors (the step's acceleration
    // scale, so that every side sets the resting speed as serial would).
    virtual double maximum(double value) = 0;

    // Halo particle firstHalo() + h as a periodic image of one of this
    // processor's own particles (dem/boundaries/PeriodicImages.hpp): that particle's
    // index; -1 for a copy of another processor's particle. The step then
    // resolves the image's contacts on its source itself (one body in the
    // impulse solver), so a cluster of contacts across a periodic boundary
    // is solved exactly like one in the interior, not block-Jacobi.
    virtual long localSource(std::size_t /*h*/) const { return -1; }

    // The reverse: halo[h] is what this processor did to halo particle
    // firstHalo() + h; on return sent[k] is what the neighbours did to
    // particle sentParticles()[k] (sized by the engine).
    virtual void exchangeCorrections(const std::vector<BodyCorrection>& halo,
                                     std::vector<BodyCorrection>& sent) = 0;
};

} // namespace sef::dem
