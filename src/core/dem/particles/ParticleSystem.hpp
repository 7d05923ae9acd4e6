#pragma once
// The particle system of the DEM engine: structure of arrays over particles,
// shapes shared by type index. Used by BOTH solvers (the dry
// superellipsoidDEMFoam and the fluid-coupled cloud): they fill it, call
// DemEngine::step, and read it back.
#include "geometry/Superellipsoid.hpp"
#include "kinematics/LinearRelaxation.hpp" // FluidDrag

#include <cstdint>
#include <vector>

namespace sef::dem {

// One particle type: shape and material, with derived mass properties cached.
struct ParticleType {
    Superellipsoid shape;
    double density;          // [kg/m^3]
    double mass;             // density * volume
    Vec3 principalInertia;   // about body x, y, z [kg m^2]
    double boundingRadius;   // minimal bounding sphere [m]
    // Held in place (packed beds, fixed obstacles): the step never moves its
    // particles and keeps their velocities zero, yet they feel the fluid
    // (dragImpulse) and are immovable bodies in contacts, like a wall
    // (DemEngine::step). Per type, so that halo copies and restarts, which
    // carry the type index, carry it too. Set after construction.
    bool held = false;

    // Throws ParameterError("density") (Superellipsoid::requireDensity).
    ParticleType(const Superellipsoid& s, double rho);
};

// The largest bounding radius of the types (0 for none): the reach of the
// broad phase, the halos and the periodic images.
double largestBoundingRadius(const std::vector<ParticleType>& types);

struct ParticleSystem {
    std::vector<ParticleType> types;

    // Per particle (all vectors have size() entries)
    std::vector<int> type;                // index into types
    std::vector<std::int64_t> id;         // stable identity (warm starts, restarts)
    std::vector<Vec3> position;           // centre [m], world
    std::vector<Quat> orientation;        // body -> world, unit
    std::vector<Vec3> velocity;           // [m/s], world
    std::vector<Vec3> angularVelocity;    // [rad/s], world
    std::vector<Vec3> externalForce;      // [N], world, held constant over a step (fluid forces)
    std::vector<Vec3> externalTorque;     // [N m], world
    // Fluid coupling (the cloud; the dry solver leaves these empty).
    // fluidDrag: empty (no drag) or one entry per particle, input to step.
    // dragImpulse / dragAngularImpulse: written by step when fluidDrag is
    // given: the momentum [N s] and angular momentum [N m s] the drag gave
    // each particle over the step (world), exactly what the integration
    // applied, so the fluid can receive the opposite, to round-off (a held
    // particle, at rest throughout: D u dt and R w_f dt).
    std::vector<FluidDrag> fluidDrag;
    std::vector<Vec3> dragImpulse;
    std::vector<Vec3> dragAngularImpulse;

    std::size_t size() const { return position.size(); }

    // Appends a particle at rest-free state; returns its index.
    std::size_t add(int typeIndex, std::int64_t particleId, const Vec3& x, const Quat& q,
                    const Vec3& v = Vec3::Zero(), const Vec3& w = Vec3::Zero());

    // Removes every particle, keeps the types (and the arrays' capacity:
    // the cloud refills the system every fluid step).
    void clear();

    // Keeps particles [0, n) (e.g. drops the halo copies of a decomposed
    // step, appended at the end); the per-particle arrays that have an entry
    // per particle follow.
    void truncate(std::size_t n);

    // Removes particle i (swap with last; order is not preserved). The
    // fluid-coupling arrays follow when they have one entry per particle.
    void remove(std::size_t i);

    // Keeps the particles k with keep[k] != 0 (keep: one entry per
    // particle), in their order; the per-particle arrays follow as in
    // truncate. (Particles leaving a processor or the domain: the order is
    // the engine's processing order, which decomposed runs reproduce.)
    void keepWhere(const std::vector<char>& keep);
};

// Gravitational potential energy sum_i m_i (-g . x_i) [J] (the reference of
// a bed's released energy; particles fed or leaving move it).
double potentialEnergy(const ParticleSystem& particles, const Vec3& gravity);

} // namespace sef::dem
