// Implicit function of the superellipsoid and its first three derivatives,
// [Superellipsoid-OpenFOAM] eq. (3) (= [Superquadric-LIGGGHTS] eq. 1 with n1 = 2/eps1, n2 = 2/eps2):
//   S = nu^r + w^q - 1,  nu = u^p + v^p,
//   u = |x|/a, v = |y|/b, w = |z|/c,  p = 2/eps2, q = 2/eps1, r = q/p.
//
// Numerics. Direct powers of nu overflow/underflow and produce 0 * Inf at the
// coordinate planes (nu^(r-1) -> Inf while u^(p-1) -> 0). We therefore factor
// out the largest in-plane coordinate m = max(u, v):
//   nu = m^p nuHat,  nuHat = uHat^p + vHat^p in [1, 2],  uHat = u/m <= 1,
// so every term of the k-th derivative is m^(q-k) times bounded factors
// nuHat^(r-j) and uHat^(p-j). Only uHat^(p-j) (j >= 2) and m^(q-k), w^(q-k)
// (k >= 2) can be truly infinite (edges, eps > 1, or third derivatives for
// 2/eps < 3); for bases below kFloor these are capped at kFloor^(exponent)
// (at most 1e60 per factor), while finite limits are returned exactly.
//
// Floating-point traps (OpenFOAM runs with overflow, invalid and divide by
// zero trapped): no log(0) (it raises divide-by-zero: the value at
// m = 0 is set directly), and points so far outside that m^q or w^q would
// exceed 2^kFarLog2 are evaluated at the scaled coordinate clamped to
// 2^(kFarLog2/q): S stays positive, finite and growing outward, and the
// squares and triple products the contact kernels form from S and its
// derivatives stay far from overflow. For eps = 0.1 (q = 20) the clamp
// starts 2^12.8 = 7000 half-axes away; nothing nearer changes.
#include "geometry/FastPow.hpp"
#include "geometry/Superellipsoid.hpp"

#include <algorithm>
#include <cmath>

namespace sef {

namespace {

// Smallest scaled coordinate / ratio used as the base of a power.
constexpr double kFloor = 1e-30;
// Largest power of a scaled coordinate, as a power of two (2^256 ~ 1e77).
constexpr int kFarLog2 = 256;

// Scaled coordinate t >= 0 clamped so that t^q <= 2^kFarLog2 (see above).
// ilogb only for t > 1: ilogb(0) raises the invalid-operation exception.
double clampFar(double t, double q) {
    if (t > 1.0 && std::ilogb(t) * q >= kFarLog2) return std::exp2(kFarLog2 / q);
    return t;
}

double signOf(double t) { return static_cast<double>((t > 0.0) - (t < 0.0)); }

// Powers shared by all derivative orders at one point.
struct Powers {
    // Per body axis x, y: A1 = s uHat^(p-1) / L (the gradient factor).
    Vec3 sign;
    double a1[2];
    double hat[2][4]; // uHat^(p - j), vHat^(p - j)
    double len[2];    // a, b
    double m[4];  // m^(q - k)
    double n[4];  // nuHat^(r - j)
    double w[4];  // w^(q - k)
};

// out[j] = base^(e - j), j = 0..3, for base >= 0. Exponents e - j > 0 give
// the exact limit 0 at base = 0 and e - j = 0 gives 1; only truly infinite
// powers (e - j < 0 with base below kFloor) are capped at kFloor^(e - j).
void powerChain(double base, double e, double out[4]) {
    if (base >= kFloor) { // common case: one pow, the rest by division
        // Exponents 1 (eps1 = eps2) and 2 (eps = 1) are common: no pow.
        out[1] = e == 2.0 ? base : (e == 1.0 ? 1.0 : powNonNegative(base, e - 1.0));
        out[0] = out[1] * base;
        out[2] = out[1] / base;
        out[3] = out[2] / base;
        return;
    }
    for (int j = 0; j < 4; ++j) {
        const double ej = e - j;
        out[j] = ej > 0.0 ? std::pow(base, ej) : (ej == 0.0 ? 1.0 : std::pow(kFloor, ej));
    }
}

// Computes the powers up to derivative order `order` (0..3).
Powers computePowers(const Superellipsoid& s, const Vec3& x, int order) {
    const double p = s.n2(), q = s.n1(), r = q / p;
    Powers P;
    P.sign = {signOf(x[0]), signOf(x[1]), signOf(x[2])};

    const double u = std::fabs(x[0]) / s.a(), v = std::fabs(x[1]) / s.b();
    const int iMax = u >= v ? 0 : 1, iMin = 1 - iMax;
    const double t = u > 0.0 || v > 0.0 ? std::min(u, v) / std::max(u, v) : 0.0; // uHat of the smaller one, in [0, 1]
    const double m = clampFar(std::max(u, v), q);
    const double w = clampFar(std::fabs(x[2]) / s.c(), q);

    if (order == 0) {
        if (p == 2.0 && q == 2.0) { // ellipsoid: plain squares
            P.m[0] = m * m * (1.0 + t * t);
            P.w[0] = w * w;
        } else if (p == q) {
            // eps1 = eps2: nuHat^r = nuHat, m^q nuHat = m^q + (m t)^q; for
            // the blocky p = 8, 10 integer powers (FastPow), no exp or log.
            P.m[0] = powNonNegative(m, q) * (1.0 + powNonNegative(t, p));
            P.w[0] = powNonNegative(w, q);
        } else {
            // m^q nuHat^r as one exp; m = 0 directly (log(0) raises divide-by-zero).
            const double tP = powNonNegative(t, p);
            P.m[0] = m > 0.0 ? std::exp(q * std::log(m) + r * std::log1p(tP)) : 0.0;
            P.w[0] = powNonNegative(w, q);
        }
        P.n[0] = 1.0;
        return P;
    }
    // uHat^(p - j): 1 for the larger coordinate, t^(p - j) for the smaller.
    double (&hat)[2][4] = P.hat;
    for (int j = 0; j < 4; ++j) hat[iMax][j] = 1.0;
    powerChain(t, p, hat[iMin]);
    const double nuHat = 1.0 + hat[iMin][0];
    powerChain(m, q, P.m);
    powerChain(nuHat, r, P.n);
    powerChain(w, q, P.w);
    P.len[0] = s.a();
    P.len[1] = s.b();
    for (int i = 0; i < 2; ++i) {
        const double L = P.len[i];
        P.a1[i] = P.sign[i] * hat[i][1] / L;
    }
    return P;
}

double valueFrom(const Powers& P) { return P.m[0] * P.n[0] + P.w[0] - 1.0; }

// dS/dx_i = q m^(q-1) nuHat^(r-1) A1_i (x, y);  q w^(q-1) s_z / c (z).
Vec3 gradientFrom(const Superellipsoid& s, const Powers& P) {
    const double q = s.n1();
    const double k = q * P.m[1] * P.n[1];
    return {k * P.a1[0], k * P.a1[1], q * P.w[1] * P.sign[2] / s.c()};
}

// Second and third derivatives of the x-y part, with the terms of the chain
// rule combined analytically: the textbook sum (e.g. [Superquadric-LIGGGHTS]'s Hessian)
// p (r-1) nuHat^(r-2) u^(2p-2) + (p-1) nuHat^(r-1) u^(p-2) cancels
// catastrophically when r << 1 (eps1 = 2, eps2 = 0.1: 19 - 19), whereas the
// combined brackets below have no cancellation beyond true sign changes.
// h_j = uHat^(p-j) of the axis, o_j that of the other in-plane axis.
//   H_ii = q M2 N2 [(q-1) h1^2 + (p-1) h2 o0] / L_i^2
//   H_xy = q (q-p) M2 N2 s_x s_y h1 o1 / (a b)
//   H_zz = q (q-1) w^(q-2) / c^2, no x-z / y-z coupling.
Mat3 hessianFrom(const Superellipsoid& s, const Powers& P) {
    const double p = s.n2(), q = s.n1();
    const double k = q * P.m[2] * P.n[2];
    Mat3 H = Mat3::Zero();
    for (int i = 0; i < 2; ++i) {
        const double* h = P.hat[i];
        const double* o = P.hat[1 - i];
        H(i, i) = k * ((q - 1.0) * h[1] * h[1] + (p - 1.0) * h[2] * o[0]) / (P.len[i] * P.len[i]);
    }
    H(0, 1) = H(1, 0) = k * (q - p) * P.a1[0] * P.a1[1];
    H(2, 2) = q * (q - 1.0) * P.w[2] / (s.c() * s.c());
    return H;
}

// Third derivatives, combined the same way (H = h0, O = o0):
//   T_iii = q M3 N3 s_i / L_i^3 [(q-1)(q-2) h1^3 + (p-1)(3q-p-4) h1 h2 O
//                                + (p-1)(p-2) h3 O^2]
//   T_iij = q (q-p) M3 N3 s_j o1 / (L_i^2 L_j) [(q-p-1) h1^2 + (p-1) h2 O]
//   T_zzz = q (q-1)(q-2) w^(q-3) s_z / c^3; all mixed x/y-z entries vanish.
std::array<Mat3, 3> thirdFrom(const Superellipsoid& s, const Powers& P) {
    const double p = s.n2(), q = s.n1();
    const double k = q * P.m[3] * P.n[3];
    std::array<Mat3, 3> T;
    for (auto& M : T) M.setZero();
    for (int i = 0; i < 2; ++i) {
        const int j = 1 - i;
        const double* h = P.hat[i];
        const double* o = P.hat[j];
        const double Li = P.len[i], Lj = P.len[j];
        T[i](i, i) = k * P.sign[i] / (Li * Li * Li)
                     * ((q - 1.0) * (q - 2.0) * h[1] * h[1] * h[1]
                        + (p - 1.0) * (3.0 * q - p - 4.0) * h[1] * h[2] * o[0]
                        + (p - 1.0) * (p - 2.0) * h[3] * o[0] * o[0]);
        const double tiij = k * (q - p) * P.sign[j] * o[1] / (Li * Li * Lj)
                            * ((q - p - 1.0) * h[1] * h[1] + (p - 1.0) * h[2] * o[0]);
        T[i](i, j) = T[i](j, i) = T[j](i, i) = tiij;
    }
    const double c = s.c();
    T[2](2, 2) = q * (q - 1.0) * (q - 2.0) * P.w[3] * P.sign[2] / (c * c * c);
    return T;
}

} // namespace

double Superellipsoid::implicitFunction(const Vec3& xBody) const {
    return valueFrom(computePowers(*this, xBody, 0));
}

Vec3 Superellipsoid::gradient(const Vec3& xBody) const {
    return gradientFrom(*this, computePowers(*this, xBody, 1));
}

Mat3 Superellipsoid::hessian(const Vec3& xBody) const {
    return hessianFrom(*this, computePowers(*this, xBody, 2));
}

std::array<Mat3, 3> Superellipsoid::thirdDerivatives(const Vec3& xBody) const {
    return thirdFrom(*this, computePowers(*this, xBody, 3));
}

ImplicitDerivatives Superellipsoid::evaluate(const Vec3& xBody) const {
    const Powers P = computePowers(*this, xBody, 2);
    return {valueFrom(P), gradientFrom(*this, P), hessianFrom(*this, P)};
}

double Superellipsoid::gaugeFunction(const Vec3& xBody) const {
    // G = ((u^p + v^p)^(q/p) + w^q)^(1/q): a nested norm, computed with the
    // largest entry factored out at each level.
    const double p = n2(), q = n1();
    const double u = std::fabs(xBody[0]) / a_, v = std::fabs(xBody[1]) / b_;
    const double w = std::fabs(xBody[2]) / c_;
    auto norm = [](double s, double t, double e) {
        const double hi = std::max(s, t), lo = std::min(s, t);
        if (hi == 0.0) return 0.0;
        return hi * std::pow(1.0 + std::pow(lo / hi, e), 1.0 / e);
    };
    return norm(norm(u, v, p), w, q);
}

} // namespace sef
