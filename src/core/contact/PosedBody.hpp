#pragma once
// A shape with its pose and the rotation matrix cached, so the narrow phase
// can call the body-frame support map many times without rebuilding R(q).
// Pure convenience over the geometry kernel; no geometry of its own.
#include "contact/SupportKernel.hpp"
#include "geometry/Pose.hpp"
#include "geometry/Superellipsoid.hpp"

#include "geometry/Types.hpp"

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
    // Support points of this body along count (<= SupportKernel::kMaxLanes)
    // independent world directions, evaluated together (supportLanes).
    void support(const Vec3* dWorld, Vec3* out, int count) const {
        const PosedBody* same[SupportKernel::kMaxLanes];
        for (int i = 0; i < count; ++i) same[i] = this;
        supportLanes(same, dWorld, out, count);
    }
    // Lane i: bodies[i]->support(dWorld[i]), bit for bit, with the pow
    // chains of the lanes overlapped (SupportKernel::supportLanes).
    static void supportLanes(const PosedBody* const* bodies, const Vec3* dWorld, Vec3* out, int count) {
        if (count <= 0) return;
        const SupportKernel* kernels[SupportKernel::kMaxLanes];
        Vec3 dBody[SupportKernel::kMaxLanes];
        for (int i = 0; i < count; ++i) {
            kernels[i] = &bodies[i]->kernel;
            dBody[i] = bodies[i]->directionToBody(dWorld[i]);
        }
        SupportKernel::supportLanes(kernels, dBody, out, count);
        for (int i = 0; i < count; ++i) out[i] = bodies[i]->toWorld(out[i]);
    }
    double implicitFunction(const Vec3& xWorld) const {
        return kernel.implicitFunction(toBody(xWorld));
    }
    double smallestHalfAxis() const { return shape.halfAxes().minCoeff(); }
};

// p1 = body1.support(d1) and p2 = body2.support(d2), evaluated together.
inline void supportPair(const PosedBody& body1, const Vec3& d1, const PosedBody& body2, const Vec3& d2,
                        Vec3& p1, Vec3& p2) {
    if (body1.kernel.powFree() && body2.kernel.powFree()) { // ellipsoids: nothing to overlap
        p1 = body1.support(d1);
        p2 = body2.support(d2);
        return;
    }
    const PosedBody* bodies[2] = {&body1, &body2};
    const Vec3 d[2] = {d1, d2};
    Vec3 p[2];
    PosedBody::supportLanes(bodies, d, p, 2);
    p1 = p[0];
    p2 = p[1];
}

// Unit vectors t1, t2 completing the unit vector n to a right-handed basis.
inline void tangentBasis(const Vec3& n, Vec3& t1, Vec3& t2) {
    const Vec3 helper = std::abs(n.x()) < 0.57 ? Vec3::UnitX()
                        : (std::abs(n.y()) < 0.57 ? Vec3::UnitY() : Vec3::UnitZ());
    t1 = n.cross(helper).normalized();
    t2 = n.cross(t1);
}

} // namespace sef
