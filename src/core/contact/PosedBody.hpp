#pragma once
// A shape with its pose and the rotation matrix cached, so the narrow phase
// can call the body-frame support map many times without rebuilding R(q).
// Pure convenience over the geometry kernel; no geometry of its own.
#include "contact/SupportKernel.hpp"
#include "geometry/Pose.hpp"
#include "geometry/Superellipsoid.hpp"

#include <Eigen/Dense>

namespace sef {

struct PosedBody {
    PosedBody(const Superellipsoid& s, const Pose& p)
        : shape(s), kernel(s), rotation(p.rotation()), position(p.position) {}

    const Superellipsoid& shape;
    SupportKernel kernel; // exponents precomputed once per query
    Mat3 rotation;   // body -> world
    Vec3 position;

    Vec3 toBody(const Vec3& xWorld) const { return rotation.transpose() * (xWorld - position); }
    Vec3 directionToBody(const Vec3& dWorld) const { return rotation.transpose() * dWorld; }
    Vec3 toWorld(const Vec3& xBody) const { return rotation * xBody + position; }

    // Extreme surface point along the world direction d (need not be unit).
    Vec3 support(const Vec3& dWorld) const {
        return toWorld(kernel.support(directionToBody(dWorld)));
    }
    double implicitFunction(const Vec3& xWorld) const {
        return kernel.implicitFunction(toBody(xWorld));
    }
    double smallestHalfAxis() const { return shape.halfAxes().minCoeff(); }
};

// Unit vectors t1, t2 completing the unit vector n to a right-handed basis.
inline void tangentBasis(const Vec3& n, Vec3& t1, Vec3& t2) {
    const Vec3 helper = std::abs(n.x()) < 0.57 ? Vec3::UnitX()
                        : (std::abs(n.y()) < 0.57 ? Vec3::UnitY() : Vec3::UnitZ());
    t1 = n.cross(helper).normalized();
    t2 = n.cross(t1);
}

} // namespace sef
