// Walls moving along their own surface (dem/walls/WallMotion.hpp) against the
// analytic answers of Coulomb friction: a block and a sphere on a conveyor
// belt, a block on a turntable, a block in a rotating drum; walls replaced
// between steps (a gate that opens).
#include "DemTestSupport.hpp"
#include "dem/engine/DemEngine.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace sef::dem {
namespace {

constexpr double kGravityMovingWall = 9.81;
constexpr double kStepMovingWall = 1e-5;
constexpr int kFloorPatch = 4; // boxWalls: the z = lo face

EngineSettings coulomb(double mu, const Vec3& gravity = Vec3(0, 0, -kGravityMovingWall)) {
    EngineSettings s;
    s.gravity = gravity;
    s.pair.model = s.wall.model = "coulomb";
    s.pair.friction = s.wall.friction = mu;
    s.pair.restitution = s.wall.restitution = 0.0;
    s.pair.tangentialRestitution = s.wall.tangentialRestitution = 0.0; // the solvers' coulomb default
    return s;
}

// A flat block (5 x 5 x 2.5 mm half-axes, eps 0.2) resting on the floor.
ParticleSystem blockOnFloor(const Vec3& xy) {
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(0.005, 0.005, 0.0025, 0.2, 0.2), 2500.0);
    ps.add(0, 0, Vec3(xy.x(), xy.y(), 0.0025), Quat::Identity());
    return ps;
}

// The first time the body's speed is within 1e-4 of `target` (the end of
// sliding: it then sticks), and the largest speed deviation after it.
struct SpinUp {
    double time = -1.0;
    double deviationAfter = 0.0;
};

TEST(MovingWall, BlockOnABeltReachesItsSpeedAtVOverMuG) {
    // Sliding: the friction mu m g accelerates the block until it moves
    // with the belt at t = V / (mu g); then it sticks. The block is flat
    // enough not to tip (mu h < half-width), so its rim points share the load.
    const double V = 0.1, mu = 0.3;
    ParticleSystem ps = blockOnFloor(Vec3(0.05, 0.05, 0));
    DemEngine engine(test::boxWalls(Vec3::Zero(), Vec3(0.1, 0.1, 0.1)), coulomb(mu));
    engine.setWallMotions({WallMotion{kFloorPatch, Vec3(V, 0, 0), Vec3::Zero(), Vec3::Zero()}});
    SpinUp s;
    const double expected = V / (mu * kGravityMovingWall);
    for (long n = 1; n * kStepMovingWall <= 2 * expected; ++n) {
        engine.step(ps, kStepMovingWall);
        const double gap = std::abs(ps.velocity[0].x() - V);
        if (s.time < 0 && gap < 1e-4 * V) s.time = n * kStepMovingWall;
        else if (s.time > 0)
            s.deviationAfter = std::max(s.deviationAfter, (ps.velocity[0] - Vec3(V, 0, 0)).head<2>().norm());
    }
    EXPECT_NEAR(s.time, expected, 0.01 * expected);
    EXPECT_LT(s.deviationAfter, 1e-4 * V);              // sticks
    EXPECT_LT(ps.angularVelocity[0].norm(), 1e-3 * V / 0.005); // did not tip
}

TEST(MovingWall, SphereOnABeltRollsAtTwoSeventhsOfItsSpeed) {
    // A sphere slides until its contact point moves with the belt: with
    // dv/dt = mu g and R dw/dt = (5/2) mu g that is at t = 2 V / (7 mu g),
    // with v = 2 V / 7 and w R = 5 V / 7; then it rolls without friction.
    const double V = 0.1, mu = 0.3, R = 0.005;
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(R, R, R, 1.0, 1.0), 2500.0);
    ps.add(0, 0, Vec3(0.05, 0.05, R), Quat::Identity());
    DemEngine engine(test::boxWalls(Vec3::Zero(), Vec3(0.1, 0.1, 0.1)), coulomb(mu));
    engine.setWallMotions({WallMotion{kFloorPatch, Vec3(V, 0, 0), Vec3::Zero(), Vec3::Zero()}});
    const double expected = 2 * V / (7 * mu * kGravityMovingWall);
    double rolling = -1.0;
    for (long n = 1; n * kStepMovingWall <= 2 * expected; ++n) {
        engine.step(ps, kStepMovingWall);
        // contact point velocity v + w x (-R z) against the belt's
        const Vec3 slip = ps.velocity[0] + ps.angularVelocity[0].cross(Vec3(0, 0, -R)) - Vec3(V, 0, 0);
        // (horizontal: a resting body's reported vertical velocity is the
        // half kick of gravity, g h / 2)
        if (rolling < 0 && slip.head<2>().norm() < 1e-4 * V) rolling = n * kStepMovingWall;
    }
    EXPECT_NEAR(rolling, expected, 0.01 * expected);
    EXPECT_NEAR(ps.velocity[0].x(), 2 * V / 7, 1e-3 * V);
    EXPECT_NEAR(-ps.angularVelocity[0].y() * R, 5 * V / 7, 1e-3 * V);
}

TEST(MovingWall, BlockOnATurntableEndsTurningWithIt) {
    // A floor turning about the vertical axis through o at w, the block at
    // r = 40 mm from it. It slides until it moves with the floor, after
    // about w r / (mu g) (the centripetal w^2 r = 0.16 m/s^2 is small
    // against mu g = 2.9), then turns with it: velocity w x (x - o) and
    // spin w, both taken from the wall's rotation at the contact points.
    // Friction cannot bring it up to speed sooner than w r / (mu g); the
    // spin, which the friction's moment must bring up too, makes the
    // last part of the approach slower (4 % here): the bound is 10 %.
    const double w = 2.0, mu = 0.3, r = 0.04;
    const Vec3 o(0.05, 0.05, 0), omega(0, 0, w);
    ParticleSystem ps = blockOnFloor(o + Vec3(r, 0, 0));
    DemEngine engine(test::boxWalls(Vec3::Zero(), Vec3(0.1, 0.1, 0.1)), coulomb(mu));
    engine.setWallMotions({WallMotion{kFloorPatch, Vec3::Zero(), omega, o}});
    const double expected = w * r / (mu * kGravityMovingWall);
    double stuck = -1.0;
    for (long n = 1; n * kStepMovingWall <= 3 * expected; ++n) {
        engine.step(ps, kStepMovingWall);
        const Vec3 floor = omega.cross(ps.position[0] - o);
        if (stuck < 0 && (ps.velocity[0] - floor).norm() < 1e-3 * w * r) stuck = n * kStepMovingWall;
    }
    EXPECT_GT(stuck, 0.99 * expected);
    EXPECT_LT(stuck, 1.1 * expected);
    const Vec3 floor = omega.cross(ps.position[0] - o);
    EXPECT_LT((ps.velocity[0] - floor).norm(), 1e-3 * w * r);
    EXPECT_NEAR(ps.angularVelocity[0].z(), w, 1e-3 * w);
    EXPECT_NEAR((ps.position[0] - o).head<2>().norm(), r, 2e-3 * r);
}

TEST(MovingWall, BlockInARotatingDrumSlipsWhereFrictionNoLongerHoldsIt) {
    // A drum (axis z, gravity along -x) turning under a block at its
    // bottom: the block is dragged to the wall's speed, rides up with it,
    // and slips back where the friction mu N, N = m (g cos a + w^2 r),
    // no longer holds its weight's part along the wall, m g sin a:
    // sin a - mu cos a = mu w^2 r / g (r: radius of its centre). Slipping
    // is seen once the slip speed reaches eps w R; it grows as
    // g k d^2 / (2 w) with the angle d past a (k = cos a + mu sin a), so
    // it is seen at a + sqrt(2 eps w^2 R / (g k)). The 256 facets tilt the
    // wall under the block by up to pi / 256 (0.7 deg).
    const double mu = 0.4, R = 0.05, w = 3.0, h = 0.0015, eps = 2e-2, pi = 3.14159265358979323846;
    const int facets = 256;
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(h, 0.003, 0.003, 0.2, 0.2), 2500.0);
    ps.add(0, 0, Vec3(-R * std::cos(pi / facets) + h, 0, 0.025), Quat::Identity());
    DemEngine engine(test::cylinderWalls(R, 0.05, facets), coulomb(mu, Vec3(-kGravityMovingWall, 0, 0)));
    const Vec3 omega(0, 0, -w); // the wall at the bottom moves to +y
    engine.setWallMotions({WallMotion{0, Vec3::Zero(), omega, Vec3::Zero()}});
    bool stuck = false;
    double seen = -1.0;
    for (long n = 1; n * kStepMovingWall <= 0.3 && seen < 0; ++n) {
        engine.step(ps, kStepMovingWall);
        const double slip = (ps.velocity[0] - omega.cross(ps.position[0])).norm();
        if (!stuck && slip < 1e-2 * w * R) stuck = true;
        if (stuck && slip > eps * w * R) seen = std::atan2(ps.position[0].y(), -ps.position[0].x());
    }
    const double r = R - h, lift = mu * w * w * r / kGravityMovingWall;
    double lo = 0.0, hi = 1.0; // sin a - mu cos a = lift, by bisection
    for (int k = 0; k < 60; ++k) {
        const double a = 0.5 * (lo + hi);
        (std::sin(a) - mu * std::cos(a) < lift ? lo : hi) = a;
    }
    const double slipAngle = 0.5 * (lo + hi);
    const double k = std::cos(slipAngle) + mu * std::sin(slipAngle);
    const double expected = slipAngle + std::sqrt(2 * eps * w * w * R / (kGravityMovingWall * k));
    ASSERT_TRUE(stuck);
    EXPECT_NEAR(seen, expected, pi / facets);
    EXPECT_GT(slipAngle - std::atan(mu), pi / facets); // the turn's own lift is resolved
}

TEST(MovingWall, AMotionThatWouldMoveAWallOffItsSurfaceIsRefused) {
    DemEngine engine(test::boxWalls(Vec3::Zero(), Vec3(0.1, 0.1, 0.1)), coulomb(0.3));
    EXPECT_THROW(engine.setWallMotions({WallMotion{kFloorPatch, Vec3(0, 0, 0.1), Vec3::Zero(), Vec3::Zero()}}),
                 WallMotionError);
    // turning about a horizontal axis lifts one side of the floor
    EXPECT_THROW(engine.setWallMotions({WallMotion{kFloorPatch, Vec3::Zero(), Vec3(1, 0, 0), Vec3::Zero()}}),
                 WallMotionError);
    EXPECT_THROW(engine.setWallMotions({WallMotion{kFloorPatch, Vec3(NAN, 0, 0), Vec3::Zero(), Vec3::Zero()}}),
                 WallMotionError);
}

TEST(MovingWall, AMotionFasterThanLightIsRefusedWithoutOverflow) {
    // (the test main traps overflow, as the solvers do: forming the speed
    // of these motions would raise SIGFPE before the refusal)
    DemEngine engine(test::boxWalls(Vec3::Zero(), Vec3(0.1, 0.1, 0.1)), coulomb(0.3));
    const auto motion = [](const Vec3& v, const Vec3& w, const Vec3& origin) {
        return std::vector<WallMotion>{WallMotion{kFloorPatch, v, w, origin}};
    };
    EXPECT_THROW(engine.setWallMotions(motion(Vec3(1e300, 0, 0), Vec3::Zero(), Vec3::Zero())), WallMotionError);
    EXPECT_THROW(engine.setWallMotions(motion(Vec3::Zero(), Vec3(0, 0, 1e200), Vec3(0.05, 0.05, 0))),
                 WallMotionError);
    // a slow turn about a far axis sweeps the floor faster than light
    EXPECT_THROW(engine.setWallMotions(motion(Vec3::Zero(), Vec3(0, 0, 1e-3), Vec3(1e300, 0, 0))),
                 WallMotionError);
    // just below the bound at the floor's farthest corner from the axis
    // (0.1 m from it in both x and y: |omega| 0.1 sqrt(2) < c)
    EXPECT_NO_THROW(engine.setWallMotions(motion(Vec3::Zero(), Vec3(0, 0, 1e9), Vec3::Zero())));
    EXPECT_THROW(engine.setWallMotions(motion(Vec3(3e8, 0, 0), Vec3::Zero(), Vec3::Zero())), WallMotionError);
    EXPECT_NO_THROW(engine.setWallMotions(motion(Vec3(2.9e8, 0, 0), Vec3::Zero(), Vec3::Zero())));
}

TEST(MovingWall, FrictionlessContactsDoNotFeelTheBelt) {
    // Only the tangential impulse can take the wall's motion over.
    ParticleSystem ps = blockOnFloor(Vec3(0.05, 0.05, 0));
    EngineSettings s = coulomb(0.0);
    s.wall.model = "frictionless";
    DemEngine engine(test::boxWalls(Vec3::Zero(), Vec3(0.1, 0.1, 0.1)), s);
    engine.setWallMotions({WallMotion{kFloorPatch, Vec3(0.1, 0, 0), Vec3::Zero(), Vec3::Zero()}});
    for (int n = 0; n < 1000; ++n) engine.step(ps, kStepMovingWall);
    EXPECT_LT(ps.velocity[0].head<2>().norm(), 1e-12);
}

TEST(MovingWall, AnOpenedGateLetsTheBlockFallFreely) {
    // Resting on the floor of an upper box; the floor is replaced by nothing
    // (setWalls without it): from then on the block falls freely, exactly.
    ParticleSystem ps = blockOnFloor(Vec3(0.05, 0.05, 0));
    std::vector<WallFace> walls = test::boxWalls(Vec3::Zero(), Vec3(0.1, 0.1, 0.1));
    DemEngine engine(walls, coulomb(0.3));
    for (int n = 0; n < 100; ++n) engine.step(ps, kStepMovingWall);
    EXPECT_LT(ps.velocity[0].head<2>().norm(), 1e-9);
    std::vector<WallFace> open;
    for (const WallFace& f : walls)
        if (f.patch != kFloorPatch) open.push_back(f);
    const double z0 = ps.position[0].z();
    const double v0 = ps.velocity[0].z();
    engine.setWalls(open);
    EXPECT_EQ(engine.walls().size(), walls.size() - 1);
    const int steps = 1000;
    for (int n = 0; n < steps; ++n) engine.step(ps, kStepMovingWall);
    const double t = steps * kStepMovingWall;
    EXPECT_NEAR(ps.position[0].z(), z0 + v0 * t - 0.5 * kGravityMovingWall * t * t, 1e-12);
}

} // namespace
} // namespace sef::dem
