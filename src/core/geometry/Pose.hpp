#pragma once
// Rigid-body pose: x_world = R(q) x_body + position (DESIGN conventions).
#include "geometry/Types.hpp"

namespace sef {

struct Pose {
    Vec3 position = Vec3::Zero();
    Quat orientation = Quat::Identity(); // unit, [w, x, y, z]

    Mat3 rotation() const { return orientation.toRotationMatrix(); }
    Vec3 toWorld(const Vec3& xBody) const { return orientation * xBody + position; }
    Vec3 toBody(const Vec3& xWorld) const { return orientation.conjugate() * (xWorld - position); }
    Vec3 directionToWorld(const Vec3& dBody) const { return orientation * dBody; }
    Vec3 directionToBody(const Vec3& dWorld) const { return orientation.conjugate() * dWorld; }
};

} // namespace sef
