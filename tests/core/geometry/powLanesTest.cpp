// powLanes (geometry/PowLanes.hpp): x^y against long double powl within the
// stated error, the same bits however the powers are batched (the support
// map's lanes and single calls rely on it), 1^y exactly 1, and std::pow's
// answer outside the domain, without a floating-point trap (this binary
// runs with invalid, divide-by-zero and overflow trapped, as OpenFOAM does).
#include "FloatingPointTraps.hpp"
#include "geometry/PowLanes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using sef::powLanes;

namespace {

constexpr double kMachineEps = std::numeric_limits<double>::epsilon();

double relativeError(double got, double x, double y) {
    const long double want = powl(static_cast<long double>(x), static_cast<long double>(y));
    return static_cast<double>(std::fabs((static_cast<long double>(got) - want) / want));
}

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

} // namespace

// The stated error bound (PowLanes.hpp): (4 + 1.5 |y ln x|) eps. y ln x
// is rounded once (|y ln x| eps/2 in the result), ln x carries ~1 eps (the
// table's rounding and r = m/c - 1), e^r and the table's 2^(j/128) ~1 eps
// each.
double errorBound(double x, double y) { return (4.0 + 1.5 * std::fabs(y * std::log(x))) * kMachineEps; }

// The support map's powers (SupportKernel): u^(1/(p-1)) with u in (0, 1]
// (down to the smallest u whose power is not below 1e-300) and S^(-1/p)
// with S in [1, 3], for squareness values FastPow has no closed form for.
TEST(PowLanes, SupportMapPowersWithinTheBound) {
    std::mt19937 rng(71);
    std::uniform_real_distribution<double> unit(0.0, 1.0), sum(1.0, 3.0);
    double worst = 0.0, worstBlocky = 0.0;
    for (const double eps : {0.1, 0.2, 0.3, 0.4, 0.45, 0.6, 0.7, 1.2, 1.5, 1.9}) {
        const double root = eps / (2.0 - eps), scale = -0.5 * eps;
        const double logSmallest = std::max(-40.0, -690.0 / root);
        std::vector<double> x(48), y(48), out(48);
        for (int trial = 0; trial < 200; ++trial) {
            for (std::size_t i = 0; i < 48; ++i) {
                const bool isRoot = i % 3 != 2;
                x[i] = isRoot ? std::exp(logSmallest * unit(rng)) : sum(rng);
                y[i] = isRoot ? root : scale;
            }
            powLanes(x.data(), y.data(), out.data(), 48);
            for (std::size_t i = 0; i < 48; ++i) {
                const double error = relativeError(out[i], x[i], y[i]);
                worst = std::max(worst, error / errorBound(x[i], y[i]));
                if (eps <= 0.25) worstBlocky = std::max(worstBlocky, error);
            }
        }
    }
    EXPECT_LT(worst, 1.0);
    // the blocky exponents (|y ln x| <= 5 here): within 10 eps (measured 6.6)
    EXPECT_LT(worstBlocky, 10.0 * kMachineEps);
}

// Any positive normal x and |y ln x| <= 700.
TEST(PowLanes, WholeRangeWithinTheBound) {
    std::mt19937 rng(72);
    std::uniform_real_distribution<double> logX(-700.0, 700.0), exponent(-12.0, 12.0);
    double worst = 0.0;
    std::vector<double> x(37), y(37), out(37); // (not a multiple of four: the one-by-one tail too)
    for (int trial = 0; trial < 2000; ++trial) {
        for (std::size_t i = 0; i < x.size(); ++i) {
            x[i] = std::exp(logX(rng));
            y[i] = exponent(rng);
            const double z = y[i] * std::log(x[i]);
            if (std::fabs(z) > 690.0) y[i] *= 690.0 / std::fabs(z);
        }
        powLanes(x.data(), y.data(), out.data(), static_cast<int>(x.size()));
        for (std::size_t i = 0; i < x.size(); ++i)
            worst = std::max(worst, relativeError(out[i], x[i], y[i]) / errorBound(x[i], y[i]));
    }
    EXPECT_LT(worst, 1.0);
}

// Each power's bits do not depend on its batch: four at a time in vector
// registers, the rest one by one, the same operations.
TEST(PowLanes, SameBitsInAnyBatch) {
    std::mt19937 rng(73);
    std::uniform_real_distribution<double> logX(-50.0, 50.0), exponent(-3.0, 3.0);
    std::vector<double> x(29), y(29), all(29), single(1);
    for (int trial = 0; trial < 300; ++trial) {
        for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::exp(logX(rng)), y[i] = exponent(rng);
        powLanes(x.data(), y.data(), all.data(), static_cast<int>(x.size()));
        for (std::size_t i = 0; i < x.size(); ++i) {
            powLanes(&x[i], &y[i], single.data(), 1);
            ASSERT_TRUE(sameBits(all[i], single[0])) << x[i] << "^" << y[i];
        }
        // shifted by one: every power in the other kind of slot
        std::vector<double> shifted(x.size() - 1);
        powLanes(x.data() + 1, y.data() + 1, shifted.data(), static_cast<int>(shifted.size()));
        for (std::size_t i = 0; i < shifted.size(); ++i) ASSERT_TRUE(sameBits(all[i + 1], shifted[i]));
    }
}

// The AVX2 build and the portable one (one by one, for CPUs without AVX2)
// give the same bits: a run does not depend on the machine's vector width.
TEST(PowLanes, SameBitsWithAndWithoutAvx2) {
    if (!sef::detail::hasAvx2()) GTEST_SKIP() << "no AVX2 on this CPU";
    std::mt19937 rng(74);
    std::uniform_real_distribution<double> logX(-700.0, 700.0), exponent(-12.0, 12.0);
    std::vector<double> x(64), y(64), vector(64), portable(64);
    for (int trial = 0; trial < 2000; ++trial) {
        for (std::size_t i = 0; i < x.size(); ++i) {
            x[i] = std::exp(logX(rng));
            y[i] = exponent(rng);
            const double z = y[i] * std::log(x[i]);
            if (std::fabs(z) > 690.0) y[i] *= 690.0 / std::fabs(z); // (no overflow: it traps)
        }
        sef::detail::powLanesAvx2(x.data(), y.data(), vector.data(), 64);
        sef::detail::powLanesPortable(x.data(), y.data(), portable.data(), 64);
        for (std::size_t i = 0; i < x.size(); ++i) ASSERT_TRUE(sameBits(vector[i], portable[i])) << x[i] << "^" << y[i];
    }
}

// 1^y is exactly 1 (the support map's S = 1 on a body axis), and inputs
// outside the domain get std::pow's value, in a batch of vector lanes and
// one by one, with no trap.
TEST(PowLanes, ExactOneAndStdPowOutsideTheDomain) {
    const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
    // (1, 1, 1: exact; then 0, subnormal, infinity, NaN, negative x; y NaN
    // or beyond 1e6; 3^0; a subnormal result: |y ln x| > 700)
    const std::vector<double> x{1.0, 1.0, 1.0, 0.0, 0.0, 4.9e-320, 1e-300, inf, nan, 2.0, 1.0000001, 0.9999999, -1.0, 3.0, 1e-200, 1.0};
    const std::vector<double> y{-0.1, 1.0 / 9.0, 7.5, 0.5, 3.0, 0.5, 0.1, -0.5, 0.5, nan, 1e7, -2e7, 2.0, 0.0, 1.6, nan};
    const std::vector<bool> inDomain{true, true, true, false, false, false, true, false,
                                     false, false, false, false, false, true, false, false};
    std::vector<double> out(x.size());
    powLanes(x.data(), y.data(), out.data(), static_cast<int>(x.size()));
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double want = std::pow(x[i], y[i]);
        if (inDomain[i])
            EXPECT_LE(std::fabs(out[i] - want), errorBound(x[i], y[i]) * want) << x[i] << "^" << y[i];
        else // std::pow's own answer
            EXPECT_TRUE(sameBits(out[i], want) || (std::isnan(out[i]) && std::isnan(want))) << x[i] << "^" << y[i];
        double one;
        powLanes(&x[i], &y[i], &one, 1);
        EXPECT_TRUE(sameBits(one, out[i]) || (std::isnan(one) && std::isnan(out[i])));
    }
    for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(out[i], 1.0);
    EXPECT_EQ(out[13], 1.0); // 3^0
}
