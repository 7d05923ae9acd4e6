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
        powFree_ = generic_ || (quadratic1_ && quadratic2_);
        squaredHalfAxes_ = Vec3(a_ * a_, b_ * b_, c_ * c_);
    }

    const Superellipsoid& shape() const { return shape_; }
    bool isEllipsoid() const { return ellipsoid_; }
    const Vec3& squaredHalfAxes() const { return squaredHalfAxes_; } // (a^2, b^2, c^2)

    // Surface point maximising n.x (n: non-zero body-frame direction).
    Vec3 support(const Vec3& n) const {
        if (generic_) return shape_.supportPoint(n); // eps = 2: octahedron limits, rare
        const double al = std::fabs(a_ * n[0]), be = std::fabs(b_ * n[1]), ga = std::fabs(c_ * n[2]);
        LevelLanes xy, z;
        xy.set(0, al, be, e2_, quadratic2_);
        xy.solveOne();
        z.set(0, xy.norm[0], ga, e1_, quadratic1_);
        z.solveOne();
        const double rho = z.first[0], w = z.second[0];
        auto sgn = [](double t) { return t >= 0.0 ? 1.0 : -1.0; };
        return {sgn(n[0]) * a_ * rho * xy.first[0], sgn(n[1]) * b_ * rho * xy.second[0],
                sgn(n[2]) * c_ * w};
    }

    // Support points of `count` (<= kMaxLanes) independent queries at once,
    // lane i: kernels[i]->support(n[i]), bit for bit. Why: the support map
    // of a blocky shape is four pow calls in a chain (~25 ns latency each on
    // the reference machine), while the CPU can overlap independent ones;
    // evaluating several directions stage by stage (all lanes' first pow,
    // then all lanes' second, ...) lets it. Measured for eps = 0.2: 98 ns
    // per support alone, 60 ns in 2 lanes, 50 ns in 4 (issue 21). Callers
    // with independent directions (both bodies of an overlap, the probes of
    // a flatness test, the ring searches of a patch outline) use it.
    static constexpr int kMaxLanes = 16;
    static void supportLanes(const SupportKernel* const* kernels, const Vec3* n, Vec3* out, int count) {
        bool chains = false; // any lane with pow calls to overlap?
        for (int i = 0; i < count; ++i) chains = chains || !kernels[i]->powFree_;
        if (count == 1 || !chains) {
            for (int i = 0; i < count; ++i) out[i] = kernels[i]->support(n[i]);
            return;
        }
        LevelLanes xy, z;
        Vec3 nn[kMaxLanes];
        int generic = 0;
        for (int i = 0; i < count; ++i) {
            const SupportKernel& k = *kernels[i];
            nn[i] = n[i];
            if (k.generic_) { // eps = 2: octahedron limits, rare
                ++generic;
                xy.set(i, 1.0, 0.0, 2.0, true); // harmless placeholder lane
                continue;
            }
            xy.set(i, std::fabs(k.a_ * n[i][0]), std::fabs(k.b_ * n[i][1]), k.e2_, k.quadratic2_);
        }
        xy.solve(count);
        for (int i = 0; i < count; ++i) {
            const SupportKernel& k = *kernels[i];
            if (k.generic_) {
                z.set(i, 1.0, 0.0, 2.0, true);
                continue;
            }
            z.set(i, xy.norm[i], std::fabs(k.c_ * n[i][2]), k.e1_, k.quadratic1_);
        }
        z.solve(count);
        auto sgn = [](double t) { return t >= 0.0 ? 1.0 : -1.0; };
        for (int i = 0; i < count; ++i) {
            const SupportKernel& k = *kernels[i];
            if (generic != 0 && k.generic_) {
                out[i] = k.shape_.supportPoint(nn[i]);
                continue;
            }
            const double rho = z.first[i], w = z.second[i];
            out[i] = Vec3(sgn(nn[i][0]) * k.a_ * rho * xy.first[i], sgn(nn[i][1]) * k.b_ * rho * xy.second[i],
                          sgn(nn[i][2]) * k.c_ * w);
        }
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
    // 2-D L_e level, with the larger entry factored out (no overflow), for
    // up to kMaxLanes independent lanes, one stage after the other.
    struct LevelLanes {
        double s[kMaxLanes], t[kMaxLanes], e[kMaxLanes], tau[kMaxLanes], tauE[kMaxLanes];
        double root[kMaxLanes], hi[kMaxLanes];
        bool quadratic[kMaxLanes];
        double norm[kMaxLanes], first[kMaxLanes], second[kMaxLanes];

        void set(int i, double si, double ti, double ei, bool quadraticI) {
            s[i] = si, t[i] = ti, e[i] = ei, quadratic[i] = quadraticI;
        }
        // Lane 0 alone: the same arithmetic as solve(1), without the loops.
        void solveOne() {
            hi[0] = std::max(s[0], t[0]);
            if (hi[0] == 0.0) {
                norm[0] = first[0] = second[0] = 0.0;
                return;
            }
            tau[0] = std::min(s[0], t[0]) / hi[0];
            tauE[0] = quadratic[0] ? tau[0] * tau[0] : powNonNegative(tau[0], e[0]);
            const double sum = 1.0 + tauE[0];
            root[0] = quadratic[0] ? std::sqrt(sum) : powNonNegative(sum, 1.0 / e[0]);
            finish(0);
        }
        void solve(int count) {
            for (int i = 0; i < count; ++i) {
                hi[i] = std::max(s[i], t[i]);
                // (hi = 0: tau = 0 here, the answer is set to zero below)
                tau[i] = hi[i] > 0.0 ? std::min(s[i], t[i]) / hi[i] : 0.0;
            }
            for (int i = 0; i < count; ++i)
                tauE[i] = quadratic[i] ? tau[i] * tau[i] : powNonNegative(tau[i], e[i]);
            for (int i = 0; i < count; ++i) {
                const double sum = 1.0 + tauE[i];
                root[i] = quadratic[i] ? std::sqrt(sum) : powNonNegative(sum, 1.0 / e[i]);
            }
            for (int i = 0; i < count; ++i) {
                if (hi[i] == 0.0)
                    norm[i] = first[i] = second[i] = 0.0;
                else
                    finish(i);
            }
        }
        void finish(int i) {
            // (hi / norm)^(e-1) = root^(1-e) = root / sum;
            // (lo / norm)^(e-1) = tau^(e-1) root / sum.
            const double big = root[i] / (1.0 + tauE[i]);
            const double small = tau[i] > 0.0 ? (tauE[i] / tau[i]) * big : 0.0;
            norm[i] = hi[i] * root[i];
            first[i] = s[i] >= t[i] ? big : small;
            second[i] = s[i] >= t[i] ? small : big;
        }
    };

    const Superellipsoid& shape_;
    double a_, b_, c_;
    bool ellipsoid_, generic_;
    double e1_ = 0.0, e2_ = 0.0;
    bool quadratic1_ = false, quadratic2_ = false;
    bool powFree_ = true; // support map without pow (ellipsoids, eps = 2 limits)
    Vec3 squaredHalfAxes_;
};

} // namespace sef
