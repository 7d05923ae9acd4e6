#pragma once
// Orientation kinematics for unit quaternions q = [w,x,y,z] (body -> world).
//
// [Superellipsoid-OpenFOAM], eq. (13) is the body-frame form dq/dt = 1/2 q (x) (0, w'); with
// the world-frame angular velocity w = R w' it reads dq/dt = 1/2 (0, w) (x) q.
// For w constant over dt both integrate EXACTLY by the exponential map,
// which is what the functions below do (no Taylor truncation, so the
// quaternion stays unit up to round-off; it is re-normalised anyway).
#include "geometry/Types.hpp"

#include <cmath>

namespace sef {

// cos(x) and sin(x)/x. The angles of one substep are tiny (|w| h ~ 1e-6 in
// a settled bed), where the libm calls dominate the rotation update: below
// |x| < 1e-3 the Taylor series through x^4 is exact to round-off (the first
// dropped terms, x^6/6! and x^6/7!, are below 1.4e-21).
struct CosSinc {
    double cos, sinc;
};
inline CosSinc cosSinc(double x) {
    const double x2 = x * x;
    if (x2 < 1e-6) // Horner with the reciprocal factorials (no divisions)
        return {1.0 + x2 * (-1.0 / 2 + x2 * (1.0 / 24)), 1.0 + x2 * (-1.0 / 6 + x2 * (1.0 / 120))};
    return {std::cos(x), std::sin(x) / x};
}

// Unit quaternion of the rotation by the rotation vector theta (angle |theta|
// about theta/|theta|): exp(theta/2). Accurate for tiny angles (series).
Quat quaternionFromRotationVector(const Vec3& theta);

// Rotation vector of a unit quaternion (inverse of the above; angle in [0, pi]).
Vec3 rotationVectorFromQuaternion(const Quat& q);

// q(t+dt) for constant WORLD-frame angular velocity: exp(w dt / 2) (x) q.
Quat advanceOrientation(const Quat& q, const Vec3& omegaWorld, double dt);

// q(t+dt) for constant BODY-frame angular velocity: q (x) exp(w' dt / 2).
Quat advanceOrientationBody(const Quat& q, const Vec3& omegaBody, double dt);

// dq/dt of [Superellipsoid-OpenFOAM], eq. (13) (body-frame angular velocity), as a
// quaternion [de0, de1, de2, de3]. For checks and external integrators.
Quat quaternionRate(const Quat& q, const Vec3& omegaBody);

} // namespace sef
