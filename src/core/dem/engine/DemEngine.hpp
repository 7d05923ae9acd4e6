#pragma once
// The subcycled DEM step shared by both solvers: integrate (gravity and
// per-particle external force/torque), broad phase, narrow phase against
// particles and wall faces (warm-started), impulse resolution, overlap
// removal, push-back of particles that would leave through a wall.
#include "dem/boundaries/HaloExchange.hpp"
#include "dem/particles/ParticleSystem.hpp"
#include "dem/walls/WallMotion.hpp"
#include "dem/walls/WallSet.hpp"

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace sef::dem {

// Collision parameters of one contact kind (pair or wall). model is a name of
// the collision module (collision/CollisionParameters.hpp): frictionless |
// frictional (= paper) | paper | schwager | coulomb; the constructor of
// DemEngine validates it and throws sef::CollisionParameterError naming the
// bad entry (model, restitution, tangentialRestitution, friction).
struct ContactLaw {
    std::string model = "frictionless"; // frictionless | frictional | schwager | coulomb
    double restitution = 0.5;           // eps_n
    // eps_t: the tangential restitution of "frictional", the sticking target
    // of "coulomb" (u_t' = eps_t u_t while the impulse stays in the cone).
    // Not set (NaN): the model's own, 1 for frictional (the paper) and 0
    // for coulomb (sticking stops the slip), as the dictionaries default it.
    double tangentialRestitution = std::numeric_limits<double>::quiet_NaN();
    double friction = 0.0;              // mu (schwager, coulomb)
    double rollingFriction = 0.0;       // mu_r: rolling resistance (any model; 0: none)
    double twistingFriction = 0.0;      // mu_t: resistance to spin about the normal (any model; 0: none)
};

struct EngineSettings {
    ContactLaw pair;
    ContactLaw wall;
    Vec3 gravity = Vec3::Zero();
    int maxSweeps = 50;                 // sequential-impulse sweeps per substep (cap)
    bool onePartnerPerStep = false;     // [Superellipsoid-OpenFOAM]: only the largest-overlap partner
    int overlapPasses = 20;             // cap of projected Gauss-Seidel passes of overlap removal
    // Penetration left in place by overlap removal, as a fraction of the
    // smaller d_eq of the contact: keeps a resting contact detected in the
    // next substep (no flicker, warm start survives). Far below the 1e-2
    // acceptance bound of maxOverlapOverDeq.
    double allowedPenetration = 1e-4;
    // Overlap removal lifts bodies against gravity. The potential energy it
    // adds to a cluster of touching bodies is taken from that cluster's
    // kinetic energy (relative to its momentum; touching a wall or a held
    // body, to the wall), so corrections never feed a resting bed's rocking
    // (dem/engine/CorrectionEnergy.cpp). What a cluster cannot pay is counted
    // (StepStatistics::correctionEnergyUnpaid). false: never paid.
    bool correctionPaysEnergy = true;
    // With it: a cluster lifts only what it can pay; the rest of its
    // corrections is not made (its overlap stays, held by the impulses'
    // resting targets), so corrections never add energy. A cluster that
    // cannot be paid for (across processors, periodic images, a moving
    // wall) is corrected in full and counted unpaid. Off by default: a heap
    // of spheres then settles flatter (doc/dem.md, "Overlap removal
    // without feeding velocity").
    bool correctionWithinPayment = false;
    // Without it: a flat-face contact (with rim points) corrects its
    // overlap up to this fraction of the smaller d_eq beyond the allowed
    // penetration only as far as its cluster pays, and in full beyond it
    // (unpaid counted). A block landing on its nearly flat face then
    // cannot be lifted out on energy the landing spent (blocks rocked for
    // ever on that), while an impact's deeper overlap is still removed at
    // once. Curved contacts correct in full: on them the band only made
    // heaps creep. 0: every correction in full.
    double paidCorrectionDepth = 2e-4;
    // A contact approaching slower than this at the start of the substep is
    // RESTING: its target normal velocity is 0 (eps_n is not applied). A bed
    // under gravity re-approaches every substep with u_n ~ g h; bouncing that
    // back with eps_n keeps the bed hopping. < 0: automatic,
    // 4 h max_i |g + F_i/m_i| (four substeps of the largest acceleration).
    double restingSpeed = -1.0;
    // Sweeps stop when no contact velocity changes by more than this
    // fraction of h max |g + F/m| in a sweep. The default is 1 % of the
    // automatic resting speed (4 h max |g + F/m|): the contact
    // classification itself does not resolve approach speeds below that, and
    // an error of 0.04 g h is 4e-2 of one substep's weight impulse, taken
    // back in the next substep (warm start). doc/dem.md, "Sweep tolerance".
    double sweepTolerance = 4e-2;
    // Sweeps also stop when, at the convergence rate measured over the last
    // 2 x this-many sweeps, the tolerance would not be reached within
    // maxSweeps (dem/engine/SequentialImpulseSolver.hpp). 0: only tolerance and cap.
    int sweepStagnationWindow = 2;
    // Warm-start resting contacts with their accumulated impulse of the
    // previous substep (keyed by the particle ids / wall face).
    bool warmStart = true;
    // Reuse a pair's last exact narrow-phase answer while its relative pose
    // changed by less than this (translation over the smaller bounding
    // radius; rotation in rad) since that answer (dem/engine/PairGeometryReuse.hpp).
    // 0: exact query every substep.
    double contactReuseTolerance = 1e-5;
    // The same for an answer on a flat patch (blocky shapes, eps < ~0.5).
    double flatContactReuseTolerance = 1e-4;
    // The tolerance of a flat-patch answer's sliding across its normal (a
    // translation there leaves its depth exact and moves its patch points
    // by at most itself; dem/engine/PairGeometryReuse.hpp), with the flat one
    // along the normal and in rotation. Negative (default): the flat
    // tolerance for the whole move, as before. 1e-3 made the first 0.5 s
    // of the cube-like tutorial 15 % cheaper, but settled eps 0.5 beds kept
    // 2-3 times the residual kinetic energy (benchmarks/README.md), so it is not the default.
    double flatContactReuseTranslation = -1.0;
    // Flat answers between two flat faces beyond the flat tolerance by a
    // slide across the normal of at most this times the smaller bounding
    // radius and a turn about it of at most this (rad), and within it
    // otherwise: the reference's depth and its kept patch outlines,
    // intersected again (dem/engine/PairGeometryReuse.hpp, reuseKeptPatch). Exact
    // for flat faces; 0: off.
    double flatPatchSlideTolerance = 1e-2;
    // Systems with at least this many particles are processed in spatial
    // (grid-cell) order for memory locality; smaller ones in particle order.
    // 0: never sort.
    long spatialSortThreshold = 4096;
    // Leave the particles of a spatially sorted system (above) in that order
    // at the end of each step: particle k of the system is then body k of the
    // engine, and the next step's gather and scatter stream through memory
    // instead of jumping (1e5 falling particles: benchmarks/README.md). Ids
    // are unchanged; only for callers that keep no data of their own by
    // particle index (superellipsoidDEMFoam does not).
    bool reorderParticles = false;
    // Flat-face contacts also constrain the approach velocity at the rim
    // points of their overlap patch (contact/ContactPatch.hpp), so a block
    // resting on a face cannot rock on its patch centroid for ever. Not with
    // onePartnerPerStep (the paper's single impulse per particle).
    bool patchRimPoints = true;
    // Contacts before penetration with walls (dem/engine/DemDetection.cpp,
    // addSpeculativeWallContacts): a face a body will reach within two
    // substeps is met by an impulse at the gap, with the wall law's
    // restitution, instead of being entered and projected out.
    bool speculativeWallContacts = true;
    // The same for pairs (addSpeculativePairContact): two bodies that will
    // meet within two substeps are met by an impulse at their gap (a lower
    // bound of it, along the pair query's separating axis).
    bool speculativePairContacts = true;
    // The shifts of the periodic lattice the step's PeriodicImages use
    // (PeriodicLattice::shifts()): walls running through a periodic boundary
    // (a floor) are one surface across it, with no edges there (WallSet).
    std::vector<Vec3> periodicShifts;
    // Sleeping (dem/engine/Sleeping.cpp): an island of touching bodies that
    // rests on a wall or a held particle, and whose bodies all stayed still
    // for sleepTime, is neither integrated nor queried (its bodies are held,
    // at rest) until something wakes it: an awake body moving towards it or
    // touching it, a change of the force on one of its bodies at rest (fluid
    // forces, external forces), new walls, or an exchange with another
    // processor or a periodic image. 0: nothing sleeps.
    double sleepTime = 0.0;
    // Still: within sleepDrift (times its d_eq in translation, rad in
    // rotation) of where its still time began. Moving, for waking a sleeping
    // body it approaches: its fastest point (|v| + |omega| times the bounding
    // radius, at its last drift) faster than sleepSpeed [m/s]; < 0:
    // automatic, 1e-2 sqrt(|g| d_eq) of each body (with no gravity: 0).
    double sleepSpeed = -1.0;
    double sleepDrift = 1e-2;
    // A sleeping body wakes (with its island) when the force or torque on it
    // at rest (gravity, external force and torque, the fluid drag at zero
    // velocity) moved from what it was when it fell asleep by more than this
    // fraction of that force (torque: times the bounding radius).
    double wakeForceChange = 0.05;
};

// The momentum the particles gave one wall patch in a step.
struct WallLoad {
    int patch = -1;               // WallFace::patch
    Vec3 impulse = Vec3::Zero();  // on the wall [N s]: the mean force is impulse / dt
    Vec3 moment = Vec3::Zero();   // its moment about the origin [N m s] (rolling resistance included)
};

struct StepStatistics {
    long contacts = 0;            // contacts (pair + wall) detected
    long pairContacts = 0;
    long wallContacts = 0;
    long newtonIterations = 0;
    long fallbacks = 0;           // narrow-phase calls answered by the fallback
    long pushedBack = 0;          // particles pushed back inside the walls
    // their ids (the first kReportedPushBacks of the step), for the log
    static constexpr std::size_t kReportedPushBacks = 16;
    std::vector<std::int64_t> pushedBackIds;
    long candidatePairs = 0;      // broad-phase output
    long reusedPairs = 0;         // pair queries answered from the reference (no Newton)
    long reusedWalls = 0;         // wall-face queries answered from the reference
    long rimPoints = 0;           // rim-point constraints added to flat-face contacts
    long speculativeContacts = 0; // contacts before touching, walls and pairs (not in contacts)
    long speculativePairContacts = 0; // of which pairs
    double maxOverlapOverDeq = 0; // largest penetration / d_eq after the step
    double kineticEnergy = 0;     // translational + rotational [J], at the END of the step
    long impulses = 0;            // impulses applied (all sweeps)
    long sweeps = 0;              // impulse sweeps run
    long sweepLimitReached = 0;   // substeps whose sweeps stopped at maxSweeps
    long sweepsStagnated = 0;     // substeps whose sweeps stopped for lack of progress
    // Energy bookkeeping of the collision stage (summed over substeps) [J]:
    double impulseEnergyChange = 0;     // kinetic energy change by the impulses (<= 0 if dissipative)
    double projectionPotentialChange = 0; // gravity potential change by overlap removal and push-back
    // The potential energy overlap removal added, paid from the clusters'
    // kinetic energy, and what could not be paid: a cluster without the
    // kinetic energy left, or one that spans processors, periodic images or
    // a moving wall (EngineSettings::correctionPaysEnergy)
    double correctionEnergyPaid = 0;
    double correctionEnergyUnpaid = 0;
    // Sleeping (EngineSettings::sleepTime): owned particles asleep at the end
    // of the step, and those that fell asleep / woke up in it
    long sleepingParticles = 0;
    long fellAsleep = 0;
    long wokenUp = 0;
    long wokenByForce = 0; // of wokenUp: their island's force at rest changed (wakeForceChange)
    // Per wall patch that took any (in order of first contact): the contact
    // impulses on its faces (rim points included) and the momentum push-back
    // removed from particles crossing them, summed over the substeps. With
    // gravity, external forces and fluid drag they close the particles'
    // momentum balance exactly (pair impulses cancel). Periodic images
    // contribute at their image positions (moments). Not held particles'.
    std::vector<WallLoad> wallLoads;
    void addWallLoad(int patch, const Vec3& impulse, const Vec3& moment) {
        for (WallLoad& w : wallLoads)
            if (w.patch == patch) {
                w.impulse += impulse;
                w.moment += moment;
                return;
            }
        wallLoads.push_back(WallLoad{patch, impulse, moment});
    }
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
    // halo (decomposed runs, dem/boundaries/HaloExchange.hpp): particles from
    // halo->firstHalo() on are copies of other processors' particles; they
    // are refreshed and corrected through halo every substep, their contacts
    // resolved only where HaloExchange.hpp says, and they are not counted in
    // the statistics. Their state after the step is meaningless.
    // Held particles (ParticleType::held) keep their position and
    // orientation bit for bit; their velocities are set to zero and stay
    // zero. In a contact with a free particle they are immovable (inverse
    // mass and inertia 0), so the free one gets the answer of a wall with
    // the same contact point and normal, under the pair law; contacts of two
    // held particles and of a held particle with a wall are not resolved.
    StepStatistics step(ParticleSystem& particles, double dt, int nSubcycles = 1,
                        HaloExchange* halo = nullptr);

    // The state carried between substeps (per-contact warm starts: common
    // normals, accumulated impulses, narrow-phase references), binary, for
    // restarts: a run restarted with readState continues exactly like the
    // continuous run. readState throws std::runtime_error naming the problem
    // for a stream that is not such a state.
    // With sleeping (EngineSettings::sleepTime) the state also holds which
    // bodies sleep or are still, so a restart continues exactly; a restart
    // with other sleep settings, gravity or contact laws wakes them all.
    void writeState(std::ostream& os) const;
    void readState(std::istream& is);
    // The same, with the contact memory of other engines (states written by
    // their writeState) after this one's, a contact known here kept as it
    // is here: one decomposed run's processors in one file, which every
    // processor of another decomposition can read (readState; a processor
    // keeps what its contacts find and drops the rest at its first substep).
    void writeState(std::ostream& os, const std::vector<std::string>& others) const;

    // Decomposed runs: particles that moved to another processor take the
    // memory of their contacts with them. extractState writes (as a state)
    // the entries of the contacts whose resolving particle (the smaller id
    // of a pair, the particle of a wall contact) `owned` rejects; this
    // engine no longer records them, so they die here by themselves.
    // mergeState adopts, of such a state, the entries whose resolving
    // particle `owned` accepts. Called between steps.
    void extractState(const std::function<bool(std::int64_t)>& owned, std::ostream& os) const;
    void mergeState(std::istream& is, const std::function<bool(std::int64_t)>& owned);

    // Walls moving along their own surfaces (dem/walls/WallMotion.hpp) from the
    // next step on, replacing the motions set before (empty: every wall at
    // rest). A contact with a moving face sees the face's velocity at the
    // contact point (its part across the normal) and its angular velocity
    // (rolling resistance). Throws WallMotionError naming the patch.
    void setWallMotions(std::vector<WallMotion> motions);
    // Replaces the walls between steps (a gate that opens: its faces
    // removed). The contacts with walls lose their memory (warm starts,
    // narrow-phase references: keyed by face); the pairs keep theirs. The
    // wall motions set before are checked against the new faces.
    void setWalls(std::vector<WallFace> walls);

    const EngineSettings& settings() const;
    const WallSet& walls() const;

private:
    void readSleepState(std::istream& is);
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace sef::dem
