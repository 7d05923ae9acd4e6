#include "dem/PairGeometryReuse.hpp"

#include <cmath>

namespace sef::dem {

void storePairReference(WarmStartEntry& e, const PairPose& A, const PairPose& B,
                        const ContactResult& r) {
    e.hasReference = true;
    e.relativeOrientation = A.orientation.conjugate() * B.orientation;
    e.relativePosition = A.rotation.transpose() * (B.position - A.position);
    e.normalInA = A.rotation.transpose() * r.normal;
    e.supportA = A.rotation.transpose() * (r.surfacePoint1 - A.position);
    e.supportB = B.rotation.transpose() * (r.surfacePoint2 - B.position);
}

bool reusePairReference(const WarmStartEntry& e, const PairPose& A, const PairPose& B,
                        double tolerance, double minRadius, ContactResult& r) {
    if (!e.hasReference) return false;
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
    return true;
}

} // namespace sef::dem
