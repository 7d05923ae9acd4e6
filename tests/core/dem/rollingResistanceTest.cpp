// Rolling resistance (law rollingFriction, dem/engine/SequentialImpulseSolver.hpp):
// the analytic deceleration of a spinning sphere, and what it is for: a
// frictionless body rocking on a curved face keeps its energy for ever
// without it, and comes to rest with it. Twisting resistance (law
// twistingFriction): the same deceleration for a spin about the normal,
// which friction and rolling resistance leave untouched.
#include "DemTestSupport.hpp"
#include "collision/CollisionParameters.hpp"
#include "dem/engine/DemEngine.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace sef::dem {
namespace {

constexpr double kGravityRolling = 9.81;
constexpr double kStepRolling = 1e-5;

EngineSettings frictionless(double rollingFriction) {
    EngineSettings s;
    s.gravity = Vec3(0, 0, -kGravityRolling);
    s.pair.restitution = s.wall.restitution = 0.2;
    s.pair.rollingFriction = s.wall.rollingFriction = rollingFriction;
    return s;
}

// A sphere (R = 5 mm) resting on a frictionless floor, spinning about a
// horizontal axis at w0. Its contact force passes through the centre, so
// only the rolling row can touch the spin: per substep at most
// mu_r R_eff J_n with J_n = m g h (the resting contact takes the gravity
// kick), i.e. a constant deceleration mu_r R m g / I = 2.5 mu_r g / R until
// the spin stops; then it stays stopped.
struct SpinHistory {
    double atHalfStop = 0, atEnd = 0, minimum = 1e300, horizontalSpeed = 0;
};

// The sphere spinning at w0 about axis (unit) under settings, its spin
// component along axis recorded.
SpinHistory spinSphere(const EngineSettings& settings, const Vec3& axis, double w0, double halfStop,
                       double end) {
    const double R = 0.005;
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(R, R, R, 1.0, 1.0), 1000.0);
    ps.add(0, 0, Vec3(0.05, 0.05, R), Quat::Identity());
    ps.angularVelocity[0] = w0 * axis;
    DemEngine engine(test::boxWalls(Vec3::Zero(), Vec3(0.1, 0.1, 0.1)), settings);
    SpinHistory h;
    const long steps = std::lround(end / kStepRolling), half = std::lround(halfStop / kStepRolling);
    for (long n = 1; n <= steps; ++n) {
        engine.step(ps, kStepRolling);
        h.minimum = std::min(h.minimum, ps.angularVelocity[0].dot(axis));
        h.horizontalSpeed = std::max(h.horizontalSpeed, ps.velocity[0].head<2>().norm());
        if (n == half) h.atHalfStop = ps.angularVelocity[0].dot(axis);
    }
    h.atEnd = ps.angularVelocity[0].norm();
    return h;
}

SpinHistory spinOnFloor(double rollingFriction, double w0, double halfStop, double end) {
    return spinSphere(frictionless(rollingFriction), Vec3::UnitX(), w0, halfStop, end);
}

TEST(RollingResistance, SpinningSphereStopsAtTheAnalyticRate) {
    const double R = 0.005, muR = 0.01, w0 = 4.0;
    const double deceleration = 2.5 * muR * kGravityRolling / R; // 49 rad/s^2
    const double stop = w0 / deceleration;                // 0.082 s
    const SpinHistory h = spinOnFloor(muR, w0, 0.5 * stop, 1.5 * stop);
    // R_eff is the arm, R less half the allowed penetration (1e-4 d_eq):
    // 1e-4 relative, plus the first substeps' approach; 1e-3 covers both.
    EXPECT_NEAR(h.atHalfStop, 0.5 * w0, 1e-3 * w0);
    EXPECT_LT(h.atEnd, 1e-9);           // stopped, not reversed ...
    EXPECT_GT(h.minimum, -1e-9);        // ... at any time
    EXPECT_LT(h.horizontalSpeed, 1e-12); // a pure torque: no push
}

TEST(RollingResistance, WithoutItTheSpinOfAFrictionlessSphereIsKept) {
    const SpinHistory h = spinOnFloor(0.0, 4.0, 0.05, 0.1);
    EXPECT_NEAR(h.atEnd, 4.0, 1e-12);
}

// Twisting resistance (law twistingFriction): the same sphere, spinning about
// the vertical on a Coulomb floor (mu = 0.3). A spin about the contact
// normal slips nowhere at a point contact, so neither friction nor rolling
// resistance touches it; only the twisting row does, with at most
// mu_t R_eff J_n per substep: the deceleration 2.5 mu_t g / R again.
SpinHistory twistOnFloor(double twistingFriction, double rollingFriction, double w0, double halfStop,
                         double end) {
    EngineSettings s = frictionless(rollingFriction);
    s.pair.model = s.wall.model = "coulomb";
    s.pair.friction = s.wall.friction = 0.3;
    s.pair.twistingFriction = s.wall.twistingFriction = twistingFriction;
    return spinSphere(s, Vec3::UnitZ(), w0, halfStop, end);
}

TEST(TwistingResistance, SpinAboutTheNormalStopsAtTheAnalyticRate) {
    const double R = 0.005, muT = 0.01, w0 = 4.0;
    const double stop = w0 / (2.5 * muT * kGravityRolling / R); // 0.082 s
    const SpinHistory h = twistOnFloor(muT, 0.0, w0, 0.5 * stop, 1.5 * stop);
    EXPECT_NEAR(h.atHalfStop, 0.5 * w0, 1e-3 * w0); // (the tolerance of the rolling case)
    EXPECT_LT(h.atEnd, 1e-9);
    EXPECT_GT(h.minimum, -1e-9);
    EXPECT_LT(h.horizontalSpeed, 1e-12);
}

TEST(TwistingResistance, WithoutItFrictionAndRollingResistanceKeepTheSpin) {
    const SpinHistory h = twistOnFloor(0.0, 0.01, 4.0, 0.05, 0.1);
    EXPECT_NEAR(h.atEnd, 4.0, 1e-9);
}

TEST(TwistingResistance, BadCoefficientIsRejectedByName) {
    for (double bad : {-1e-3, 1.5, std::nan("")}) {
        EngineSettings s = frictionless(0.0);
        s.pair.twistingFriction = bad;
        try {
            DemEngine engine(test::boxWalls(Vec3::Zero(), Vec3(0.1, 0.1, 0.1)), s);
            ADD_FAILURE() << "accepted twistingFriction " << bad;
        } catch (const CollisionParameterError& e) {
            EXPECT_EQ(e.parameter(), "twistingFriction");
        }
    }
}

// A frictionless diamond-like body (eps = 1.8, d_eq = 1 cm) lying on one of
// its slightly convex faces, tilted by 0.03 rad and released: it rocks on
// the face (about 25 Hz, up to 5.5 rad/s). The energy above rest (kinetic +
// m g (z - z_rest)) is what the rocking holds. `work` sums the work a
// constant rolling torque mu_r z m g would do over the angle rolled
// (z: centre height, the arm of the contact below it).
struct Rocking {
    double initial = 0, final = 0, maxSpin = 0, finalSpin = 0, work = 0;
};

Rocking rockDiamond(double rollingFriction, double seconds) {
    Superellipsoid unit(1.0, 1.0, 1.0, 1.8, 1.8);
    const double scale = 0.01 / unit.equivalentDiameter();
    const Superellipsoid shape(scale, scale, scale, 1.8, 1.8);
    ParticleSystem ps;
    ps.types.emplace_back(shape, 1000.0);
    // face centre direction (1,1,1)/sqrt(3) of the body pointing down
    const Quat faceDown = Quat::FromTwoVectors(Vec3(1, 1, 1).normalized(), Vec3(0, 0, -1));
    const Vec3 down(0, 0, -1);
    const double restHeight = shape.supportValue(faceDown.conjugate() * down);
    const Quat q = Quat(Eigen::AngleAxisd(0.03, Vec3::UnitX())) * faceDown;
    ps.add(0, 0, Vec3(0.05, 0.05, shape.supportValue(q.conjugate() * down)), q);
    DemEngine engine(test::boxWalls(Vec3::Zero(), Vec3(0.1, 0.1, 0.1)), frictionless(rollingFriction));
    const double weight = ps.types[0].mass * kGravityRolling;
    auto energy = [&](double kinetic) { return kinetic + weight * (ps.position[0].z() - restHeight); };
    Rocking r;
    r.initial = energy(0.0);
    StepStatistics st;
    for (long n = 0; n < std::lround(seconds / kStepRolling); ++n) {
        st = engine.step(ps, kStepRolling);
        const Vec3& w = ps.angularVelocity[0];
        r.maxSpin = std::max(r.maxSpin, w.norm());
        r.work += rollingFriction * weight * ps.position[0].z() * w.head<2>().norm() * kStepRolling;
    }
    r.final = energy(st.kineticEnergy);
    r.finalSpin = ps.angularVelocity[0].norm();
    return r;
}

TEST(RollingResistance, FrictionlessRockingOnACurvedFaceKeepsItsEnergy) {
    const Rocking r = rockDiamond(0.0, 0.3);
    EXPECT_GT(r.maxSpin, 1.0);           // it does rock
    EXPECT_GT(r.final, 0.9 * r.initial); // and keeps doing so (measured: 95 %)
}

// mu_r = 1e-2 stops the rocking within about 5 periods, and the energy the
// rocking loses is the rolling torque's work: at least that work, and at
// most that plus what the frictionless rocking loses numerically over the
// same time (the test above) and 1 % of E_0 (the rest height is offset by
// the allowed penetration, m g 1e-6 m, about 1e-2 E_0).
TEST(RollingResistance, RockingDiamondStopsAndLosesTheRollingTorquesWork) {
    const double seconds = 0.3;
    const Rocking r = rockDiamond(1e-2, seconds);
    const Rocking free = rockDiamond(0.0, seconds);
    EXPECT_LT(r.finalSpin, 1e-9);
    const double lost = r.initial - r.final;
    EXPECT_GT(lost, 0.98 * r.work);
    EXPECT_LT(lost, r.work + (free.initial - free.final) + 1e-2 * r.initial);
    EXPECT_GT(r.work, 0.9 * r.initial);
}

TEST(RollingResistance, BadCoefficientIsRejectedByName) {
    for (double bad : {-1e-3, 1.5, std::nan("")}) {
        EngineSettings s = frictionless(0.0);
        s.wall.rollingFriction = bad;
        try {
            DemEngine engine(test::boxWalls(Vec3::Zero(), Vec3(0.1, 0.1, 0.1)), s);
            ADD_FAILURE() << "accepted rollingFriction " << bad;
        } catch (const CollisionParameterError& e) {
            EXPECT_EQ(e.parameter(), "rollingFriction");
        }
    }
}

} // namespace
} // namespace sef::dem
