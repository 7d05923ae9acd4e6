#pragma once
// World-frame view of a superellipsoid at a pose ([Superquadric-LIGGGHTS], "A contact
// detection algorithm"): F(X) = f(R^T (X - X_C)), grad F = R grad f,
// H(F) = R H(f) R^T, and the third derivatives rotate on all three indices.
#include "geometry/Pose.hpp"
#include "geometry/Superellipsoid.hpp"

#include <array>

namespace sef {

double implicitFunctionWorld(const Superellipsoid& s, const Pose& pose, const Vec3& xWorld);
Vec3 gradientWorld(const Superellipsoid& s, const Pose& pose, const Vec3& xWorld);
Mat3 hessianWorld(const Superellipsoid& s, const Pose& pose, const Vec3& xWorld);
// Value, gradient and Hessian with the derivatives rotated into the world frame.
ImplicitDerivatives evaluateWorld(const Superellipsoid& s, const Pose& pose, const Vec3& xWorld);
// T[i](j, k) = d3F / dX_i dX_j dX_k in world coordinates.
std::array<Mat3, 3> thirdDerivativesWorld(const Superellipsoid& s, const Pose& pose,
                                          const Vec3& xWorld);

// Surface point (world) maximising n.X; n in world coordinates, need not be unit.
Vec3 supportPointWorld(const Superellipsoid& s, const Pose& pose, const Vec3& directionWorld);
// max over the body of n.X (includes n.position).
double supportValueWorld(const Superellipsoid& s, const Pose& pose, const Vec3& directionWorld);

// Minimal oriented box: centred at the particle, aligned with its body axes.
struct OrientedBox {
    Vec3 center;
    Mat3 axes; // columns = world directions of body x, y, z
    Vec3 halfExtents;
};
OrientedBox orientedBox(const Superellipsoid& s, const Pose& pose);

// Tight axis-aligned box from the support values along +-world axes.
struct AxisAlignedBox {
    Vec3 min, max;
};
AxisAlignedBox axisAlignedBox(const Superellipsoid& s, const Pose& pose);

} // namespace sef
