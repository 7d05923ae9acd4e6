// powNonNegative (geometry/FastPow.hpp): the closed forms agree with std::pow
// to a few ulp for every exponent they cover, the exponents the support map
// and implicit function compute for common squareness values take the fast
// paths (same correctly rounded doubles), and 0 and 1 are exact.
#include "FloatingPointTraps.hpp"
#include "geometry/FastPow.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

using sef::powNonNegative;

namespace {

struct Rational {
    int num, den;
};

// Largest relative error of powNonNegative(x, num/den) over 5000 x with
// log x uniform in [-logRange, logRange], against x^(num/den) in long double
// with the exponent exact to 1e-19.
double worstRelativeError(const Rational& q, std::mt19937& rng, double logRange) {
    std::uniform_real_distribution<double> logX(-logRange, logRange);
    const double e = double(q.num) / double(q.den);
    double worst = 0.0;
    for (int k = 0; k < 5000; ++k) {
        const double x = std::exp(logX(rng));
        const long double want = std::pow(static_cast<long double>(x), static_cast<long double>(q.num) / q.den);
        worst = std::max(worst, static_cast<double>(std::fabs((powNonNegative(x, e) - want) / want)));
    }
    return worst;
}

} // namespace

TEST(FastPow, ClosedFormsMatchTheExactRationalPowers) {
    // The reference is x^(num/den) in long double with the exponent exact to
    // 1e-19: std::pow(x, 1.0/3.0) itself uses an exponent rounded by 2e-17,
    // which alone moves x^e by e ln(x) 2e-17 (up to 9 ulp over this range).
    const Rational exponents[] = {{1, 1}, {2, 1}, {1, 2}, {1, 3}, {4, 3}, {3, 4}, {-1, 4}, {1, 4}, {3, 1}, {4, 1}};
    std::mt19937 rng(11);
    for (const Rational& q : exponents) {
        const double worst = worstRelativeError(q, rng, 30.0);
        // sqrt is correctly rounded and cbrt within 1 ulp; each product or
        // quotient adds half an ulp: at most 2 ulp (2.2e-16 each); 4 allowed
        EXPECT_LT(worst, 4.0 * std::numeric_limits<double>::epsilon()) << q.num << "/" << q.den;
    }
}

TEST(FastPow, ExactAtZeroAndOne) {
    for (double e : {1.0, 2.0, 0.5, 1.0 / 3.0, 4.0 / 3.0, 0.75, 0.25, 3.0, 4.0}) {
        EXPECT_EQ(powNonNegative(0.0, e), 0.0) << e;
        EXPECT_EQ(powNonNegative(1.0, e), 1.0) << e;
    }
    {
        // +inf, as pow (raises divide-by-zero: the core calls the negative
        // exponent only with bases >= 1, geometry/Support.cpp)
        sef::test::FloatingPointTrapsSuspended trapsOff;
        EXPECT_EQ(powNonNegative(0.0, -0.25), std::pow(0.0, -0.25));
    }
    EXPECT_EQ(powNonNegative(1.0, -0.25), 1.0);
}

TEST(FastPow, ExponentsOfEpsOneHalfHitTheClosedForms) {
    // As geometry/Support.cpp and contact/SupportKernel.hpp compute them for
    // eps = 0.5; the fast path compares exactly, so these must be the same
    // doubles as the literals in FastPow.hpp.
    const double eps = 0.5;
    EXPECT_EQ(eps / (2.0 - eps), 1.0 / 3.0);
    EXPECT_EQ(-0.5 * eps, -0.25);
    const double conjugate = 2.0 / (2.0 - eps);
    EXPECT_EQ(conjugate, 4.0 / 3.0);
    EXPECT_EQ(1.0 / conjugate, 0.75);
    EXPECT_EQ(2.0 / eps - 1.0, 3.0); // implicit function: p - 1 for p = 2/eps
    EXPECT_EQ(2.0 / eps, 4.0);
}

TEST(FastPow, IntegerAndEighthPowersOfBlockyShapes) {
    // eps = 0.2 gives p = 10, p - 1 = 9; eps = 0.25 gives 8, 7 and
    // 1/e = 7/8 in the support map. Integer powers by squaring carry up to 11
    // rounding errors of u = eps_machine / 2 (k = 12); 7/8 three sqrt and two
    // products.
    EXPECT_EQ(2.0 / 0.2, 10.0);
    EXPECT_EQ(2.0 / 0.2 - 1.0, 9.0);
    EXPECT_EQ(2.0 / 0.25, 8.0);
    EXPECT_EQ(1.0 / (2.0 / (2.0 - 0.25)), 0.875);
    const Rational exponents[] = {{5, 1}, {6, 1}, {7, 1}, {8, 1}, {9, 1}, {10, 1}, {11, 1}, {12, 1}, {7, 8}};
    std::mt19937 rng(12);
    for (const Rational& q : exponents) {
        const double e = double(q.num) / double(q.den);
        const double worst = worstRelativeError(q, rng, 20.0);
        EXPECT_LT(worst, 6.0 * std::numeric_limits<double>::epsilon()) << q.num << "/" << q.den;
        EXPECT_EQ(powNonNegative(0.0, e), 0.0) << e;
        EXPECT_EQ(powNonNegative(1.0, e), 1.0) << e;
    }
}

// cubeRoot (the x^(1/3) and x^(4/3) of eps = 0.5 shapes): within 4 ulp of
// the exact root over its whole fast range [1e-290, 1e290] (log-uniform,
// against cbrtl), exact for perfect cubes, and std::cbrt's answer outside
// that range (zero, subnormals, near overflow, infinity), under the traps.
TEST(FastPow, CubeRootNearTheExactRootOverItsRange) {
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> logX(std::log(1e-290), std::log(1e290));
    double worst = 0.0;
    for (int k = 0; k < 200000; ++k) {
        const double x = std::exp(logX(rng));
        const long double want = std::cbrt(static_cast<long double>(x));
        worst = std::max(worst, static_cast<double>(std::fabs((sef::cubeRoot(x) - want) / want)));
    }
    EXPECT_LT(worst, 4.0 * std::numeric_limits<double>::epsilon());
    for (int n = 1; n <= 100000; n += 7) {
        const double c = double(n) * n * n; // exact below 2^53
        EXPECT_EQ(sef::cubeRoot(c), double(n)) << n;
    }
    for (double x : {0.0, 1e-300, 4.9e-324, 2.2250738585072014e-308, 1e300,
                     std::numeric_limits<double>::max(), std::numeric_limits<double>::infinity()})
        EXPECT_EQ(sef::cubeRoot(x), std::cbrt(x)) << x;
}
