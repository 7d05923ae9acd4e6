// Support point, support value, minimal bounding sphere and radial surface
// point of the superellipsoid, all in closed form.
//
// The body is a nested norm ball: with u = x/a, v = y/b, w = z/c,
//   G(x) = || ( ||(u, v)||_p , w ) ||_q <= 1,   p = 2/eps2, q = 2/eps1,
// ([Superellipsoid-OpenFOAM] eq. 3 is S = G^q - 1). Maximising a linear or quadratic
// function over it therefore splits into the x-y level and the z level,
// each a 2-D Lp problem with a closed-form solution.
#include "geometry/FastPow.hpp"
#include "geometry/Superellipsoid.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace sef {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// ||(s, t)||_e for s, t >= 0 and e in [1, Inf], without overflow: the
// larger entry is factored out.
double norm2D(double s, double t, double e) {
    const double hi = std::max(s, t), lo = std::min(s, t);
    if (hi == 0.0) return 0.0;
    if (e == kInf) return hi;
    return hi * std::pow(1.0 + std::pow(lo / hi, e), 1.0 / e);
}

// Hoelder conjugate exponent p* = p / (p - 1) = 2 / (2 - eps) of p = 2 / eps.
double conjugateExponent(double eps) { return eps >= 2.0 ? kInf : 2.0 / (2.0 - eps); }

// Maximiser (s, t) >= 0 of al s + be t over ||(s, t)||_e <= 1, e = 2/eps:
// (s, t) = ((al/N)^(1/(e-1)), (be/N)^(1/(e-1))), N = ||(al, be)||_e*.
// With hi/lo the larger/smaller of al, be and r = lo/hi:
//   hi-entry (1 + r^e*)^(-1/e),  lo-entry r^(e*-1) (1 + r^e*)^(-1/e)
// (two pows). For eps = 2 (e = 1) the maximiser is the vertex of the larger
// entry (ties: the first one); for al = be = 0 any point works: take (1, 0).
// Returns the dual norm N = ||(al, be)||_e* as well: with 1/e* = 1 - eps/2,
// N = hi (1 + r^e*)^(1/e*) = hi (1 + r^e*) sHi, so the support point needs
// no separate norm evaluation (two pows fewer per call).
double levelMaximiser(double al, double be, double eps, double& s, double& t) {
    const bool firstIsHi = al >= be;
    const double hi = firstIsHi ? al : be, lo = firstIsHi ? be : al;
    double sHi = 1.0, sLo = 0.0, dualNorm = hi;
    if (hi > 0.0 && eps < 2.0) {
        const double r = lo / hi;
        const double rPow = r == 0.0 ? 0.0 : powNonNegative(r, eps / (2.0 - eps)); // r^(e*-1)
        const double rConj = rPow * r;                                          // r^e*
        sHi = eps == 1.0 ? 1.0 / std::sqrt(1.0 + rConj) : powNonNegative(1.0 + rConj, -0.5 * eps);
        sLo = rPow * sHi;
        dualNorm = hi * (1.0 + rConj) * sHi;
    } else if (eps >= 2.0) {
        dualNorm = hi; // e* = Inf: the max norm
    }
    s = firstIsHi ? sHi : sLo;
    t = firstIsHi ? sLo : sHi;
    return dualNorm;
}

void requireDirection(const Vec3& d, const char* function) {
    if (!isFinite(d) || d.squaredNorm() == 0.0) {
        throw std::invalid_argument(std::string("Superellipsoid::") + function
                                    + ": direction must be finite and non-zero");
    }
}

// Largest radius sqrt(A^2 s^2 + B^2 t^2) over the 2-D ball ||(s, t)||_e <= 1
// (e = 2/eps). For eps < 1 the maximum is interior (Lagrange stationarity, as
// in [Superquadric-LIGGGHTS] "Neighbor search") and equals ||(A, B)||_k with
// k = 2 / (1 - eps); for eps >= 1 the radius is convex along the boundary
// and the maximum is at a vertex: max(A, B).
double maxRadius2D(double A, double B, double eps) {
    if (eps >= 1.0) return std::max(A, B);
    return norm2D(A, B, 2.0 / (1.0 - eps));
}

} // namespace

double Superellipsoid::supportValue(const Vec3& n) const {
    requireDirection(n, "supportValue");
    // Dual norm of the nested norm: h(n) = || ( ||(a nx, b ny)||_p*, c nz ) ||_q*.
    const double A = norm2D(std::fabs(a_ * n[0]), std::fabs(b_ * n[1]), conjugateExponent(eps2_));
    return norm2D(A, std::fabs(c_ * n[2]), conjugateExponent(eps1_));
}

Vec3 Superellipsoid::supportPoint(const Vec3& n) const {
    requireDirection(n, "supportPoint");
    // [Superquadric-LIGGGHTS], "Particle-wall contact": the Lagrange conditions give
    // y/b : x/a = (b|ny| / a|nx|)^(1/(n2-1)) and the like for z; written with
    // the maximisers of the two nested Lp levels (equivalent, but free of the
    // division by nx, so any component may vanish):
    //   (rho, w) = ((A/h)^(1/(q-1)), (C/h)^(1/(q-1))),
    //   (u, v)   = rho ((al/A)^(1/(p-1)), (be/A)^(1/(p-1))),
    // with A = ||(al, be)||_p*, h = ||(A, C)||_q*, al = a|nx|, be = b|ny|, C = c|nz|.
    const double al = std::fabs(a_ * n[0]), be = std::fabs(b_ * n[1]), ga = std::fabs(c_ * n[2]);
    double u, v, rho, w;
    const double A = levelMaximiser(al, be, eps2_, u, v);
    levelMaximiser(A, ga, eps1_, rho, w);
    auto sgn = [](double t) { return t >= 0.0 ? 1.0 : -1.0; };
    return {sgn(n[0]) * a_ * rho * u, sgn(n[1]) * b_ * rho * v, sgn(n[2]) * c_ * w};
}

double Superellipsoid::computeBoundingRadius() const {
    // [Superquadric-LIGGGHTS], "Neighbor search": max |x| on the surface. The squared radius
    // a^2 u^2 + b^2 v^2 is homogeneous of degree 2 in (u, v), so the x-y level
    // reduces to a 2-D problem with half-axes (R_xy, c) at the z level.
    // The paper's closed form is the interior stationary point, a maximum only
    // for n > 2 (eps < 1); for eps >= 1 the maximum is a vertex.
    const double rxy = maxRadius2D(a_, b_, eps2_);
    return maxRadius2D(rxy, c_, eps1_);
}

Vec3 Superellipsoid::radialSurfacePoint(const Vec3& d) const {
    requireDirection(d, "radialSurfacePoint");
    // S + 1 = G^q with G positively homogeneous of degree 1: the ray t d meets
    // the surface at t = 1 / G(d).
    return d / gaugeFunction(d);
}

} // namespace sef
