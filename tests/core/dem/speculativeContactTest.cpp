// Wall contacts before penetration (EngineSettings::speculativeWallContacts,
// dem/engine/DemDetection.cpp addSpeculativeWallContacts).
//  - A sphere striking a floor at 1 m/s with 0.1 mm of travel per substep
//    (10 % of its diameter): with them it never enters the floor by more
//    than the allowed penetration and rebounds at e v exactly (the normal
//    impulse of a frictionless sphere: e v to round-off); without them it
//    enters by up to a substep's travel.
//  - A sphere resting on the floor keeps none (they are for gaps only) and
//    rests as before.
//  - A block settling at a tilt at steps of 1e-3 s (the resting-bed case of
//    doc/dem.md) overlaps the floor by less than 1 % of d_eq (2-4.9 %
//    without them).
#include "DemTestSupport.hpp"
#include "dem/engine/DemEngine.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace sef::dem {
namespace {

struct Strike {
    double largestOverlap = 0.0; // of d_eq
    double rebound = 0.0;        // vertical speed after the impact [m/s]
    long speculative = 0;
};

Strike strikeFloor(bool speculative, double eps) {
    const double r = 5e-4, v = 1.0, h = 1e-4;
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(r, r, r, eps, eps), 2500.0);
    // 0.37 substeps of travel above the floor: the impact falls inside a substep
    ps.add(0, 0, Vec3(0.003, 0.003, r + 0.37 * v * h), Quat::Identity(), Vec3(0, 0, -v));
    EngineSettings s;
    s.pair.model = s.wall.model = "frictionless";
    s.pair.restitution = s.wall.restitution = 0.5;
    s.speculativeWallContacts = speculative;
    DemEngine engine(test::boxWalls(Vec3::Zero(), Vec3(0.006, 0.006, 0.006)), s);
    Strike out;
    for (int k = 0; k < 10; ++k) {
        const StepStatistics st = engine.step(ps, h);
        out.largestOverlap = std::max(out.largestOverlap, st.maxOverlapOverDeq);
        out.speculative += st.speculativeContacts;
    }
    out.rebound = ps.velocity[0].z();
    return out;
}

TEST(SpeculativeWallContacts, AStrikeMeetsTheFloorWithItsRestitution) {
    for (const double eps : {1.0, 0.5}) {
        SCOPED_TRACE("eps " + std::to_string(eps));
        const Strike with = strikeFloor(true, eps), without = strikeFloor(false, eps);
        EXPECT_GT(with.speculative, 0);
        EXPECT_EQ(without.speculative, 0);
        // (no gravity: the rebound is the impact's alone)
        EXPECT_NEAR(with.rebound, 0.5, 1e-12);
        EXPECT_LT(with.largestOverlap, 1e-6);
        // without: it enters by the rest of the substep's travel (0.63 of
        // 1e-4 m against d_eq 1e-3 m: 6.3 % for a sphere)
        EXPECT_GT(without.largestOverlap, 0.01);
    }
}

TEST(SpeculativeWallContacts, ARestingSphereHasNone) {
    const double r = 5e-4;
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(r, r, r, 1.0, 1.0), 2500.0);
    ps.add(0, 0, Vec3(0.003, 0.003, r), Quat::Identity());
    EngineSettings s;
    s.gravity = Vec3(0, 0, -9.81);
    DemEngine engine(test::boxWalls(Vec3::Zero(), Vec3(0.006, 0.006, 0.006)), s);
    long speculative = 0;
    for (int k = 0; k < 1000; ++k) speculative += engine.step(ps, 1e-4, 2).speculativeContacts;
    EXPECT_EQ(speculative, 0);
    EXPECT_NEAR(ps.position[0].z(), r, 1e-4 * 2 * r); // at rest within the allowed penetration
    EXPECT_LT(std::abs(ps.velocity[0].z()), 9.81 * 1e-4);
}

TEST(SpeculativeWallContacts, ATiltedBlockSettlesWithinOnePercentOverlap) {
    for (const double eps : {0.25, 0.5, 1.0}) {
        SCOPED_TRACE("eps " + std::to_string(eps));
        ParticleSystem ps;
        ps.types.emplace_back(Superellipsoid(0.0005, 0.000375, 0.00025, eps, eps), 2500.0);
        const Quat q(Eigen::AngleAxisd(0.3, Vec3(0.6, 0.8, 0)));
        ps.add(0, 0, Vec3(0.003, 0.003, ps.types[0].boundingRadius + 1e-4), q);
        EngineSettings s;
        s.pair.model = s.wall.model = "coulomb";
        s.pair.restitution = s.wall.restitution = 0.5;
        s.pair.friction = s.wall.friction = 0.3;
        s.pair.rollingFriction = s.wall.rollingFriction = 0.01;
        s.pair.twistingFriction = s.wall.twistingFriction = 0.01;
        s.gravity = Vec3(0, 0, -9.81);
        DemEngine engine(test::boxWalls(Vec3::Zero(), Vec3(0.006, 0.006, 0.006)), s);
        double largest = 0.0;
        for (int k = 0; k < 1500; ++k) largest = std::max(largest, engine.step(ps, 1e-3, 2).maxOverlapOverDeq);
        EXPECT_LT(largest, 0.01);
    }
}

} // namespace
} // namespace sef::dem
