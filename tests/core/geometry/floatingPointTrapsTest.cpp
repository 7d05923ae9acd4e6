// The core tests run under OpenFOAM's floating-point traps
// (support/TrappedTestMain.cpp): if they did not, every other test could
// pass while the core still crashes a solver run.
#include "FloatingPointTraps.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <csignal>

namespace {

// volatile: the compiler may neither fold the division nor drop it unused.
volatile double sink = 0.0;
double divide(volatile double numerator, volatile double denominator) {
    sink = numerator / denominator;
    return sink;
}

} // namespace

TEST(FloatingPointTraps, AreOnInTheTestExecutable) {
    EXPECT_TRUE(sef::test::floatingPointTrapsEnabled());
}

TEST(FloatingPointTrapsDeathTest, DivisionByZeroKillsTheProcess) {
    EXPECT_EXIT(divide(1.0, 0.0), testing::KilledBySignal(SIGFPE), "");
}

TEST(FloatingPointTrapsDeathTest, InvalidOperationKillsTheProcess) {
    EXPECT_EXIT(divide(0.0, 0.0), testing::KilledBySignal(SIGFPE), "");
}

TEST(FloatingPointTraps, SuspendedForOneScopeOnly) {
    {
        sef::test::FloatingPointTrapsSuspended off;
        EXPECT_FALSE(sef::test::floatingPointTrapsEnabled());
        EXPECT_TRUE(std::isinf(divide(1.0, 0.0)));
    }
    EXPECT_TRUE(sef::test::floatingPointTrapsEnabled());
}
