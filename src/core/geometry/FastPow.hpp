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
#include <cmath>

namespace sef {

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
    if (e == 3.0) return x * x * x;
    if (e == 4.0) {
        const double s = x * x;
        return s * s;
    }
    return std::pow(x, e);
}

} // namespace sef
