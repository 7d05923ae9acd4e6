// Implicit function of the superellipsoid and its first three derivatives,
// paper 001 eq. (3) (= paper 000 eq. 1 with n1 = 2/eps1, n2 = 2/eps2):
//   S = nu^r + w^q - 1,  nu = u^p + v^p,
//   u = |x|/a, v = |y|/b, w = |z|/c,  p = 2/eps2, q = 2/eps1, r = q/p.
//
// Numerics. Direct powers of nu overflow/underflow and produce 0 * Inf at the
// coordinate planes (nu^(r-1) -> Inf while u^(p-1) -> 0). We therefore factor
// out the largest in-plane coordinate m = max(u, v):
//   nu = m^p nuHat,  nuHat = uHat^p + vHat^p in [1, 2],  uHat = u/m <= 1,
// so every term of the k-th derivative is m^(q-k) times bounded factors
// nuHat^(r-j) and uHat^(p-j). Only uHat^(p-j) (j >= 2) and m^(q-k), w^(q-k)
// (k >= 2) can be truly infinite (edges, eps > 1); their bases are floored
// at kFloor so they stay finite (at most 1e60 per factor).
#include "geometry/Superellipsoid.hpp"

#include <algorithm>
#include <cmath>

namespace sef {

namespace {

// Smallest scaled coordinate / ratio used as the base of a power.
constexpr double kFloor = 1e-30;

double signOf(double t) { return static_cast<double>((t > 0.0) - (t < 0.0)); }

// Powers shared by all derivative orders at one point.
struct Powers {
    // Per body axis: sign and scaled factors A1 = s P1 / L, A2 = P2 / L^2,
    // A3 = s P3 / L^3 with P_j = uHat^(p - j) (x, y) and for z the plain
    // w-powers W_j = w^(q - j).
    Vec3 sign;
    double a1[2], a2[2], a3[2];
    double m0, m1, m2, m3;  // m^(q - k)
    double n0, n1, n2, n3;  // nuHat^(r - j)
    double w0, w1, w2, w3;  // w^(q - k)
};

// Computes the powers up to derivative order `order` (0..3).
Powers computePowers(const Superellipsoid& s, const Vec3& x, int order) {
    const double p = s.n2(), q = s.n1(), r = q / p;
    const double len[2] = {s.a(), s.b()};
    Powers P;
    P.sign = {signOf(x[0]), signOf(x[1]), signOf(x[2])};

    const double u = std::fabs(x[0]) / s.a(), v = std::fabs(x[1]) / s.b();
    const int iMax = u >= v ? 0 : 1, iMin = 1 - iMax;
    const double m = std::max(std::max(u, v), kFloor);
    const double t = std::max(std::min(u, v) / m, kFloor); // uHat of the smaller one

    // uHat^(p - j): 1 for the larger coordinate, t^(p - j) for the smaller.
    const double tP1 = std::pow(t, p - 1.0);
    const double tP = tP1 * t;
    double hat1[2], hat2[2], hat3[2];
    hat1[iMax] = hat2[iMax] = hat3[iMax] = 1.0;
    hat1[iMin] = tP1;
    hat2[iMin] = tP1 / t;
    hat3[iMin] = hat2[iMin] / t;

    const double nuHat = 1.0 + tP;
    const double w = std::max(std::fabs(x[2]) / s.c(), kFloor);

    if (order == 0) {
        // m^q nuHat^r, evaluated as one exp to avoid intermediate overflow.
        P.m0 = std::exp(q * std::log(m) + r * std::log1p(tP));
        P.n0 = 1.0;
        P.w0 = std::pow(w, q);
        return P;
    }
    P.m1 = std::pow(m, q - 1.0);
    P.m0 = P.m1 * m;
    P.m2 = P.m1 / m;
    P.m3 = P.m2 / m;
    P.n1 = std::pow(nuHat, r - 1.0);
    P.n0 = P.n1 * nuHat;
    P.n2 = P.n1 / nuHat;
    P.n3 = P.n2 / nuHat;
    P.w1 = std::pow(w, q - 1.0);
    P.w0 = P.w1 * w;
    P.w2 = P.w1 / w;
    P.w3 = P.w2 / w;
    for (int i = 0; i < 2; ++i) {
        const double L = len[i];
        P.a1[i] = P.sign[i] * hat1[i] / L;
        P.a2[i] = hat2[i] / (L * L);
        P.a3[i] = P.sign[i] * hat3[i] / (L * L * L);
    }
    return P;
}

double valueFrom(const Powers& P) { return P.m0 * P.n0 + P.w0 - 1.0; }

// dS/dx_i = q m^(q-1) nuHat^(r-1) A1_i (x, y);  q w^(q-1) s_z / c (z).
Vec3 gradientFrom(const Superellipsoid& s, const Powers& P) {
    const double q = s.n1();
    const double k = q * P.m1 * P.n1;
    return {k * P.a1[0], k * P.a1[1], q * P.w1 * P.sign[2] / s.c()};
}

// H_ij = q p (r-1) M2 N2 A1_i A1_j + delta_ij q (p-1) M2 N1 A2_i  (i, j in x, y)
// H_zz = q (q-1) w^(q-2) / c^2, no x-z / y-z coupling.
Mat3 hessianFrom(const Superellipsoid& s, const Powers& P) {
    const double p = s.n2(), q = s.n1(), r = q / p;
    const double cross = q * p * (r - 1.0) * P.m2 * P.n2;
    const double diag = q * (p - 1.0) * P.m2 * P.n1;
    Mat3 H = Mat3::Zero();
    for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 2; ++j) H(i, j) = cross * P.a1[i] * P.a1[j];
        H(i, i) += diag * P.a2[i];
    }
    H(2, 2) = q * (q - 1.0) * P.w2 / (s.c() * s.c());
    return H;
}

// T_ijk (i, j, k in x, y):
//   q p^2 (r-1)(r-2) M3 N3 A1_i A1_j A1_k
// + q p (r-1)(p-1) M3 N2 [d_ij A2_i A1_k + d_ik A2_i A1_j + d_jk A2_j A1_i]
// + d_ijk q (p-1)(p-2) M3 N1 A3_i
// T_zzz = q (q-1)(q-2) w^(q-3) s_z / c^3; all mixed x/y-z entries vanish.
std::array<Mat3, 3> thirdFrom(const Superellipsoid& s, const Powers& P) {
    const double p = s.n2(), q = s.n1(), r = q / p;
    const double k3 = q * p * p * (r - 1.0) * (r - 2.0) * P.m3 * P.n3;
    const double k2 = q * p * (r - 1.0) * (p - 1.0) * P.m3 * P.n2;
    const double k1 = q * (p - 1.0) * (p - 2.0) * P.m3 * P.n1;
    std::array<Mat3, 3> T;
    for (auto& M : T) M.setZero();
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            for (int k = 0; k < 2; ++k) {
                double v = k3 * P.a1[i] * P.a1[j] * P.a1[k];
                if (i == j) v += k2 * P.a2[i] * P.a1[k];
                if (i == k) v += k2 * P.a2[i] * P.a1[j];
                if (j == k) v += k2 * P.a2[j] * P.a1[i];
                if (i == j && j == k) v += k1 * P.a3[i];
                T[i](j, k) = v;
            }
    const double c = s.c();
    T[2](2, 2) = q * (q - 1.0) * (q - 2.0) * P.w3 * P.sign[2] / (c * c * c);
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
