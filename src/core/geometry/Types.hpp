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

} // namespace sef
