// Coulomb friction inside contact clusters (dem/engine/SequentialImpulseSolver.hpp),
// at the solver level: body 0 rests on a floor, body 1 rests on body 0, the
// gravity of one substep h is tilted by theta towards +x (both bodies start
// the substep with v = g h). Contacts act at the centres (zero arms), so the
// answer is free of tipping and rolling. Body 0 has two contacts: both go
// through the cluster path. Analytic:
//   tan(theta) <= mu: everything sticks, both bodies end at rest; the floor
//     carries 2 m g h (sin, -cos) and body 0 carries m g h for body 1;
//   tan(theta) > mu: the pair slides on the floor together with
//     u_x = g h (sin(theta) - mu cos(theta)); body 1 sticks to body 0; the
//     floor friction is exactly mu times its normal impulse.
#include "dem/engine/SequentialImpulseSolver.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace sef::dem {
namespace {

struct Stack {
    std::vector<SolverBody> bodies;
    std::vector<SolverContact> contacts;
    CollisionParameters law;
    SolverResult result;
};

Stack solveStack(double theta, double mu) {
    const double m = 0.002, h = 1e-5;
    const Vec3 g = 9.81 * Vec3(std::sin(theta), 0.0, -std::cos(theta));
    Stack s;
    s.law.model = CollisionModel::coulomb;
    s.law.restitution = 0.0;
    s.law.friction = mu;
    s.law.tangentialRestitution = 0.0;
    s.bodies.resize(2);
    for (SolverBody& b : s.bodies) {
        b.velocity = g * h;
        b.inverseMass = 1.0 / m;
        b.inverseInertia = 1e6 * Mat3::Identity();
    }
    // both centres at the contact points: zero arms, no rotation
    const std::vector<Vec3> centres{Vec3(0, 0, 0.001), Vec3(0, 0, 0.001)};
    s.contacts.resize(2);
    SolverContact& floor = s.contacts[0];
    floor.i = 0;
    floor.j = -1;
    floor.law = &s.law;
    setUpContact(floor, s.bodies, centres, centres[0], Vec3(0, 0, -1), true); // into the wall
    SolverContact& pair = s.contacts[1];
    pair.i = 0;
    pair.j = 1;
    pair.law = &s.law;
    setUpContact(pair, s.bodies, centres, centres[0], Vec3(0, 0, 1), true); // body 0 -> 1
    for (SolverContact& c : s.contacts) c.frame.targetNormalVelocity = 0.0; // resting
    s.result = solveSequentialImpulses(s.bodies, s.contacts, 200, 1e-12);
    return s;
}

TEST(ClusterFriction, StackSticksBelowTheFrictionAngle) {
    const double theta = std::atan(0.5);
    const Stack s = solveStack(theta, 0.6);
    const double gh = 9.81e-5;
    // The sweeps stop once no velocity changes by more than 1e-12 m/s in a
    // sweep; they contract by 1/2 every two sweeps here, so a residual of a
    // few 1e-12 m/s is left (2e-11 = 2e-7 g h).
    const double velocityTolerance = 2e-11, impulseTolerance = 0.002 * velocityTolerance;
    EXPECT_TRUE(s.result.converged);
    for (const SolverContact& c : s.contacts) EXPECT_TRUE(c.clusterFriction);
    for (const SolverBody& b : s.bodies) EXPECT_LT(b.velocity.norm(), velocityTolerance);
    // floor impulse on the wall side is -J: 2 m g h along (sin, -cos) pushed into the wall
    const Vec3 floorOnWall = s.contacts[0].impulse;
    EXPECT_NEAR(floorOnWall.x(), 2 * 0.002 * gh * std::sin(theta), 2 * impulseTolerance);
    EXPECT_NEAR(floorOnWall.z(), -2 * 0.002 * gh * std::cos(theta), 2 * impulseTolerance);
}

TEST(ClusterFriction, StackSlidesWithCoulombVelocity) {
    const double theta = std::atan(0.5), mu = 0.3;
    const Stack s = solveStack(theta, mu);
    const double gh = 9.81e-5;
    const double expected = gh * (std::sin(theta) - mu * std::cos(theta));
    const double velocityTolerance = 2e-11; // as above
    EXPECT_TRUE(s.result.converged);
    std::cout << "[ slide    ] u_x = " << s.bodies[0].velocity.x() << ", " << s.bodies[1].velocity.x()
              << " analytic " << expected << " (" << s.result.sweeps << " sweeps)\n";
    for (const SolverBody& b : s.bodies) {
        EXPECT_NEAR(b.velocity.x(), expected, velocityTolerance);
        EXPECT_NEAR(b.velocity.z(), 0.0, velocityTolerance);
    }
    const Vec3 J = s.contacts[0].impulse; // on the wall side
    const double normal = -J.z(), tangential = std::hypot(J.x(), J.y());
    EXPECT_NEAR(tangential, mu * normal, 1e-7 * normal);
    EXPECT_GT(J.x(), 0.0); // the particle is held back: friction opposes its slip
}

} // namespace
} // namespace sef::dem
