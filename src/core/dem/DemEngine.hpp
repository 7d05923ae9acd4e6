#pragma once
// The subcycled DEM step shared by both solvers: integrate (gravity and
// per-particle external force/torque), broad phase, narrow phase against
// particles and wall faces (warm-started), impulse resolution, overlap
// removal, push-back of particles that would leave through a wall.
#include "dem/ParticleSystem.hpp"
#include "dem/WallSet.hpp"

#include <memory>
#include <string>

namespace sef::dem {

// Collision parameters of one contact kind (pair or wall). model is a name of
// the collision module (collision/CollisionParameters.hpp): frictionless |
// frictional (= paper) | paper | schwager | coulomb; the constructor of
// DemEngine validates it and throws sef::CollisionParameterError naming the
// bad entry (model, restitution, tangentialRestitution, friction).
struct ContactLaw {
    std::string model = "frictionless"; // frictionless | frictional | schwager | coulomb
    double restitution = 0.5;           // eps_n
    double tangentialRestitution = 1.0; // eps_t (frictional)
    double friction = 0.0;              // mu (schwager, coulomb)
};

struct EngineSettings {
    ContactLaw pair;
    ContactLaw wall;
    Vec3 gravity = Vec3::Zero();
    int maxSweeps = 20;                 // sequential-impulse sweeps per step
    bool onePartnerPerStep = false;     // paper 001: only the largest-overlap partner
    int overlapPasses = 4;              // Gauss-Seidel passes of overlap removal per substep
    // Contacts approaching slower than this are resolved with eps_n = 0
    // (resting contacts: a bed under gravity re-collides every substep with
    // u_n ~ g dt; bouncing those back with eps_n would keep it hopping).
    // < 0: automatic, 2 |g| dt_substep. Default 0: off (with sequential
    // impulses eps_n = 0 contacts converge more slowly; measured in the tests).
    double restingSpeed = 0.0;
};

struct StepStatistics {
    long contacts = 0;            // contacts (pair + wall) detected
    long pairContacts = 0;
    long wallContacts = 0;
    long newtonIterations = 0;
    long fallbacks = 0;           // narrow-phase calls answered by the fallback
    long pushedBack = 0;          // particles pushed back inside the walls
    long candidatePairs = 0;      // broad-phase output
    double maxOverlapOverDeq = 0; // largest penetration / d_eq after the step
    double kineticEnergy = 0;     // translational + rotational [J], at the END of the step
    long impulses = 0;            // impulses applied (all sweeps)
    long sweeps = 0;              // impulse sweeps run
    long sweepLimitReached = 0;   // substeps whose sweeps stopped at maxSweeps
};

class DemEngine {
public:
    DemEngine(std::vector<WallFace> walls, EngineSettings settings);
    ~DemEngine();
    DemEngine(DemEngine&&) noexcept;
    DemEngine& operator=(DemEngine&&) noexcept;

    // Advance the system by dt in nSubcycles equal substeps. Statistics are
    // summed over the substeps (maxOverlap: maximum; kineticEnergy: at the
    // end). Throws std::invalid_argument for dt <= 0 or nSubcycles < 1 and
    // std::runtime_error naming the particle id if any state or external
    // force/torque is not finite (the particles then keep their state from
    // before the call).
    StepStatistics step(ParticleSystem& particles, double dt, int nSubcycles = 1);

    const EngineSettings& settings() const;
    const WallSet& walls() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace sef::dem
