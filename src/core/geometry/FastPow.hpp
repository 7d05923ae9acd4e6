#pragma once
// x^e for x >= 0, in closed form (sqrt, cbrt, products) for the exponents
// that common squareness values give, std::pow otherwise. The support map
// and implicit function raise to 2/eps, 2/(2 - eps), eps/(2 - eps), -eps/2
// and their reciprocals: for eps = 0.5 (the blocks of the issue-6 benchmark)
// 4, 3, 4/3, 3/4, 1/3 and -1/4; for eps = 1 and 2/3 squares and roots.
// Why: pow was the largest single cost of flat-face contact queries (perf,
// settled bed of eps = 0.5 blocks: 6 % of the run, from the ~80 support
// evaluations of a patch outline). sqrt is correctly rounded and cbrt within
// 1 ulp, so results move only in the last bits. The exponents are compared
// exactly: 2/(2 - 0.5) and 4.0/3.0 are the same correctly rounded double.
//
// Blocky shapes (issue 21): eps = 0.2 and 0.25 give p = 2/eps = 10 and 8
// exactly (2/0.2 rounds to 10), so the implicit function and its
// derivatives raise to p and p - 1 = 9, 7: integer powers, done by
// squaring (pow was 40 % of a blocky pair query, perf/callgrind). eps = 0.25
// also gives 1/e = 7/8 in the support map: three square roots.
#include <cmath>

namespace sef {

// x^k for the integers k = 5..12 by squaring: at most 5 roundings,
// relative error <= 11 u (u = 2^-53) at k = 12 against pow's 0.5 u.
inline double powSmallInteger(double x, int k) {
    const double x2 = x * x, x4 = x2 * x2;
    switch (k) {
    case 5: return x4 * x;
    case 6: return x4 * x2;
    case 7: return x4 * x2 * x;
    case 8: return x4 * x4;
    case 9: return x4 * x4 * x;
    case 10: return x4 * x4 * x2;
    case 11: return x4 * x4 * x2 * x;
    default: return x4 * x4 * x4; // 12
    }
}

inline double powNonNegative(double x, double e) {
    if (e == 1.0) return x;
    if (e == 2.0) return x * x;
    if (e == 0.5) return std::sqrt(x);
    if (e == 1.0 / 3.0) return std::cbrt(x);
    if (e == 4.0 / 3.0) return x * std::cbrt(x);
    if (e == 0.75) {
        const double root = std::sqrt(x);
        return root * std::sqrt(root);
    }
    if (e == -0.25) return 1.0 / std::sqrt(std::sqrt(x));
    if (e == 0.25) return std::sqrt(std::sqrt(x));
    if (e == -0.125) return 1.0 / std::sqrt(std::sqrt(std::sqrt(x)));
    if (e == 3.0) return x * x * x;
    if (e == 4.0) {
        const double s = x * x;
        return s * s;
    }
    if (e == 0.875) { // x^(1/2 + 1/4 + 1/8)
        const double r2 = std::sqrt(x), r4 = std::sqrt(r2), r8 = std::sqrt(r4);
        return r2 * r4 * r8;
    }
    if (e >= 5.0 && e <= 12.0 && e == static_cast<double>(static_cast<int>(e)))
        return powSmallInteger(x, static_cast<int>(e));
    return std::pow(x, e);
}

} // namespace sef
