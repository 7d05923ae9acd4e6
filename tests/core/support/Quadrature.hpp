#pragma once
// Deterministic quadrature for tests: tanh-sinh (double-exponential) rule on
// [lo, hi]. It converges exponentially even for integrands with algebraic
// end-point singularities such as the superellipsoid height function
// z(x, y) ~ (1 - r)^(eps/2), which defeats Gauss-Legendre and Monte Carlo.
#include <cmath>

namespace sef::test {

template <class F>
double tanhSinh(F&& f, double lo, double hi, int levels = 7) {
    const double half = 0.5 * (hi - lo), mid = 0.5 * (hi + lo);
    const double h = std::ldexp(1.0, -levels); // step in t
    const double tMax = 3.2;                     // weights below 1e-20 beyond
    double sum = 0.0;
    for (double t = -tMax; t <= tMax + 0.5 * h; t += h) {
        const double s = 0.5 * M_PI * std::sinh(t);
        const double u = std::tanh(s);
        const double w = 0.5 * M_PI * std::cosh(t) / (std::cosh(s) * std::cosh(s));
        // Distance to the end points computed without cancellation.
        const double oneMinusU = 1.0 / (std::exp(s) * std::cosh(s));  // 1 - tanh(s)
        const double onePlusU = std::exp(s) / std::cosh(s);           // 1 + tanh(s)
        double x = u >= 0 ? hi - half * oneMinusU : lo + half * onePlusU;
        if (x <= lo || x >= hi) continue;
        (void)mid;
        sum += w * f(x);
    }
    return sum * h * half;
}

} // namespace sef::test
