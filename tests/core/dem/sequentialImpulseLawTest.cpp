// The sequential-impulse solver uses the shared impulse law
// (collision/ContactImpulseLaw.hpp): for ONE contact with target
// -eps_n u_n its sweeps give the isolated-collision answer of
// resolvePairCollision, for every model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>

#include "collision/ImpulseResolution.hpp"
#include "dem/SequentialImpulseSolver.hpp"
#include "kinematics/OrientationUpdate.hpp"
#include "../support/RandomBodies.hpp"

using namespace sef;
using namespace sef::dem;

namespace {

using test::randomBody;

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
    for (CollisionModel model : {CollisionModel::Frictionless, CollisionModel::Paper,
                                 CollisionModel::Schwager, CollisionModel::Coulomb}) {
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
                         model != CollisionModel::Frictionless);
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
