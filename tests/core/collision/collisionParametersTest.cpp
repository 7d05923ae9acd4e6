// Model names and parameter validation.
#include <gtest/gtest.h>

#include <cmath>

#include "collision/CollisionParameters.hpp"

using namespace sef;

TEST(CollisionParameters, ModelsByName) {
    EXPECT_EQ(collisionModelFromName("frictionless"), CollisionModel::frictionless);
    EXPECT_EQ(collisionModelFromName("paper"), CollisionModel::paper);
    EXPECT_EQ(collisionModelFromName("frictional"), CollisionModel::paper);
    EXPECT_EQ(collisionModelFromName("schwager"), CollisionModel::schwager);
    EXPECT_EQ(collisionModelFromName("coulomb"), CollisionModel::coulomb);
    for (auto m : {CollisionModel::frictionless, CollisionModel::paper, CollisionModel::schwager,
                   CollisionModel::coulomb})
        EXPECT_EQ(collisionModelFromName(collisionModelName(m)), m);
}

TEST(CollisionParameters, UnknownNameThrowsNamingTheModel) {
    try {
        collisionModelFromName("Coulomb ");
        FAIL() << "expected a throw";
    } catch (const CollisionParameterError& e) {
        EXPECT_EQ(e.parameter(), "model");
        EXPECT_NE(std::string(e.what()).find("'Coulomb '"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("schwager"), std::string::npos);
    }
}

TEST(CollisionParameters, RangesAreValidated) {
    CollisionParameters p;
    EXPECT_NO_THROW(validateCollisionParameters(p));
    auto expectBad = [](CollisionParameters q, const std::string& name) {
        try {
            validateCollisionParameters(q);
            FAIL() << "expected a throw for " << name;
        } catch (const CollisionParameterError& e) {
            EXPECT_EQ(e.parameter(), name);
        }
    };
    p.restitution = 1.1;
    expectBad(p, "restitution");
    p.restitution = -0.1;
    expectBad(p, "restitution");
    p.restitution = 0.5;
    p.tangentialRestitution = -1.5;
    expectBad(p, "tangentialRestitution");
    p.tangentialRestitution = 0.5;
    p.friction = -0.1;
    expectBad(p, "friction");
    p.friction = std::nan("");
    expectBad(p, "friction");
}
