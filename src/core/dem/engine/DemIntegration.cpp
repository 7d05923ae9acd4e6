// Integration: the half kicks (with the exact fluid-drag propagators), the
// drift, overlap removal, push-back through the walls, finiteness checks.
#include "dem/engine/DemEngineImpl.hpp"

#include "kinematics/OrientationUpdate.hpp"
#include "kinematics/RigidBodyIntegrator.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace sef::dem {

// The start of a substep for body i: half kick, and the centre and pose of
// the detection (the centre is also the start of the substep, for
// push-back). Returns whether the velocity is still finite.
bool DemEngine::Impl::beginBody(std::size_t i, double h) {
    if (turnsWithDrag(i)) setUpTurningDrag(i, h);
    halfKick(i, h);
    const RigidBodyState& b = bodies[i];
    centres[i] = b.position;
    poses[i] = PairPose{b.position, b.orientation.toRotationMatrix(), b.orientation};
    return isFinite(b.velocity);
}

void DemEngine::Impl::halfKick(std::size_t i, double h) {
    if (held(i)) {
        holdBody(i, h);
        return;
    }
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
    // external torque and the free rotation stay in the drift (Strang), or,
    // for a drag that turns with the body, are in the kick (kickTorque).
    const Vec3 w = kickR[i].apply(b.angularVelocity);
    if (turnsWithDrag(i))
        dragAngular[i] += inertiaWorld[i] * (w - b.angularVelocity) - (0.5 * h) * kickTorque[i];
    else
        dragAngular[i] += inertiaWorld[i] * (w - b.angularVelocity);
    b.angularVelocity = w;
}

// The half kick of a held body: none. At rest throughout (v = w = 0), the
// drag of eq. (1) of kinematics/LinearRelaxation.hpp is the constant D u
// (torque R w_f); the fluid receives its impulse over h/2 in full.
void DemEngine::Impl::holdBody(std::size_t i, double h) {
    if (!hasDrag) return;
    const FluidDrag& d = drag[i];
    dragImpulse[i] += (0.5 * h) * (d.translation * d.fluidVelocity);
    dragAngular[i] += (0.5 * h) * (d.rotation * d.fluidRotationRate);
}

// The exact propagators of the half kicks over h/2 with the fluid drag of
// body k (kinematics/LinearRelaxation.hpp), coefficients held at the start of
// the step: M dv/dt = m g + F + D (u - v) and I_w dw/dt = R (w_f - w). For a
// drag that does not turn with the body (and a held body), once per step by
// the gather; one that turns is set up at every substep (setUpTurningDrag).
void DemEngine::Impl::setUpDrag(std::size_t k, double h) {
    const RigidBodyState& b = bodies[k];
    const FluidDrag& d = drag[k];
    const Mat3 R = b.orientation.toRotationMatrix();
    try {
        kickT[k] = relaxationPropagator(Mat3::Identity(), Vec3::Constant(b.mass), d.translation, d.fluidVelocity,
                                        b.mass * settings.gravity + force[k], 0.5 * h);
        kickR[k] = relaxationPropagator(R, b.principalInertia, d.rotation, d.fluidRotationRate, Vec3::Zero(), 0.5 * h);
        inertiaWorld[k] = R * b.principalInertia.asDiagonal() * R.transpose();
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("DEM step: fluid drag of particle id " + std::to_string(ids[k]) + ": " + e.what());
    }
}

// The substep of a body whose drag turns with it (FluidDrag::turnsWithBody):
// the orientation dynamics second order in h for any rotational response
// time tau_r. The rotation is
//   I_w dw/dt = D_R(q) (w_f(q) - w) + T - w x I_w w,   dq/dt = w x q,
// with the drag, the external torque and the gyroscopic term in both half
// kicks, all taken at the substep's midpoint (the midpoint rule), and a
// drift that turns the body at the constant rate w. Why not the free
// rotation of the other bodies: for tau_r << h (small particles) the drag
// holds w at w_f throughout, but a free-rotation drift lets the gyroscopic
// term change w over the whole substep, an O(h^2) error per substep in the
// orientation, first order overall (a Jeffery orbit's constant drifted
// 4 % per period at G h = 0.025). The midpoint: the orientation from the
// current w over h/2, and w there from a half kick of drag alone (exact
// for any tau_r, so the prediction is stable); errors O(h) in either move
// the midpoint's terms by O(h^2), which keeps the step second order.
void DemEngine::Impl::setUpTurningDrag(std::size_t i, double h) {
    const RigidBodyState& b = bodies[i];
    const Mat3 R = advanceOrientation(b.orientation, b.angularVelocity, 0.5 * h).toRotationMatrix();
    // the drag at the midpoint, no torque yet; mass and drag share the
    // body's axes (kinematics/LinearRelaxation.hpp: coaxialRelaxationPropagator)
    const FluidDrag& d = drag[i];
    try {
        kickT[i] = coaxialRelaxationPropagator(R, Vec3::Constant(b.mass), d.translationBody, d.fluidVelocity,
                                               b.mass * settings.gravity + force[i], 0.5 * h);
        kickR[i] = coaxialRelaxationPropagator(R, b.principalInertia, d.rotationBody, d.fluidRotationRateAt(R),
                                               Vec3::Zero(), 0.5 * h);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("DEM step: fluid drag of particle id " + std::to_string(ids[i]) + ": " + e.what());
    }
    inertiaWorld[i] = R * b.principalInertia.asDiagonal() * R.transpose();
    const Vec3 w = kickR[i].apply(b.angularVelocity);
    kickTorque[i] = torque[i] - w.cross(inertiaWorld[i] * w);
    kickR[i].offset += kickR[i].response * kickTorque[i]; // the same kick with the torque
}

// The rotation of the drift for every body: Euler's equations by the
// kinematics module ([Superellipsoid-OpenFOAM], eqs. 13-16), kRotationLanes bodies at a time
// (advanceRotations; the same bits as one by one). A body at rest without
// torque stays as it is, and so does a held body.
void DemEngine::Impl::rotateAll(double h) {
    RigidBodyState* batch[kRotationLanes];
    const Vec3* batchTorque[kRotationLanes];
    int count = 0;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        RigidBodyState& b = bodies[i];
        if ((b.angularVelocity.isZero(0.0) && torque[i].isZero(0.0)) || held(i)) continue;
        if (turnsWithDrag(i)) { // its torques are in the kicks (setUpTurningDrag)
            b.orientation = advanceOrientation(b.orientation, b.angularVelocity, h);
            continue;
        }
        batch[count] = &b;
        batchTorque[count] = &torque[i];
        if (++count == kRotationLanes) {
            advanceRotations(batch, batchTorque, count, h);
            count = 0;
        }
    }
    if (count > 0) advanceRotations(batch, batchTorque, count, h);
}

// Returns the gravity potential change of the corrections.
double DemEngine::Impl::removeOverlaps(double h) {
    if (active.empty()) return 0.0;
    // Depth after the drift, linearised: depth - h u_n (u_n: relative normal
    // velocity after the impulses, rotation included), minus the allowed
    // penetration; then projected Gauss-Seidel on accumulated position
    // corrections p >= 0 along the normals (translation only, split by
    // inverse mass, 0 for a held body; no contact has two held bodies or a
    // held body and a wall): depth_now = excess - n.(shift_j - shift_i).
    shift.resize(bodies.size());
    firmShift.resize(bodies.size());
    for (const std::size_t i : involved) shift[i].setZero(); // only bodies in contact move
    excess.resize(active.size());
    correction.assign(active.size(), 0.0);
    double scale = 0.0;
    for (std::size_t k = 0; k < active.size(); ++k) {
        const DemContact& c = active[k];
        if (c.rim) continue; // velocity constraint only (its contact's diameter is in the scale)
        const double un = c.normal.dot(relativeContactVelocity(solverBodies, solverContacts[k]));
        const double allowed = settings.allowedPenetration * contactDiameter(c);
        excess[k] = c.depth - h * un - allowed;
        scale = std::max(scale, allowed);
    }
    const double tolerance = 1e-3 * scale; // relative to the allowed penetration
    // Which corrections are firm (payCorrectionEnergy makes them in full,
    // the others only as far as the cluster pays): none with
    // correctionWithinPayment; with a paidCorrectionDepth, those of curved
    // contacts and of flat-face contacts' overlap beyond it; else all.
    const bool pays = settings.correctionPaysEnergy;
    const bool noneFirm = pays && settings.correctionWithinPayment;
    const auto anyFlatContact = [this] {
        for (std::size_t k = 0; k < active.size(); ++k)
            if (hasRimPoints(k)) return true;
        return false;
    };
    const bool split = pays && !noneFirm && settings.paidCorrectionDepth > 0.0 && anyFlatContact();
    if (split) { // the firm part first, on the flat contacts' excess beyond the depth
        const auto moveFlatExcess = [this](double depth) {
            for (std::size_t k = 0; k < active.size(); ++k)
                if (hasRimPoints(k)) excess[k] += depth * contactDiameter(active[k]);
        };
        moveFlatExcess(-settings.paidCorrectionDepth);
        projectCorrections(tolerance);
        moveFlatExcess(settings.paidCorrectionDepth);
    }
    // the firm shifts: those made so far (none, or the split's firm part),
    // or all of them when every correction is firm
    // (the bodies in contact only: in a falling system a few per cent)
    const auto keepFirm = [this] {
        for (const std::size_t i : involved) firmShift[i] = shift[i];
    };
    const bool allFirm = !split && !noneFirm;
    if (!allFirm) keepFirm();
    projectCorrections(tolerance);
    if (allFirm) keepFirm();
    double potential = 0.0;
    for (const std::size_t i : involved) {
        if (shift[i].isZero(0.0)) continue;
        bodies[i].position += shift[i];
        potential += potentialChange(i, shift[i]);
    }
    return potential;
}

// Projected Gauss-Seidel on the accumulated corrections (correction, shift)
// for the depths excess: passes until none changes by more than tolerance.
void DemEngine::Impl::projectCorrections(double tolerance) {
    for (int pass = 0; pass < settings.overlapPasses; ++pass) {
        bool changed = false;
        for (std::size_t k = 0; k < active.size(); ++k) {
            const DemContact& c = active[k];
            if (c.rim) continue; // velocity constraint only
            const double w1 = held(c.i) ? 0.0 : 1.0 / bodies[c.i].mass;
            const double w2 = c.isWall() || held(c.j) ? 0.0 : 1.0 / bodies[c.j].mass;
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
}

// The end of a substep for every body, in one pass: the drift, the second
// half kick, push-back, the finiteness check. Returns the gravity potential
// change of the push-backs.
double DemEngine::Impl::finishSubstep(double h, StepStatistics& stats) {
    double potential = 0.0;
    rotateAll(h); // (each body's rotation only needs its own state, before its half kick)
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        if (held(i)) { // never moved: no drift, no push-back (its drag: halfKick)
            halfKick(i, h);
            continue;
        }
        if (sleeping()) noteMotion(i);
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
    if (outward > 0.0) {
        b.velocity -= outward * n;
        // the wall took that momentum (at the crossing point)
        const Vec3 J = (b.mass * outward) * n;
        stats.addWallLoad(walls.face(static_cast<std::size_t>(crossing.face)).patch, J,
                          crossing.point.cross(J));
    }
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
