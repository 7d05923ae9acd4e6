#pragma once
// Common Eigen aliases of the core. The core knows nothing of OpenFOAM.
#include <Eigen/Core>
#include <Eigen/Geometry>

#include <cmath>

namespace sef {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
// Quaternions are [w, x, y, z], unit, rotating body-frame vectors into the
// world frame: x_world = R(q) x_body + position (../DESIGN conventions).
using Quat = Eigen::Quaterniond;

// True if every entry is finite. Eigen's allFinite() computes x - x, which
// raises the invalid-operation exception for an infinite entry and so kills
// an OpenFOAM run (floating-point traps) in the very check meant to catch
// it; std::isfinite only classifies and raises nothing.
template <typename Derived>
bool isFinite(const Eigen::DenseBase<Derived>& m) {
    for (Eigen::Index j = 0; j < m.cols(); ++j)
        for (Eigen::Index i = 0; i < m.rows(); ++i)
            if (!std::isfinite(m.coeff(i, j))) return false;
    return true;
}

// Cross-product matrix: skew(a) b = a x b.
inline Mat3 skew(const Vec3& v) {
    Mat3 S;
    S << 0.0, -v.z(), v.y(), v.z(), 0.0, -v.x(), -v.y(), v.x(), 0.0;
    return S;
}

} // namespace sef
