#include "dem/injection/RegionFit.hpp"

#include <algorithm>
#include <cmath>

namespace sef::dem {

RegionOpenings periodicOpenings(const InjectionRegion& r, const PeriodicLattice& lattice) {
    RegionOpenings open;
    for (const PeriodicDirection& p : lattice.directions()) {
        const double period = p.translation.dot(p.inwardNormal); // between the planes
        const auto spansPeriod = [&](const Vec3& faceNormal, double length) {
            return std::abs(faceNormal.dot(p.inwardNormal)) >= 1.0 - 1e-9 && length >= period * (1.0 - 1e-9);
        };
        if (r.kind == InjectionRegion::Kind::box) {
            for (int k = 0; k < 3; ++k)
                open.boxAxis[k] = open.boxAxis[k] || spansPeriod(Vec3::Unit(k), r.max[k] - r.min[k]);
        } else {
            const Vec3 axis = r.point2 - r.point1;
            open.cylinderEnds = open.cylinderEnds || spansPeriod(axis.normalized(), axis.norm());
        }
    }
    return open;
}

bool sampleCentre(const InjectionRegion& r, double margin, PortableRandom& rng, Vec3& x,
                  const RegionOpenings& open) {
    const double m = margin;
    if (r.kind == InjectionRegion::Kind::box) {
        for (int k = 0; k < 3; ++k) {
            const double mk = open.boxAxis[k] ? 0.0 : m;
            if (r.max[k] - r.min[k] < 2 * mk) return false;
            x[k] = rng.uniform(r.min[k] + mk, r.max[k] - mk);
        }
        return true;
    }
    const Vec3 axis = r.point2 - r.point1;
    const double length = axis.norm();
    const double mAxial = open.cylinderEnds ? 0.0 : m;
    if (length < 2 * mAxial || r.radius < m) return false;
    const Vec3 e = axis / length;
    const Vec3 u = e.unitOrthogonal(), v = e.cross(u);
    const double rho = (r.radius - m) * std::sqrt(rng.uniform()); // uniform over the disc
    const double phi = rng.uniform(0, 2 * M_PI);
    x = r.point1 + e * rng.uniform(mAxial, length - mAxial) + rho * (std::cos(phi) * u + std::sin(phi) * v);
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

bool sphereInRegion(const InjectionRegion& r, const Vec3& x, double R, const RegionOpenings& open) {
    if (r.kind == InjectionRegion::Kind::box) {
        for (int k = 0; k < 3; ++k)
            if (!open.boxAxis[k] && !(x[k] - R >= r.min[k] && x[k] + R <= r.max[k])) return false;
        return true;
    }
    Vec3 e;
    double length, s, rho;
    cylinderCoordinates(r, x, e, length, s, rho);
    return (open.cylinderEnds || (s - R >= 0 && s + R <= length)) && rho + R <= r.radius;
}

bool bodyInRegion(const InjectionRegion& r, const Superellipsoid& shape, const Pose& pose,
                  const RegionOpenings& open) {
    // the body is symmetric about its centre: h(-n) = h(n)
    const auto extent = [&](const Vec3& worldDirection) {
        return shape.supportValue(pose.directionToBody(worldDirection));
    };
    const Vec3& x = pose.position;
    if (r.kind == InjectionRegion::Kind::box) {
        for (int k = 0; k < 3; ++k) {
            if (open.boxAxis[k]) continue;
            const double h = extent(Vec3::Unit(k));
            if (x[k] - h < r.min[k] || x[k] + h > r.max[k]) return false;
        }
        return true;
    }
    Vec3 e;
    double length, s, rho;
    cylinderCoordinates(r, x, e, length, s, rho);
    if (!open.cylinderEnds) {
        const double h = extent(e);
        if (s - h < 0 || s + h > length) return false;
    }
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
