#include "kinematics/OrientationUpdate.hpp"

#include <cmath>

namespace sef {

Quat quaternionFromRotationVector(const Vec3& theta) {
    const CosSinc cs = cosSinc(0.5 * theta.norm()); // sin(angle/2)/angle = sinc(angle/2)/2
    const double s = 0.5 * cs.sinc;
    Quat q(cs.cos, s * theta.x(), s * theta.y(), s * theta.z());
    q.normalize();
    return q;
}

Vec3 rotationVectorFromQuaternion(const Quat& qIn) {
    Quat q = qIn.normalized();
    if (q.w() < 0.0) q.coeffs() = -q.coeffs(); // same rotation, angle <= pi
    const Vec3 v = q.vec();
    const double sinHalf = v.norm();
    if (sinHalf < 1e-12) return 2.0 * v; // angle ~ 2 sin(angle/2)
    const double angle = 2.0 * std::atan2(sinHalf, q.w());
    return (angle / sinHalf) * v;
}

Quat advanceOrientation(const Quat& q, const Vec3& omegaWorld, double dt) {
    Quat next = quaternionFromRotationVector(omegaWorld * dt) * q;
    next.normalize();
    return next;
}

Quat advanceOrientationBody(const Quat& q, const Vec3& omegaBody, double dt) {
    Quat next = q * quaternionFromRotationVector(omegaBody * dt);
    next.normalize();
    return next;
}

Quat quaternionRate(const Quat& q, const Vec3& w) {
    // [Superellipsoid-OpenFOAM], eq. (13)
    const double e0 = q.w(), e1 = q.x(), e2 = q.y(), e3 = q.z();
    return Quat(0.5 * (-e1 * w.x() - e2 * w.y() - e3 * w.z()),
                0.5 * (e0 * w.x() - e3 * w.y() + e2 * w.z()),
                0.5 * (e3 * w.x() + e0 * w.y() - e1 * w.z()),
                0.5 * (-e2 * w.x() + e1 * w.y() + e0 * w.z()));
}

} // namespace sef
