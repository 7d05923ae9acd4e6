// Contact bookkeeping: duplicate wall contacts, one partner per particle.
#include <gtest/gtest.h>

#include "dem/engine/DemContact.hpp"

using namespace sef;
using namespace sef::dem;

TEST(DemContact, MergesCoplanarDuplicatesKeepsDistinctNormals) {
    std::vector<DemContact> c;
    c.push_back({0, -1, 3, Vec3(0, 0, 0), Vec3(0, 0, -1), 1e-4});
    c.push_back({0, -1, 4, Vec3(0, 0, 0), Vec3(0, 0, -1), 2e-4});       // same plane, deeper
    c.push_back({0, -1, 9, Vec3(0.1, 0, 0), Vec3(1, 0, 0), 5e-5});      // side wall (corner)
    c.push_back({1, -1, 4, Vec3(0, 0, 0), Vec3(0, 0, -1), 3e-4});       // another particle
    mergeDuplicateWallContacts(c);
    ASSERT_EQ(c.size(), 3u);
    EXPECT_EQ(c[0].face, 4);
    EXPECT_DOUBLE_EQ(c[0].depth, 2e-4);
    EXPECT_EQ(c[1].face, 9);
    EXPECT_EQ(c[2].i, 1);
}

TEST(DemContact, OnePartnerPerParticleTakesLargestOverlapFirst) {
    std::vector<DemContact> c;
    c.push_back({0, 1, -1, Vec3::Zero(), Vec3::UnitX(), 1e-4});
    c.push_back({1, 2, -1, Vec3::Zero(), Vec3::UnitX(), 3e-4}); // deepest: takes 1 and 2
    c.push_back({0, -1, 0, Vec3::Zero(), Vec3::UnitZ(), 2e-4}); // 0 is free: wall partner
    c.push_back({2, 3, -1, Vec3::Zero(), Vec3::UnitX(), 2.5e-4}); // 2 taken
    c.push_back({3, -1, 1, Vec3::Zero(), Vec3::UnitZ(), 1e-5});  // 3 free
    const auto s = selectOnePartnerPerParticle(c, 4);
    ASSERT_EQ(s.size(), 3u);
    EXPECT_EQ(s[0].i, 1);
    EXPECT_EQ(s[1].i, 0);
    EXPECT_TRUE(s[1].isWall());
    EXPECT_EQ(s[2].i, 3);
}
