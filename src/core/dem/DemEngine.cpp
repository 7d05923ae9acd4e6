// The subcycled DEM step. Per substep:
//   1. integrate: translation kick-drift-kick with gravity + external force
//      (exact for a constant force), rotation by the kinematics module
//      (Euler's equations, paper 001 eqs. 14-16, with the external torque);
//   2. broad phase: cell grid of bounding spheres (contact module);
//   3. narrow phase: pairs (warm-started with last substep's common normal,
//      keyed by the particle ids) and wall faces near each particle (wall
//      index), duplicate wall contacts merged;
//   4. impulses: sequential sweeps over all contacts, each contact resolved
//      only while approaching, until a sweep applies no impulse or maxSweeps
//      is reached (slow "resting" approaches with eps_n = 0); or, optionally, paper 001's one partner per particle
//      (largest overlap) with one impulse each;
//   5. overlap removal along the normals (Gauss-Seidel passes on the
//      linearised depth, walls last so they win);
//   6. push-back: a centre that left the domain through a face during the
//      substep is put back inside, touching that face, and counted;
//   7. NaN guard.
#include "dem/DemEngine.hpp"

#include "collision/CollisionParameters.hpp"
#include "collision/ImpulseResolution.hpp"
#include "collision/OverlapRemoval.hpp"
#include "contact/CellGrid.hpp"
#include "contact/PairContact.hpp"
#include "dem/DemContact.hpp"
#include "dem/WallFaceContact.hpp"
#include "kinematics/RigidBodyIntegrator.hpp"
#include "kinematics/RigidBodyState.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace sef::dem {

namespace {

CollisionParameters toCollisionParameters(const ContactLaw& law) {
    CollisionParameters p;
    p.model = collisionModelFromName(law.model);
    p.restitution = law.restitution;
    p.tangentialRestitution = law.tangentialRestitution;
    p.friction = law.friction;
    validateCollisionParameters(p);
    return p;
}

// Warm-start keys: ordered particle-id pair, or (particle id, face index).
struct IdPair {
    std::int64_t a, b;
    bool operator==(const IdPair& o) const { return a == o.a && b == o.b; }
};
struct IdPairHash {
    std::size_t operator()(const IdPair& k) const {
        const std::uint64_t h = static_cast<std::uint64_t>(k.a) * 0x9E3779B97F4A7C15ull ^
                                (static_cast<std::uint64_t>(k.b) + 0x632BE59BD9B4E019ull +
                                 (static_cast<std::uint64_t>(k.a) << 6));
        return static_cast<std::size_t>(h ^ (h >> 29));
    }
};
using WarmStartMap = std::unordered_map<IdPair, Vec3, IdPairHash>;

bool finiteState(const RigidBodyState& b) {
    return b.position.allFinite() && b.velocity.allFinite() && b.angularVelocity.allFinite() &&
           b.orientation.coeffs().allFinite();
}

// Relative normal velocity of the contact (< 0: approaching); a cheap test
// before asking the collision module for the full impulse.
double approachVelocity(const RigidBodyState& b1, const RigidBodyState* b2, const DemContact& c) {
    Vec3 u = -b1.velocityAt(c.point);
    if (b2) u += b2->velocityAt(c.point);
    return u.dot(c.normal);
}

} // namespace

struct DemEngine::Impl {
    WallSet walls;
    EngineSettings settings;
    CollisionParameters pairParameters, wallParameters;

    WarmStartMap pairWarm, pairWarmNext;
    WarmStartMap wallWarm, wallWarmNext;

    // scratch, reused between substeps
    std::vector<RigidBodyState> bodies;
    std::vector<int> typeOf;
    std::vector<std::int64_t> ids;
    std::vector<double> radius, diameter;
    std::vector<Vec3> force, torque, start, centres, shift;
    std::vector<DemContact> contacts, wallContacts, active;
    std::vector<int> nearFaces;
    CellGrid grid;

    const ParticleSystem* system = nullptr;

    CollisionParameters pairResting, wallResting; // eps_n = 0 copies
    double restingSpeed = 0.0;                    // of the current substep
    double approachTolerance = 0.0;               // u_n above -this: not approaching

    void substep(double h, StepStatistics& stats);
    void integrate(double h);
    void detect(StepStatistics& stats);
    void resolveImpulses(StepStatistics& stats);
    void removeOverlaps();
    void pushBack(StepStatistics& stats);
    void checkFinite(const char* where) const;
};

DemEngine::DemEngine(std::vector<WallFace> walls, EngineSettings settings)
    : impl_(std::make_unique<Impl>()) {
    if (settings.maxSweeps < 1)
        throw std::invalid_argument("maxSweeps: must be at least 1 (got " +
                                    std::to_string(settings.maxSweeps) + ")");
    if (settings.overlapPasses < 0)
        throw std::invalid_argument("overlapPasses: must not be negative");
    if (!settings.gravity.allFinite()) throw std::invalid_argument("gravity: must be finite");
    impl_->pairParameters = toCollisionParameters(settings.pair);
    impl_->wallParameters = toCollisionParameters(settings.wall);
    impl_->pairResting = impl_->pairParameters;
    impl_->pairResting.restitution = 0.0;
    impl_->wallResting = impl_->wallParameters;
    impl_->wallResting.restitution = 0.0;
    impl_->walls = WallSet(std::move(walls));
    impl_->settings = std::move(settings);
}

DemEngine::~DemEngine() = default;
DemEngine::DemEngine(DemEngine&&) noexcept = default;
DemEngine& DemEngine::operator=(DemEngine&&) noexcept = default;

const EngineSettings& DemEngine::settings() const { return impl_->settings; }
const WallSet& DemEngine::walls() const { return impl_->walls; }

StepStatistics DemEngine::step(ParticleSystem& ps, double dt, int nSubcycles) {
    if (!(std::isfinite(dt) && dt > 0.0))
        throw std::invalid_argument("DemEngine::step: dt must be positive (got " +
                                    std::to_string(dt) + ")");
    if (nSubcycles < 1)
        throw std::invalid_argument("DemEngine::step: nSubcycles must be at least 1 (got " +
                                    std::to_string(nSubcycles) + ")");
    Impl& m = *impl_;
    const std::size_t n = ps.size();
    m.system = &ps;

    // Gather into rigid-body states once per call (scatter at the end).
    m.bodies.resize(n);
    m.typeOf.assign(ps.type.begin(), ps.type.end());
    m.ids.assign(ps.id.begin(), ps.id.end());
    m.radius.resize(n);
    m.diameter.resize(n);
    m.force.resize(n);
    m.torque.resize(n);
    std::vector<double> typeDiameter(ps.types.size());
    for (std::size_t t = 0; t < ps.types.size(); ++t)
        typeDiameter[t] = ps.types[t].shape.equivalentDiameter();
    for (std::size_t i = 0; i < n; ++i) {
        const ParticleType& type = ps.types.at(static_cast<std::size_t>(ps.type[i]));
        RigidBodyState& b = m.bodies[i];
        b.position = ps.position[i];
        b.orientation = ps.orientation[i];
        b.velocity = ps.velocity[i];
        b.angularVelocity = ps.angularVelocity[i];
        b.mass = type.mass;
        b.principalInertia = type.principalInertia;
        m.radius[i] = type.boundingRadius;
        m.diameter[i] = typeDiameter[static_cast<std::size_t>(ps.type[i])];
        m.force[i] = ps.externalForce[i];
        m.torque[i] = ps.externalTorque[i];
        if (!m.force[i].allFinite() || !m.torque[i].allFinite())
            throw std::runtime_error("DEM step: external force or torque of particle id " +
                                     std::to_string(ps.id[i]) + " is not finite");
    }
    m.checkFinite("at the start of the step");

    StepStatistics stats;
    const double h = dt / nSubcycles;
    for (int s = 0; s < nSubcycles; ++s) m.substep(h, stats);

    for (std::size_t i = 0; i < n; ++i) {
        const RigidBodyState& b = m.bodies[i];
        ps.position[i] = b.position;
        ps.orientation[i] = b.orientation;
        ps.velocity[i] = b.velocity;
        ps.angularVelocity[i] = b.angularVelocity;
        stats.kineticEnergy += b.kineticEnergy();
    }
    m.system = nullptr;
    return stats;
}

void DemEngine::Impl::substep(double h, StepStatistics& stats) {
    restingSpeed = settings.restingSpeed >= 0.0 ? settings.restingSpeed
                                                : 2.0 * settings.gravity.norm() * h;
    // Sweeps stop when what is left is round-off-sized compared with one
    // substep of gravity: u_n > -1e-3 restingSpeed counts as not approaching.
    approachTolerance = 2e-3 * settings.gravity.norm() * h;
    start.resize(bodies.size());
    for (std::size_t i = 0; i < bodies.size(); ++i) start[i] = bodies[i].position;
    integrate(h);
    checkFinite("after integration");
    detect(stats);
    resolveImpulses(stats);
    removeOverlaps();
    pushBack(stats);
    checkFinite("after the collision stage");
}

void DemEngine::Impl::integrate(double h) {
    const Vec3& g = settings.gravity;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        RigidBodyState& b = bodies[i];
        // Kick-drift-kick: exact (to round-off) for a constant acceleration.
        const Vec3 halfKick = (0.5 * h) * (g + force[i] / b.mass);
        b.velocity += halfKick;
        b.position += h * b.velocity;
        b.velocity += halfKick;
        // Rotation: Euler's equations by the kinematics module (paper 001,
        // eqs. 13-16); a body at rest without torque stays as it is.
        if (!b.angularVelocity.isZero(0.0) || !torque[i].isZero(0.0))
            advanceRotation(b, torque[i], h);
    }
}

void DemEngine::Impl::detect(StepStatistics& stats) {
    const ParticleSystem& ps = *system;
    const std::size_t n = bodies.size();
    contacts.clear();

    // Pairs: cell grid of bounding spheres, then the narrow phase.
    centres.resize(n);
    for (std::size_t i = 0; i < n; ++i) centres[i] = bodies[i].position;
    grid.build(centres, radius);
    pairWarmNext.clear();
    grid.forEachCandidatePair([&](int i, int j) {
        ++stats.candidatePairs;
        const bool ordered = ids[i] < ids[j];
        const IdPair key = ordered ? IdPair{ids[i], ids[j]} : IdPair{ids[j], ids[i]};
        PairWarmStart warm;
        const PairWarmStart* warmPtr = nullptr;
        if (auto it = pairWarm.find(key); it != pairWarm.end()) {
            warm.normal = ordered ? it->second : Vec3(-it->second);
            warmPtr = &warm;
        }
        const ContactResult r = detectPairContact(ps.types[typeOf[i]].shape,
                                                  Pose{bodies[i].position, bodies[i].orientation},
                                                  ps.types[typeOf[j]].shape,
                                                  Pose{bodies[j].position, bodies[j].orientation},
                                                  warmPtr);
        stats.newtonIterations += r.iterations;
        if (r.status == ContactStatus::fallback) ++stats.fallbacks;
        if (r.status != ContactStatus::boundingSphere && r.status != ContactStatus::orientedBox)
            pairWarmNext[key] = ordered ? r.normal : Vec3(-r.normal);
        if (!r.contact || !(r.depth > 0.0)) return;
        contacts.push_back(DemContact{i, j, -1, r.point, r.normal, r.depth});
        ++stats.pairContacts;
        stats.maxOverlapOverDeq =
            std::max(stats.maxOverlapOverDeq, r.depth / std::min(diameter[i], diameter[j]));
    });
    pairWarm.swap(pairWarmNext);

    // Walls: faces within the bounding sphere of each particle.
    wallWarmNext.clear();
    for (std::size_t i = 0; i < n && !walls.empty(); ++i) {
        nearFaces.clear();
        walls.facesNear(bodies[i].position, radius[i], nearFaces);
        if (nearFaces.empty()) continue;
        wallContacts.clear();
        const Pose pose{bodies[i].position, bodies[i].orientation};
        for (int f : nearFaces) {
            const IdPair key{ids[i], f};
            const Vec3* warmPtr = nullptr;
            if (auto it = wallWarm.find(key); it != wallWarm.end()) warmPtr = &it->second;
            const ContactResult r =
                detectFaceContact(ps.types[typeOf[i]].shape, pose, walls, f, warmPtr);
            stats.newtonIterations += r.iterations;
            if (r.status == ContactStatus::fallback) ++stats.fallbacks;
            if (r.status != ContactStatus::boundingSphere && r.status != ContactStatus::orientedBox)
                wallWarmNext[key] = r.normal;
            if (!r.contact || !(r.depth > 0.0)) continue;
            // contact module: normal from the wall into the domain; the
            // collision module wants it from the particle into the wall.
            wallContacts.push_back(DemContact{static_cast<int>(i), -1, f, r.surfacePoint2,
                                              Vec3(-r.normal), r.depth});
        }
        mergeDuplicateWallContacts(wallContacts);
        for (const DemContact& c : wallContacts) {
            contacts.push_back(c);
            ++stats.wallContacts;
            stats.maxOverlapOverDeq = std::max(stats.maxOverlapOverDeq, c.depth / diameter[i]);
        }
    }
    wallWarm.swap(wallWarmNext);
    stats.contacts = stats.pairContacts + stats.wallContacts;
}

void DemEngine::Impl::resolveImpulses(StepStatistics& stats) {
    if (settings.onePartnerPerStep)
        active = selectOnePartnerPerParticle(contacts, bodies.size());
    else
        active = contacts;
    if (active.empty()) return;
    // One partner per particle: the contacts are disjoint, one sweep resolves all.
    const int maxSweeps = settings.onePartnerPerStep ? 1 : settings.maxSweeps;
    bool quiet = false;
    for (int sweep = 0; sweep < maxSweeps && !quiet; ++sweep) {
        ++stats.sweeps;
        long applied = 0;
        for (const DemContact& c : active) {
            RigidBodyState& b1 = bodies[c.i];
            if (c.isWall()) {
                const double un = approachVelocity(b1, nullptr, c);
                if (un >= -approachTolerance) continue;
                const CollisionResult r = resolveWallCollision(
                    b1, c.point, c.normal, -un < restingSpeed ? wallResting : wallParameters);
                if (r.regime == CollisionRegime::Separating) continue;
                applyWallCollision(r, b1);
            } else {
                RigidBodyState& b2 = bodies[c.j];
                const double un = approachVelocity(b1, &b2, c);
                if (un >= -approachTolerance) continue;
                const CollisionResult r = resolvePairCollision(
                    b1, b2, c.point, c.normal, -un < restingSpeed ? pairResting : pairParameters);
                if (r.regime == CollisionRegime::Separating) continue;
                applyCollision(r, b1, b2);
            }
            ++applied;
        }
        stats.impulses += applied;
        quiet = applied == 0;
    }
    if (!quiet && !settings.onePartnerPerStep) ++stats.sweepLimitReached;
}

void DemEngine::Impl::removeOverlaps() {
    if (active.empty()) return;
    // Gauss-Seidel on the depths linearised in the displacements since
    // detection: depth_now = depth - n.(shift_j - shift_i) (rotation ignored).
    shift.assign(bodies.size(), Vec3::Zero());
    auto relax = [&](const DemContact& c) {
        if (c.isWall()) {
            const double d = c.depth + c.normal.dot(shift[c.i]);
            if (d <= 0.0) return;
            shift[c.i] += removeWallOverlap(bodies[c.i], c.normal, d).body1;
        } else {
            const double d = c.depth - c.normal.dot(shift[c.j] - shift[c.i]);
            if (d <= 0.0) return;
            const OverlapDisplacement s = removeOverlap(bodies[c.i], bodies[c.j], c.normal, d);
            shift[c.i] += s.body1;
            shift[c.j] += s.body2;
        }
    };
    const int passes = std::max(1, settings.overlapPasses);
    for (int pass = 0; pass < passes; ++pass) {
        for (const DemContact& c : active)
            if (!c.isWall()) relax(c);
        for (const DemContact& c : active)
            if (c.isWall()) relax(c);
    }
}

void DemEngine::Impl::pushBack(StepStatistics& stats) {
    if (walls.empty()) return;
    const ParticleSystem& ps = *system;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        RigidBodyState& b = bodies[i];
        const WallSet::Crossing crossing = walls.firstOutwardCrossing(start[i], b.position);
        if (crossing.face < 0) continue;
        ++stats.pushedBack;
        const Vec3& n = walls.outwardNormalOf(crossing.face);
        // Put the shape just inside the face it left through: centre at the
        // crossing point minus the support distance along the normal.
        const Vec3 nBody = b.orientation.conjugate() * n;
        const double reach = ps.types[typeOf[i]].shape.supportValue(nBody);
        Vec3 back = crossing.point - reach * n;
        // Fallback for tight corners: the start of the substep was inside.
        if (walls.firstOutwardCrossing(start[i], back).face >= 0) back = start[i];
        b.position = back;
        const double outward = b.velocity.dot(n);
        if (outward > 0.0) b.velocity -= outward * n;
    }
}

void DemEngine::Impl::checkFinite(const char* where) const {
    for (std::size_t i = 0; i < bodies.size(); ++i)
        if (!finiteState(bodies[i]))
            throw std::runtime_error("DEM step: particle id " + std::to_string(ids[i]) +
                                     " has a non-finite position, orientation, velocity or "
                                     "angular velocity " + where);
}

} // namespace sef::dem
