#include "contact/BoundingVolumes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sef {

double orientedBoxGap(const BoxFrame& box1, const BoxFrame& box2) {
    const Vec3 t = box2.center - box1.center;
    const Mat3& a = box1.axes;
    const Mat3& b = box2.axes;
    // Projected radius of a box onto the unit axis L: sum_i e_i |axis_i . L|.
    auto gapAlong = [&](const Vec3& axis) {
        const double norm = axis.norm();
        if (norm < 1e-9) return -std::numeric_limits<double>::infinity(); // parallel edges: axis undefined, skip
        const Vec3 l = axis / norm;
        const double r1 = (a.transpose() * l).cwiseAbs().dot(box1.halfExtents);
        const double r2 = (b.transpose() * l).cwiseAbs().dot(box2.halfExtents);
        return std::abs(t.dot(l)) - r1 - r2;
    };
    double gap = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < 3; ++i) {
        gap = std::max(gap, gapAlong(a.col(i)));
        gap = std::max(gap, gapAlong(b.col(i)));
    }
    if (gap > 0.0) return gap;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) gap = std::max(gap, gapAlong(a.col(i).cross(b.col(j))));
    return gap;
}

double orientedBoxPlaneGap(const BoxFrame& box, const Vec3& planePoint, const Vec3& planeNormal) {
    const double radius = (box.axes.transpose() * planeNormal).cwiseAbs().dot(box.halfExtents);
    return planeNormal.dot(box.center - planePoint) - radius;
}

} // namespace sef
