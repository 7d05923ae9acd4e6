#pragma once
// Fast body-frame kernels of one superellipsoid for the narrow phase, with
// the exponents precomputed once per query instead of once per call:
//  - support point (the closed form of geometry/Support.cpp, same nested-norm
//    formulas, but with 2 pow per norm level instead of 4 by reusing
//    t^e and (1 + t^e)^(1/e) for the maximiser powers, and none at all for
//    eps = 1 levels, where the conjugate exponent is 2);
//  - implicit function, gradient and Hessian: exact polynomial fast path for
//    ellipsoids (eps1 = eps2 = 1), the geometry kernel otherwise.
// The narrow phase spends most of its time here (perf: pow was 46% of a
// warm-started ellipsoid query before this kernel).
#include "geometry/FastPow.hpp"
#include "geometry/Superellipsoid.hpp"

#include <algorithm>
#include <cmath>

namespace sef {

class SupportKernel {
public:
    explicit SupportKernel(const Superellipsoid& s)
        : shape_(s), a_(s.a()), b_(s.b()), c_(s.c()),
          ellipsoid_(s.eps1() == 1.0 && s.eps2() == 1.0),
          generic_(s.eps1() >= 2.0 || s.eps2() >= 2.0) {
        // Hoelder conjugate exponent e = 2 / (2 - eps) of p = 2 / eps.
        e1_ = generic_ ? 0.0 : 2.0 / (2.0 - s.eps1());
        e2_ = generic_ ? 0.0 : 2.0 / (2.0 - s.eps2());
        quadratic1_ = s.eps1() == 1.0;
        quadratic2_ = s.eps2() == 1.0;
        squaredHalfAxes_ = Vec3(a_ * a_, b_ * b_, c_ * c_);
    }

    const Superellipsoid& shape() const { return shape_; }
    bool isEllipsoid() const { return ellipsoid_; }
    const Vec3& squaredHalfAxes() const { return squaredHalfAxes_; } // (a^2, b^2, c^2)

    // Surface point maximising n.x (n: non-zero body-frame direction).
    Vec3 support(const Vec3& n) const {
        if (generic_) return shape_.supportPoint(n); // eps = 2: octahedron limits, rare
        const double al = std::fabs(a_ * n[0]), be = std::fabs(b_ * n[1]), ga = std::fabs(c_ * n[2]);
        Level xy, z;
        level(al, be, e2_, quadratic2_, xy);
        level(xy.norm, ga, e1_, quadratic1_, z);
        const double rho = z.first, w = z.second;
        auto sgn = [](double t) { return t >= 0.0 ? 1.0 : -1.0; };
        return {sgn(n[0]) * a_ * rho * xy.first, sgn(n[1]) * b_ * rho * xy.second,
                sgn(n[2]) * c_ * w};
    }

    double implicitFunction(const Vec3& x) const {
        if (ellipsoid_) {
            const double u = x[0] / a_, v = x[1] / b_, w = x[2] / c_;
            return u * u + v * v + w * w - 1.0;
        }
        return shape_.implicitFunction(x);
    }

    ImplicitDerivatives evaluate(const Vec3& x) const {
        if (ellipsoid_) {
            const Vec3 inv2(1.0 / (a_ * a_), 1.0 / (b_ * b_), 1.0 / (c_ * c_));
            ImplicitDerivatives d;
            d.value = x.cwiseProduct(x).dot(inv2) - 1.0;
            d.gradient = 2.0 * x.cwiseProduct(inv2);
            d.hessian = (2.0 * inv2).asDiagonal();
            return d;
        }
        return shape_.evaluate(x);
    }

private:
    // ||(s, t)||_e and the maximisers (s/||.||)^(e-1), (t/||.||)^(e-1) of the
    // 2-D L_e level, with the larger entry factored out (no overflow).
    struct Level {
        double norm, first, second;
    };
    static void level(double s, double t, double e, bool quadratic, Level& out) {
        const double hi = std::max(s, t), lo = std::min(s, t);
        if (hi == 0.0) {
            out = {0.0, 0.0, 0.0};
            return;
        }
        const double tau = lo / hi;
        const double tauE = quadratic ? tau * tau : powNonNegative(tau, e);
        const double sum = 1.0 + tauE;
        const double root = quadratic ? std::sqrt(sum) : powNonNegative(sum, 1.0 / e);
        // (hi / norm)^(e-1) = root^(1-e) = root / sum;
        // (lo / norm)^(e-1) = tau^(e-1) root / sum.
        const double big = root / sum;
        const double small = tau > 0.0 ? (tauE / tau) * big : 0.0;
        out.norm = hi * root;
        out.first = s >= t ? big : small;
        out.second = s >= t ? small : big;
    }

    const Superellipsoid& shape_;
    double a_, b_, c_;
    bool ellipsoid_, generic_;
    double e1_ = 0.0, e2_ = 0.0;
    bool quadratic1_ = false, quadratic2_ = false;
    Vec3 squaredHalfAxes_;
};

} // namespace sef
