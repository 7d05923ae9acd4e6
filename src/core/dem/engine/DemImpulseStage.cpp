// The impulse stage: sequential impulses (dem/engine/SequentialImpulseSolver.hpp)
// or one partner per particle, targets, warm starts, kept compliances.
#include "dem/engine/DemEngineImpl.hpp"

#include "collision/ContactLawTraits.hpp"
#include "collision/ImpulseResolution.hpp"

#include <algorithm>

namespace sef::dem {

// Returns the kinetic energy change by the impulses (summed over the bodies
// whose velocity they changed; the others contribute exactly zero).
double DemEngine::Impl::resolveImpulses(double h, StepStatistics& stats) {
    double kinetic = 0.0;
    selectActiveContacts();
    if (!active.empty()) {
        setUpSolverBodies();
        setUpSolverContacts();
        // Warm start only after every target was taken from the velocities
        // before any impulse of this substep.
        if (settings.warmStart && !settings.onePartnerPerStep) warmStartImpulses();
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
        kinetic = takeSolverVelocities();
        addWallLoads(stats);
        storeImpulses();
    }
    warm.commit();
    return kinetic;
}

// The substep's contacts to solve (active, activeSlot): all of them, or one
// partner per particle.
void DemEngine::Impl::selectActiveContacts() {
    if (settings.onePartnerPerStep) {
        const std::vector<std::size_t> chosen =
            selectOnePartnerPerParticle(contacts, bodies.size(), true, anyHeld ? &heldBody : nullptr);
        active.clear();
        activeSlot.clear();
        for (std::size_t k : chosen) {
            active.push_back(contacts[k]);
            activeSlot.push_back(contactSlot[k]);
        }
    } else {
        // (swapped, not copied: detect clears both before it fills them
        // again; a copy of every contact would cost 3 % of a settled bed's time)
        active.swap(contacts);
        activeSlot.swap(contactSlot);
    }
}

// The bodies in contact, ascending (involved): only they need a solver
// view (in a falling system of 1e5 particles a few per cent of them, and
// the others' memory is not touched). A periodic image and its source
// both: the image's arms, the source's velocities (see the remapping in
// setUpSolverContacts). Their view: world inverse inertia once per substep.
void DemEngine::Impl::setUpSolverBodies() {
    inContact.assign(bodies.size(), 0);
    for (const DemContact& d : active) {
        inContact[static_cast<std::size_t>(d.i)] = 1;
        inContact[static_cast<std::size_t>(solverBodyOf(d.i))] = 1;
        if (d.j >= 0) inContact[static_cast<std::size_t>(d.j)] = 1;
        if (d.j >= 0) inContact[static_cast<std::size_t>(solverBodyOf(d.j))] = 1;
    }
    involved.clear();
    for (std::size_t i = 0; i < bodies.size(); ++i)
        if (inContact[i]) involved.push_back(i);
    solverBodies.resize(bodies.size());
    for (const std::size_t i : involved) {
        const RigidBodyState& b = bodies[i];
        SolverBody& sb = solverBodies[i];
        sb.velocity = b.velocity;
        sb.angularVelocity = b.angularVelocity;
        if (held(i)) { // immovable, at rest: its partners see a wall through the contact point
            sb.inverseMass = 0.0;
            sb.inverseInertia.setZero();
            continue;
        }
        sb.inverseMass = 1.0 / b.mass;
        // with the rotation matrix of detect (the orientation has not moved since)
        sb.inverseInertia = b.worldInverseInertia(poses[i].rotation);
    }
}

// Contact frames, targets (impact or resting) and rolling rows of the
// active contacts.
void DemEngine::Impl::setUpSolverContacts() {
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
        setWallMotion(c, d);
        const Vec3 u = relativeContactVelocity(solverBodies, c);
        const double approach = d.normal.dot(u);
        bool resting = -approach <= restingSpeed;
        c.frame.targetNormalVelocity = resting ? 0.0 : -c.law->restitution * std::min(approach, 0.0);
        if (d.depth < 0.0) { // before touching (addSpeculative*Contact*): a gap of -depth
            // An impact that closes the gap within the substep bounces from
            // there; anything else may close it, and no more.
            const double closing = -d.depth / substepLength;
            resting = resting || -approach <= closing;
            c.frame.targetNormalVelocity = resting ? -closing : c.frame.targetNormalVelocity;
        }
        // a contact solved as cluster friction: sticking target eps_t u_t of an impact
        c.targetTangentialVelocity =
            resting ? Vec3(Vec3::Zero()) : Vec3(c.law->tangentialRestitution * (u - approach * d.normal));
        warm.slot(activeSlot[k]).resting = resting && d.depth >= 0.0; // (a gap's impulse starts afresh)
        if (anyLocalImage) {
            // A periodic image's contact acts on its source: the arms
            // stay the image's (set up above from its centre), the
            // velocities, impulses and overlap shifts are the source's.
            c.i = solverBodyOf(c.i);
            c.j = solverBodyOf(c.j);
            active[k].i = c.i;
            active[k].j = c.j;
        }
    }
    // a flat-face contact and its rim points: one rolling row (one contact)
    shareRollingRows(solverContacts, rimRow);
}

// The stored impulses of resting contacts that rested in the last substep
// too, applied as the solver's starting impulses.
void DemEngine::Impl::warmStartImpulses() {
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
        if (!usesTangentialImpulse(c.law->model)) J = Jn * d.normal;
        c.impulse = J;
        applyImpulse(solverBodies, c, J);
    }
}

// The solver's velocities back to the bodies; returns the kinetic energy
// change (the bodies whose velocity did not change contribute nothing).
double DemEngine::Impl::takeSolverVelocities() {
    double kinetic = 0.0;
    for (const std::size_t i : involved) {
        RigidBodyState& b = bodies[i];
        const SolverBody& sb = solverBodies[i];
        if (b.velocity == sb.velocity && b.angularVelocity == sb.angularVelocity) continue;
        kinetic -= b.kineticEnergy();
        b.velocity = sb.velocity;
        b.angularVelocity = sb.angularVelocity;
        kinetic += b.kineticEnergy();
    }
    return kinetic;
}

// The solver's impulses to the contact memory (stored on the larger id of
// a pair, on the wall).
void DemEngine::Impl::storeImpulses() {
    for (std::size_t k = 0; k < active.size(); ++k) {
        const DemContact& d = active[k];
        Vec3 J = solverContacts[k].impulse;
        if (!d.isWall() && ids[d.i] > ids[d.j]) J = -J;
        warm.slot(activeSlot[k]).impulse = J;
    }
}

// The impulses of the substep's wall contacts, on their patches (the
// solver's impulse is on body 2, the wall; a rolling row's angular impulse
// likewise, in its tangent basis, and a twisting row's about the normal).
void DemEngine::Impl::addWallLoads(StepStatistics& stats) const {
    for (std::size_t k = 0; k < active.size(); ++k) {
        const DemContact& d = active[k];
        if (!d.isWall()) continue;
        const SolverContact& c = solverContacts[k];
        Vec3 moment = d.point.cross(c.impulse);
        if (c.rollingLimit > 0.0 && c.rollingGroup >= 0)
            moment += c.rollingImpulse.x() * c.rollingTangent1 + c.rollingImpulse.y() * c.rollingTangent2;
        if (c.twistLimit > 0.0 && c.rollingGroup >= 0) moment += c.twistImpulse * c.frame.normal;
        stats.addWallLoad(walls.face(static_cast<std::size_t>(d.face)).patch, c.impulse, moment);
    }
}

// The velocity of a moving wall at contact d's point, across its normal
// (the faces stay put: a normal part would push without moving them), and
// the wall's angular velocity; zero for pairs and walls at rest.
void DemEngine::Impl::setWallMotion(SolverContact& c, const DemContact& d) const {
    c.wallVelocity.setZero();
    c.wallAngularVelocity.setZero();
    if (!d.isWall() || faceMotion.empty()) return;
    const int m = faceMotion[static_cast<std::size_t>(d.face)];
    if (m < 0) return;
    const WallMotion& motion = wallMotions[static_cast<std::size_t>(m)];
    const Vec3 v = motion.velocityAt(d.point);
    c.wallVelocity = v - d.normal.dot(v) * d.normal;
    c.wallAngularVelocity = motion.angularVelocity;
}

// setUpContact for active contact d (warm-start slot `slot`), with the
// compliance K of a carried contact kept: with the narrow-phase reference
// fixed, the arms turn with the smaller id's body (walls: the particle), so
// K and K^-1 are kept while that body has turned by less than the reuse
// tolerance (K then errs by ~1e-5 relative; doc/dem.md).
void DemEngine::Impl::setUpKeepingCompliance(SolverContact& c, const DemContact& d, int slot) {
    const bool needInverse = needsInverseCompliance(c.law->model);
    // (no K at all: setUpContact; a pair's contact at a gap shares the
    // slot of the pair's separated answer, which keeps none)
    if (!usesTangentialImpulse(c.law->model) || (d.depth < 0.0 && !d.isWall())) {
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

} // namespace sef::dem
