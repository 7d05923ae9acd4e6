#pragma once
// Robust fallback for the narrow phase: GJK (intersection test) and EPA
// (penetration depth) on the support function of the Minkowski difference
// K = body1 - body2. Works for any convex body given by its support map, so
// it is right for edges and corners (eps in (1, 2]) where second derivatives
// of the implicit function do not exist; it never uses derivatives.
//
// Answers:
//  - separated: a direction n with h_K(n) < 0, i.e. a separating axis;
//  - intersecting: the EPA normal n (from body 1 to body 2) minimising
//    h_K(n) = overlap along n, to within `tolerance`;
//  - undecided: grazing configurations where neither certificate is found
//    within the iteration budget (|overlap| is then below the tolerance);
//    normal and overlap are the smallest h_K(d) over GJK's search directions
//    (an upper bound of the depth, near zero when the bodies touch).
#include "geometry/Types.hpp"

#include <functional>

namespace sef {

struct ConvexFallbackResult {
    enum class Outcome { separated, intersecting, undecided };
    Outcome outcome = Outcome::undecided;
    Vec3 normal = Vec3::UnitX(); // unit, from body 1 to body 2
    double overlap = 0.0;        // h_K(normal): > 0 penetration, < 0 separation along normal
    int iterations = 0;
};

// supportK(d) = support1(d) - support2(-d); interiorPoint is a point of K
// (for example centre1 - centre2); tolerance is absolute [m].
ConvexFallbackResult gjkEpa(const std::function<Vec3(const Vec3&)>& supportK,
                            const Vec3& interiorPoint, double tolerance);

} // namespace sef
