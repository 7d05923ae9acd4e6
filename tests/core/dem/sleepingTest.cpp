// Sleeping (dem/engine/Sleeping.cpp, EngineSettings::sleepTime).
//  - A block at rest on a floor falls asleep: velocities exactly zero, the
//    pose kept bit for bit while it sleeps; with sleeping off it never stops.
//  - A sphere dropped onto a sleeping sphere wakes it before they touch: the
//    momentum both carry after the impact and the faller's rebound are those
//    of the run with sleeping off (same arithmetic once awake), to 1e-9.
//  - A change of the force at rest beyond wakeForceChange wakes a sleeper;
//    one below it does not.
//  - A body without a wall or held support (free flight, a resting pair in
//    zero gravity) never sleeps; nor does an island touching a moving wall.
//  - New walls wake every island.
//  - A restart from the state file continues bit for bit with sleepers.
#include "DemTestSupport.hpp"
#include "dem/engine/DemEngine.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

namespace sef::dem {
namespace {

EngineSettings restingSettings(double sleepTime) {
    EngineSettings s = test::restingBedSettings();
    s.sleepTime = sleepTime;
    return s;
}

// The acceptance block (0.5 x 0.375 x 0.25 mm, eps 0.5, 2500 kg/m^3) just
// above a floor at a 0.3 rad tilt.
ParticleSystem tiltedBlock() {
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(0.0005, 0.000375, 0.00025, 0.5, 0.5), 2500.0);
    const Quat q(Eigen::AngleAxisd(0.3, Vec3(0.6, 0.8, 0)));
    ps.add(0, 0, Vec3(0.003, 0.003, ps.types[0].boundingRadius + 1e-4), q);
    return ps;
}

std::vector<WallFace> box() { return test::boxWalls(Vec3::Zero(), Vec3(0.006, 0.006, 0.01)); }

TEST(Sleeping, ABlockAtRestFallsAsleepAndKeepsItsPose) {
    ParticleSystem ps = tiltedBlock();
    DemEngine engine(box(), restingSettings(0.2));
    long asleep = 0;
    for (int k = 0; k < 1500 && asleep == 0; ++k) asleep = engine.step(ps, 1e-3, 2).sleepingParticles;
    ASSERT_EQ(asleep, 1) << "still awake after 1.5 s";
    EXPECT_EQ(ps.velocity[0], Vec3::Zero());
    EXPECT_EQ(ps.angularVelocity[0], Vec3::Zero());
    // resting on its broad face: the smallest half-axis is vertical
    EXPECT_NEAR(std::abs((ps.orientation[0] * Vec3::UnitZ()).z()), 1.0, 1e-3);
    const Vec3 x = ps.position[0];
    const Quat q = ps.orientation[0];
    for (int k = 0; k < 200; ++k) {
        const StepStatistics st = engine.step(ps, 1e-3, 2);
        EXPECT_EQ(st.sleepingParticles, 1);
        EXPECT_EQ(st.contacts, 0); // neither queried nor solved
    }
    EXPECT_EQ(ps.position[0], x);
    EXPECT_EQ(ps.orientation[0].coeffs(), q.coeffs());

    // the same block with sleeping off is not at rest to the bit
    ParticleSystem awake = tiltedBlock();
    DemEngine plain(box(), restingSettings(0.0));
    for (int k = 0; k < 1500; ++k) EXPECT_EQ(plain.step(awake, 1e-3, 2).sleepingParticles, 0);
    EXPECT_GT(awake.velocity[0].norm(), 0.0);
}

// Two unit-ish spheres: one resting on the floor, one falling onto it from
// straight above (frictionless, e = 0.5). sleepTime 0: the reference.
struct DropResult {
    Vec3 fallerVelocity, restingVelocity;
    long woken = 0, asleepBeforeImpact = 0;
};

DropResult dropOntoRestingSphere(double sleepTime) {
    ParticleSystem ps;
    const double r = 5e-4;
    ps.types.emplace_back(Superellipsoid(r, r, r, 1.0, 1.0), 2500.0);
    ps.add(0, 0, Vec3(0.003, 0.003, r), Quat::Identity());
    EngineSettings s;
    s.pair.model = s.wall.model = "frictionless";
    s.pair.restitution = s.wall.restitution = 0.5;
    s.gravity = Vec3(0, 0, -9.81);
    s.sleepTime = sleepTime;
    DemEngine engine(box(), s);
    DropResult out;
    for (int k = 0; k < 400; ++k) out.asleepBeforeImpact = engine.step(ps, 1e-3, 2).sleepingParticles;
    // the faller starts 2 mm above the resting sphere's top
    ps.add(0, 1, Vec3(0.003, 0.003, 3 * r + 2e-3), Quat::Identity());
    for (int k = 0; k < 250; ++k) out.woken += engine.step(ps, 1e-4, 4).wokenUp; // impact at ~20 ms
    out.fallerVelocity = ps.velocity[1];
    out.restingVelocity = ps.velocity[0];
    return out;
}

TEST(Sleeping, AFallingBodyWakesASleeperBeforeTheImpact) {
    const DropResult reference = dropOntoRestingSphere(0.0);
    const DropResult slept = dropOntoRestingSphere(0.1);
    EXPECT_EQ(reference.asleepBeforeImpact, 0);
    ASSERT_EQ(slept.asleepBeforeImpact, 1);
    EXPECT_EQ(slept.woken, 1);
    // the faller bounced (it moves up after the impact) in both runs
    ASSERT_GT(reference.fallerVelocity.z(), 0.0);
    // the resting sphere at rest on the floor differs from the woken one by
    // at most the half kicks of gravity it had or had not (g h / 2 at rest)
    // before the impact; the impact itself is the same
    const double tolerance = 1e-9 + 0.5 * 9.81 * 2.5e-4;
    EXPECT_NEAR(slept.fallerVelocity.z(), reference.fallerVelocity.z(), tolerance);
    EXPECT_NEAR(slept.restingVelocity.z(), reference.restingVelocity.z(), tolerance);
}

TEST(Sleeping, AChangeOfTheForceAtRestWakesTheSleeper) {
    for (const double change : {0.02, 0.2}) {
        ParticleSystem ps = tiltedBlock();
        DemEngine engine(box(), restingSettings(0.2));
        long asleep = 0;
        for (int k = 0; k < 1500 && asleep == 0; ++k) asleep = engine.step(ps, 1e-3, 2).sleepingParticles;
        ASSERT_EQ(asleep, 1);
        // a sideways force: change times the weight (wakeForceChange 0.05)
        ps.externalForce[0] = Vec3(change * ps.types[0].mass * 9.81, 0, 0);
        const StepStatistics st = engine.step(ps, 1e-3, 2);
        EXPECT_EQ(st.wokenUp, change > 0.05 ? 1 : 0) << "force change " << change;
        EXPECT_EQ(st.wokenByForce, st.wokenUp) << "force change " << change; // and counted as such
    }
}

TEST(Sleeping, OnlyIslandsOnAWallOrAHeldBodySleep) {
    // zero gravity: two blocks pressed together, at rest, far from walls
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(0.0005, 0.0005, 0.0005, 0.5, 0.5), 2500.0);
    ps.add(0, 0, Vec3(0.0025, 0.003, 0.005), Quat::Identity());
    ps.add(0, 1, Vec3(0.0035 - 1e-7, 0.003, 0.005), Quat::Identity());
    EngineSettings s = restingSettings(0.05);
    s.gravity = Vec3::Zero();
    s.sleepSpeed = 1e-3; // (no gravity: no automatic sleep speed)
    DemEngine engine(box(), s);
    for (int k = 0; k < 300; ++k) EXPECT_EQ(engine.step(ps, 1e-3, 2).sleepingParticles, 0);
}

TEST(Sleeping, AnIslandOnAMovingWallStaysAwake) {
    ParticleSystem ps = tiltedBlock();
    DemEngine engine(box(), restingSettings(0.2));
    // the floor (a conveyor, boxWalls' patch 4) moves along itself at
    // 1e-5 m/s: slower than the sleep speed, and over the sleep time within
    // the sleep drift; only the moving wall keeps the block awake
    WallMotion belt;
    belt.patch = 4;
    belt.velocity = Vec3(1e-5, 0, 0);
    std::vector<WallMotion> motions{belt};
    engine.setWallMotions(motions);
    for (int k = 0; k < 1500; ++k) EXPECT_EQ(engine.step(ps, 1e-3, 2).sleepingParticles, 0);
}

TEST(Sleeping, NewWallsWakeEveryIsland) {
    ParticleSystem ps = tiltedBlock();
    DemEngine engine(box(), restingSettings(0.2));
    long asleep = 0;
    for (int k = 0; k < 1500 && asleep == 0; ++k) asleep = engine.step(ps, 1e-3, 2).sleepingParticles;
    ASSERT_EQ(asleep, 1);
    engine.setWalls(box());
    EXPECT_EQ(engine.step(ps, 1e-3, 2).wokenUp, 1);
}

TEST(Sleeping, ARestartContinuesBitForBit) {
    // a row of blocks: some asleep, some still settling at the write
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(0.0005, 0.000375, 0.00025, 0.5, 0.5), 2500.0);
    for (int id = 0; id < 5; ++id) {
        const Quat q(Eigen::AngleAxisd(0.1 * (id + 1), Vec3(0.6, 0.8, 0)));
        ps.add(0, id, Vec3(0.0008 + 1.1e-3 * id, 0.003, ps.types[0].boundingRadius + 1e-4 * (id + 1)), q);
    }
    const EngineSettings s = restingSettings(0.1);
    DemEngine engine(box(), s);
    long asleep = 0;
    for (int k = 0; k < 600; ++k) asleep = engine.step(ps, 1e-3, 2).sleepingParticles;
    EXPECT_GT(asleep, 0);
    std::stringstream state;
    engine.writeState(state);
    ParticleSystem restarted = ps;
    DemEngine second(box(), s);
    second.readState(state);
    for (int k = 0; k < 400; ++k) {
        const StepStatistics a = engine.step(ps, 1e-3, 2), b = second.step(restarted, 1e-3, 2);
        ASSERT_EQ(a.sleepingParticles, b.sleepingParticles) << "step " << k;
    }
    for (std::size_t i = 0; i < ps.size(); ++i) {
        EXPECT_EQ(ps.position[i], restarted.position[i]);
        EXPECT_EQ(ps.velocity[i], restarted.velocity[i]);
        EXPECT_EQ(ps.angularVelocity[i], restarted.angularVelocity[i]);
    }
}

} // namespace
} // namespace sef::dem
