#pragma once
// Rodrigues rotation parameters ([Rodrigues-DEM], sec. 2): the rescaled vector
// alpha = 2 tan(theta/2) e of a rotation by theta about the unit axis e
// ([Rodrigues-DEM], eq. (9)). An optional alternative to quaternions; it cannot
// represent half-turns (|alpha| -> infinity at theta = pi).
#include "geometry/Types.hpp"

namespace sef {

// Q = I + 4/(4+alpha^2) [Skew(alpha) + 1/2 Skew(alpha)^2]   ([Rodrigues-DEM], eq. (10);
// the paper's text copy prints 1+alpha^2, inconsistent with its eq. (7))
Mat3 rotationFromRodrigues(const Vec3& alpha);

// Rodrigues vector of Q2 Q1 (first alpha1, then alpha2)     ([Rodrigues-DEM], eq. (11))
// Throws std::invalid_argument if the composite is a half-turn (4 = alpha1.alpha2).
Vec3 composeRodrigues(const Vec3& alpha1, const Vec3& alpha2);

// alpha = tan(theta/2)/(theta/2) theta                      ([Rodrigues-DEM], eq. (9))
// Throws std::invalid_argument for |theta| >= pi (not representable).
Vec3 rodriguesFromRotationVector(const Vec3& theta);

// Conversions; quaternion [w, v] <-> alpha = 2 v / w (w chosen >= 0).
// rodriguesFromQuaternion throws std::invalid_argument for half-turns (w = 0).
Vec3 rodriguesFromQuaternion(const Quat& q);
Quat quaternionFromRodrigues(const Vec3& alpha);

// Orientation update with a constant WORLD angular velocity, [Rodrigues-DEM]
// eq. (47): alpha(t+dt) = compose(alpha(t), alpha_delta). The increment is
// the exact Rodrigues vector of the rotation vector w dt (the paper's
// eq. (45) takes alpha_delta ~ w dt, which is first-order accurate in the
// rescaling tan(x)/x); with it this matches advanceOrientation exactly.
Vec3 advanceRodrigues(const Vec3& alpha, const Vec3& omegaWorld, double dt);

} // namespace sef
