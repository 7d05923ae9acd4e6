// The subcycled DEM step. Per substep of length h (kick-drift-kick with the
// collision stage between the first kick and the drift):
//   1. half kick: v += (g + F/m) h/2;
//   2. broad phase: cell grid of bounding spheres, cached as a Verlet list
//      (contact module);
//   3. narrow phase at the current positions: pairs (warm-started with last
//      substep's common normal, keyed by the particle ids) and wall faces near
//      each particle (wall index), duplicate wall contacts merged;
//   4. impulses: sequential impulses with accumulated, projected impulses
//      (dem/SequentialImpulseSolver.hpp), resting contacts warm-started and
//      solved with target normal velocity 0, impacts with eps_n times their
//      approach speed; or, optionally, paper 001's one partner per particle
//      (largest overlap) with one impulse each (doc/dem.md compares them);
//   5. drift with the solved velocities: x += h v, rotation by the
//      kinematics module (Euler's equations, paper 001 eqs. 13-16). A resting
//      contact, solved to u_n = 0, does not drift into penetration;
//   6. overlap removal: projected Gauss-Seidel on accumulated position
//      corrections along the normals, on the depths linearised in the drift
//      and the corrections, down to a small allowed penetration (which keeps
//      resting contacts detected from substep to substep). A position
//      projection: it never changes a velocity, and, being accumulated, it
//      takes back what it over-corrected (no lifting of particles that then
//      fall back and feed kinetic energy). In the code 6 comes before 5 (both
//      are translations and 6 works on depths linearised in 5, so the order
//      does not matter), and 5, 7, 8, 9 are one pass over the bodies;
//   7. half kick: v += (g + F/m) h/2 (free flight is exact to round-off for
//      a constant force);
//   8. push-back: a centre that left the domain through a face during the
//      substep is put back inside, touching that face, and counted;
//   9. NaN guard.
#include "dem/DemEngine.hpp"

#include "collision/CollisionParameters.hpp"
#include "collision/ImpulseResolution.hpp"
#include "contact/PairContact.hpp"
#include "contact/VerletPairList.hpp"
#include "dem/DemContact.hpp"
#include "dem/NearFaceCache.hpp"
#include "dem/PairGeometryReuse.hpp"
#include "dem/SequentialImpulseSolver.hpp"
#include "dem/WarmStartCache.hpp"
#include "dem/WallFaceContact.hpp"
#include "kinematics/LinearRelaxation.hpp"
#include "kinematics/RigidBodyIntegrator.hpp"
#include "kinematics/RigidBodyState.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <istream>
#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>

namespace sef::dem {

namespace {

CollisionParameters toCollisionParameters(const ContactLaw& law) {
    CollisionParameters p;
    p.model = collisionModelFromName(law.model);
    p.restitution = law.restitution;
    p.tangentialRestitution = law.tangentialRestitution;
    p.friction = law.friction;
    p.rollingFriction = law.rollingFriction;
    validateCollisionParameters(p);
    return p;
}

bool finiteState(const RigidBodyState& b) {
    return isFinite(b.position) && isFinite(b.velocity) && isFinite(b.angularVelocity) &&
           isFinite(b.orientation.coeffs());
}

} // namespace

struct DemEngine::Impl {
    WallSet walls;
    EngineSettings settings;
    CollisionParameters pairParameters, wallParameters;

    WarmStartCache warm;

    // scratch, reused between substeps
    std::vector<RigidBodyState> bodies;
    std::vector<int> typeOf;
    std::vector<std::int64_t> ids;
    std::vector<double> radius, diameter;
    std::vector<Vec3> force, torque, centres, shift; // centres: at the start of the substep
    // Fluid drag (ParticleSystem::fluidDrag given): the exact half-kick
    // propagators of the step (translation and rotation), the world inertia
    // they were built with, and the drag impulses accumulated over the step.
    bool hasDrag = false;
    std::vector<FluidDrag> drag;
    std::vector<RelaxationPropagator> kickT, kickR;
    std::vector<Mat3> inertiaWorld;
    std::vector<Vec3> dragImpulse, dragAngular;
    std::vector<double> excess, correction;
    std::vector<PairPose> poses; // of the bodies at detection (rotation matrix once per substep)
    std::vector<DemContact> contacts, wallContacts, active;
    std::vector<int> contactSlot;             // warm-start slot of contacts[k]
    std::vector<int> activeSlot;              // of active[k]
    std::vector<SolverBody> solverBodies;    // valid for the involved bodies
    std::vector<char> inContact;              // scratch of resolveImpulses
    std::vector<char> rimRow;                 // scratch of resolveImpulses: active[k] is a rim point
    SolverScratch solverScratch;              // scratch of solveSequentialImpulses
    std::vector<std::size_t> involved;        // bodies in the substep's contacts, ascending
    std::vector<SolverContact> solverContacts;
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

    const ParticleSystem* system = nullptr;

    // Decomposed runs (dem/HaloExchange.hpp): the exchange, which bodies are
    // halo copies, the bodies sent to / received from the neighbours, and
    // the halo copies' state as refreshed (their corrections are taken
    // against it).
    HaloExchange* exchange = nullptr;
    std::vector<char> haloBody;
    std::vector<std::size_t> sentBodies, haloBodies;
    std::vector<BodyKinematics> sentStates, haloStates;
    std::vector<BodyCorrection> haloCorrections, sentCorrections;

    double accelerationScale = 0.0;   // max_i |g + F_i/m_i| of the current step
    double restingSpeed = 0.0;        // of the current substep

    std::vector<std::size_t> order;           // order[k]: particle index of body k
    std::vector<std::size_t> bodyOf;          // its inverse: body of particle i
    std::vector<std::size_t> fromSlot;        // slot of body k in the last step's order
    std::vector<std::pair<std::uint64_t, std::size_t>> orderKeys;
    std::vector<std::uint64_t> cellKey;       // grid cell of particle i (computeOrder)
    std::vector<long> guessIndex;             // scratch of computeOrder
    bool spatiallySorted = false;             // order is the spatial one (computeOrder)

    void computeOrder(const ParticleSystem& ps);
    void setUpHalo(std::size_t n);
    void refreshHalo();
    void returnHaloCorrections();
    bool resolvesPair(int i, int j) const;
    void substep(double h, StepStatistics& stats, bool begun);
    bool beginBody(std::size_t i, double h);
    void halfKick(std::size_t i, double h);
    void setUpDrag(std::size_t k, double h);
    void rotateAll(double h);
    void detect(StepStatistics& stats);
    void addRimPoints(const ContactResult& r, const ContactKey& key, int i, int j, int face, bool carried,
                      StepStatistics& stats);
    double resolveImpulses(double h, StepStatistics& stats);
    void setUpKeepingCompliance(SolverContact& c, const DemContact& d, int slot);
    double removeOverlaps(double h);
    double finishSubstep(double h, StepStatistics& stats);
    double pushBack(std::size_t i, StepStatistics& stats);
    double potentialChange(std::size_t i, const Vec3& displacement) const;
    void checkFinite(const char* where) const;
    [[noreturn]] void throwNonFinite(std::size_t i, const char* where) const;
};

DemEngine::DemEngine(std::vector<WallFace> walls, EngineSettings settings)
    : impl_(std::make_unique<Impl>()) {
    if (settings.maxSweeps < 1)
        throw std::invalid_argument("maxSweeps: must be at least 1 (got " +
                                    std::to_string(settings.maxSweeps) + ")");
    if (settings.overlapPasses < 0)
        throw std::invalid_argument("overlapPasses: must not be negative");
    if (!(settings.allowedPenetration >= 0.0 && settings.allowedPenetration < 0.01))
        throw std::invalid_argument("allowedPenetration: must be in [0, 0.01)");
    if (!isFinite(settings.gravity)) throw std::invalid_argument("gravity: must be finite");
    impl_->pairParameters = toCollisionParameters(settings.pair);
    impl_->wallParameters = toCollisionParameters(settings.wall);
    if (settings.sweepStagnationWindow < 0)
        throw std::invalid_argument("sweepStagnationWindow: must be >= 0 (got " +
                                    std::to_string(settings.sweepStagnationWindow) + ")");
    if (!(settings.sweepTolerance > 0.0))
        throw std::invalid_argument("sweepTolerance: must be positive");
    impl_->walls = WallSet(std::move(walls));
    impl_->settings = std::move(settings);
}

DemEngine::~DemEngine() = default;
DemEngine::DemEngine(DemEngine&&) noexcept = default;
DemEngine& DemEngine::operator=(DemEngine&&) noexcept = default;

namespace {
// The version digit changes with the layout of the state: magic, entry
// count, sizeof(WarmStartEntry), the entries, sizeof(KeptCompliance), one
// kept compliance per entry, the count of kept patches,
// sizeof(IndexedPatch), the kept patches with the index of their entry
// (only a bed's flat pairs have one).
constexpr char stateMagic[8] = {'s', 'e', 'f', 'D', 'E', 'M', '4', '\0'};

// Trivially copyable PODs of Eigen fixed-size types, written as bytes.
template <class T>
void writeRecords(std::ostream& os, const std::vector<T>& records) {
    const std::uint64_t size = sizeof(T);
    os.write(reinterpret_cast<const char*>(&size), sizeof size);
    if (!records.empty())
        os.write(reinterpret_cast<const char*>(records.data()),
                 static_cast<std::streamsize>(records.size() * sizeof(T)));
}

template <class T>
std::vector<T> readRecords(std::istream& is, std::uint64_t count) {
    std::uint64_t size = 0;
    is.read(reinterpret_cast<char*>(&size), sizeof size);
    if (!is) throw std::runtime_error("DemEngine::readState: truncated state");
    if (size != sizeof(T) || count > (std::uint64_t{1} << 40))
        throw std::runtime_error("DemEngine::readState: state written by an incompatible build");
    std::vector<T> records(count);
    if (count) is.read(reinterpret_cast<char*>(records.data()), static_cast<std::streamsize>(count * size));
    if (!is) throw std::runtime_error("DemEngine::readState: truncated state");
    return records;
}
} // namespace

namespace {
struct IndexedPatch {
    std::uint64_t entry;
    KeptPatch patch;
};

void writeEntries(std::ostream& os, const std::vector<WarmStartEntry>& entries,
                  const std::vector<KeptCompliance>& compliances, const std::vector<KeptPatch>& patches) {
    const std::uint64_t count = entries.size();
    os.write(stateMagic, sizeof stateMagic);
    os.write(reinterpret_cast<const char*>(&count), sizeof count);
    writeRecords(os, entries);
    writeRecords(os, compliances);
    std::vector<IndexedPatch> kept;
    for (std::size_t k = 0; k < patches.size(); ++k)
        if (patches[k].valid) kept.push_back(IndexedPatch{k, patches[k]});
    const std::uint64_t keptCount = kept.size();
    os.write(reinterpret_cast<const char*>(&keptCount), sizeof keptCount);
    writeRecords(os, kept);
    if (!os) throw std::runtime_error("DemEngine::writeState: write failed");
}
} // namespace

void DemEngine::writeState(std::ostream& os) const {
    writeEntries(os, impl_->warm.entries(), impl_->warm.compliances(), impl_->warm.patches());
}

void DemEngine::extractState(const std::function<bool(std::int64_t)>& owned, std::ostream& os) const {
    std::vector<WarmStartEntry> moved;
    std::vector<KeptCompliance> movedCompliances;
    std::vector<KeptPatch> movedPatches;
    impl_->warm.collect([&owned](std::int64_t id) { return !owned(id); }, moved, movedCompliances, movedPatches);
    writeEntries(os, moved, movedCompliances, movedPatches);
}

void DemEngine::mergeState(std::istream& is, const std::function<bool(std::int64_t)>& owned) {
    DemEngine received({}, EngineSettings{});
    received.readState(is);
    std::vector<WarmStartEntry> entries;
    std::vector<KeptCompliance> compliances;
    std::vector<KeptPatch> patches;
    received.impl_->warm.collect(owned, entries, compliances, patches);
    impl_->warm.adopt(entries, compliances, patches);
}

void DemEngine::readState(std::istream& is) {
    char magic[sizeof stateMagic] = {};
    std::uint64_t count = 0;
    is.read(magic, sizeof magic);
    is.read(reinterpret_cast<char*>(&count), sizeof count);
    if (is && std::memcmp(magic, stateMagic, 6) == 0 && magic[6] != stateMagic[6])
        throw std::runtime_error("DemEngine::readState: state written by another version of the "
                                 "engine (delete it to restart with cold contact warm starts)");
    if (!is || std::memcmp(magic, stateMagic, sizeof magic) != 0)
        throw std::runtime_error("DemEngine::readState: not a DEM engine state");
    std::vector<WarmStartEntry> entries = readRecords<WarmStartEntry>(is, count);
    std::vector<KeptCompliance> compliances = readRecords<KeptCompliance>(is, count);
    std::uint64_t keptCount = 0;
    is.read(reinterpret_cast<char*>(&keptCount), sizeof keptCount);
    if (!is || keptCount > count) throw std::runtime_error("DemEngine::readState: corrupt state");
    std::vector<KeptPatch> patches(count);
    for (const IndexedPatch& k : readRecords<IndexedPatch>(is, keptCount)) {
        if (k.entry >= count) throw std::runtime_error("DemEngine::readState: corrupt state");
        patches[k.entry] = k.patch;
    }
    impl_->warm.setEntries(std::move(entries), std::move(compliances), patches);
}

const EngineSettings& DemEngine::settings() const { return impl_->settings; }
const WallSet& DemEngine::walls() const { return impl_->walls; }

StepStatistics DemEngine::step(ParticleSystem& ps, double dt, int nSubcycles, HaloExchange* halo) {
    if (!(std::isfinite(dt) && dt > 0.0))
        throw std::invalid_argument("DemEngine::step: dt must be positive (got " +
                                    std::to_string(dt) + ")");
    if (nSubcycles < 1)
        throw std::invalid_argument("DemEngine::step: nSubcycles must be at least 1 (got " +
                                    std::to_string(nSubcycles) + ")");
    Impl& m = *impl_;
    const std::size_t n = ps.size();
    m.system = &ps;
    m.exchange = halo;
    if (halo && halo->firstHalo() > n)
        throw std::invalid_argument("DemEngine::step: firstHalo beyond the particles");
    m.hasDrag = !ps.fluidDrag.empty();
    if (m.hasDrag && ps.fluidDrag.size() != n)
        throw std::invalid_argument("DemEngine::step: fluidDrag must be empty or have one entry per particle (" +
                                    std::to_string(ps.fluidDrag.size()) + " for " + std::to_string(n) + ")");

    // Gather into rigid-body states once per call (scatter at the end), in
    // spatial order for large systems (computeOrder).
    m.computeOrder(ps);
    // The wall-face cache is kept per body slot (read in slot order): carry
    // its entries to the slots their particles moved to. In a large falling
    // system a particle crossing a cell layer shifts the slots of a whole
    // layer, every step; without this every particle missed its entry.
    if (m.bodyOf.size() == n && n > 0) {
        m.fromSlot.resize(n);
        bool moved = false;
        for (std::size_t k = 0; k < n; ++k) {
            m.fromSlot[k] = m.bodyOf[m.order[k]];
            moved = moved || m.fromSlot[k] != k;
        }
        if (moved) m.faceCache.permute(m.fromSlot);
    }
    m.bodies.resize(n);
    m.typeOf.resize(n);
    m.ids.resize(n);
    m.radius.resize(n);
    m.diameter.resize(n);
    m.force.resize(n);
    m.torque.resize(n);
    if (m.hasDrag) {
        for (auto* v : {&m.kickT, &m.kickR}) v->resize(n);
        for (auto* v : {&m.dragImpulse, &m.dragAngular}) v->assign(n, Vec3::Zero());
        m.drag.resize(n);
        m.inertiaWorld.resize(n);
    }
    std::vector<double> typeDiameter(ps.types.size());
    for (std::size_t t = 0; t < ps.types.size(); ++t)
        typeDiameter[t] = ps.types[t].shape.equivalentDiameter();
    // Read the particle arrays in their own order and write each body to its
    // place (bodyOf, the inverse of order): scattered stores wait on nothing,
    // scattered loads from ten arrays did (1e5 falling particles: a third of
    // the step's own time, perf). With reorderParticles both orders are
    // nearly the same and this streams.
    // The same pass begins the first substep (Impl::beginBody).
    m.bodyOf.resize(n);
    for (std::size_t k = 0; k < n; ++k) m.bodyOf[m.order[k]] = k;
    m.centres.resize(n);
    m.poses.resize(n);
    const double h = dt / nSubcycles;
    m.accelerationScale = 0.0;
    bool finite = true;
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t k = m.bodyOf[i];
        const ParticleType& type = ps.types.at(static_cast<std::size_t>(ps.type[i]));
        RigidBodyState& b = m.bodies[k];
        b.position = ps.position[i];
        b.orientation = ps.orientation[i];
        b.velocity = ps.velocity[i];
        b.angularVelocity = ps.angularVelocity[i];
        b.mass = type.mass;
        b.principalInertia = type.principalInertia;
        m.typeOf[k] = ps.type[i];
        m.ids[k] = ps.id[i];
        if (!finiteState(b)) m.throwNonFinite(k, "at the start of the step");
        m.radius[k] = type.boundingRadius;
        m.diameter[k] = typeDiameter[static_cast<std::size_t>(ps.type[i])];
        const Vec3& f = m.force[k] = ps.externalForce[i];
        m.torque[k] = ps.externalTorque[i];
        if (!isFinite(f) || !isFinite(m.torque[k]))
            throw std::runtime_error("DEM step: external force or torque of particle id " +
                                     std::to_string(ps.id[i]) + " is not finite");
        m.accelerationScale = std::max(m.accelerationScale, (m.settings.gravity + f / type.mass).norm());
        if (m.hasDrag) {
            m.drag[k] = ps.fluidDrag[i];
            m.setUpDrag(k, h);
        }
        finite = m.beginBody(k, h) && finite;
    }
    if (!finite) m.checkFinite("after integration"); // names the particle
    m.setUpHalo(n);

    StepStatistics stats;
    for (int s = 0; s < nSubcycles; ++s) m.substep(h, stats, s == 0);

    // (halo copies are not reordered: the caller finds them at the end)
    const bool reorder = m.settings.reorderParticles && m.spatiallySorted && !halo;
    for (std::size_t k = 0; k < n; ++k) {
        const RigidBodyState& b = m.bodies[k];
        const std::size_t i = reorder ? k : m.order[k];
        ps.position[i] = b.position;
        ps.orientation[i] = b.orientation;
        ps.velocity[i] = b.velocity;
        ps.angularVelocity[i] = b.angularVelocity;
        if (!(halo && m.haloBody[k])) stats.kineticEnergy += b.kineticEnergy();
    }
    if (m.hasDrag) {
        ps.dragImpulse.resize(n);
        ps.dragAngularImpulse.resize(n);
        for (std::size_t k = 0; k < n; ++k) {
            const std::size_t i = reorder ? k : m.order[k];
            ps.dragImpulse[i] = m.dragImpulse[k];
            ps.dragAngularImpulse[i] = m.dragAngular[k];
        }
    }
    if (reorder) {
        // the rest of the particle arrays in body order; body k is particle k
        // (swapped: the engine's copies are rewritten by the next gather)
        ps.type.swap(m.typeOf);
        ps.id.swap(m.ids);
        ps.externalForce.swap(m.force);
        ps.externalTorque.swap(m.torque);
        if (m.hasDrag) ps.fluidDrag.swap(m.drag);
        for (std::size_t k = 0; k < n; ++k) m.order[k] = m.bodyOf[k] = k;
    }
    m.system = nullptr;
    m.exchange = nullptr;
    return stats;
}

// Which bodies are halo copies, and the body of every sent and received
// particle. The scales of the substep (resting speed, sweep tolerance) come
// from the largest acceleration of ALL processors, so every side classifies
// a contact as serial would.
void DemEngine::Impl::setUpHalo(std::size_t n) {
    haloBody.assign(n, 0);
    sentBodies.clear();
    haloBodies.clear();
    if (!exchange) return;
    for (std::size_t i = exchange->firstHalo(); i < n; ++i) {
        haloBody[bodyOf[i]] = 1;
        haloBodies.push_back(bodyOf[i]);
    }
    for (const std::size_t i : exchange->sentParticles()) {
        if (i >= exchange->firstHalo())
            throw std::invalid_argument("DemEngine::step: a halo particle is listed as sent");
        sentBodies.push_back(bodyOf[i]);
    }
    accelerationScale = exchange->maximum(accelerationScale);
}

// The halo copies take their owners' state of the start of the substep
// (after the first half kick), with the centres and poses of the detection.
void DemEngine::Impl::refreshHalo() {
    if (!exchange) return;
    sentStates.resize(sentBodies.size());
    for (std::size_t k = 0; k < sentBodies.size(); ++k) {
        const RigidBodyState& b = bodies[sentBodies[k]];
        sentStates[k] = BodyKinematics{b.position, b.orientation, b.velocity, b.angularVelocity};
    }
    haloStates.resize(haloBodies.size());
    exchange->exchangeStates(sentStates, haloStates);
    for (std::size_t h = 0; h < haloBodies.size(); ++h) {
        const std::size_t k = haloBodies[h];
        RigidBodyState& b = bodies[k];
        const BodyKinematics& s = haloStates[h];
        b.position = s.position;
        b.orientation = s.orientation;
        b.velocity = s.velocity;
        b.angularVelocity = s.angularVelocity;
        if (!finiteState(b)) throwNonFinite(k, "as received from its owner");
        centres[k] = b.position;
        poses[k] = PairPose{b.position, b.orientation.toRotationMatrix(), b.orientation};
    }
}

// What the impulses and the overlap removal did to the halo copies goes to
// their owners; what the neighbours did to this processor's particles is
// added to them (before the drift).
void DemEngine::Impl::returnHaloCorrections() {
    if (!exchange) return;
    haloCorrections.resize(haloBodies.size());
    for (std::size_t h = 0; h < haloBodies.size(); ++h) {
        const RigidBodyState& b = bodies[haloBodies[h]];
        const BodyKinematics& s = haloStates[h];
        haloCorrections[h] = BodyCorrection{b.velocity - s.velocity, b.angularVelocity - s.angularVelocity,
                                            b.position - s.position};
    }
    sentCorrections.resize(sentBodies.size());
    exchange->exchangeCorrections(haloCorrections, sentCorrections);
    for (std::size_t k = 0; k < sentBodies.size(); ++k) {
        const BodyCorrection& c = sentCorrections[k];
        if (c.velocity.isZero(0.0) && c.angularVelocity.isZero(0.0) && c.shift.isZero(0.0)) continue;
        RigidBodyState& b = bodies[sentBodies[k]];
        b.velocity += c.velocity;
        b.angularVelocity += c.angularVelocity;
        b.position += c.shift;
    }
}

// Whether this processor resolves the contact of bodies i and j
// (dem/HaloExchange.hpp): both owned, or the smaller id owned.
bool DemEngine::Impl::resolvesPair(int i, int j) const {
    if (!exchange) return true;
    const bool haloI = haloBody[static_cast<std::size_t>(i)], haloJ = haloBody[static_cast<std::size_t>(j)];
    if (haloI == haloJ) return !haloI;
    return ids[static_cast<std::size_t>(i)] < ids[static_cast<std::size_t>(j)] ? !haloI : !haloJ;
}

// Memory order of the bodies. Particles injected at random sit in random
// spatial order, and the candidate-pair loop then jumps through memory: the
// detection loop's own time grew 19.5x for 10x the particles (1e3 -> 1e4,
// benchmarks/README.md). Large systems are therefore processed sorted by
// grid cell (x fastest, cells of twice the largest bounding radius),
// recomputed from the positions at every call, so the order is no hidden
// state (restarts continue exactly). Small systems keep the particle order:
// they fit in cache, and their results stay bit-for-bit what they were.
void DemEngine::Impl::computeOrder(const ParticleSystem& ps) {
    const std::size_t n = ps.size();
    bool hadOrder = order.size() == n && n > 0; // the last call's order, as a first guess
    const long threshold = settings.spatialSortThreshold;
    spatiallySorted = !(threshold <= 0 || n < static_cast<std::size_t>(threshold));
    if (!spatiallySorted) {
        order.resize(n);
        for (std::size_t i = 0; i < n; ++i) order[i] = i;
        return;
    }
    // The last call's order names particles by index. When the particles
    // changed (a decomposed run: some left, some arrived, the halo changed),
    // the guess is that order followed through the ids (ids: the last
    // call's, by body), the new particles after it: still a permutation,
    // and nearly sorted, where a guess by index would need a full sort.
    bool sameParticles = hadOrder && ids.size() == n;
    for (std::size_t k = 0; sameParticles && k < n; ++k) sameParticles = ps.id[order[k]] == ids[k];
    if (!sameParticles && !ids.empty() && n > 0) {
        std::int64_t largest = -1;
        for (const std::int64_t id : ps.id) largest = std::max(largest, id);
        for (const std::int64_t id : ids) largest = std::max(largest, id);
        if (largest < static_cast<std::int64_t>(8 * n + 1024)) { // compact ids (the usual case)
            std::vector<long>& indexOfId = guessIndex;
            indexOfId.assign(static_cast<std::size_t>(largest + 1), -1);
            for (std::size_t i = 0; i < n; ++i)
                if (ps.id[i] >= 0) indexOfId[static_cast<std::size_t>(ps.id[i])] = static_cast<long>(i);
            order.clear();
            for (const std::int64_t id : ids) {
                if (id < 0) continue;
                long& i = indexOfId[static_cast<std::size_t>(id)];
                if (i >= 0) order.push_back(static_cast<std::size_t>(i));
                i = -1; // taken (a repeated id is taken once)
            }
            for (std::size_t i = 0; i < n; ++i)
                if (ps.id[i] < 0 || indexOfId[static_cast<std::size_t>(ps.id[i])] >= 0) order.push_back(i);
            hadOrder = order.size() == n;
        } else {
            hadOrder = false;
        }
    }
    if (!hadOrder) {
        order.resize(n);
        for (std::size_t i = 0; i < n; ++i) order[i] = i;
    }
    double largest = 0.0;
    for (const ParticleType& type : ps.types) largest = std::max(largest, type.boundingRadius);
    const double cell = 2.0 * largest;
    Vec3 lo = ps.position[0], hi = ps.position[0];
    for (const Vec3& x : ps.position) {
        lo = lo.cwiseMin(x);
        hi = hi.cwiseMax(x);
    }
    const auto cells = [&](double extent) {
        return static_cast<std::uint64_t>(std::min(extent / cell, 2.0e6)) + 1;
    };
    const std::uint64_t nx = cells(hi.x() - lo.x()), ny = cells(hi.y() - lo.y());
    // Keys listed in the last call's order: between steps only a few
    // particles change cell, so an insertion sort finishes in O(n); past a
    // budget of moves (a first call, a shaken system) a full sort. The keys
    // (cell, index) are unique, so both give the same order.
    // (cells computed in particle order: the positions are read in sequence)
    cellKey.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const Vec3 c = ((ps.position[i] - lo) / cell).cwiseMin(2.0e6);
        const auto ix = static_cast<std::uint64_t>(c.x()), iy = static_cast<std::uint64_t>(c.y()),
                   iz = static_cast<std::uint64_t>(c.z());
        cellKey[i] = (iz * ny + iy) * nx + ix;
    }
    orderKeys.resize(n);
    for (std::size_t k = 0; k < n; ++k) orderKeys[k] = {cellKey[order[k]], order[k]};
    std::size_t budget = hadOrder ? 8 * n : 0;
    bool sorted = hadOrder;
    for (std::size_t k = 1; k < n && sorted; ++k) {
        const auto key = orderKeys[k];
        std::size_t m = k;
        for (; m > 0 && key < orderKeys[m - 1]; --m) {
            orderKeys[m] = orderKeys[m - 1];
            if (budget-- == 0) {
                sorted = false;
                break;
            }
        }
        orderKeys[m] = key;
    }
    if (!sorted) std::sort(orderKeys.begin(), orderKeys.end());
    for (std::size_t k = 0; k < n; ++k) order[k] = orderKeys[k].second;
}

// begun: the bodies' part of the substep's start (beginBody) is done (the
// first substep of a step: by the gather).
void DemEngine::Impl::substep(double h, StepStatistics& stats, bool begun) {
    restingSpeed = settings.restingSpeed >= 0.0 ? settings.restingSpeed : 4.0 * accelerationScale * h;
    // One pass over the bodies for the start of the substep (in a large
    // system each pass over every body's memory costs about as much as the
    // work in it). Positions and orientations were checked at the end of the
    // last substep (or the start of the step).
    if (!begun) {
        bool finite = true;
        for (std::size_t i = 0; i < bodies.size(); ++i) finite = beginBody(i, h) && finite;
        if (!finite) checkFinite("after integration"); // names the particle
    }
    refreshHalo();
    detect(stats);
    stats.impulseEnergyChange += resolveImpulses(h, stats);
    // Overlap removal works on the depths linearised in the drift, so its
    // shifts go on before the drift itself, which is done with the second
    // half kick, push-back and the check in one pass.
    double potential = removeOverlaps(h);
    returnHaloCorrections();
    potential += finishSubstep(h, stats);
    stats.projectionPotentialChange += potential;
}

// The start of a substep for body i: half kick, and the centre and pose of
// the detection (the centre is also the start of the substep, for
// push-back). Returns whether the velocity is still finite.
bool DemEngine::Impl::beginBody(std::size_t i, double h) {
    halfKick(i, h);
    const RigidBodyState& b = bodies[i];
    centres[i] = b.position;
    poses[i] = PairPose{b.position, b.orientation.toRotationMatrix(), b.orientation};
    return isFinite(b.velocity);
}

void DemEngine::Impl::halfKick(std::size_t i, double h) {
    RigidBodyState& b = bodies[i];
    if (!hasDrag) {
        b.velocity += (0.5 * h) * (settings.gravity + force[i] / b.mass);
        return;
    }
    // Exact half kick with the fluid drag (setUpDrag); the drag's share of
    // the change is what the fluid gives: the change less gravity's and the
    // external force's impulses.
    const Vec3 v = kickT[i].apply(b.velocity);
    dragImpulse[i] += b.mass * (v - b.velocity) - (0.5 * h) * (b.mass * settings.gravity + force[i]);
    b.velocity = v;
    // Rotational drag relaxes omega toward the flow's torque-free rate; the
    // external torque and the free rotation stay in the drift (Strang).
    const Vec3 w = kickR[i].apply(b.angularVelocity);
    dragAngular[i] += inertiaWorld[i] * (w - b.angularVelocity);
    b.angularVelocity = w;
}

// The exact propagators of the half kicks over h/2 with the fluid drag of
// body k (kinematics/LinearRelaxation.hpp), coefficients held at the start of
// the step: M dv/dt = m g + F + D (u - v) and I_w dw/dt = R (w_f - w).
void DemEngine::Impl::setUpDrag(std::size_t k, double h) {
    const RigidBodyState& b = bodies[k];
    const FluidDrag& d = drag[k];
    try {
        kickT[k] = relaxationPropagator(Mat3::Identity(), Vec3::Constant(b.mass), d.translation, d.fluidVelocity,
                                        b.mass * settings.gravity + force[k], 0.5 * h);
        const Mat3 R = b.orientation.toRotationMatrix();
        kickR[k] = relaxationPropagator(R, b.principalInertia, d.rotation, d.fluidRotationRate, Vec3::Zero(), 0.5 * h);
        inertiaWorld[k] = R * b.principalInertia.asDiagonal() * R.transpose();
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("DEM step: fluid drag of particle id " + std::to_string(ids[k]) + ": " + e.what());
    }
}

// The rotation of the drift for every body: Euler's equations by the
// kinematics module (paper 001, eqs. 13-16), kRotationLanes bodies at a time
// (advanceRotations; the same bits as one by one). A body at rest without
// torque stays as it is.
void DemEngine::Impl::rotateAll(double h) {
    RigidBodyState* batch[kRotationLanes];
    const Vec3* batchTorque[kRotationLanes];
    int count = 0;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        RigidBodyState& b = bodies[i];
        if (b.angularVelocity.isZero(0.0) && torque[i].isZero(0.0)) continue;
        batch[count] = &b;
        batchTorque[count] = &torque[i];
        if (++count == kRotationLanes) {
            advanceRotations(batch, batchTorque, count, h);
            count = 0;
        }
    }
    if (count > 0) advanceRotations(batch, batchTorque, count, h);
}

// Pairs apart along their last exact normal by more than this times the
// smaller bounding radius skip the exact query (separatedAlongReference):
// rounding only, any gap along one axis proves the pair apart. (It was
// 1e-2, leaving the exact query to pairs about to touch; in the cube-like
// tutorial bed those were 54 exact queries per substep at 1.5 s, nearly
// all stopping on their warm normal, and ~6 % of the time; issue 21.)
constexpr double kSeparatingAxisMargin = 1e-9;

void DemEngine::Impl::detect(StepStatistics& stats) {
    const ParticleSystem& ps = *system;
    const std::size_t n = bodies.size();
    contacts.clear();

    // Pairs: cell grid of bounding spheres, then the narrow phase (centres
    // and poses: substep()).
    contactSlot.clear();
    candidates.forEachCandidatePair(centres, radius, ids, [&](int i, int j) {
        if (!resolvesPair(i, j)) return; // another processor's
        ++stats.candidatePairs;
        const bool ordered = ids[i] < ids[j];
        const int a = ordered ? i : j, b = ordered ? j : i; // a: smaller id
        const ContactKey key = ContactKey::pair(ids[i], ids[j]);
        const PairPose& poseA = poses[static_cast<std::size_t>(a)];
        const PairPose& poseB = poses[static_cast<std::size_t>(b)];
        const WarmStartEntry* previous = warm.find(key);
        if (previous && previous->separation > 0.0) {
            // apart by a bounding volume at the last query: still apart?
            if (pairStillSeparated(*previous, poseA, poseB, radius[b])) {
                ++stats.reusedPairs;
                warm.recordCarried(*previous, previous->normal);
                return;
            }
            previous = nullptr; // a bound, not a contact: query afresh
        }
        ContactResult r; // normal from a to b
        int slot;
        bool carried = false;
        if (previous && apartWithinMotionBound(*previous, poseA, poseB, radius[b],
                                               kSeparatingAxisMargin * std::min(radius[a], radius[b]))) {
            // apart along the last exact normal (PairGeometryReuse.hpp);
            // first: most candidate pairs of a bed, and the answer the reuse
            // below would give them (no contact) at a third of its work
            ++stats.reusedPairs;
            warm.recordCarried(*previous, previous->normal); // keeps the reference
            return;
        } else if (previous && settings.contactReuseTolerance > 0.0 &&
            reusePairReference(*previous, poseA, poseB, settings.contactReuseTolerance,
                               settings.flatContactReuseTolerance, std::min(radius[a], radius[b]), r,
                               settings.flatContactReuseTranslation)) {
            ++stats.reusedPairs;
            carried = true;
            slot = warm.recordCarried(*previous, r.normal); // keeps the reference
        } else if (const KeptPatch* keptPatch = previous && previous->flatReference &&
                                                        settings.contactReuseTolerance > 0.0
                                                    ? warm.keptPatch(previous)
                                                    : nullptr;
                   keptPatch != nullptr &&
                   reuseKeptPatch(*previous, *keptPatch, poseA, poseB,
                                  PosedBody(ps.types[typeOf[a]].shape, Pose{bodies[a].position, bodies[a].orientation}),
                                  PosedBody(ps.types[typeOf[b]].shape, Pose{bodies[b].position, bodies[b].orientation}),
                                  settings.flatContactReuseTolerance, settings.flatPatchSlideTolerance,
                                  std::min(radius[a], radius[b]), r)) {
            // a slide or spin of flat faces: the kept outlines re-intersected
            // (PairGeometryReuse.hpp), and the answer the new reference
            // (the flat gate above reuses it while the pair moves less than
            // its tolerance; the outlines stay with their own pose). Its
            // rim points are new points.
            ++stats.reusedPairs;
            slot = warm.recordCarried(*previous, r.normal);
            storePairReference(warm.slot(slot), poseA, poseB, r);
            warm.compliance(slot).valid = false; // its point moved in A's frame
        } else if (previous && previous->hasReference && previous->referenceDepth < 0.0 &&
                   separatedAlongReference(
                       *previous,
                       PosedBody(ps.types[typeOf[a]].shape, Pose{bodies[a].position, bodies[a].orientation}),
                       PosedBody(ps.types[typeOf[b]].shape, Pose{bodies[b].position, bodies[b].orientation}),
                       kSeparatingAxisMargin * std::min(radius[a], radius[b]), r)) {
            // apart along the last exact normal, with the reference moved
            // to now (the motion bound above then holds for a while), and
            // that axis the warm-start normal: when the pair closes, Newton
            // starts from the last axis that separated it, not from the
            // older normal of its last exact query (fewer fallbacks: 180 ->
            // 164 in 0.03 s of the rocking cube bed)
            ++stats.reusedPairs;
            refreshApartReference(warm.slot(warm.recordCarried(*previous, r.normal)), poseA, poseB, r);
            return;
        } else {
            // (a zero normal: cold, but the patch guesses still come out)
            PatchGuess patchGuess = previous ? previous->patchGuess : PatchGuess{};
            KeptPatch kept;
            PairWarmStart warmStart{previous ? previous->normal : Vec3::Zero(), &patchGuess, &kept};
            if (previous && previous->hasReference && previous->flatReference)
                warmStart.normal = flatPatchWarmNormal(
                    *previous,
                    PosedBody(ps.types[typeOf[a]].shape, Pose{bodies[a].position, bodies[a].orientation}),
                    PosedBody(ps.types[typeOf[b]].shape, Pose{bodies[b].position, bodies[b].orientation}));
            r = detectPairContact(ps.types[typeOf[a]].shape, Pose{bodies[a].position, bodies[a].orientation},
                                  ps.types[typeOf[b]].shape, Pose{bodies[b].position, bodies[b].orientation},
                                  &warmStart);
            stats.newtonIterations += r.iterations;
            if (r.status == ContactStatus::fallback) ++stats.fallbacks;
            if (r.status == ContactStatus::boundingSphere || r.status == ContactStatus::orientedBox) {
                if (r.depth < 0.0) { // remember the bound (pairStillSeparated)
                    WarmStartEntry entry;
                    entry.key = key;
                    entry.normal = r.normal;
                    storeSeparatedPair(entry, poseA, poseB, -r.depth);
                    warm.record(entry);
                }
                return;
            }
            WarmStartEntry entry;
            entry.key = key;
            storePairReference(entry, poseA, poseB, r);
            entry.normal = r.normal;
            entry.patchGuess = patchGuess;
            slot = warm.record(entry);
            if (kept.valid) warm.keepPatch(slot, kept);
        }
        if (!ordered) r.normal = -r.normal;
        if (!r.contact || !(r.depth > 0.0)) return;
        contacts.push_back(DemContact{i, j, -1, r.point, r.normal, r.depth});
        contactSlot.push_back(slot);
        ++stats.pairContacts;
        stats.maxOverlapOverDeq =
            std::max(stats.maxOverlapOverDeq, r.depth / std::min(diameter[i], diameter[j]));
        addRimPoints(r, key, i, j, -1, carried, stats);
    });

    // Walls: faces within the bounding sphere of each particle. A particle
    // on a floor of many coplanar faces reaches several of them, and all
    // but the one that claims its deepest point answer "no contact" (the
    // exact query, every substep). So the faces that held its face contact
    // in the last substep are queried first, and an interior face
    // (WallSet::interiorFace) of a plane that has given a face contact is
    // skipped: its answer is "no contact" without asking. Contacts are then
    // taken in face order, as if every face had been queried.
    nearWall.resize(n);
    for (std::size_t i = 0; i < n && !walls.empty(); ++i) {
        nearFaces.clear();
        // (most bodies; a halo copy's walls are its owner's)
        if ((exchange && haloBody[i]) || walls.noFaceWithin(centres[i], radius[i])) {
            nearWall[i] = 0;
            continue;
        }
        faceCache.facesNear(walls, i, ids[i], radius[i], centres[i], radius[i], nearFaces);
        nearWall[i] = !nearFaces.empty();
        if (nearFaces.empty()) continue;
        wallResults.clear();
        faceQueries.clear();
        laterQueries.clear();
        facePlaces.clear();
        for (std::size_t k = 0; k < nearFaces.size(); ++k) {
            const WarmStartEntry* e = warm.find(ContactKey::wall(ids[i], nearFaces[k]));
            facePlaces.push_back(warm.placeOf(e));
            (e && e->hasReference ? faceQueries : laterQueries).push_back(static_cast<int>(k));
        }
        faceQueries.insert(faceQueries.end(), laterQueries.begin(), laterQueries.end());
        claimedPlanes.clear();
        const Pose pose{poses[i].position, poses[i].orientation};
        const PairPose& particlePose = poses[i];
        for (const int position : faceQueries) {
            const int f = nearFaces[static_cast<std::size_t>(position)];
            const std::size_t face = static_cast<std::size_t>(f);
            if (walls.interiorFace(face) &&
                std::find(claimedPlanes.begin(), claimedPlanes.end(), walls.planeOf(face)) != claimedPlanes.end())
                continue;
            const ContactKey key = ContactKey::wall(ids[i], f);
            // (by its place: a record may move the cache's entries)
            const WarmStartEntry* e = warm.atPlace(facePlaces[static_cast<std::size_t>(position)]);
            ContactResult r;
            int slot;
            bool carried = false;
            if (e && settings.contactReuseTolerance > 0.0 &&
                reuseWallReference(*e, particlePose, settings.contactReuseTolerance,
                                   settings.flatContactReuseTolerance, radius[i], r,
                                   settings.flatContactReuseTranslation)) {
                ++stats.reusedWalls;
                carried = true;
                slot = warm.recordCarried(*e, r.normal); // keeps the reference
            } else if (const KeptPatch* keptPatch = e && e->flatReference && settings.contactReuseTolerance > 0.0
                                                        ? warm.keptPatch(e)
                                                        : nullptr;
                       keptPatch != nullptr &&
                       reuseKeptWallPatch(*e, *keptPatch, particlePose, ps.types[typeOf[i]].shape, walls, f,
                                          settings.flatContactReuseTolerance, settings.flatPatchSlideTolerance,
                                          radius[i], r)) {
                // a slide or spin on a face: as for pairs (above)
                ++stats.reusedWalls;
                slot = warm.recordCarried(*e, r.normal);
                storeWallReference(warm.slot(slot), particlePose, r);
                warm.compliance(slot).valid = false;
            } else {
                PatchGuess patchGuess = e ? e->patchGuess : PatchGuess{};
                KeptPatch kept;
                r = detectFaceContact(ps.types[typeOf[i]].shape, pose, walls, f, e ? &e->normal : nullptr,
                                      &patchGuess, &kept);
                stats.newtonIterations += r.iterations;
                if (r.status == ContactStatus::fallback) ++stats.fallbacks;
                if (r.status == ContactStatus::boundingSphere || r.status == ContactStatus::orientedBox)
                    continue;
                WarmStartEntry entry;
                entry.key = key;
                storeWallReference(entry, particlePose, r);
                entry.normal = r.normal;
                entry.patchGuess = patchGuess;
                slot = warm.record(entry, e);
                if (kept.valid) warm.keepPatch(slot, kept);
            }
            if (!r.contact || !(r.depth > 0.0)) continue;
            if (r.feature == WallFeature::face) claimedPlanes.push_back(walls.planeOf(face));
            wallResults.push_back({position, slot, carried, key, r});
        }
        if (wallResults.empty()) continue;
        std::sort(wallResults.begin(), wallResults.end(),
                  [](const WallResult& a, const WallResult& b) { return a.position < b.position; });
        wallContacts.clear();
        wallSlots.clear();
        for (std::size_t k = 0; k < wallResults.size(); ++k) {
            const ContactResult& r = wallResults[k].result;
            // contact module: normal from the wall into the domain; the
            // collision module wants it from the particle into the wall.
            wallContacts.push_back(DemContact{static_cast<int>(i), -1,
                                              nearFaces[static_cast<std::size_t>(wallResults[k].position)],
                                              r.surfacePoint2, Vec3(-r.normal), r.depth});
            // parallel to wallContacts through the merge: index of its result
            wallSlots.push_back(static_cast<int>(k));
        }
        mergeDuplicateWallContacts(wallContacts, wallSlots);
        for (std::size_t k = 0; k < wallContacts.size(); ++k) {
            const DemContact& c = wallContacts[k];
            const WallResult& w = wallResults[static_cast<std::size_t>(wallSlots[k])];
            contacts.push_back(c);
            contactSlot.push_back(w.slot);
            ++stats.wallContacts;
            stats.maxOverlapOverDeq = std::max(stats.maxOverlapOverDeq, c.depth / diameter[i]);
            addRimPoints(w.result, w.key, static_cast<int>(i), -1, c.face, w.carried, stats);
        }
    }
    stats.contacts = stats.pairContacts + stats.wallContacts;
}

// Rim points of a flat-face contact (contact/ContactPatch.hpp) become
// velocity constraints with the contact's normal, each with its own warm
// start (key part 1..kRimPoints). Of a carried contact (its narrow-phase
// reference reused) the rim points are the last ones, fixed in the same
// body frame: their entries are carried too, and with them their kept
// compliance (setUpKeepingCompliance), as the contact's own.
void DemEngine::Impl::addRimPoints(const ContactResult& r, const ContactKey& key, int i, int j,
                                   int face, bool carried, StepStatistics& stats) {
    if (!settings.patchRimPoints || settings.onePartnerPerStep) return;
    const Vec3 normal = contacts.back().normal; // as the solver wants it
    for (int k = 0; k < r.rimCount; ++k) {
        contacts.push_back(DemContact{i, j, face, r.rim[static_cast<std::size_t>(k)], normal, 0.0, true});
        const ContactKey rimKey = key.rimPoint(k);
        const WarmStartEntry* previous = carried ? warm.find(rimKey) : nullptr;
        if (previous) {
            contactSlot.push_back(warm.recordCarried(*previous, normal));
        } else {
            WarmStartEntry entry;
            entry.key = rimKey;
            entry.normal = normal;
            contactSlot.push_back(warm.record(entry));
        }
        ++stats.rimPoints;
    }
}

// Returns the kinetic energy change by the impulses (summed over the bodies
// whose velocity they changed; the others contribute exactly zero).
double DemEngine::Impl::resolveImpulses(double h, StepStatistics& stats) {
    double kinetic = 0.0;
    if (settings.onePartnerPerStep) {
        const std::vector<std::size_t> chosen = selectOnePartnerPerParticle(contacts, bodies.size(), true);
        active.clear();
        activeSlot.clear();
        for (std::size_t k : chosen) {
            active.push_back(contacts[k]);
            activeSlot.push_back(contactSlot[k]);
        }
    } else {
        // (swapped, not copied: detect clears both before it fills them
        // again; a copy of every contact was 3 % of a settled bed's time)
        active.swap(contacts);
        activeSlot.swap(contactSlot);
    }
    if (!active.empty()) {
        // The bodies in contact, ascending: only they need a solver view
        // (in a falling system of 1e5 particles a few per cent; building
        // all of them was a pass over every body's memory).
        inContact.assign(bodies.size(), 0);
        for (const DemContact& d : active) {
            inContact[static_cast<std::size_t>(d.i)] = 1;
            if (d.j >= 0) inContact[static_cast<std::size_t>(d.j)] = 1;
        }
        involved.clear();
        for (std::size_t i = 0; i < bodies.size(); ++i)
            if (inContact[i]) involved.push_back(i);
        // Solver view of the bodies: world inverse inertia once per substep.
        solverBodies.resize(bodies.size());
        for (const std::size_t i : involved) {
            const RigidBodyState& b = bodies[i];
            SolverBody& sb = solverBodies[i];
            sb.velocity = b.velocity;
            sb.angularVelocity = b.angularVelocity;
            sb.inverseMass = 1.0 / b.mass;
            // with the rotation matrix of detect (the orientation has not moved since)
            sb.inverseInertia = b.worldInverseInertia(poses[i].rotation);
        }
        // Contact frames, targets (impact or resting) and warm starts.
        solverContacts.resize(active.size());
        rimRow.resize(active.size());
        constexpr std::size_t kPrefetchAhead = 8;
        for (std::size_t k = 0; k < active.size(); ++k) {
            if (k + kPrefetchAhead < active.size()) warm.prefetchForSetUp(activeSlot[k + kPrefetchAhead]);
            const DemContact& d = active[k];
            SolverContact& c = solverContacts[k];
            rimRow[k] = d.rim;
            c.i = d.i;
            c.j = d.j;
            c.law = d.isWall() ? &wallParameters : &pairParameters;
            c.impulse.setZero();
            setUpKeepingCompliance(c, d, activeSlot[k]);
            const Vec3 u = relativeContactVelocity(solverBodies, c);
            const double approach = d.normal.dot(u);
            const bool resting = -approach <= restingSpeed;
            c.frame.targetNormalVelocity = resting ? 0.0 : -c.law->restitution * std::min(approach, 0.0);
            // coulomb in a cluster: sticking target eps_t u_t of an impact
            c.targetTangentialVelocity =
                resting ? Vec3(Vec3::Zero()) : Vec3(c.law->tangentialRestitution * (u - approach * d.normal));
            warm.slot(activeSlot[k]).resting = resting;
        }
        // a flat-face contact and its rim points: one rolling row (one contact)
        shareRollingRows(solverContacts, rimRow);
        // Warm start only after every target was taken from the velocities
        // before any impulse of this substep.
        if (settings.warmStart && !settings.onePartnerPerStep) {
            for (std::size_t k = 0; k < active.size(); ++k) {
                SolverContact& c = solverContacts[k];
                if (c.frame.targetNormalVelocity != 0.0) continue;
                const DemContact& d = active[k];
                const PreviousImpulse* previous = warm.previous(activeSlot[k]);
                if (!previous || !previous->resting) continue;
                // stored on the larger id (pairs) / the wall; solver: on body j
                Vec3 J = previous->impulse;
                if (!d.isWall() && ids[d.i] > ids[d.j]) J = -J;
                const double Jn = J.dot(d.normal);
                if (!(Jn > 0.0)) continue;
                if (c.law->model == CollisionModel::Frictionless) J = Jn * d.normal;
                c.impulse = J;
                applyImpulse(solverBodies, c, J);
            }
        }
        const double tolerance =
            std::max(settings.sweepTolerance * accelerationScale * h, 1e-300);
        // One partner per particle: the contacts are disjoint, one sweep resolves all.
        const int maxSweeps = settings.onePartnerPerStep ? 1 : settings.maxSweeps;
        const SolverResult r = solveSequentialImpulses(solverBodies, solverContacts, maxSweeps, tolerance,
                                                       settings.sweepStagnationWindow, solverScratch);
        stats.sweeps += r.sweeps;
        stats.impulses += r.updates;
        if (r.stagnated) ++stats.sweepsStagnated;
        else if (!r.converged && !settings.onePartnerPerStep) ++stats.sweepLimitReached;
        for (const std::size_t i : involved) {
            RigidBodyState& b = bodies[i];
            const SolverBody& sb = solverBodies[i];
            if (b.velocity == sb.velocity && b.angularVelocity == sb.angularVelocity) continue;
            kinetic -= b.kineticEnergy();
            b.velocity = sb.velocity;
            b.angularVelocity = sb.angularVelocity;
            kinetic += b.kineticEnergy();
        }
        for (std::size_t k = 0; k < active.size(); ++k) {
            const DemContact& d = active[k];
            Vec3 J = solverContacts[k].impulse;
            if (!d.isWall() && ids[d.i] > ids[d.j]) J = -J;
            warm.slot(activeSlot[k]).impulse = J;
        }
    }
    warm.commit();
    return kinetic;
}

// setUpContact for active contact d (warm-start slot `slot`), with the
// compliance K of a carried contact kept: with the narrow-phase reference
// fixed, the arms turn with the smaller id's body (walls: the particle), so
// K and K^-1 are kept while that body has turned by less than the reuse
// tolerance (K then errs by ~1e-5 relative; doc/dem.md).
void DemEngine::Impl::setUpKeepingCompliance(SolverContact& c, const DemContact& d, int slot) {
    const bool needInverse = c.law->model == CollisionModel::Paper ||
                             c.law->model == CollisionModel::Schwager ||
                             c.law->model == CollisionModel::Coulomb;
    if (c.law->model == CollisionModel::Frictionless) { // no K at all
        setUpContact(c, solverBodies, centres, d.point, d.normal, needInverse);
        return;
    }
    const std::size_t turning = d.isWall() || ids[d.i] < ids[d.j] ? static_cast<std::size_t>(d.i)
                                                                   : static_cast<std::size_t>(d.j);
    const Quat& orientation = bodies[turning].orientation;
    KeptCompliance& kept = warm.compliance(slot);
    const double tolerance = settings.contactReuseTolerance;
    if (kept.valid && tolerance > 0.0 &&
        4.0 * (kept.orientation.conjugate() * orientation).vec().squaredNorm() <= tolerance * tolerance) {
        setUpContact(c, solverBodies, centres, d.point, d.normal, needInverse, &kept.compliance,
                     &kept.inverseCompliance);
        return;
    }
    setUpContact(c, solverBodies, centres, d.point, d.normal, needInverse);
    kept.valid = true;
    kept.orientation = orientation;
    kept.compliance = c.frame.compliance;
    kept.inverseCompliance = c.frame.inverseCompliance;
}

// Returns the gravity potential change of the corrections.
double DemEngine::Impl::removeOverlaps(double h) {
    if (active.empty()) return 0.0;
    // Depth after the drift, linearised: depth - h u_n (u_n: relative normal
    // velocity after the impulses, rotation included), minus the allowed
    // penetration; then projected Gauss-Seidel on accumulated position
    // corrections p >= 0 along the normals (translation only, split by
    // inverse mass): depth_now = excess - n.(shift_j - shift_i).
    shift.resize(bodies.size());
    for (const std::size_t i : involved) shift[i].setZero(); // only bodies in contact move
    excess.resize(active.size());
    correction.assign(active.size(), 0.0);
    double scale = 0.0;
    for (std::size_t k = 0; k < active.size(); ++k) {
        const DemContact& c = active[k];
        const double un = c.normal.dot(relativeContactVelocity(solverBodies, solverContacts[k]));
        const double d = c.isWall() ? diameter[c.i] : std::min(diameter[c.i], diameter[c.j]);
        excess[k] = c.depth - h * un - settings.allowedPenetration * d;
        scale = std::max(scale, settings.allowedPenetration * d);
    }
    const double tolerance = 1e-3 * scale; // relative to the allowed penetration
    for (int pass = 0; pass < settings.overlapPasses; ++pass) {
        bool changed = false;
        for (std::size_t k = 0; k < active.size(); ++k) {
            const DemContact& c = active[k];
            if (c.rim) continue; // velocity constraint only
            const double w1 = 1.0 / bodies[c.i].mass;
            const double w2 = c.isWall() ? 0.0 : 1.0 / bodies[c.j].mass;
            const double depth =
                excess[k] + c.normal.dot(shift[c.i]) - (c.isWall() ? 0.0 : c.normal.dot(shift[c.j]));
            const double updated = std::max(0.0, correction[k] + depth / (w1 + w2));
            const double dp = updated - correction[k];
            if (dp == 0.0) continue;
            correction[k] = updated;
            shift[c.i] -= (dp * w1) * c.normal;
            if (!c.isWall()) shift[c.j] += (dp * w2) * c.normal;
            if (std::abs(dp) * (w1 + w2) > tolerance) changed = true;
        }
        if (!changed) break;
    }
    double potential = 0.0;
    for (const std::size_t i : involved) {
        if (shift[i].isZero(0.0)) continue;
        bodies[i].position += shift[i];
        potential += potentialChange(i, shift[i]);
    }
    return potential;
}

// The end of a substep for every body, in one pass: the drift, the second
// half kick, push-back, the finiteness check. Returns the gravity potential
// change of the push-backs.
double DemEngine::Impl::finishSubstep(double h, StepStatistics& stats) {
    double potential = 0.0;
    rotateAll(h); // (each body's rotation only needs its own state, before its half kick)
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        bodies[i].position += h * bodies[i].velocity; // the drift's translation
        halfKick(i, h);
        // A centre that moved by at most its bounding radius stayed inside
        // the bounding sphere of the detection (its segment too); with no
        // face within that sphere it crossed none.
        const bool mayHaveCrossed =
            nearWall[i] || (bodies[i].position - centres[i]).squaredNorm() > radius[i] * radius[i];
        if (!walls.empty() && mayHaveCrossed && !(exchange && haloBody[i])) potential += pushBack(i, stats);
        if (!finiteState(bodies[i])) throwNonFinite(i, "after the collision stage");
    }
    return potential;
}

// Puts body i back inside if its centre left through a face in this
// substep; returns the gravity potential change.
double DemEngine::Impl::pushBack(std::size_t i, StepStatistics& stats) {
    RigidBodyState& b = bodies[i];
    nearFaces.clear();
    faceCache.facesNear(walls, i, ids[i], radius[i], 0.5 * (centres[i] + b.position),
                        0.5 * (b.position - centres[i]).norm(), nearFaces);
    const WallSet::Crossing crossing = walls.firstOutwardCrossing(centres[i], b.position, nearFaces);
    if (crossing.face < 0) return 0.0;
    ++stats.pushedBack;
    if (stats.pushedBackIds.size() < StepStatistics::kReportedPushBacks)
        stats.pushedBackIds.push_back(ids[i]);
    const Vec3& n = walls.outwardNormalOf(crossing.face);
    // Put the shape just inside the face it left through: centre at the
    // crossing point minus the support distance along the normal.
    const Vec3 nBody = b.orientation.conjugate() * n;
    const double reach = system->types[typeOf[i]].shape.supportValue(nBody);
    Vec3 back = crossing.point - reach * n;
    // Fallback for tight corners: the start of the substep was inside.
    if (walls.firstOutwardCrossing(centres[i], back).face >= 0) back = centres[i];
    const double potential = potentialChange(i, back - b.position);
    b.position = back;
    const double outward = b.velocity.dot(n);
    if (outward > 0.0) b.velocity -= outward * n;
    return potential;
}

// Gravity potential change -m g.dx of moving body i by dx.
double DemEngine::Impl::potentialChange(std::size_t i, const Vec3& displacement) const {
    return -bodies[i].mass * settings.gravity.dot(displacement);
}

void DemEngine::Impl::checkFinite(const char* where) const {
    for (std::size_t i = 0; i < bodies.size(); ++i)
        if (!finiteState(bodies[i])) throwNonFinite(i, where);
}

void DemEngine::Impl::throwNonFinite(std::size_t i, const char* where) const {
    throw std::runtime_error("DEM step: particle id " + std::to_string(ids[i]) +
                             " has a non-finite position, orientation, velocity or angular velocity " +
                             where);
}

} // namespace sef::dem
