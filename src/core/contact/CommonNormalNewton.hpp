#pragma once
// Newton solver for the common normal of two convex bodies.
//
// For a unit direction n (from body 1 to body 2) the overlap of the two
// bodies along n is
//     f(n) = h1(n) + h2(-n),   h_i(n) = max_{x in body i} n.x,
// evaluated exactly with the closed-form support map: f(n) = n.(p1 - p2),
// p1 = support1(n), p2 = support2(-n). f(n) > 0 for every n iff the bodies
// overlap; min_n f is the penetration depth (minimum translation distance)
// when positive and minus the distance when negative.
//
// At a minimiser the tangential part of p1 - p2 vanishes: p1 has outward
// normal n, p2 has outward normal -n and p1 - p2 is parallel to n. These are
// exactly the common-normal (CN) conditions of [Superellipsoid-OpenFOAM], sec. 3.5 (Part 1
// gives the normal at p_c1, Part 2 the point on S2 with the opposite normal,
// which is support2(-n), cf. eqs. 43-50), now required to hold together with
// p1 - p2 || n (the CN requirement the paper cites from Kildashti et al.).
//
// Newton on the sphere: gradient g = T^T (p1 - p2) (T = tangent basis), and
// Hessian  H = Rho1(n) + Rho2(-n) - f I, where Rho is the 2x2 tensor of the
// principal radii of curvature at the support point (inverse Weingarten map
// from the implicit-function Hessian), globalised by a Levenberg shift that
// keeps H positive definite, a step-length cap (trust radius) and an Armijo
// backtracking line search on f ([Superquadric-LIGGGHTS]: step halving until the merit
// function decreases; here the backtracking factor comes from a quadratic
// interpolation, clamped to [1/10, 1/2]).
//
// Blocky p-norm balls (eps1 = eps2 < 1): where a support point lies on a
// flat face, f ~ |angle|^(2/(2-eps)) and Newton on the angle converges only
// linearly; there the iteration runs in face coordinates of the flat bodies
// instead (FaceChart.hpp; CommonNormalNewton.cpp, chartStep), in which the
// misfit is smooth and Newton converges quadratically.
//
// Stopping: |g| below gradientTolerance; or the Newton decrement below
// depthTolerance; or, where it only falls linearly (flat faces of blocky
// shapes: f ~ |angle|^(2/(2-eps))), below stagnationDepthTolerance; or a
// full Newton step from a decrement below postStepTolerance. A small
// decrement with a large misfit |g| (> 1e-3 L) is suspicious (a huge radius
// of curvature near a face centre also makes it small far from the minimum):
// it is accepted only after probe steps along -g fail to lower f.
#include "contact/PosedBody.hpp"

namespace sef {

using Mat2 = Eigen::Matrix2d;
using Vec2 = Eigen::Vector2d;

struct CommonNormalSettings {
    double gradientTolerance = 1e-12; // absolute, on |T^T (p1 - p2)| [m]
    double depthTolerance = 1e-14;    // absolute, on the Newton decrement [m]
    // Looser decrement tolerance accepted when the decrement stagnates
    // (linear convergence on flat faces of blocky shapes) [m].
    double stagnationDepthTolerance = 0.0;
    // After a full unshifted Newton step whose decrement was below this,
    // stop at once (the next decrement would be ~ its square / L) [m].
    double postStepTolerance = 0.0;
    int maxIterations = 40;
    double maxStepAngle = 0.5;        // trust radius [rad]
    // Stop at the initial normal if it already separates the bodies
    // (f < 0: a separating axis proves them apart), reported as converged.
    bool stopWhenSeparated = false;
    // Newton in the face coordinates of a flat body (FaceChart.hpp) where
    // its support point lies on a face (blocky eps1 = eps2 < 1 shapes).
    bool faceCharts = true;
};

struct CommonNormalSolution {
    Vec3 normal = Vec3::UnitX();
    double overlap = 0.0;          // f(normal)
    Vec3 point1 = Vec3::Zero();    // support1(normal)
    Vec3 point2 = Vec3::Zero();    // support2(-normal)
    int iterations = 0;
    bool converged = false;
};

// f(n) and the two support points (n must be unit).
double overlapAlong(const PosedBody& body1, const PosedBody& body2, const Vec3& n, Vec3& point1,
                    Vec3& point2);

// f along count (<= SupportKernel::kMaxLanes / 2) unit normals at once,
// all support points evaluated together (PosedBody::supportLanes); the
// same values as overlapAlong, bit for bit.
void overlapsAlong(const PosedBody& body1, const PosedBody& body2, const Vec3* normals, int count,
                   double* overlaps);

CommonNormalSolution solveCommonNormal(const PosedBody& body1, const PosedBody& body2,
                                       const Vec3& initialNormal,
                                       const CommonNormalSettings& settings);

// The same with body 1 a single point (support = the point, zero radii of
// curvature): min_n f is the depth of the point inside body 2 (> 0) or minus
// its distance (< 0); point2 is then the closest surface point of body 2.
CommonNormalSolution solveCommonNormal(const Vec3& point1, const PosedBody& body2,
                                       const Vec3& initialNormal,
                                       const CommonNormalSettings& settings);

// Principal radii of curvature of body b at its surface point xBody (body
// frame), as a 2x2 tensor in the world tangent basis (t1, t2): the
// derivative of the support map on the tangent plane. Zero on edges; capped
// (radius <= 1e12 lengthScale) on flat faces.
Mat2 radiiOfCurvature(const PosedBody& b, const Vec3& xBody, const Vec3& t1, const Vec3& t2,
                      double lengthScale);

} // namespace sef
