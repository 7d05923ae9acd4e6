// 10^4 random pair collisions per model: conservation laws of [Superellipsoid-OpenFOAM],
// eqs. (63) and (70), the restitution law (65), energy, Coulomb cone.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>

#include "collision/ImpulseResolution.hpp"
#include "kinematics/OrientationUpdate.hpp"
#include "../support/RandomBodies.hpp"

using namespace sef;

namespace {

struct RandomCollision {
    RigidBodyState a, b;
    Vec3 point, normal;
    CollisionParameters params;
};

using test::randomBody;

RandomCollision randomCollision(std::mt19937_64& rng, CollisionModel model) {
    std::uniform_real_distribution<double> u(-1.0, 1.0), unit(0.0, 1.0);
    RandomCollision c;
    c.a = randomBody(rng);
    c.b = randomBody(rng);
    c.point = 0.5 * (c.a.position + c.b.position) + 0.3 * Vec3(u(rng), u(rng), u(rng));
    c.normal = Vec3(u(rng), u(rng), u(rng)).normalized();
    // make the contact approaching by reversing all motion if needed
    const Vec3 rel = c.b.velocityAt(c.point) - c.a.velocityAt(c.point);
    if (rel.dot(c.normal) >= 0.0) {
        for (RigidBodyState* s : {&c.a, &c.b}) {
            s->velocity = -s->velocity;
            s->angularVelocity = -s->angularVelocity;
        }
    }
    c.params.model = model;
    c.params.restitution = unit(rng);
    c.params.tangentialRestitution = u(rng);
    c.params.friction = 1.5 * unit(rng);
    return c;
}

double angularMomentumScale(const RigidBodyState& s, const Vec3& p) {
    return s.angularMomentum().norm() + (s.position - p).norm() * s.mass * s.velocity.norm();
}

struct Errors {
    double momentum = 0, angularMomentum = 0, restitution = 0, energyIncrease = 0,
           coneExcess = 0, tangentialLaw = 0;
    int sticking = 0, sliding = 0, reduced = 0, fallback = 0, pulling = 0;
};

Errors runRandom(CollisionModel model, int count, unsigned seed,
                 double fixedRestitution = -1.0, double fixedTangential = 2.0) {
    std::mt19937_64 rng(seed);
    Errors e;
    for (int i = 0; i < count; ++i) {
        RandomCollision c = randomCollision(rng, model);
        if (fixedRestitution >= 0.0) c.params.restitution = fixedRestitution;
        if (fixedTangential <= 1.0) c.params.tangentialRestitution = fixedTangential;
        const CollisionResult r = resolvePairCollision(c.a, c.b, c.point, c.normal, c.params);
        EXPECT_NE(r.regime, CollisionRegime::separating);
        RigidBodyState a = c.a, b = c.b;
        applyCollision(r, a, b);

        const Vec3 P0 = c.a.linearMomentum() + c.b.linearMomentum();
        const Vec3 P1 = a.linearMomentum() + b.linearMomentum();
        const double Pscale = c.a.linearMomentum().norm() + c.b.linearMomentum().norm() +
                              a.linearMomentum().norm() + b.linearMomentum().norm();
        e.momentum = std::max(e.momentum, (P1 - P0).norm() / Pscale);

        for (auto [before, after] : {std::pair(&c.a, &a), std::pair(&c.b, &b)}) {
            const double scale = angularMomentumScale(*before, c.point) +
                                 angularMomentumScale(*after, c.point);
            const Vec3 dL = after->angularMomentumAbout(c.point) -
                            before->angularMomentumAbout(c.point);
            e.angularMomentum = std::max(e.angularMomentum, dL.norm() / scale);
        }

        const Vec3 u0 = c.b.velocityAt(c.point) - c.a.velocityAt(c.point);
        const Vec3 u1 = b.velocityAt(c.point) - a.velocityAt(c.point);
        const Vec3& n = c.normal;
        e.restitution = std::max(e.restitution, std::abs(n.dot(u1) + c.params.restitution * n.dot(u0)) /
                                                    u0.norm());
        if (model == CollisionModel::paper) {
            const Vec3 t0 = u0 - n.dot(u0) * n, t1 = u1 - n.dot(u1) * n;
            e.tangentialLaw = std::max(e.tangentialLaw,
                                       (t1 - c.params.tangentialRestitution * t0).norm() / u0.norm());
        }
        const double E0 = c.a.kineticEnergy() + c.b.kineticEnergy();
        const double E1 = a.kineticEnergy() + b.kineticEnergy();
        e.energyIncrease = std::max(e.energyIncrease, (E1 - E0) / E0);
        EXPECT_NEAR(r.kineticEnergyAfter, E1, 1e-13 * E0);

        const double Jn = r.impulse.dot(n);
        const double Jt = (r.impulse - Jn * n).norm();
        // "paper"/"schwager" prescribe the tangential velocity; with normal-
        // tangential coupling that can need a pulling (J_n < 0) impulse.
        if (model == CollisionModel::coulomb || model == CollisionModel::frictionless) {
            EXPECT_GE(Jn, 0.0);
        } else {
            e.pulling += Jn < 0.0;
        }
        if (model == CollisionModel::coulomb) {
            e.coneExcess = std::max(e.coneExcess, (Jt - c.params.friction * Jn) / (Jn + Jt));
            e.sticking += r.regime == CollisionRegime::sticking;
            e.sliding += r.regime == CollisionRegime::sliding;
            e.fallback += r.regime == CollisionRegime::frictionlessFallback;
            e.reduced += r.regime == CollisionRegime::reducedSliding;
        }
        if (model == CollisionModel::frictionless) {
            EXPECT_LT(Jt, 1e-15 * Jn);
        }
    }
    return e;
}

} // namespace

// Tolerances: each quantity is a sum of O(1)-conditioned products, so the
// round-off is a few 1e-16 relative to the magnitudes involved; 1e-12 leaves
// a margin of ~1000. The restitution law involves solving with K (condition
// number up to ~1e3 for these shapes), hence 1e-10.
TEST(CollisionConservation, CoulombRandomFrictionalPairs) {
    const Errors e = runRandom(CollisionModel::coulomb, 10000, 11);
    std::printf("[ measured ] coulomb: dP %.2e, dL %.2e, restitution %.2e, max dE/E %+.2e, "
                "cone excess %.2e; sticking %d, sliding %d, reduced %d, fallback %d\n",
                e.momentum, e.angularMomentum, e.restitution, e.energyIncrease, e.coneExcess,
                e.sticking, e.sliding, e.reduced, e.fallback);
    EXPECT_LT(e.momentum, 1e-12);
    EXPECT_LT(e.angularMomentum, 1e-12);
    EXPECT_LT(e.restitution, 1e-10);
    EXPECT_LE(e.energyIncrease, 1e-12);   // never increases (round-off only)
    EXPECT_LE(e.coneExcess, 1e-12);
    EXPECT_GT(e.sticking, 100);           // both regimes exercised
    EXPECT_GT(e.sliding, 100);
}

TEST(CollisionConservation, FrictionlessConservesEnergyForElasticImpacts) {
    const Errors e = runRandom(CollisionModel::frictionless, 10000, 12, 1.0);
    std::printf("[ measured ] frictionless eps_n=1: dP %.2e, dL %.2e, restitution %.2e, "
                "max dE/E %+.2e\n", e.momentum, e.angularMomentum, e.restitution, e.energyIncrease);
    EXPECT_LT(e.momentum, 1e-12);
    EXPECT_LT(e.angularMomentum, 1e-12);
    EXPECT_LT(e.restitution, 1e-10);
    EXPECT_LE(std::abs(e.energyIncrease), 1e-12);
    // and a loss of energy, never a gain, for eps_n < 1
    const Errors lossy = runRandom(CollisionModel::frictionless, 2000, 13);
    EXPECT_LE(lossy.energyIncrease, 1e-12);
}

TEST(CollisionConservation, FrictionlessEnergyIsExactlyConservedNotJustBounded) {
    // With eps_n = 1 the energy change must vanish, not only be <= 0: check
    // the minimum too.
    std::mt19937_64 rng(14);
    double worst = 0.0;
    for (int i = 0; i < 2000; ++i) {
        RandomCollision c = randomCollision(rng, CollisionModel::frictionless);
        c.params.restitution = 1.0;
        const auto r = resolvePairCollision(c.a, c.b, c.point, c.normal, c.params);
        worst = std::max(worst, std::abs(r.kineticEnergyAfter - r.kineticEnergyBefore) /
                                    r.kineticEnergyBefore);
    }
    EXPECT_LT(worst, 1e-12);
}

TEST(CollisionConservation, PaperModelSatisfiesItsVelocityLaws) {
    const Errors e = runRandom(CollisionModel::paper, 10000, 15);
    std::printf("[ measured ] paper: dP %.2e, dL %.2e, normal law %.2e, tangential law %.2e, "
                "max dE/E %+.2e (may be > 0 for non-spheres), pulling impulses %d\n",
                e.momentum, e.angularMomentum, e.restitution, e.tangentialLaw, e.energyIncrease,
                e.pulling);
    EXPECT_LT(e.momentum, 1e-12);
    EXPECT_LT(e.angularMomentum, 1e-12);
    EXPECT_LT(e.restitution, 1e-10);
    EXPECT_LT(e.tangentialLaw, 1e-10);
    // eps_n = 1, eps_t = -1 reverses u entirely: u^T K^-1 u unchanged -> dE = 0
    const Errors reversal = runRandom(CollisionModel::paper, 2000, 16, 1.0, -1.0);
    EXPECT_LT(std::abs(reversal.energyIncrease), 1e-11);
}

TEST(CollisionConservation, SchwagerConservesMomenta) {
    const Errors e = runRandom(CollisionModel::schwager, 10000, 17);
    EXPECT_LT(e.momentum, 1e-12);
    EXPECT_LT(e.angularMomentum, 1e-12);
    EXPECT_LT(e.restitution, 1e-10);
}
