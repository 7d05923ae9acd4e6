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

#include "dem/DemEngineImpl.hpp"

#include <algorithm>
#include <cmath>
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

} // namespace

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

} // namespace sef::dem
