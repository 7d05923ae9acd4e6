// A warm-started pair query must never report a deeper overlap than the
// cold query of the same poses (the depth is the minimum of the overlap over
// all normals). Regression: in a bed of eps = 0.2 cubes, a warm start that
// failed left the global fallback at 5.3e-2 d_eq for two touching cubes
// (cold: 0), and overlap removal shoved them into their neighbours.
#include "contact/PairContact.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

namespace sef {
namespace {

// The configuration of the regression (two eps = 0.2 cubes of d_eq = 0.01
// in the cylinder-filling bed, poses and warm normal to the last bit).
TEST(PairWarmStart, TouchingCubesOfTheBedRegression) {
    const Superellipsoid unitCube(1.0, 1.0, 1.0, 0.2, 0.2);
    const double k = 0.01 / unitCube.equivalentDiameter();
    const Superellipsoid cube(k, k, k, 0.2, 0.2);
    const Pose a{Vec3(0x1.f1ce3a36cc23dp-7, 0x1.ebe809dc1b46dp-8, 0x1.3ebf16ae53659p-6),
                 Quat(-0x1.0fe67f50eaa26p-1, -0x1.0e64c4fe5df52p-4, -0x1.b0681d957f8bbp-1, -0x1.39edd58195b9ap-6)};
    const Pose b{Vec3(0x1.8c723a2438993p-6, 0x1.12fd2e86778ddp-10, 0x1.4e499c8218875p-6),
                 Quat(0x1.8477f648d92fdp-7, 0x1.ffda9e1046178p-1, 0x1.52e4ee05da178p-6, -0x1.6d28f82e1eacdp-10)};
    PairWarmStart warm;
    warm.normal = Vec3(0x1.fc15dfa46880ep-1, -0x1.f986a181f991bp-4, 0x1.57773d1f01bb4p-11);
    const ContactResult cold = detectPairContact(cube, a, cube, b);
    const ContactResult warmed = detectPairContact(cube, a, cube, b, &warm);
    // cold: just touching (|depth| ~ 1e-9 d_eq); the warm answer was 5.3e-2 d_eq
    EXPECT_LT(std::abs(cold.depth), 1e-6 * 0.01);
    EXPECT_LE(warmed.depth, cold.depth + 1e-6 * 0.01) << "warm " << warmed.depth / 0.01 << " d_eq";
}

TEST(PairWarmStart, NeverDeeperThanTheColdQueryBetweenBlocks) {
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    const Superellipsoid cube(0.004, 0.004, 0.004, 0.2, 0.2);
    const Superellipsoid brick(0.004, 0.003, 0.002, 0.3, 0.2);
    const double d = cube.equivalentDiameter();
    int tested = 0, fallbacks = 0;
    double worst = 0.0;
    for (int k = 0; k < 400; ++k) {
        // upright blocks side by side (z axes parallel, as on a floor), the
        // second turned about z; placed just touching along a random
        // horizontal direction (bisection on the cold depth), then a warm
        // start from a wrong normal nearby
        const Superellipsoid& s2 = k % 2 ? cube : brick;
        const Quat q1(Eigen::AngleAxisd(unit(rng) * M_PI, Vec3::UnitZ()));
        const Quat q2(Eigen::AngleAxisd(unit(rng) * M_PI, Vec3::UnitZ()));
        const double angle = unit(rng) * M_PI;
        const Vec3 dir(std::cos(angle), std::sin(angle), 0.0);
        double lo = 0.0, hi = 0.03;
        for (int it = 0; it < 50; ++it) {
            const double mid = 0.5 * (lo + hi);
            const ContactResult c = detectPairContact(cube, Pose{Vec3::Zero(), q1}, s2, Pose{mid * dir, q2});
            (c.contact ? lo : hi) = mid;
        }
        const Pose p1{Vec3::Zero(), q1}, p2{(lo - 1e-6 * d * (k % 3)) * dir, q2};
        const ContactResult cold = detectPairContact(cube, p1, s2, p2);
        PairWarmStart warm;
        warm.normal = (k % 4 == 0 ? Vec3(dir.x() > 0 ? 1 : -1, 0, 0)
                                  : Vec3(dir + 0.3 * Vec3(unit(rng), unit(rng), 0.2 * unit(rng))))
                          .normalized();
        const ContactResult warmed = detectPairContact(cube, p1, s2, p2, &warm);
        ASSERT_TRUE(std::isfinite(warmed.depth));
        if (warmed.status == ContactStatus::fallback) ++fallbacks;
        worst = std::max(worst, (warmed.depth - cold.depth) / d);
        EXPECT_LE(warmed.depth, cold.depth + 1e-6 * d)
            << "case " << k << ": warm " << warmed.depth / d << " d_eq, cold " << cold.depth / d;
        ++tested;
    }
    EXPECT_EQ(tested, 400);
    std::printf("[ warm     ] %d fallbacks; worst warm - cold depth %.3e d_eq\n", fallbacks, worst);
}

} // namespace
} // namespace sef
