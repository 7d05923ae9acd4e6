#pragma once
// Narrow phase superellipsoid - plane wall ([Superellipsoid-OpenFOAM], sec. 3.4).
//
// The wall W(r) = n_w . (r - a) = 0 ([Superellipsoid-OpenFOAM], eqs. 24-25) with n_w pointing
// into the particle side. Part 2 of the paper (eqs. 43-50) looks for the
// surface point with normal -n_w: for a convex body that point is the
// support point in direction -n_w, which the geometry kernel gives in closed
// form for every eps in (0, 2] (also on edges, where the Newton system of
// Part 1 has no second derivatives). The answer is therefore exact and needs
// no iteration; Part 1 (the deepest wall point inside the particle) is its
// projection onto the plane.
//
// Result convention (ContactResult.hpp): body 1 is the wall, body 2 the
// particle; normal = n_w; surfacePoint1 on the plane, surfacePoint2 on the
// particle; depth = penetration below the plane (negative: gap). Flat-faced
// particles: both points moved to the centre of the part of the particle
// below the plane (ContactPatch.hpp), so a cube lying flat gets the point
// below its centre.
#include "contact/ContactResult.hpp"
#include "geometry/Pose.hpp"
#include "geometry/Superellipsoid.hpp"

namespace sef {

struct WallPlane {
    Vec3 point = Vec3::Zero();
    Vec3 normal = Vec3::UnitZ(); // unit, into the particle / fluid side

    // Plane through three points ([Superellipsoid-OpenFOAM], eq. 24): n = (c-a) x (b-a) / |.|.
    // Throws std::invalid_argument for collinear points.
    static WallPlane fromPoints(const Vec3& a, const Vec3& b, const Vec3& c);
};

// Pre-evaluation (bounding sphere, then OBB against the plane) is done when
// boundingVolumeRejection is true; rejected answers carry a depth bound.
ContactResult detectWallContact(const Superellipsoid& shape, const Pose& pose,
                                const WallPlane& wall, bool boundingVolumeRejection = true);

} // namespace sef
