#pragma once
// Face chart of a blocky p-norm ball: the directions near a flat face
// parametrised by where the support point sits on that face.
//
// Why: on a flat face of a blocky shape the support point moves
// with the direction like angle^(eps/(2-eps)) (angle^0.11 at eps = 0.2), so
// the common-normal misfit g = T^T (p1 - p2) is a steep power of the angle
// and Newton on the angle converges only linearly (each step overshoots
// ~(2-eps)/eps times; 10-30 iterations per blocky query). Parametrised by
// the support point's lateral face coordinates s instead, the body's part
// of the misfit is LINEAR in s and Newton converges quadratically.
//
// For eps1 = eps2 = eps (p = 2/eps) the body is {x : sum |x_i / L_i|^p <= 1}
// (L = (a, b, c)). On the face of body axis k (sign sigma) take
//     w = s on the two lateral axes, w_k = sigma,
//     x(s) = L o w / G^(1/p),  G = 1 + |s_1|^p + |s_2|^p   (surface point),
//     mu(s)_i = sign(w_i) |w_i|^(p-1) / L_i                (outward normal, unnormalised),
// both smooth in s for p > 2 (for p = 10 and 8 plain polynomials); this is
// the inverse of the support map x_i = L_i q_i S^(-1/p), q_i = u_i^(1/(p-1))
// of SupportKernel (s_i = q_i / q_k). The chart covers the whole half-space
// of directions with mu_k sigma > 0. Fixing one coordinate s_j confines the
// normal to a plane (planeNormal); the Newton iteration of
// CommonNormalNewton.cpp takes the two flattest coordinates of both bodies
// (a face: both of its body's; an edge: the one along it) as its unknowns.
#include "contact/PosedBody.hpp"

#include <algorithm>
#include <cmath>

namespace sef {

using Vec2 = Eigen::Vector2d; // (as in CommonNormalNewton.hpp)

class FaceChart {
public:
    // The chart of `body` at its surface point `worldPoint` (the support
    // point of the current normal, or of its opposite for body 2 of the
    // common-normal problem). False if the body is not a blocky p-norm ball
    // (eps1 = eps2 < 1).
    static bool at(const PosedBody& body, const Vec3& worldPoint, FaceChart& chart);
    // Whether a shape has face charts: eps1 = eps2 < 1.
    static bool applies(const Superellipsoid& shape) { return shape.eps1() == shape.eps2() && shape.eps1() < 1.0; }

    const Vec2& coordinates() const { return s_; }
    // Smallest |s_j| that the world normal resolves to ~1e-8: the normal
    // turns by (p-1) |s|^(p-2) per unit of s, and a world normal carries
    // ~1e-16 of rounding (0.075 at eps = 0.2, 0.033 at eps = 0.25).
    double resolvable() const { return resolvable_; }

    // A world vector v with n . v = 0 for every normal whose face
    // coordinate j is z (a plane of directions through the origin): from
    // mu_i / mu_k = sign(z) |z|^(p-1) L_k / (L_i sigma), i = lateral axis j.
    // Two such planes (of one body or of both) meet in one normal: the
    // mixed charts of CommonNormalNewton.cpp.
    Vec3 planeNormal(int j, double z) const;
    // d planeNormal(j, z) / dz at the chart's own coordinate z = s_j.
    Vec3 planeNormalSlope(int j) const;
    // World derivative dx/ds_j of the surface point x(s) at the chart's s.
    Vec3 pointSlope(int j) const;

private:
    const PosedBody* body_ = nullptr;
    double p_ = 2.0;
    double resolvable_ = 0.0;
    int k_ = 2, lateral_[2] = {0, 1};
    double sigma_ = 1.0; // side of the face along body axis k
    double scale_ = 1.0; // |x_k| / L_k = (1 + |s_1|^p + |s_2|^p)^(-1/p)
    Vec2 power_ = Vec2::Zero(); // sign(s_j) |s_j|^(p-1)
    Vec2 s_ = Vec2::Zero();
};

} // namespace sef
