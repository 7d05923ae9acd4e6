#pragma once
// Fast body-frame kernels of one superellipsoid for the narrow phase, with
// the exponents precomputed once per query instead of once per call:
//  - support point (the closed form of geometry/Support.cpp, same nested-norm
//    formulas, but with 2 pow per norm level instead of 4 by reusing
//    t^e and (1 + t^e)^(1/e) for the maximiser powers, and none at all for
//    eps = 1 levels, where the conjugate exponent is 2; for eps1 = eps2 the
//    equivalent p-norm ball form, BallLanes, with 3 pow of which 2 are
//    independent);
//  - the same for up to kMaxLanes independent queries at once
//    (supportLanes: the pow chains of the lanes overlap, bit for bit the
//    single calls' answers); for blocky shapes the powers FastPow has no
//    closed form for are gathered and raised together by powLanes
//    (geometry/PowLanes.hpp: four per vector instruction, the same bits in
//    any batch);
//  - implicit function, gradient and Hessian: exact polynomial fast path for
//    ellipsoids (eps1 = eps2 = 1), the geometry kernel otherwise.
// The narrow phase spends most of its time here (perf: std::pow takes 46 %
// of a warm-started ellipsoid query without this kernel).
#include "geometry/FastPow.hpp"
#include "geometry/PowLanes.hpp"
#include "geometry/Superellipsoid.hpp"

#include <algorithm>
#include <cmath>

namespace sef {

class SupportKernel {
public:
    // Shapes with min(eps1, eps2) below this raise their powers in batches
    // (powLanes): the blocky shapes, as ContactPatch's kFlatFaceEps.
    static constexpr double kBatchedPowersBelowEps = 0.6;

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
        ball_ = !generic_ && !ellipsoid_ && s.eps1() == s.eps2();
        if (ball_) {
            ballRoot_ = s.eps1() / (2.0 - s.eps1()); // 1 / (p - 1)
            ballScale_ = -0.5 * s.eps1();            // -1 / p
        }
        // Which powers are raised at once (powLanes, batched) and which
        // directly (powNonNegative: a closed form, or glibc's pow). Batched:
        // those without a closed form, of blocky shapes only, whose patch
        // outlines ask for 16 support points at a time. A smooth shape (the
        // eps = 1.8 diamond) asks for one or two, where a batched power is
        // no faster and its gathering costs (measured: 3-15 % of the
        // diamond's tutorial bed). Per shape, so lanes and single calls
        // still agree bit for bit. (Only the exponents this kernel raises
        // to: a kernel is built per body and query.)
        const bool batched = std::min(s.eps1(), s.eps2()) < kBatchedPowersBelowEps;
        if (batched && ball_) {
            ballRootDirect_ = hasClosedFormPow(ballRoot_);
            ballScaleDirect_ = hasClosedFormPow(ballScale_);
        } else if (batched && !powFree_) {
            e2Direct_ = quadratic2_ || hasClosedFormPow(e2_);
            e2RootDirect_ = quadratic2_ || hasClosedFormPow(1.0 / e2_);
            e1Direct_ = quadratic1_ || hasClosedFormPow(e1_);
            e1RootDirect_ = quadratic1_ || hasClosedFormPow(1.0 / e1_);
        }
        squaredHalfAxes_ = Vec3(a_ * a_, b_ * b_, c_ * c_);
    }

    const Superellipsoid& shape() const { return shape_; }
    bool isEllipsoid() const { return ellipsoid_; }
    bool powFree() const { return powFree_; } // support map without pow calls
    const Vec3& squaredHalfAxes() const { return squaredHalfAxes_; } // (a^2, b^2, c^2)

    // Surface point maximising n.x (n: non-zero body-frame direction).
    // (With pow: the lanes' code for one lane, so that lanes and single
    // calls give the same bits.)
    Vec3 support(const Vec3& n) const {
        if (powFree_) return supportWithoutPow(n);
        if (ball_) { // (lanes sized for one: no bookkeeping of sixteen)
            BallLanes<1> ball;
            ball.set(0, *this, n);
            ball.solve(1);
            return ball.point(0, *this, n);
        }
        const SupportKernel* self = this;
        Vec3 out;
        supportLanes(&self, &n, &out, 1);
        return out;
    }

    // Support points of `count` (<= kMaxLanes) independent queries at once,
    // lane i: kernels[i]->support(n[i]), bit for bit. Why: the support map
    // of a blocky shape is four pow calls in a chain (~25 ns latency each on
    // the reference machine), while the CPU can overlap independent ones;
    // evaluating several directions stage by stage (all lanes' first pow,
    // then all lanes' second, ...) lets it. Measured for eps = 0.2: 98 ns
    // per support alone, 60 ns in 2 lanes, 50 ns in 4; with the
    // powers batched in vector lanes (powLanes), 87 ns alone and 25 ns per
    // lane in 16 (51 ns with glibc's pow). Callers with independent
    // directions (both bodies of an overlap, the ring searches of a patch
    // outline) use it.
    static constexpr int kMaxLanes = 16;
    static void supportLanes(const SupportKernel* const* kernels, const Vec3* n, Vec3* out, int count) {
        bool chains = false; // any lane with pow calls to overlap?
        for (int i = 0; i < count; ++i) chains = chains || !kernels[i]->powFree_;
        if (!chains) {
            for (int i = 0; i < count; ++i) out[i] = kernels[i]->supportWithoutPow(n[i]);
            return;
        }
        // lanes by kind: balls (eps1 = eps2), nested levels, eps = 2 limits
        int balls[kMaxLanes], nested[kMaxLanes];
        int ballCount = 0, nestedCount = 0;
        for (int i = 0; i < count; ++i) {
            const SupportKernel& k = *kernels[i];
            if (k.generic_)
                out[i] = k.shape_.supportPoint(n[i]); // octahedron limits, rare
            else if (k.ball_)
                balls[ballCount++] = i;
            else
                nested[nestedCount++] = i;
        }
        if (ballCount > 0) {
            BallLanes<kMaxLanes> ball;
            for (int j = 0; j < ballCount; ++j) ball.set(j, *kernels[balls[j]], n[balls[j]]);
            ball.solve(ballCount);
            for (int j = 0; j < ballCount; ++j) out[balls[j]] = ball.point(j, *kernels[balls[j]], n[balls[j]]);
        }
        if (nestedCount == 0) return;
        LevelLanes xy, z;
        for (int j = 0; j < nestedCount; ++j) {
            const SupportKernel& k = *kernels[nested[j]];
            const Vec3& d = n[nested[j]];
            xy.set(j, std::fabs(k.a_ * d[0]), std::fabs(k.b_ * d[1]), k.e2_, k.quadratic2_, k.e2Direct_,
                   k.e2RootDirect_);
        }
        xy.solve(nestedCount);
        for (int j = 0; j < nestedCount; ++j) {
            const SupportKernel& k = *kernels[nested[j]];
            z.set(j, xy.norm[j], std::fabs(k.c_ * n[nested[j]][2]), k.e1_, k.quadratic1_, k.e1Direct_,
                  k.e1RootDirect_);
        }
        z.solve(nestedCount);
        for (int j = 0; j < nestedCount; ++j) {
            const SupportKernel& k = *kernels[nested[j]];
            const Vec3& d = n[nested[j]];
            const double rho = z.first[j], w = z.second[j];
            out[nested[j]] = Vec3(sign(d[0]) * k.a_ * rho * xy.first[j], sign(d[1]) * k.b_ * rho * xy.second[j],
                                  sign(d[2]) * k.c_ * w);
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
    static double sign(double t) { return t >= 0.0 ? 1.0 : -1.0; }

    // support() of the shapes without pow: eps = 2 limits and ellipsoids
    // (both levels quadratic).
    Vec3 supportWithoutPow(const Vec3& n) const {
        if (generic_) return shape_.supportPoint(n); // eps = 2: octahedron limits, rare
        const double al = std::fabs(a_ * n[0]), be = std::fabs(b_ * n[1]), ga = std::fabs(c_ * n[2]);
        Level xy, z;
        level(al, be, xy);
        level(xy.norm, ga, z);
        const double rho = z.first, w = z.second;
        return {sign(n[0]) * a_ * rho * xy.first, sign(n[1]) * b_ * rho * xy.second, sign(n[2]) * c_ * w};
    }

    // The batched powers (the ...Direct_ flags false) go through powLanes, all lanes'
    // at once (gathered, then scattered back).
    // (for up to 3 N powers: N lanes)
    template <int N>
    struct PowBatch {
        double base[3 * N], exponent[3 * N], result[3 * N];
        double* target[3 * N];
        int count = 0;
        // *to = x^e now if direct, else when run() is called
        void add(double x, double e, bool direct, double* to) {
            if (direct) {
                *to = powNonNegative(x, e);
                return;
            }
            base[count] = x, exponent[count] = e, target[count] = to;
            ++count;
        }
        void run() {
            if (count == 0) return; // (all direct: smooth shapes)
            powLanes(base, exponent, result, count);
            for (int k = 0; k < count; ++k) *target[k] = result[k];
            count = 0;
        }
    };

    // eps1 = eps2 = eps: the nested norm is a plain p-norm, p = 2 / eps, and
    // the body a scaled p-norm ball. Its support point is
    //   x_i = L_i q_i S^(-1/p),  q_i = u_i^(1/(p-1)),  S = sum u_i q_i,
    // with u_i = L_i |n_i| / max_j L_j |n_j| (L = (a, b, c); Hoelder's
    // equality case with the largest entry factored out). Same point as
    // the nested levels, to rounding, but three pow calls of which two are
    // independent (the largest entry has q = 1) instead of a chain of four:
    // 65 ns against 125 ns per call for eps = 0.2.
    // (N: the lanes it holds; one for single calls)
    template <int N>
    struct BallLanes {
        double u[N][3], q[N][3], scale[N];
        double root[N], exponent[N];
        bool rootDirect[N], exponentDirect[N];

        void set(int i, const SupportKernel& k, const Vec3& n) {
            const double l[3] = {std::fabs(k.a_ * n[0]), std::fabs(k.b_ * n[1]), std::fabs(k.c_ * n[2])};
            const double m = std::max({l[0], l[1], l[2]});
            for (int c = 0; c < 3; ++c) u[i][c] = m > 0.0 ? l[c] / m : 0.0;
            root[i] = k.ballRoot_;
            exponent[i] = k.ballScale_;
            rootDirect[i] = k.ballRootDirect_;
            exponentDirect[i] = k.ballScaleDirect_;
        }
        void solve(int count) {
            PowBatch<N> batch;
            for (int i = 0; i < count; ++i)
                for (int c = 0; c < 3; ++c) {
                    if (u[i][c] == 1.0 || !(u[i][c] > 0.0))
                        q[i][c] = u[i][c] == 1.0 ? 1.0 : 0.0;
                    else
                        batch.add(u[i][c], root[i], rootDirect[i], &q[i][c]);
                }
            batch.run();
            for (int i = 0; i < count; ++i) {
                const double S = u[i][0] * q[i][0] + u[i][1] * q[i][1] + u[i][2] * q[i][2]; // >= 1
                batch.add(S, exponent[i], exponentDirect[i], &scale[i]);
            }
            batch.run();
        }
        Vec3 point(int i, const SupportKernel& k, const Vec3& n) const {
            return {sign(n[0]) * k.a_ * q[i][0] * scale[i], sign(n[1]) * k.b_ * q[i][1] * scale[i],
                    sign(n[2]) * k.c_ * q[i][2] * scale[i]};
        }
    };

    // ||(s, t)||_e and the maximisers (s/||.||)^(e-1), (t/||.||)^(e-1) of the
    // 2-D L_e level, with the larger entry factored out (no overflow).
    struct Level {
        double norm, first, second;
    };
    // (quadratic levels only: e = 2; LevelLanes for the others)
    static void level(double s, double t, Level& out) {
        const double hi = std::max(s, t), lo = std::min(s, t);
        if (hi == 0.0) {
            out = {0.0, 0.0, 0.0};
            return;
        }
        const double tau = lo / hi;
        const double tauE = tau * tau;
        const double sum = 1.0 + tauE;
        const double root = std::sqrt(sum);
        // (hi / norm)^(e-1) = root^(1-e) = root / sum;
        // (lo / norm)^(e-1) = tau^(e-1) root / sum.
        const double big = root / sum;
        const double small = tau > 0.0 ? (tauE / tau) * big : 0.0;
        out.norm = hi * root;
        out.first = s >= t ? big : small;
        out.second = s >= t ? small : big;
    }

    // The same for up to kMaxLanes independent lanes, one stage after the
    // other (the same arithmetic, bit for bit).
    struct LevelLanes {
        double s[kMaxLanes], t[kMaxLanes], e[kMaxLanes], tau[kMaxLanes], tauE[kMaxLanes];
        double root[kMaxLanes], hi[kMaxLanes];
        bool quadratic[kMaxLanes], powerDirect[kMaxLanes], rootDirect[kMaxLanes];
        double norm[kMaxLanes], first[kMaxLanes], second[kMaxLanes];

        // (direct: x^e, x^(1/e) not batched; the kernel's e1Direct_ etc.)
        void set(int i, double si, double ti, double ei, bool quadraticI, bool powerDirectI, bool rootDirectI) {
            s[i] = si, t[i] = ti, e[i] = ei, quadratic[i] = quadraticI;
            powerDirect[i] = powerDirectI, rootDirect[i] = rootDirectI;
        }
        void solve(int count) {
            for (int i = 0; i < count; ++i) {
                hi[i] = std::max(s[i], t[i]);
                // (hi = 0: tau = 0 here, the answer is set to zero below)
                tau[i] = hi[i] > 0.0 ? std::min(s[i], t[i]) / hi[i] : 0.0;
            }
            PowBatch<kMaxLanes> batch;
            for (int i = 0; i < count; ++i) {
                if (quadratic[i] || !(tau[i] > 0.0))
                    tauE[i] = tau[i] * tau[i]; // (0 for tau = 0, as 0^e)
                else
                    batch.add(tau[i], e[i], powerDirect[i], &tauE[i]);
            }
            batch.run();
            for (int i = 0; i < count; ++i) {
                const double sum = 1.0 + tauE[i];
                if (quadratic[i])
                    root[i] = std::sqrt(sum);
                else
                    batch.add(sum, 1.0 / e[i], rootDirect[i], &root[i]);
            }
            batch.run();
            for (int i = 0; i < count; ++i) {
                if (hi[i] == 0.0) {
                    norm[i] = first[i] = second[i] = 0.0;
                    continue;
                }
                const double big = root[i] / (1.0 + tauE[i]);
                const double small = tau[i] > 0.0 ? (tauE[i] / tau[i]) * big : 0.0;
                norm[i] = hi[i] * root[i];
                first[i] = s[i] >= t[i] ? big : small;
                second[i] = s[i] >= t[i] ? small : big;
            }
        }
    };

    const Superellipsoid& shape_;
    double a_, b_, c_;
    bool ellipsoid_, generic_;
    double e1_ = 0.0, e2_ = 0.0;
    bool quadratic1_ = false, quadratic2_ = false;
    bool powFree_ = true; // support map without pow (ellipsoids, eps = 2 limits)
    bool ball_ = false;   // eps1 = eps2 (not 1, not 2): the p-norm ball form
    double ballRoot_ = 0.0, ballScale_ = 0.0;
    // x^e raised directly (powNonNegative), not batched (powLanes), for
    // e = ballRoot_, ballScale_, e2_, 1/e2_, e1_, 1/e1_
    bool ballRootDirect_ = true, ballScaleDirect_ = true;
    bool e2Direct_ = true, e2RootDirect_ = true, e1Direct_ = true, e1RootDirect_ = true;
    Vec3 squaredHalfAxes_;
};

} // namespace sef
