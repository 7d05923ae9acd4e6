// The sequential-impulse solver uses the shared impulse law
// (collision/ContactImpulseLaw.hpp): for ONE contact with target
// -eps_n u_n its sweeps give the isolated-collision answer of
// resolvePairCollision, for every model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>

#include "collision/ImpulseResolution.hpp"
#include "dem/engine/SequentialImpulseSolver.hpp"
#include "kinematics/OrientationUpdate.hpp"
#include "../support/RandomBodies.hpp"

using namespace sef;
using namespace sef::dem;

namespace {

using sef::test::randomBody;

SolverBody solverBody(const RigidBodyState& s) {
    SolverBody b;
    b.velocity = s.velocity;
    b.angularVelocity = s.angularVelocity;
    b.inverseMass = 1.0 / s.mass;
    b.inverseInertia = s.worldInverseInertia();
    return b;
}

} // namespace

// The solver builds K from its own arms and inverse inertias and uses a
// precomputed K^-1, the isolated resolution an LDLT solve: round-off of
// 1e-16 times cond(K) (~1e3 here), so 1e-11 relative has a margin.
TEST(SequentialImpulseLaw, SingleContactEqualsIsolatedCollision) {
    std::mt19937_64 rng(41);
    std::uniform_real_distribution<double> u(-1.0, 1.0), unit(0.0, 1.0);
    double worst = 0.0;
    for (CollisionModel model : {CollisionModel::frictionless, CollisionModel::paper,
                                 CollisionModel::schwager, CollisionModel::coulomb}) {
        for (int i = 0; i < 500; ++i) {
            const RigidBodyState a = randomBody(rng), b = randomBody(rng);
            const Vec3 point = 0.5 * (a.position + b.position) + 0.3 * Vec3(u(rng), u(rng), u(rng));
            Vec3 n = Vec3(u(rng), u(rng), u(rng)).normalized();
            if ((b.velocityAt(point) - a.velocityAt(point)).dot(n) >= 0.0) n = -n;
            CollisionParameters law;
            law.model = model;
            law.restitution = unit(rng);
            law.tangentialRestitution = u(rng);
            law.friction = 1.5 * unit(rng);
            const CollisionResult r = resolvePairCollision(a, b, point, n, law);

            std::vector<SolverBody> bodies{solverBody(a), solverBody(b)};
            std::vector<SolverContact> contacts(1);
            SolverContact& c = contacts[0];
            c.i = 0;
            c.j = 1;
            c.law = &law;
            setUpContact(c, bodies, {a.position, b.position}, point, n,
                         model != CollisionModel::frictionless);
            c.frame.targetNormalVelocity =
                -law.restitution * n.dot(relativeContactVelocity(bodies, c));
            // Later sweeps re-solve from u_free = u - K J (round-off; coulomb
            // sliding to its 1e-12 angle tolerance): velocity changes ~1e-11
            // for O(10) velocities, far below 1e-9, so sweep 2 ends the solve.
            const SolverResult s = solveSequentialImpulses(bodies, contacts, 10, 1e-9);
            EXPECT_TRUE(s.converged);
            EXPECT_LE(s.sweeps, 2);
            const double scale = r.impulse.norm();
            worst = std::max(worst, (c.impulse - r.impulse).norm() / scale);
            worst = std::max(worst, (bodies[1].velocity - (b.velocity + r.velocityChange2)).norm() *
                                        b.mass / scale);
        }
    }
    std::printf("[ measured ] 2000 single contacts: max |J_solver - J_resolve| / |J| = %.2e\n",
                worst);
    EXPECT_LT(worst, 1e-11);
}

// The DEM engine keeps a carried contact's K while the pair's relative pose
// stays within the reuse tolerance and the smaller id's body has turned by
// less than it (dem/engine/DemEngine.cpp): then the arms and inertias turn with that
// body, so K turns as R K R^T and changes by about 2 theta |K|. Checked by
// the set-up itself for random pairs turned rigidly by theta = 1e-5; and the
// K given to setUpContact is used as it is.
TEST(SequentialImpulseLaw, ComplianceOfARigidlyTurnedContactChangesByTheTurn) {
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    CollisionParameters law;
    law.model = CollisionModel::coulomb;
    law.friction = 0.3;
    double worst = 0.0;
    for (int i = 0; i < 200; ++i) {
        const RigidBodyState a = randomBody(rng), b = randomBody(rng);
        const Vec3 point = 0.5 * (a.position + b.position) + 0.3 * Vec3(u(rng), u(rng), u(rng));
        const Vec3 n = Vec3(u(rng), u(rng), u(rng)).normalized();
        auto compliance = [&](const Quat& turn) {
            // the whole contact (both bodies, point, normal) turned about a's centre
            RigidBodyState a2 = a, b2 = b;
            a2.orientation = turn * a.orientation;
            b2.orientation = turn * b.orientation;
            b2.position = a.position + turn * (b.position - a.position);
            const Vec3 p2 = a.position + turn * (point - a.position);
            std::vector<SolverBody> bodies{solverBody(a2), solverBody(b2)};
            SolverContact c;
            c.i = 0;
            c.j = 1;
            c.law = &law;
            setUpContact(c, bodies, {a2.position, b2.position}, p2, turn * n, true);
            return c.frame;
        };
        const double theta = 1e-5;
        const ContactFrame K0 = compliance(Quat::Identity());
        const ContactFrame K1 = compliance(Quat(Eigen::AngleAxisd(theta, Vec3(u(rng), u(rng), u(rng)).normalized())));
        worst = std::max(worst, (K1.compliance - K0.compliance).norm() / (theta * K0.compliance.norm()));
        // given K and K^-1 are taken as they are
        std::vector<SolverBody> bodies{solverBody(a), solverBody(b)};
        SolverContact c;
        c.i = 0;
        c.j = 1;
        c.law = &law;
        setUpContact(c, bodies, {a.position, b.position}, point, n, true, &K1.compliance, &K1.inverseCompliance);
        EXPECT_EQ(c.frame.compliance, K1.compliance);
        EXPECT_EQ(c.frame.inverseCompliance, K1.inverseCompliance);
        EXPECT_TRUE(c.frame.hasInverse);
    }
    std::printf("[ measured ] K change / (theta |K|) for a rigid turn theta: max %.3f\n", worst);
    EXPECT_LE(worst, 2.0 + 1e-3);
    EXPECT_GT(worst, 0.1); // it does turn: the bound is not vacuous
}

// A flat-face contact and its rim points share one rolling row
// (shareRollingRows), bounded by the contact's whole normal impulse however
// the rows split it. A sphere-like body (I = 2/5 m R^2) on a wall, spinning
// about a tangent axis: three rows at its lowest point (arm along n, so the
// normal impulses exert no torque), the normal impulse m u warm-started on
// the two rim rows and none on the contact's own row. The normal rows are
// then met and stay; the shared rolling row, clamped, takes mu_r R m u off
// the angular momentum: dw = mu_r R m u / I exactly (to round-off). Bounded
// by the own row's J_n alone it would take nothing.
TEST(SequentialImpulseLaw, RimPointsShareTheContactsRollingRow) {
    const double m = 0.5, R = 0.01, I = 0.4 * m * R * R, u = 0.02, w0 = 30.0, muR = 0.01;
    CollisionParameters law;
    law.model = CollisionModel::frictionless;
    law.rollingFriction = muR;
    std::vector<SolverBody> bodies(1);
    bodies[0].velocity = Vec3(0, 0, -u); // into the floor
    bodies[0].angularVelocity = Vec3(w0, 0, 0);
    bodies[0].inverseMass = 1.0 / m;
    bodies[0].inverseInertia = Mat3::Identity() / I;
    const std::vector<Vec3> centres{Vec3(0, 0, R)};
    const Vec3 n(0, 0, -1), point(0, 0, 0); // normal into the wall
    for (const bool shared : {true, false}) {
        std::vector<SolverBody> b = bodies;
        std::vector<SolverContact> rows(3);
        for (SolverContact& c : rows) {
            c.i = 0;
            c.j = -1;
            c.law = &law;
            setUpContact(c, b, centres, point, n, false);
            c.frame.targetNormalVelocity = 0.0;
        }
        for (int k = 1; k <= 2; ++k) { // the normal impulse on the rims
            rows[static_cast<std::size_t>(k)].impulse = 0.5 * m * u * n;
            applyImpulse(b, rows[static_cast<std::size_t>(k)], rows[static_cast<std::size_t>(k)].impulse);
        }
        ASSERT_NEAR(b[0].velocity.z(), 0.0, 1e-15);
        shareRollingRows(rows, shared ? std::vector<char>{0, 1, 1} : std::vector<char>{0, 0, 0});
        EXPECT_EQ(rows[0].rollingGroup, shared ? 2 : 0);
        const SolverResult r = solveSequentialImpulses(b, rows, 50, 1e-12);
        EXPECT_TRUE(r.converged);
        double normal = 0.0;
        for (const SolverContact& c : rows) normal += n.dot(c.impulse);
        EXPECT_NEAR(normal, m * u, 1e-15);                   // unchanged
        EXPECT_NEAR(b[0].velocity.norm(), 0.0, 1e-15);        // no push
        const double expected = w0 - muR * R * m * u / I;     // R_eff = R at a wall
        // shared: one row at the whole bound; one row each: the same total
        EXPECT_NEAR(b[0].angularVelocity.x(), expected, 1e-12 * w0) << shared;
        EXPECT_NEAR(b[0].angularVelocity.tail<2>().norm(), 0.0, 1e-12 * w0);
    }
}
