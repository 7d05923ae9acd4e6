#pragma once
// Cheap rejection tests of the pre-evaluation ([Superellipsoid-OpenFOAM], sec. 3.4.3 and
// 3.5.3; [Superquadric-LIGGGHTS], "Neighbor search"): bounding spheres, then oriented
// bounding boxes (separating-axis test, Ericson 2005 / Gottschalk 1996).
// Each returns a lower bound of the gap between the two bodies: > 0 means
// certainly separated.
#include "geometry/Types.hpp"

namespace sef {

// Box with centre, body axes (columns, world) and half-extents along them.
struct BoxFrame {
    Vec3 center;
    Mat3 axes;
    Vec3 halfExtents;
};

inline double boundingSphereGap(const Vec3& center1, double radius1, const Vec3& center2,
                                double radius2) {
    return (center2 - center1).norm() - radius1 - radius2;
}

// Largest separation over the 15 axes of the separating-axis theorem (each
// axis normalised, so the value is a true lower bound of the gap); <= 0 if the
// boxes overlap.
double orientedBoxGap(const BoxFrame& box1, const BoxFrame& box2);

// Height of the lowest box point above the plane (point, unit normal).
double orientedBoxPlaneGap(const BoxFrame& box, const Vec3& planePoint, const Vec3& planeNormal);

} // namespace sef
