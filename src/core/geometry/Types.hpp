#pragma once
// Common Eigen aliases of the core. The core knows nothing of OpenFOAM.
#include <Eigen/Core>
#include <Eigen/Geometry>

namespace sef {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
// Quaternions are [w, x, y, z], unit, rotating body-frame vectors into the
// world frame: x_world = R(q) x_body + position (../DESIGN conventions).
using Quat = Eigen::Quaterniond;

// Cross-product matrix: skew(a) b = a x b.
inline Mat3 skew(const Vec3& v) {
    Mat3 S;
    S << 0.0, -v.z(), v.y(), v.z(), 0.0, -v.x(), -v.y(), v.x(), 0.0;
    return S;
}

} // namespace sef
