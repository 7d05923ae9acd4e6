// The subcycled DEM step. Per substep of length h (kick-drift-kick with the
// collision stage between the first kick and the drift):
//   1. half kick: v += (g + F/m) h/2;
//   2. broad phase: cell grid of bounding spheres, cached as a Verlet list
//      (contact module);
//   3. narrow phase at the current positions: pairs (warm-started with last
//      substep's common normal, keyed by the particle ids) and wall faces near
//      each particle (wall index), duplicate wall contacts merged;
//   4. impulses: sequential impulses with accumulated, projected impulses
//      (dem/engine/SequentialImpulseSolver.hpp), resting contacts warm-started and
//      solved with target normal velocity 0, impacts with eps_n times their
//      approach speed; or, optionally, [Superellipsoid-OpenFOAM]'s one partner per particle
//      (largest overlap) with one impulse each (doc/dem.md compares them);
//   5. drift with the solved velocities: x += h v, rotation by the
//      kinematics module (Euler's equations, [Superellipsoid-OpenFOAM] eqs. 13-16). A resting
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
// Held particles (ParticleType::held) skip 1, 5-8: only the fluid drag's
// impulse on them is accumulated; 3 skips their contacts with each other
// and with walls, 4 and 6 treat them as immovable (inverse mass 0).
#include "dem/engine/DemEngine.hpp"

#include "dem/engine/DemEngineImpl.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace sef::dem {

namespace {

// A law's eps_t when it is not set: the model's own (ContactLaw).
void resolveTangentialRestitution(ContactLaw& law) {
    if (!std::isnan(law.tangentialRestitution)) return;
    law.tangentialRestitution = collisionModelFromName(law.model) == CollisionModel::coulomb ? 0.0 : 1.0;
}

CollisionParameters toCollisionParameters(const ContactLaw& law) {
    CollisionParameters p;
    p.model = collisionModelFromName(law.model);
    p.restitution = law.restitution;
    p.tangentialRestitution = law.tangentialRestitution;
    p.friction = law.friction;
    p.rollingFriction = law.rollingFriction;
    p.twistingFriction = law.twistingFriction;
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
    resolveTangentialRestitution(settings.pair);
    resolveTangentialRestitution(settings.wall);
    impl_->pairParameters = toCollisionParameters(settings.pair);
    impl_->wallParameters = toCollisionParameters(settings.wall);
    if (settings.sweepStagnationWindow < 0)
        throw std::invalid_argument("sweepStagnationWindow: must be >= 0 (got " +
                                    std::to_string(settings.sweepStagnationWindow) + ")");
    if (!(settings.sweepTolerance > 0.0))
        throw std::invalid_argument("sweepTolerance: must be positive");
    impl_->walls = WallSet(std::move(walls), settings.periodicShifts);
    impl_->settings = std::move(settings);
}

DemEngine::~DemEngine() = default;
DemEngine::DemEngine(DemEngine&&) noexcept = default;
DemEngine& DemEngine::operator=(DemEngine&&) noexcept = default;

void DemEngine::setWallMotions(std::vector<WallMotion> motions) {
    std::vector<int> faceMotion = motionOfFaces(impl_->walls, motions);
    if (std::all_of(faceMotion.begin(), faceMotion.end(), [](int m) { return m < 0; })) faceMotion.clear();
    // a face that starts moving: sleeping bodies do not query their walls
    const auto moves = [](const std::vector<int>& f, std::size_t k) { return k < f.size() && f[k] >= 0; };
    for (std::size_t k = 0; k < faceMotion.size(); ++k)
        if (moves(faceMotion, k) && !moves(impl_->faceMotion, k)) {
            impl_->wakeAll();
            break;
        }
    impl_->faceMotion = std::move(faceMotion);
    impl_->wallMotions = std::move(motions);
}

void DemEngine::setWalls(std::vector<WallFace> walls) {
    Impl& m = *impl_;
    WallSet replaced(std::move(walls), m.settings.periodicShifts);
    std::vector<int> faceMotion = motionOfFaces(replaced, m.wallMotions); // throws before any change
    m.walls = std::move(replaced);
    m.faceMotion = std::move(faceMotion);
    if (std::all_of(m.faceMotion.begin(), m.faceMotion.end(), [](int k) { return k < 0; })) m.faceMotion.clear();
    m.faceCache = NearFaceCache();
    m.wakeAll(); // sleeping bodies rest on the old walls
    // wall keys name faces of the old set: only the pairs' memory stays
    std::vector<WarmStartEntry> entries = m.warm.entries();
    std::vector<KeptCompliance> compliances = m.warm.compliances();
    std::vector<KeptPatch> patches = m.warm.patches();
    std::size_t kept = 0;
    for (std::size_t k = 0; k < entries.size(); ++k) {
        if (entries[k].key.b < 0) continue;
        entries[kept] = entries[k];
        compliances[kept] = compliances[k];
        patches[kept] = patches[k];
        ++kept;
    }
    entries.resize(kept);
    compliances.resize(kept);
    patches.resize(kept);
    m.warm.setEntries(std::move(entries), std::move(compliances), patches);
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
    m.carryFaceCache(n);
    m.carrySleepState(ps); // (before the gather: sleeping bodies are held)
    const double h = dt / nSubcycles;
    m.substepLength = h;
    StepStatistics stats;
    m.gatherBodies(ps, h);
    m.setUpHalo(n);
    if (m.sleeping()) m.prepareSleeping(h, stats);

    for (int s = 0; s < nSubcycles; ++s) m.substep(h, stats, s == 0);
    if (m.sleeping()) m.putIslandsToSleep(dt, stats);

    m.scatterBodies(ps, stats);
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
    if (!begun && !pendingWake.empty()) wakeIslands(pendingWake, false, false, h, stats);
    if (!begun) {
        bool finite = true;
        for (std::size_t i = 0; i < bodies.size(); ++i) finite = beginBody(i, h) && finite;
        if (!finite) checkFinite("after integration"); // names the particle
    }
    refreshHalo();
    detect(stats);
    stats.impulseEnergyChange += resolveImpulses(h, stats);
    if (sleeping()) linkIslands(begun);
    // Overlap removal works on the depths linearised in the drift, so its
    // shifts go on before the drift itself, which is done with the second
    // half kick, push-back and the check in one pass.
    double potential = removeOverlaps(h);
    if (settings.correctionPaysEnergy && !active.empty()) potential += payCorrectionEnergy(stats);
    returnHaloCorrections();
    potential += finishSubstep(h, stats);
    stats.projectionPotentialChange += potential;
}

} // namespace sef::dem
