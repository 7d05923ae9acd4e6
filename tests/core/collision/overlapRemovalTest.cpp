// Overlap removal: separation along the normal split by inverse mass.
#include <gtest/gtest.h>

#include <cmath>

#include "collision/OverlapRemoval.hpp"

using namespace sef;

TEST(OverlapRemoval, PairSplitByInverseMassKeepsCentreOfMass) {
    RigidBodyState a, b;
    a.mass = 3.0;
    b.mass = 1.0;
    a.position = Vec3(0, 0, 0);
    b.position = Vec3(1, 1, 0);
    const Vec3 n = Vec3(1, 1, 0).normalized();
    const Vec3 com = (a.mass * a.position + b.mass * b.position) / 4.0;
    const auto d = removeOverlap(a, b, n, 0.2);
    // light body moves 3/4 of the depth, heavy one 1/4 (hand computation)
    EXPECT_LT((d.body1 + 0.05 * n).norm(), 1e-16);
    EXPECT_LT((d.body2 - 0.15 * n).norm(), 1e-16);
    EXPECT_NEAR((d.body2 - d.body1).dot(n), 0.2, 1e-16);
    EXPECT_LT(((a.mass * a.position + b.mass * b.position) / 4.0 - com).norm(), 1e-16);
}

TEST(OverlapRemoval, WallIsFixed) {
    RigidBodyState s;
    s.position = Vec3(0, 0, 0.1);
    const auto d = removeWallOverlap(s, -Vec3::UnitZ(), 0.01); // wall below
    EXPECT_LT((s.position - Vec3(0, 0, 0.11)).norm(), 1e-16);
    EXPECT_EQ(d.body2, Vec3::Zero());
}

TEST(OverlapRemoval, NoOverlapNoMotionAndBadInputThrows) {
    RigidBodyState a, b;
    b.position = Vec3(2, 0, 0);
    const auto d = removeOverlap(a, b, Vec3::UnitX(), -0.1);
    EXPECT_EQ(d.body1, Vec3::Zero());
    EXPECT_EQ(b.position, Vec3(2, 0, 0));
    EXPECT_THROW(removeOverlap(a, b, Vec3(2, 0, 0), 0.1), std::invalid_argument);
    EXPECT_THROW(removeOverlap(a, b, Vec3::UnitX(), std::nan("")), std::invalid_argument);
}
