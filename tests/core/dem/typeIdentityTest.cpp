// mapRecordedTypes: particle types matched by name across a restart.
#include <gtest/gtest.h>

#include "dem/particles/TypeIdentity.hpp"

using namespace sef::dem;

namespace {

NamedType grain(const std::string& name, double a, double density = 2500) {
    return {name, a, 0.002, 0.002, 0.5, 1.0, density};
}

}  // namespace

TEST(TypeIdentity, InsertedAndReorderedTypesMapByName) {
    const std::vector<NamedType> recorded{grain("sand", 0.003), grain("rock", 0.005)};
    const std::vector<NamedType> current{
        grain("pebble", 0.004), grain("rock", 0.005), grain("sand", 0.003)};
    const TypeMapping m = mapRecordedTypes(recorded, current, {7, 3});
    EXPECT_TRUE(m.problems.empty());
    EXPECT_EQ(m.currentIndex, (std::vector<int>{2, 1}));
}

TEST(TypeIdentity, RemovedOrRenamedTypeWithParticlesIsNamed) {
    const std::vector<NamedType> recorded{grain("sand", 0.003), grain("rock", 0.005)};
    const std::vector<NamedType> current{grain("sand", 0.003), grain("stone", 0.005)};
    const TypeMapping m = mapRecordedTypes(recorded, current, {7, 3});
    ASSERT_EQ(m.problems.size(), 1u);
    EXPECT_NE(m.problems[0].find("'rock' (3 particles)"), std::string::npos) << m.problems[0];
    EXPECT_EQ(m.currentIndex[1], -1);
}

TEST(TypeIdentity, RemovedTypeWithoutParticlesIsAllowed) {
    // (its particles all left through an outlet)
    const std::vector<NamedType> recorded{grain("sand", 0.003), grain("rock", 0.005)};
    const TypeMapping m = mapRecordedTypes(recorded, {grain("sand", 0.003)}, {7, 0});
    EXPECT_TRUE(m.problems.empty());
    EXPECT_EQ(m.currentIndex, (std::vector<int>{0, -1}));
}

TEST(TypeIdentity, ReshapedTypeNamesEveryChangedValue) {
    const TypeMapping m = mapRecordedTypes(
        {grain("sand", 0.003)}, {grain("sand", 0.004, 2600)}, {7});
    ASSERT_EQ(m.problems.size(), 1u);
    const std::string& p = m.problems[0];
    EXPECT_NE(p.find("a 0.003 -> 0.004"), std::string::npos) << p;
    EXPECT_NE(p.find("density 2500 -> 2600"), std::string::npos) << p;
    EXPECT_EQ(p.find("eps1"), std::string::npos) << p;
}

TEST(TypeIdentity, ValuesEqualToTheRecordsPrecision) {
    // 6 significant digits (OpenFOAM's default writePrecision) round by at
    // most 5e-6 relative: equal; an edit of 2e-5 relative is a change
    const double a = 0.00312345678;
    EXPECT_TRUE(mapRecordedTypes({grain("s", 0.00312346)}, {grain("s", a)}, {1}).problems.empty());
    EXPECT_EQ(mapRecordedTypes({grain("s", a * (1 + 2e-5))}, {grain("s", a)}, {1}).problems.size(), 1u);
}

TEST(TypeIdentity, NamedTypeTakesShapeAndDensity) {
    const ParticleType t(sef::Superellipsoid(0.003, 0.002, 0.001, 0.4, 0.8), 1200);
    const NamedType n = namedType("flake", t);
    EXPECT_EQ(n.name, "flake");
    EXPECT_EQ(n.a, 0.003);
    EXPECT_EQ(n.c, 0.001);
    EXPECT_EQ(n.eps1, 0.4);
    EXPECT_EQ(n.eps2, 0.8);
    EXPECT_EQ(n.density, 1200);
}
