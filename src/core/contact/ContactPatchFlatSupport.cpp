#include "contact/ContactPatchFlatSupport.hpp"

#include "contact/ContactPatch.hpp"
#include "contact/FaceChart.hpp"

#include <algorithm>
#include <cmath>

namespace sef {

bool hasFlatFaces(const Superellipsoid& shape) {
    return std::min(shape.eps1(), shape.eps2()) < kFlatFaceEps;
}

namespace {

// On a curved part of the surface (radius of curvature rho) a tilt of the
// direction by delta moves the support point by rho delta <= size delta; on
// a flat face it moves by ~ size delta^(eps/(2-eps)), orders of magnitude
// more. Only there is the support point ill-defined and the patch centre
// needed; a rounded edge of a blocky shape (Kodam's cylinder rim) keeps its
// exact deepest point. Flat: the support map's radius of curvature in some
// tangent direction exceeds kFlatRadiusFactor times the largest half-axis.
constexpr double kFlatRadiusFactor = 10.0;

// Blocky p-norm balls (eps1 = eps2 = eps, FaceChart::applies): the radius in closed form, with
// no support call (the probes below would be 10 of a warm blocky
// pair's 64 support calls). The support point is x_i = L_i q_i S^(-1/p),
// q_i = u_i^r, u_i = L_i |n_i| / (L_k |n_k|), r = 1/(p-1) = eps/(2-eps),
// S = sum u_i q_i (SupportKernel), k the axis of the largest L_j |n_j|.
// A tilt of the unit direction n by delta towards the lateral axis i moves
// u_i by L_i delta / (L_k |n_k|) and x_i by
//     rho_i delta,   rho_i = r |x_i| / |n_i|
// to leading order (a sphere gives rho = R, an ellipse L_i^2 / L_k at the
// end of axis k: the radii of curvature). On a face (u_i -> 0) rho_i grows
// like u_i^(r-1) without bound. At the flatness limit (u_i ~ 6e-3 at
// eps = 0.2) a tilt of 1e-6 changes u_i by 1e-4 of itself, so this is
// what the probes' finite tilt measured, for the worst tangent direction
// instead of two arbitrary ones (tested against finite differences:
// ContactPatch.FlatSupportTestMatchesTheCurvatureRadius).
bool flatBallSupport(const PosedBody& body, const Vec3& direction, const Vec3& supportPoint) {
    const Vec3 n = body.directionToBody(direction).normalized();
    const Vec3 x = body.toBody(supportPoint);
    const Vec3 L = body.shape.halfAxes();
    const double eps = body.shape.eps1();
    const double r = eps / (2.0 - eps);
    int k = 0;
    for (int i = 1; i < 3; ++i)
        if (L[i] * std::fabs(n[i]) > L[k] * std::fabs(n[k])) k = i;
    const double limit = kFlatRadiusFactor * L.maxCoeff();
    for (int i = 0; i < 3; ++i)
        if (i != k && r * std::fabs(x[i]) >= limit * std::fabs(n[i])) return true; // (n_i = 0: rho infinite)
    return false;
}

// Other blocky shapes (eps1 != eps2, e.g. cylinders): the radius measured
// by finite tilts, the support point and four probes (five support lanes
// per body; flatSupportsAt evaluates those of both bodies together).
constexpr double kFlatProbeTilt = 1e-6;
constexpr int kFlatProbes = 5;

void flatProbeDirections(const Vec3& direction, Vec3* out) {
    const Vec3 n = direction.normalized();
    const Vec3 t1 = n.unitOrthogonal(), t2 = n.cross(t1);
    const double delta = kFlatProbeTilt;
    out[0] = n;
    out[1] = n + delta * t1;
    out[2] = n - delta * t1;
    out[3] = n + delta * t2;
    out[4] = n - delta * t2;
}

bool flatProbesMoved(const PosedBody& body, const Vec3* p) {
    const double size = body.shape.halfAxes().maxCoeff();
    for (int k = 1; k < kFlatProbes; ++k)
        if ((p[k] - p[0]).norm() > kFlatRadiusFactor * size * kFlatProbeTilt) return true;
    return false;
}

} // namespace

bool flatSupportAt(const PosedBody& body, const Vec3& direction, const Vec3& supportPoint) {
    if (!hasFlatFaces(body.shape)) return false;
    if (FaceChart::applies(body.shape)) return flatBallSupport(body, direction, supportPoint);
    Vec3 directions[kFlatProbes], p[kFlatProbes];
    flatProbeDirections(direction, directions);
    body.support(directions, p, kFlatProbes);
    return flatProbesMoved(body, p);
}

namespace contactPatch {

void flatSupportsAt(const PosedBody& body1, const Vec3& d1, const Vec3& p1, const PosedBody& body2,
                    const Vec3& d2, const Vec3& p2, bool& flat1, bool& flat2) {
    flat1 = flat2 = false;
    const bool test1 = hasFlatFaces(body1.shape), test2 = hasFlatFaces(body2.shape);
    const bool probe1 = test1 && !FaceChart::applies(body1.shape), probe2 = test2 && !FaceChart::applies(body2.shape);
    if (test1 && !probe1) flat1 = flatBallSupport(body1, d1, p1);
    if (test2 && !probe2) flat2 = flatBallSupport(body2, d2, p2);
    const PosedBody* bodies[2 * kFlatProbes];
    Vec3 directions[2 * kFlatProbes], p[2 * kFlatProbes];
    int count = 0;
    if (probe1) {
        flatProbeDirections(d1, directions);
        for (int k = 0; k < kFlatProbes; ++k) bodies[count++] = &body1;
    }
    if (probe2) {
        flatProbeDirections(d2, directions + count);
        for (int k = 0; k < kFlatProbes; ++k) bodies[count++] = &body2;
    }
    if (count == 0) return;
    PosedBody::supportLanes(bodies, directions, p, count);
    if (probe1) flat1 = flatProbesMoved(body1, p);
    if (probe2) flat2 = flatProbesMoved(body2, p + (probe1 ? kFlatProbes : 0));
}

} // namespace contactPatch

} // namespace sef
