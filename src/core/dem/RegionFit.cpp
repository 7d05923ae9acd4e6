#include "dem/RegionFit.hpp"

#include <algorithm>
#include <cmath>

namespace sef::dem {

bool sampleCentre(const InjectionRegion& r, double margin, PortableRandom& rng, Vec3& x) {
    const double m = margin;
    if (r.kind == InjectionRegion::Kind::box) {
        for (int k = 0; k < 3; ++k) {
            if (r.max[k] - r.min[k] < 2 * m) return false;
            x[k] = rng.uniform(r.min[k] + m, r.max[k] - m);
        }
        return true;
    }
    const Vec3 axis = r.point2 - r.point1;
    const double length = axis.norm();
    if (length < 2 * m || r.radius < m) return false;
    const Vec3 e = axis / length;
    const Vec3 u = e.unitOrthogonal(), v = e.cross(u);
    const double rho = (r.radius - m) * std::sqrt(rng.uniform()); // uniform over the disc
    const double phi = rng.uniform(0, 2 * M_PI);
    x = r.point1 + e * rng.uniform(m, length - m) + rho * (std::cos(phi) * u + std::sin(phi) * v);
    return true;
}

namespace {

// Axial coordinate of x and its distance from the cylinder's axis
void cylinderCoordinates(const InjectionRegion& r, const Vec3& x, Vec3& e, double& length,
                         double& s, double& rho) {
    const Vec3 axis = r.point2 - r.point1;
    length = axis.norm();
    e = axis / length;
    const Vec3 d = x - r.point1;
    s = e.dot(d);
    rho = (d - s * e).norm();
}

} // namespace

bool sphereInRegion(const InjectionRegion& r, const Vec3& x, double R) {
    if (r.kind == InjectionRegion::Kind::box)
        return ((x.array() - R) >= r.min.array()).all() && ((x.array() + R) <= r.max.array()).all();
    Vec3 e;
    double length, s, rho;
    cylinderCoordinates(r, x, e, length, s, rho);
    return s - R >= 0 && s + R <= length && rho + R <= r.radius;
}

bool bodyInRegion(const InjectionRegion& r, const Superellipsoid& shape, const Pose& pose) {
    // the body is symmetric about its centre: h(-n) = h(n)
    const auto extent = [&](const Vec3& worldDirection) {
        return shape.supportValue(pose.directionToBody(worldDirection));
    };
    const Vec3& x = pose.position;
    if (r.kind == InjectionRegion::Kind::box) {
        for (int k = 0; k < 3; ++k) {
            const double h = extent(Vec3::Unit(k));
            if (x[k] - h < r.min[k] || x[k] + h > r.max[k]) return false;
        }
        return true;
    }
    Vec3 e;
    double length, s, rho;
    cylinderCoordinates(r, x, e, length, s, rho);
    const double h = extent(e);
    if (s - h < 0 || s + h > length) return false;
    if (rho + shape.boundingRadius() <= r.radius) return true;
    // farthest corner of the body's bounding box from the axis
    const Mat3 axes = pose.rotation() * shape.halfAxes().asDiagonal();
    const Vec3 d = x - r.point1;
    double farthest = 0;
    for (double sx : {-1.0, 1.0})
        for (double sy : {-1.0, 1.0})
            for (double sz : {-1.0, 1.0}) {
                const Vec3 corner = d + axes * Vec3(sx, sy, sz);
                farthest = std::max(farthest, (corner - e.dot(corner) * e).norm());
            }
    return farthest <= r.radius;
}

} // namespace sef::dem
