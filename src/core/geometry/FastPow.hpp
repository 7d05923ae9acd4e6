#pragma once
// x^e for x >= 0, in closed form (sqrt, cbrt, products) for the exponents
// that common squareness values give, std::pow otherwise. The support map
// and implicit function raise to 2/eps, 2/(2 - eps), eps/(2 - eps), -eps/2
// and their reciprocals: for eps = 0.5 (the blocks of the boxCase benchmark)
// 4, 3, 4/3, 3/4, 1/3 and -1/4; for eps = 1 and 2/3 squares and roots.
// Why: pow was the largest single cost of flat-face contact queries (perf,
// settled bed of eps = 0.5 blocks: 6 % of the run, from the ~80 support
// evaluations of a patch outline). sqrt is correctly rounded and cubeRoot
// within 4 ulp, so results move only in the last bits. The exponents are
// compared exactly: 2/(2 - 0.5) and 4.0/3.0 are the same correctly rounded double.
//
// Blocky shapes: eps = 0.2 and 0.25 give p = 2/eps = 10 and 8
// exactly (2/0.2 rounds to 10), so the implicit function and its
// derivatives raise to p and p - 1 = 9, 7: integer powers, done by
// squaring (std::pow takes 40 % of a blocky pair query, perf/callgrind). eps = 0.25
// also gives 1/e = 7/8 in the support map: three square roots.
// Exponents without a closed form here (eps = 0.2: 1/9 and -1/10) go to
// PowLanes.hpp in the support map, batched; hasClosedFormPow tells which.
#include <cmath>
#include <cstdint>
#include <cstring>

namespace sef {

// x^(1/3) for x >= 0, within 4 ulp of the exact root (fastPowTest) at half
// glibc's cbrt cost (7 against 15 ns, this machine): the exponent bits
// divided by 3 start within a few per cent, two Halley steps (cubic
// convergence) reach about 1e-12 and a Newton step the last bits. cbrt and
// the scalbn it calls were about 14 % of the collision step in a bed of
// eps = 0.5 blocks (1/3 = 1/(p - 1), p = 4).
// Outside [1e-290, 1e290] (zero, subnormals, where 2 x or y^3 could
// overflow, non-finite x) it is std::cbrt. (isfinite first: an ordered
// comparison with NaN traps under OpenFOAM.)
inline double cubeRoot(double x) {
    if (!std::isfinite(x) || !(x >= 1e-290 && x <= 1e290)) return std::cbrt(x);
    std::uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    bits = bits / 3 + 0x2A9F7893782DA1CEULL; // exponent / 3, mantissa roughly
    double y;
    std::memcpy(&y, &bits, sizeof y);
    double y3 = y * y * y;
    y *= (y3 + 2.0 * x) / (2.0 * y3 + x);
    y3 = y * y * y;
    y *= (y3 + 2.0 * x) / (2.0 * y3 + x);
    return y - (y * y * y - x) / (3.0 * y * y);
}

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

// x^e in closed form where the exponent has one (the list below): true and
// `out` set; false otherwise (out untouched).
inline bool closedFormPow(double x, double e, double& out) {
    if (e == 1.0) out = x;
    else if (e == 2.0) out = x * x;
    else if (e == 0.5) out = std::sqrt(x);
    else if (e == 1.0 / 3.0) out = cubeRoot(x);
    else if (e == 4.0 / 3.0) out = x * cubeRoot(x);
    else if (e == 0.75) {
        const double root = std::sqrt(x);
        out = root * std::sqrt(root);
    } else if (e == -0.25) out = 1.0 / std::sqrt(std::sqrt(x));
    else if (e == 0.25) out = std::sqrt(std::sqrt(x));
    else if (e == -0.125) out = 1.0 / std::sqrt(std::sqrt(std::sqrt(x)));
    else if (e == 3.0) out = x * x * x;
    else if (e == 4.0) {
        const double s = x * x;
        out = s * s;
    } else if (e == 0.875) { // x^(1/2 + 1/4 + 1/8)
        const double r2 = std::sqrt(x), r4 = std::sqrt(r2), r8 = std::sqrt(r4);
        out = r2 * r4 * r8;
    } else if (e >= 5.0 && e <= 12.0 && e == static_cast<double>(static_cast<int>(e)))
        out = powSmallInteger(x, static_cast<int>(e));
    else
        return false;
    return true;
}

inline bool hasClosedFormPow(double e) {
    double unused;
    return closedFormPow(1.0, e, unused);
}

inline double powNonNegative(double x, double e) {
    double out;
    return closedFormPow(x, e, out) ? out : std::pow(x, e);
}

} // namespace sef
