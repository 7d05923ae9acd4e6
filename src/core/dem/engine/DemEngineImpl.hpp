// Private to the DEM engine (src/core/dem/engine/DemEngine.cpp and its stage
// files): DemEngine::Impl, the state of the engine between and within steps.
// DemEngine.cpp runs the stages (step, substep: its opening comment lists
// them); each stage is one file:
//   DemOrdering.cpp       memory order of the bodies, gather and scatter
//   DemIntegration.cpp    kicks, drift, overlap removal, push-back, finiteness
//   DemHaloSync.cpp       halo copies of decomposed runs
//   DemDetection.cpp      broad phase, pair and wall narrow phase with reuse,
//                         rim points
//   DemImpulseStage.cpp   sequential impulses, warm starts, kept compliances
//   DemEngineStateIO.cpp  the state file (warm starts across restarts)
// The members are grouped by the stage that writes them; each group says
// who reads it.
#pragma once

#include "collision/CollisionParameters.hpp"
#include "contact/ContactResult.hpp"
#include "contact/VerletPairList.hpp"
#include "dem/engine/DemContact.hpp"
#include "dem/engine/DemEngine.hpp"
#include "dem/engine/NearFaceCache.hpp"
#include "dem/engine/PairGeometryReuse.hpp"
#include "dem/engine/SequentialImpulseSolver.hpp"
#include "dem/engine/WarmStartCache.hpp"
#include "kinematics/LinearRelaxation.hpp"
#include "kinematics/RigidBodyState.hpp"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace sef::dem {

inline bool finiteState(const RigidBodyState& b) {
    return isFinite(b.position) && isFinite(b.velocity) && isFinite(b.angularVelocity) &&
           isFinite(b.orientation.coeffs());
}

// A cluster of touching bodies in payCorrectionEnergy (CorrectionEnergy.cpp)
struct CorrectionCluster {
    double lift = 0.0;          // potential energy the corrections added [J]
    double firmLift = 0.0;      // of it, by the firm corrections (made paid or not)
    double mass = 0.0;
    Vec3 momentum = Vec3::Zero();
    double kinetic = 0.0;       // relative to the cluster's frame
    double factor = 1.0;        // on its relative velocities once paid
    double shiftScale = 1.0;    // on its corrections beyond the firm ones (paid only)
    bool onWall = false;        // touches a wall or a held body: the wall's frame
    bool payable = true;        // all its bodies and walls are this engine's to change
    int wallContact = -1;       // a wall contact of it (the wall takes the momentum)
};

// What the engine keeps of a body between steps for sleeping (Sleeping.cpp),
// carried by id. Trivially copyable: the state file holds it as bytes.
struct SleepRecord {
    std::int64_t id = -1;
    std::int64_t island = -1;      // asleep: the smallest id of its island
    double stillTime = 0.0;        // [s] still since then
    std::int64_t asleep = 0;       // (integers and an explicit padding: no undefined bytes in the file)
    Quat windowOrientation = Quat::Identity(); // the pose where its still time began
    Vec3 windowPosition = Vec3::Zero();
    Vec3 restForce = Vec3::Zero();  // asleep: the force and torque at rest when it fell asleep
    Vec3 restTorque = Vec3::Zero();
    double driftSpeed = 0.0;        // [m/s] at its last drift: |v| + |omega| times its bounding radius
};

struct DemEngine::Impl {
    // Configuration (constructor); read by every stage.
    WallSet walls;
    EngineSettings settings;
    // Moving walls (setWallMotions): per face the index of its motion, -1
    // at rest; empty when no wall moves (the impulse stage then runs the
    // arithmetic of walls at rest).
    std::vector<WallMotion> wallMotions;
    std::vector<int> faceMotion;
    CollisionParameters pairParameters, wallParameters;

    // Contact memory across substeps, steps and restarts: written by the
    // detection (entries, kept patches) and the impulse stage (impulses,
    // resting flags, kept compliances, commit); the state file
    // (DemEngineStateIO.cpp) writes and reads it.
    WarmStartCache warm;

    // The particles of the current call (step) and the halo exchange, if any.
    const ParticleSystem* system = nullptr;

    // Ordering and slots (computeOrder): body k is particle order[k]. Read
    // by the gather and the scatter; ids carry the order from call to call.
    std::vector<std::size_t> order;           // order[k]: particle index of body k
    std::vector<std::size_t> bodyOf;          // its inverse: body of particle i
    std::vector<std::size_t> fromSlot;        // slot of body k in the last step's order
    std::vector<std::pair<std::uint64_t, std::size_t>> orderKeys;
    std::vector<std::uint64_t> cellKey;       // grid cell of particle i (computeOrder)
    std::vector<long> guessIndex;             // scratch of computeOrder
    bool spatiallySorted = false;             // order is the spatial one (computeOrder)

    // The bodies, gathered at the start of a step (gatherBodies, in body
    // order) and scattered at its end (scatterBodies).
    // bodies: written by the kicks and the drift (integration), the halo
    // synchronisation, the impulse stage (velocities), overlap removal and
    // push-back (positions); the rest is read-only within a step.
    std::vector<RigidBodyState> bodies;
    std::vector<int> typeOf;
    std::vector<std::int64_t> ids;
    std::vector<double> radius, diameter;
    std::vector<Vec3> force, torque;
    // Held bodies (ParticleType::held; gatherBodies): never moved, at rest,
    // immovable in contacts. anyHeld guards every use, so a system without
    // held types runs exactly the arithmetic it ran before.
    bool anyHeld = false;
    std::vector<char> heldBody;
    bool held(std::size_t i) const { return anyHeld && heldBody[i]; }
    // Fluid drag (ParticleSystem::fluidDrag given): the exact half-kick
    // propagators of the step (translation and rotation), the world inertia
    // they were built with, and the drag impulses accumulated over the step.
    // Set up by the gather, or at each substep for a drag that turns with
    // the body (setUpDrag); the half kicks read them and
    // accumulate the impulses.
    bool hasDrag = false;
    std::vector<FluidDrag> drag;
    std::vector<RelaxationPropagator> kickT, kickR;
    std::vector<Mat3> inertiaWorld;
    std::vector<Vec3> kickTorque; // torque in the rotation kick of a turning drag (setUpTurningDrag)
    std::vector<Vec3> dragImpulse, dragAngular;
    double accelerationScale = 0.0;   // max_i |g + F_i/m_i| of the current step (gatherBodies, setUpHalo)
    double restingSpeed = 0.0;        // of the current substep (substep; read by the impulse stage)

    // The start of the substep (beginBody; refreshHalo for halo copies):
    // centres and poses of the detection. Read by the detection, the impulse
    // stage (contact arms) and push-back (the centre is the start of the
    // substep).
    std::vector<Vec3> centres;
    std::vector<PairPose> poses; // of the bodies at detection (rotation matrix once per substep)

    // Halo synchronisation (DemHaloSync.cpp; decomposed runs,
    // dem/boundaries/HaloExchange.hpp): the exchange, which bodies are halo copies, the
    // bodies sent to / received from the neighbours, and the halo copies'
    // state as refreshed (their corrections are taken against it). haloBody
    // is read by the detection (resolvesPair, walls), push-back and the
    // scatter.
    HaloExchange* exchange = nullptr;
    std::vector<char> haloBody;
    // Per body: the body of its source when it is a periodic image of an
    // own particle (HaloExchange::localSource), else -1; anyLocalImage
    // guards every use. Read by the impulse stage (resolveImpulses).
    std::vector<long> sourceBody;
    bool anyLocalImage = false;
    std::vector<std::size_t> sentBodies, haloBodies;
    std::vector<BodyKinematics> sentStates, haloStates;
    std::vector<BodyCorrection> haloCorrections, sentCorrections;

    // Detection (DemDetection.cpp): writes contacts and contactSlot (read by
    // the impulse stage, which takes them over) and nearWall (read by
    // finishSubstep); the rest is its scratch and caches (faceCache and
    // nearFaces also serve push-back).
    std::vector<DemContact> contacts, wallContacts;
    std::vector<int> contactSlot;             // warm-start slot of contacts[k]
    std::vector<int> nearFaces, wallSlots;
    struct WallResult {
        int position; // in nearFaces
        int slot;
        bool carried; // the reference reused (its rim points too)
        ContactKey key;
        ContactResult result;
    };
    std::vector<WallResult> wallResults;
    std::vector<int> faceQueries, laterQueries; // positions in nearFaces, in query order
    std::vector<int> facePlaces;               // warm-start place of each near face (-1: none)
    std::vector<char> nearWall;               // a face within the bounding sphere at detection
    std::vector<int> claimedPlanes;      // planes with a face contact of the particle
    NearFaceCache faceCache;                  // wall faces near each particle, cached
    VerletPairList candidates;                // broad phase, cached between substeps

    // Impulse stage (DemImpulseStage.cpp): the active contacts and the
    // solver's view; active, activeSlot, involved, solverBodies and
    // solverContacts are read by overlap removal.
    std::vector<DemContact> active;
    std::vector<int> activeSlot;              // of active[k]
    std::vector<SolverBody> solverBodies;    // valid for the involved bodies
    std::vector<char> inContact;              // scratch of resolveImpulses
    std::vector<char> rimRow;                 // scratch of resolveImpulses: active[k] is a rim point
    SolverScratch solverScratch;              // scratch of solveSequentialImpulses
    std::vector<std::size_t> involved;        // bodies in the substep's contacts, ascending
    std::vector<SolverContact> solverContacts;

    // Overlap removal (DemIntegration.cpp): its scratch.
    // shift: every body's correction; firmShift: its part that removes
    // overlap beyond EngineSettings::paidCorrectionDepth, made paid or not
    std::vector<Vec3> shift, firmShift;
    std::vector<double> excess, correction;

    // Sleeping (Sleeping.cpp): per body its record (carried by id from step
    // to step), the island keys to wake at the next substep (an awake body
    // near or touching a sleeping one) and at the next step with their still
    // time starting again (a new force at rest, new walls), and
    // scratch. sleeping() guards every use: with sleepTime 0 nothing runs.
    std::vector<SleepRecord> sleep, sleepScratch;
    std::vector<char> asleepBody, islandFlags, bodyFlags, noSleepBody;
    std::vector<std::size_t> islandRoot;
    std::vector<double> sleepSpeedOf;
    std::vector<std::int64_t> pendingWake, freshWake, sleepKeys;
    std::vector<std::int64_t> forceWake; // of this step's freshWake: woken by a force change (sorted)
    double substepLength = 0.0;
    bool anyAsleep = false;
    bool sleeping() const { return settings.sleepTime > 0.0; }
    bool asleep(std::size_t i) const { return anyAsleep && asleepBody[i]; }
    void carrySleepState(const ParticleSystem& ps);
    void restForceOf(const ParticleSystem& ps, std::size_t particle, Vec3& f, Vec3& t) const;
    void wakeIslands(std::vector<std::int64_t>& keys, bool fresh, bool kick, double h, StepStatistics& stats);
    void wakeAll();
    void prepareSleeping(double h, StepStatistics& stats);
    void noteSleeperNear(int awake, int sleeper, bool touching);
    void noteMotion(std::size_t i);
    void linkIslands(bool first);
    void putIslandsToSleep(double dt, StepStatistics& stats);
    void recordSleep(std::vector<SleepRecord>& out) const;

    // DemOrdering.cpp
    void computeOrder(const ParticleSystem& ps);
    void carryFaceCache(std::size_t n);
    void gatherBodies(const ParticleSystem& ps, double h);
    void scatterBodies(ParticleSystem& ps, StepStatistics& stats);
    // DemHaloSync.cpp
    void setUpHalo(std::size_t n);
    void refreshHalo();
    void returnHaloCorrections();
    bool resolvesPair(int i, int j) const;
    int solverBodyOf(int i) const {
        return anyLocalImage && i >= 0 && sourceBody[static_cast<std::size_t>(i)] >= 0
                   ? static_cast<int>(sourceBody[static_cast<std::size_t>(i)])
                   : i;
    }
    // DemEngine.cpp: the stages of one substep
    void substep(double h, StepStatistics& stats, bool begun);
    // DemIntegration.cpp
    bool beginBody(std::size_t i, double h);
    void halfKick(std::size_t i, double h);
    void holdBody(std::size_t i, double h);
    void setUpDrag(std::size_t k, double h);
    void setUpTurningDrag(std::size_t i, double h);
    bool turnsWithDrag(std::size_t i) const { return hasDrag && drag[i].turnsWithBody && !held(i); }
    void rotateAll(double h);
    // DemDetection.cpp
    void detect(StepStatistics& stats);
    void detectPair(int i, int j, StepStatistics& stats);
    // A candidate pair as its narrow phase sees it: relative to the centre
    // of a, the body with the smaller id (detectPair).
    struct PairFrame {
        int a, b;
        bool ordered; // a is body i of the pair (i, j)
        ContactKey key;
        Vec3 origin; // a's position
        PairPose poseA, poseB;
        Vec3 positionA, positionB; // the bodies' centres (poses: of the detection)
    };
    PairFrame pairFrame(int i, int j) const;
    PosedBody posedBody(const PairFrame& f, int body) const; // body 0: a, 1: b
    enum class PairReuse { none, apart, contact };
    PairReuse reusePairGeometry(const PairFrame& f, const WarmStartEntry& previous, double reach, ContactResult& r,
                                int& slot, bool& carried, StepStatistics& stats);
    bool queryPair(const PairFrame& f, const WarmStartEntry* previous, double reach, ContactResult& r, int& slot,
                   StepStatistics& stats);
    double pairReach(int i, int j) const;
    void addSpeculativePairContact(const PairFrame& f, int i, int j, const ContactResult& r, int slot,
                                   StepStatistics& stats);
    void detectWalls(StepStatistics& stats);
    void queryNearFaces(std::size_t i, StepStatistics& stats);
    void addWallContacts(std::size_t i, StepStatistics& stats);
    void addSpeculativeWallContacts(std::size_t i, StepStatistics& stats, bool near = false);
    void addRimPoints(const ContactResult& r, const ContactKey& key, int i, int j, int face, bool carried,
                      StepStatistics& stats);
    // DemImpulseStage.cpp
    double resolveImpulses(double h, StepStatistics& stats);
    void selectActiveContacts();
    void setUpSolverBodies();
    void setUpSolverContacts();
    void warmStartImpulses();
    double takeSolverVelocities();
    void storeImpulses();
    void setUpKeepingCompliance(SolverContact& c, const DemContact& d, int slot);
    void setWallMotion(SolverContact& c, const DemContact& d) const;
    void addWallLoads(StepStatistics& stats) const; // the wall contacts' impulses, per patch
    // DemIntegration.cpp
    double removeOverlaps(double h);
    void projectCorrections(double tolerance);
    // active[k] is a flat-face contact: its rim points follow it
    bool hasRimPoints(std::size_t k) const { return k + 1 < active.size() && active[k + 1].rim; }
    // the smaller d_eq of a contact's bodies (a wall contact: its body's)
    double contactDiameter(const DemContact& c) const {
        return c.isWall() ? diameter[std::size_t(c.i)] : std::min(diameter[std::size_t(c.i)], diameter[std::size_t(c.j)]);
    }
    // The potential energy overlap removal added, paid from the kinetic
    // energy of each cluster of touching bodies (CorrectionEnergy.cpp)
    double payCorrectionEnergy(StepStatistics& stats); // returns the potential change of shifts taken back
    std::vector<std::size_t> clusterRoot;     // scratch of payCorrectionEnergy
    std::vector<CorrectionCluster> clusterScratch;
    double finishSubstep(double h, StepStatistics& stats);
    double pushBack(std::size_t i, StepStatistics& stats);
    double potentialChange(std::size_t i, const Vec3& displacement) const;
    void checkFinite(const char* where) const;
    [[noreturn]] void throwNonFinite(std::size_t i, const char* where) const;
};

} // namespace sef::dem
