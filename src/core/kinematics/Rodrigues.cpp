#include "kinematics/Rodrigues.hpp"

#include <cmath>
#include <stdexcept>

namespace sef {

namespace {
constexpr double pi = 3.14159265358979323846;
} // namespace

Mat3 rotationFromRodrigues(const Vec3& alpha) {
    // [Rodrigues-DEM], eq. (10). The text copy prints 4/(1+alpha^2); with
    // alpha = 2 tan(theta/2) e the Euler-Rodrigues formula (their eq. (7) with
    // vartheta = alpha/2) gives 4/(4+alpha^2), which is what we use (tested
    // against the quaternion rotation matrix).
    const Mat3 A = skew(alpha);
    return Mat3::Identity() + (4.0 / (4.0 + alpha.squaredNorm())) * (A + 0.5 * A * A);
}

Vec3 composeRodrigues(const Vec3& a1, const Vec3& a2) {
    // [Rodrigues-DEM], eq. (11)
    const double denominator = 4.0 - a1.dot(a2);
    if (std::abs(denominator) <= 1e-14 * (4.0 + a1.norm() * a2.norm()))
        throw std::invalid_argument(
            "composeRodrigues: the composite rotation is a half-turn, not representable "
            "by Rodrigues parameters");
    return (4.0 / denominator) * (a1 + a2 - 0.5 * a1.cross(a2));
}

Vec3 rodriguesFromRotationVector(const Vec3& theta) {
    const double angle = theta.norm();
    if (!(angle < pi))
        throw std::invalid_argument(
            "rodriguesFromRotationVector: rotation angle must be below pi (half-turn)");
    if (angle < 1e-4) {
        // tan(x)/x = 1 + x^2/3 + ..., x = angle/2
        const double x2 = 0.25 * angle * angle;
        return (1.0 + x2 / 3.0 + 2.0 * x2 * x2 / 15.0) * theta;
    }
    const double x = 0.5 * angle;
    return (std::tan(x) / x) * theta; // [Rodrigues-DEM], eq. (9)
}

Vec3 rodriguesFromQuaternion(const Quat& qIn) {
    Quat q = qIn.normalized();
    if (q.w() < 0.0) q.coeffs() = -q.coeffs();
    if (q.w() <= 1e-14)
        throw std::invalid_argument(
            "rodriguesFromQuaternion: half-turn orientation is not representable");
    return (2.0 / q.w()) * q.vec(); // |alpha| = 2 sin(t/2)/cos(t/2)
}

Quat quaternionFromRodrigues(const Vec3& alpha) {
    const double s = 1.0 / std::sqrt(1.0 + 0.25 * alpha.squaredNorm());
    return Quat(s, 0.5 * s * alpha.x(), 0.5 * s * alpha.y(), 0.5 * s * alpha.z());
}

Vec3 advanceRodrigues(const Vec3& alpha, const Vec3& omegaWorld, double dt) {
    // [Rodrigues-DEM], eq. (47)
    return composeRodrigues(alpha, rodriguesFromRotationVector(omegaWorld * dt));
}

} // namespace sef
