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

// Collision parameters of one contact kind (pair or wall).
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
    double kineticEnergy = 0;     // translational + rotational [J]
};

class DemEngine {
public:
    DemEngine(std::vector<WallFace> walls, EngineSettings settings);
    ~DemEngine();
    DemEngine(DemEngine&&) noexcept;
    DemEngine& operator=(DemEngine&&) noexcept;

    // Advance the system by dt in nSubcycles equal substeps. Statistics are
    // summed over the substeps (maxOverlap: maximum).
    StepStatistics step(ParticleSystem& particles, double dt, int nSubcycles = 1);

    const EngineSettings& settings() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace sef::dem
