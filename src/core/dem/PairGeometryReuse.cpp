#include "dem/PairGeometryReuse.hpp"

#include <cmath>

namespace sef::dem {

void storePairReference(WarmStartEntry& e, const PairPose& A, const PairPose& B,
                        const ContactResult& r) {
    e.hasReference = true;
    e.flatReference = r.onFlatPatch;
    e.relativeOrientation = A.orientation.conjugate() * B.orientation;
    e.relativePosition = A.rotation.transpose() * (B.position - A.position);
    e.normalInA = A.rotation.transpose() * r.normal;
    e.supportA = A.rotation.transpose() * (r.surfacePoint1 - A.position);
    e.supportB = B.rotation.transpose() * (r.surfacePoint2 - B.position);
}

bool reusePairReference(const WarmStartEntry& e, const PairPose& A, const PairPose& B,
                        double curvedTolerance, double flatTolerance, double minRadius,
                        ContactResult& r) {
    if (!e.hasReference) return false;
    const double tolerance = e.flatReference ? flatTolerance : curvedTolerance;
    const Vec3 relativePosition = A.rotation.transpose() * (B.position - A.position);
    if ((relativePosition - e.relativePosition).squaredNorm() >
        tolerance * tolerance * minRadius * minRadius)
        return false;
    // rotation angle of q_ref^-1 q_rel: 2 asin|vec| ~ 2 |vec|
    const Quat relative = A.orientation.conjugate() * B.orientation;
    const Quat change = e.relativeOrientation.conjugate() * relative;
    if (4.0 * change.vec().squaredNorm() > tolerance * tolerance) return false;
    const Vec3 pA = A.position + A.rotation * e.supportA;
    const Vec3 pB = B.position + B.rotation * e.supportB;
    r = ContactResult{};
    r.normal = A.rotation * e.normalInA;
    r.surfacePoint1 = pA;
    r.surfacePoint2 = pB;
    r.depth = r.normal.dot(pA - pB);
    r.point = 0.5 * (pA + pB);
    r.contact = r.depth > 0.0;
    r.status = ContactStatus::newton; // an earlier Newton answer, carried along
    r.onFlatPatch = e.flatReference;
    return true;
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
}

bool reuseWallReference(const WarmStartEntry& e, const PairPose& P, double curvedTolerance,
                        double flatTolerance, double radius, ContactResult& r) {
    if (!e.hasReference) return false;
    const double tolerance = e.flatReference ? flatTolerance : curvedTolerance;
    if ((P.position - e.relativePosition).squaredNorm() > tolerance * tolerance * radius * radius)
        return false;
    const Quat change = e.relativeOrientation.conjugate() * P.orientation;
    if (4.0 * change.vec().squaredNorm() > tolerance * tolerance) return false;
    const Vec3& n = e.normalInA; // from the wall into the domain
    const Vec3 particlePoint = P.position + P.rotation * e.supportA;
    r = ContactResult{};
    r.normal = n;
    r.depth = n.dot(e.supportB - particlePoint);
    r.surfacePoint2 = particlePoint;
    r.surfacePoint1 = particlePoint + r.depth * n;
    r.point = 0.5 * (r.surfacePoint1 + r.surfacePoint2);
    r.contact = r.depth > 0.0;
    r.status = ContactStatus::closedForm;
    r.feature = WallFeature::face;
    r.onFlatPatch = e.flatReference;
    return true;
}

} // namespace sef::dem
