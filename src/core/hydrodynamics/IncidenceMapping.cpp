#include "hydrodynamics/IncidenceMapping.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

namespace sef {

namespace {

// Relative slack at the exact sphere and at the last node (2.5): rounding in
// the half-axes must not flip a sphere into a spheroid or refuse a 2.5.
constexpr double kRoundoff = 1e-9;
// Above the last node: half-axes are typed with 4-6 digits (9.21e-4 over
// 3.684e-4 is 2.5000 + 4e-5), so 2.5 within 1e-3 counts as 2.5.
constexpr double kLastNodeSlack = 1e-3;

IncidenceCoefficients blend(const IncidenceCoefficients& p, const IncidenceCoefficients& q, double t) {
    // (1 - t) p + t q rather than p + t (q - p): exact at both nodes.
    const double u = 1.0 - t;
    return {u * p.drag + t * q.drag, u * p.lift + t * q.lift, u * p.torque + t * q.torque};
}

} // namespace

IncidenceMapping incidenceMapping(const Superellipsoid& shape) {
    if (std::fabs(shape.eps1() - 1.0) > incidenceEpsTolerance || std::fabs(shape.eps2() - 1.0) > incidenceEpsTolerance)
        throw std::invalid_argument("incidenceMapping: eps1 = " + std::to_string(shape.eps1()) +
                                    ", eps2 = " + std::to_string(shape.eps2()) +
                                    " not within 0.1 of 1: the correlation is for ellipsoids (hoelzerSommerfeld takes any shape)");
    // Sort the body axes by half-axis: order[0] largest, order[2] smallest.
    const Vec3 h = shape.halfAxes();
    std::array<int, 3> order = {0, 1, 2};
    std::sort(order.begin(), order.end(), [&h](int i, int j) { return h[i] > h[j]; });
    const double hi = h[order[0]], mid = h[order[1]], lo = h[order[2]];

    IncidenceMapping m;
    if (hi / lo <= 1.0 + kRoundoff) return m; // sphere
    // the closer pair of half-axes is the equator, the third the axis
    const bool prolate = mid / lo <= hi / mid;
    if ((prolate ? mid / lo : hi / mid) > 1.0 + incidenceAxisTolerance)
        throw std::invalid_argument("incidenceMapping: triaxial half-axes (" + std::to_string(hi) + ", " +
                                    std::to_string(mid) + ", " + std::to_string(lo) +
                                    "): neither pair within 10 % of each other (hoelzerSommerfeld takes any shape)");
    m.shapeClass = prolate ? IncidenceClass::prolate : IncidenceClass::oblate;
    m.aspectRatio = prolate ? hi / std::sqrt(mid * lo) : lo / std::sqrt(hi * mid);
    m.axis = prolate ? order[0] : order[2];
    return m;
}

IncidenceCoefficients incidenceCoefficients(const IncidenceMapping& mapping, double Re, double alpha) {
    // The correlated shapes validate Re and alpha; the sphere node is
    // evaluated at the same arguments, so bad input throws in every class.
    const IncidenceCoefficients at1p25 = incidenceCoefficients(IncidenceShape::prolate1p25, Re, alpha);
    const IncidenceCoefficients sphere = {sphereDragCoefficient(Re), 0.0, 0.0};
    switch (mapping.shapeClass) {
    case IncidenceClass::sphere: return sphere;
    case IncidenceClass::oblate:
        throw std::invalid_argument("incidenceCoefficients: oblate-like shape (aspect ratio " +
                                    std::to_string(mapping.aspectRatio) +
                                    "): the correlation has prolate spheroids only (hoelzerSommerfeld takes any shape)");
    case IncidenceClass::prolate: break;
    }
    const double r = mapping.aspectRatio;
    const double rMax = incidenceAspectRatio(IncidenceShape::prolate2p5);
    if (!std::isfinite(r) || !(r >= 1.0) || r > rMax * (1.0 + kLastNodeSlack))
        throw std::invalid_argument("incidenceCoefficients: prolate aspect ratio " + std::to_string(r) +
                                    " outside [1, 2.5], the range of the data (hoelzerSommerfeld takes any shape)");
    const double lnNode = std::log(incidenceAspectRatio(IncidenceShape::prolate1p25));
    const double lnR = std::log(std::min(r, rMax));
    if (lnR <= lnNode) return blend(sphere, at1p25, lnR / lnNode);
    const IncidenceCoefficients at2p5 = incidenceCoefficients(IncidenceShape::prolate2p5, Re, alpha);
    return blend(at1p25, at2p5, (lnR - lnNode) / (std::log(rMax) - lnNode));
}

} // namespace sef
