// wallPenetration: exact depth of a particle into the walls (injection of
// settled beds), against the closed-form depths of a sphere and a block.
#include <gtest/gtest.h>

#include <cmath>

#include "DemTestSupport.hpp"
#include "dem/injection/WallClearance.hpp"
#include "geometry/Superellipsoid.hpp"

using namespace sef;
using namespace sef::dem;

TEST(WallClearance, SphereOnTheFloorOfACylinder) {
    const WallSet walls(dem::test::cylinderWalls(0.0285, 0.4, 48));
    const double r = 0.0055;
    const Superellipsoid ball(r, r, r, 1.0, 1.0);
    // resting with a penetration of 1e-6 m, clear by 1e-6 m, sunk by 1 mm
    EXPECT_NEAR(wallPenetration(walls, ball, Pose{Vec3(0, 0, r - 1e-6), Quat::Identity()}), 1e-6, 1e-10);
    EXPECT_EQ(wallPenetration(walls, ball, Pose{Vec3(0, 0, r + 1e-6), Quat::Identity()}), 0.0);
    EXPECT_NEAR(wallPenetration(walls, ball, Pose{Vec3(0, 0, r - 1e-3), Quat::Identity()}), 1e-3, 1e-9);
    // in the middle of the cylinder: nothing near
    EXPECT_EQ(wallPenetration(walls, ball, Pose{Vec3(0, 0, 0.2), Quat::Identity()}), 0.0);
}

TEST(WallClearance, BlockRestingOnAFaceIsClearThoughItsBoundingSphereIsNot) {
    const WallSet walls(dem::test::cylinderWalls(0.0285, 0.4, 48));
    const Superellipsoid block(0.005, 0.005, 0.005, 0.2, 0.2);
    ASSERT_GT(block.boundingRadius(), 0.0075);
    // a face-down block 1e-7 m above the floor: its bounding sphere reaches
    // 2.5 mm into the floor, its body not at all
    EXPECT_EQ(wallPenetration(walls, block, Pose{Vec3(0, 0, 0.005 + 1e-7), Quat::Identity()}), 0.0);
    EXPECT_NEAR(wallPenetration(walls, block, Pose{Vec3(0, 0, 0.005 - 2e-4), Quat::Identity()}), 2e-4, 1e-7);
}
