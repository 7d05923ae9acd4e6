#include "dem/engine/PairGeometryReuse.hpp"

#include "contact/CommonNormalNewton.hpp"
#include "contact/ContactPatch.hpp"
#include "dem/walls/WallFaceContact.hpp"

#include <algorithm>
#include <cmath>

namespace sef::dem {

namespace {

// The largest tolerance of an answer's gate: the curved one, or for a flat
// answer the larger of its rotation and its sliding tolerance (none given:
// negative, the rotation's).
double largestTolerance(const WarmStartEntry& e, double curvedTolerance, double flatTolerance,
                        double flatTranslation) {
    return e.flatReference ? std::max(flatTolerance, flatTranslation) : curvedTolerance;
}

// The reuse gate shared by pairs and walls: the pose (relative to A, or the
// world pose for walls) moved by at most tolerance * radius and turned by
// at most tolerance rad since the reference, the tolerance the flat one for
// a flat-patch answer; a flat answer's move across its normal (normal:
// n_A, the normal in A's frame for pairs, the world one for walls) may
// reach the flat translation tolerance. (Along the normal a move changes
// the depth, and the patch with it: the patch of a flat face grows like
// depth^(1/p).)
bool withinTolerance(const WarmStartEntry& e, const Vec3& position, const Quat& orientation,
                     double curvedTolerance, double flatTolerance, double flatTranslation, double radius,
                     const Vec3& normal) {
    if (!e.hasReference) return false;
    const double tolerance = e.flatReference ? flatTolerance : curvedTolerance;
    if (!(tolerance > 0.0)) return false; // 0: no reuse of this kind of answer
    const Vec3 moved = position - e.relativePosition;
    if (!e.flatReference || !(flatTranslation >= 0.0)) {
        if (moved.squaredNorm() > tolerance * tolerance * radius * radius) return false;
    } else {
        const double along = normal.dot(moved);
        if (along * along > tolerance * tolerance * radius * radius) return false;
        if ((moved - along * normal).squaredNorm() > flatTranslation * flatTranslation * radius * radius)
            return false;
    }
    // rotation angle of q_ref^-1 q: 2 asin|vec| ~ 2 |vec|
    const Quat change = e.relativeOrientation.conjugate() * orientation;
    return 4.0 * change.vec().squaredNorm() <= tolerance * tolerance;
}

// Rim points move with A (pairs) / the particle (walls): within the reuse
// tolerance the patch moves with the bodies.
void storeRim(WarmStartEntry& e, const PairPose& frame, const ContactResult& r) {
    e.rimCount = r.rimCount;
    for (int k = 0; k < r.rimCount; ++k) e.rimInA[k] = frame.rotation.transpose() * (r.rim[k] - frame.position);
}

// Every field of r set to a reused answer (as r = ContactResult{} and then
// the fields, without building and copying a whole temporary: this runs for
// most candidate pairs of every substep in a settled bed). The rim points are
// set by reuseRim.
void resetReused(ContactResult& r, const Vec3& normal, double depth, const Vec3& point,
                 const Vec3& surfacePoint1, const Vec3& surfacePoint2, ContactStatus status,
                 WallFeature feature, bool onFlatPatch) {
    r.contact = depth > 0.0;
    r.point = point;
    r.normal = normal;
    r.depth = depth;
    r.surfacePoint1 = surfacePoint1;
    r.surfacePoint2 = surfacePoint2;
    r.iterations = 0;
    r.status = status;
    r.warmStarted = false;
    r.onFlatPatch = onFlatPatch;
    r.rimCount = 0;
    r.feature = feature;
    r.featureIndex = -1;
}

// How far any point of B (within radiusB of its centre) can have moved in
// A's frame since the entry's relative pose: the translation plus
// 2 r_B |vec(q_ref^-1 q_rel)| (a turn by theta moves such a point by at most
// 2 r_B sin(theta/2)). The bound of pairStillSeparated and
// apartWithinMotionBound.
double motionOfBSinceReference(const WarmStartEntry& e, const PairPose& A, const PairPose& B, double radiusB) {
    const Vec3 moved = A.rotation.transpose() * (B.position - A.position) - e.relativePosition;
    const Quat turned = e.relativeOrientation.conjugate() * (A.orientation.conjugate() * B.orientation);
    return moved.norm() + 2.0 * radiusB * turned.vec().norm();
}

// The motion since a kept patch was found (KeptPatch: the position x and
// rotation R then, of B in A's frame or of a particle in the world), now x
// and R in that frame, is a slide across the normal n and a turn about it
// within slideTolerance (times minRadius; rad), and a move along n and a
// turn about the tangents within flatTolerance. The turn T = R R_kept^T as
// sin(angle) times its axis. False too for an entry without a flat
// reference (whose normal n is) or a tolerance off.
bool withinKeptMotion(const WarmStartEntry& e, const KeptPatch& kept, const Vec3& position, const Mat3& rotation,
                      double flatTolerance, double slideTolerance, double minRadius) {
    if (!e.hasReference || !e.flatReference || !kept.valid || !(flatTolerance > 0.0) || !(slideTolerance > 0.0))
        return false;
    const Vec3& n = e.normalInA; // (theirs: an entry's normal stays while its patch is kept)
    const Vec3 moved = position - kept.position();
    const double along = n.dot(moved);
    const double reach = flatTolerance * minRadius, slide = slideTolerance * minRadius;
    if (along * along > reach * reach || (moved - along * n).squaredNorm() > slide * slide) return false;
    const Mat3 T = rotation * kept.rotation().transpose();
    const Vec3 turn = 0.5 * Vec3(T(2, 1) - T(1, 2), T(0, 2) - T(2, 0), T(1, 0) - T(0, 1));
    const double spin = n.dot(turn);
    return T.trace() > 1.0 && spin * spin <= slideTolerance * slideTolerance && // (trace > 1: under 90 deg)
           (turn - spin * n).squaredNorm() <= flatTolerance * flatTolerance;
}

void reuseRim(const WarmStartEntry& e, const PairPose& frame, ContactResult& r) {
    r.rimCount = static_cast<int>(e.rimCount);
    for (int k = 0; k < r.rimCount; ++k) r.rim[k] = frame.position + frame.rotation * e.rimInA[k];
}

} // namespace

void storePairReference(WarmStartEntry& e, const PairPose& A, const PairPose& B,
                        const ContactResult& r) {
    e.hasReference = true;
    e.flatReference = r.onFlatPatch;
    e.relativeOrientation = A.orientation.conjugate() * B.orientation;
    e.relativePosition = A.rotation.transpose() * (B.position - A.position);
    e.normalInA = A.rotation.transpose() * r.normal;
    e.supportA = A.rotation.transpose() * (r.surfacePoint1 - A.position);
    e.supportB = B.rotation.transpose() * (r.surfacePoint2 - B.position);
    e.referenceDepth = r.depth;
    storeRim(e, A, r);
}

bool reusePairReference(const WarmStartEntry& e, const PairPose& A, const PairPose& B,
                        double curvedTolerance, double flatTolerance, double minRadius,
                        ContactResult& r, double flatTranslation) {
    if (!withinTolerance(e, A.rotation.transpose() * (B.position - A.position),
                         A.orientation.conjugate() * B.orientation, curvedTolerance, flatTolerance,
                         flatTranslation, minRadius, e.normalInA))
        return false;
    // Apart by more than the reused depth can change within the tolerance
    // (B's stored point moves by at most tolerance (r_min + |p_B|) in A's
    // frame): "no contact" without evaluating it. A third of the candidate
    // pairs of a settled bed.
    const double tolerance = largestTolerance(e, curvedTolerance, flatTolerance, flatTranslation);
    if (e.referenceDepth < 0.0 &&
        e.referenceDepth * e.referenceDepth >
            4.0 * tolerance * tolerance * (minRadius * minRadius + e.supportB.squaredNorm())) {
        r.contact = false;
        r.depth = e.referenceDepth;
        r.normal = e.normal; // the last one, world frame
        r.rimCount = 0;
        return true;
    }
    const Vec3 pA = A.position + A.rotation * e.supportA;
    const Vec3 pB = B.position + B.rotation * e.supportB;
    const Vec3 normal = A.rotation * e.normalInA;
    const double depth = normal.dot(pA - pB);
    resetReused(r, normal, depth, 0.5 * (pA + pB), pA, pB, ContactStatus::newton, // an earlier Newton answer
                WallFeature::none, e.flatReference);
    reuseRim(e, A, r);
    return true;
}

bool reuseKeptPatch(const WarmStartEntry& e, const KeptPatch& kept, const PairPose& poseA,
                    const PairPose& poseB, const PosedBody& A, const PosedBody& B, double flatTolerance,
                    double slideTolerance, double minRadius, ContactResult& r) {
    // the motion of B in A's frame since the outlines were found
    if (!withinKeptMotion(e, kept, poseA.rotation.transpose() * (poseB.position - poseA.position),
                          poseA.rotation.transpose() * poseB.rotation, flatTolerance, slideTolerance, minRadius))
        return false;
    const Vec3& nA = e.normalInA;
    const Vec3 n = poseA.rotation * nA;
    const Vec3 pA = poseA.position + poseA.rotation * e.supportA;
    const Vec3 pB = poseB.position + poseB.rotation * e.supportB;
    const double depth = n.dot(pA - pB);
    if (!(depth > 0.0)) return false; // (opening: the exact query decides)
    // the kept frame moved with A and with B
    const Vec3 origin = A.toWorld(kept.frameOrigin(1));
    PatchPoints patch;
    if (!keptPairPatch(kept, A, B, n, origin, A.rotation * kept.frameAxis(1), B.toWorld(kept.frameOrigin(2)),
                       B.rotation * kept.frameAxis(2), patch))
        return false;
    // at mid-depth between the two support planes, as a fresh answer
    const Vec3 level = (0.5 * n.dot(pA + pB) - n.dot(origin)) * n;
    const Vec3 point = origin + level + patch.centroid;
    resetReused(r, n, depth, point, point + 0.5 * depth * n, point - 0.5 * depth * n, ContactStatus::newton,
                WallFeature::none, !patch.centroid.isZero(0.0));
    r.rimCount = patch.rimCount;
    for (int k = 0; k < patch.rimCount; ++k) r.rim[k] = origin + level + patch.rim[k];
    return true;
}

bool reuseKeptWallPatch(const WarmStartEntry& e, const KeptPatch& kept, const PairPose& particle,
                        const Superellipsoid& shape, const WallSet& walls, int face, double flatTolerance,
                        double slideTolerance, double radius, ContactResult& r) {
    // (the entry's normal: the face's, world)
    if (!withinKeptMotion(e, kept, particle.position, particle.rotation, flatTolerance, slideTolerance, radius))
        return false;
    return keptFaceContact(shape, Pose{particle.position, particle.orientation}, walls, face, kept, r);
}

bool separatedAlongReference(const WarmStartEntry& e, const PosedBody& A, const PosedBody& B,
                             double margin, ContactResult& r) {
    if (!e.hasReference || !(e.referenceDepth < 0.0)) return false;
    const Vec3 n = A.rotation * e.normalInA;
    Vec3 pA, pB;
    const double f = overlapAlong(A, B, n, pA, pB);
    if (!(f < -margin)) return false;
    r.contact = false;
    r.depth = f; // an upper bound of the (negative) exact depth
    r.normal = n;
    r.surfacePoint1 = pA;
    r.surfacePoint2 = pB;
    r.rimCount = 0;
    r.iterations = 0;
    r.onFlatPatch = false;
    return true;
}

bool apartWithinMotionBound(const WarmStartEntry& e, const PairPose& A, const PairPose& B,
                            double radiusB, double margin) {
    if (!e.hasReference || !(e.referenceDepth < -margin)) return false;
    return e.referenceDepth + motionOfBSinceReference(e, A, B, radiusB) < -margin;
}

void refreshApartReference(WarmStartEntry& e, const PairPose& A, const PairPose& B, const ContactResult& r) {
    e.relativeOrientation = A.orientation.conjugate() * B.orientation;
    e.relativePosition = A.rotation.transpose() * (B.position - A.position);
    e.supportB = B.rotation.transpose() * (r.surfacePoint2 - B.position);
    e.referenceDepth = r.depth;
}

Vec3 flatPatchWarmNormal(const WarmStartEntry& e, const PosedBody& A, const PosedBody& B) {
    const Vec3 withA = A.rotation * e.normalInA;
    const Vec3 withB = B.rotation * (e.relativeOrientation.conjugate() * e.normalInA);
    Vec3 pA, pB;
    return overlapAlong(A, B, withB, pA, pB) < overlapAlong(A, B, withA, pA, pB) ? withB : withA;
}

void storeSeparatedPair(WarmStartEntry& e, const PairPose& A, const PairPose& B, double gap) {
    e.hasReference = false;
    e.flatReference = false;
    e.relativeOrientation = A.orientation.conjugate() * B.orientation;
    e.relativePosition = A.rotation.transpose() * (B.position - A.position);
    e.rimCount = 0;
    e.separation = gap > 0.0 ? gap : 0.0;
}

bool pairStillSeparated(const WarmStartEntry& e, const PairPose& A, const PairPose& B, double radiusB,
                        double reach) {
    if (!(e.separation > 0.0)) return false;
    const double motion = motionOfBSinceReference(e, A, B, radiusB);
    return motion <= 0.5 * e.separation && motion + reach < e.separation;
}

void storeWallReference(WarmStartEntry& e, const PairPose& P, const ContactResult& r) {
    e.hasReference = r.feature == WallFeature::face;
    if (!e.hasReference) return;
    e.flatReference = r.onFlatPatch;
    e.relativeOrientation = P.orientation;
    e.relativePosition = P.position;
    e.normalInA = r.normal;                                           // world (the face's)
    e.supportA = P.rotation.transpose() * (r.surfacePoint2 - P.position); // particle, body frame
    e.supportB = r.surfacePoint1;                                     // on the face plane, world
    storeRim(e, P, r);
}

bool reuseWallReference(const WarmStartEntry& e, const PairPose& P, double curvedTolerance,
                        double flatTolerance, double radius, ContactResult& r, double flatTranslation) {
    if (!withinTolerance(e, P.position, P.orientation, curvedTolerance, flatTolerance, flatTranslation,
                         radius, e.normalInA)) // (the face's world normal)
        return false;
    const Vec3& n = e.normalInA; // from the wall into the domain
    const Vec3 particlePoint = P.position + P.rotation * e.supportA;
    const double depth = n.dot(e.supportB - particlePoint);
    const Vec3 wallPoint = particlePoint + depth * n;
    resetReused(r, n, depth, 0.5 * (wallPoint + particlePoint), wallPoint, particlePoint,
                ContactStatus::closedForm, WallFeature::face, e.flatReference);
    reuseRim(e, P, r);
    return true;
}

} // namespace sef::dem
