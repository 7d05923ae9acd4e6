// What collision/ContactLawTraits.hpp reports of each law, checked against
// the law's impulses (contactImpulse) on random contacts: the DEM solver
// takes its shortcuts from these answers (no K, no K^-1, a scalar normal
// row, the cluster friction block), so an answer that does not match the
// law would change the law's results inside the solver. Every model of
// CollisionModel is visited, including one added later.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "collision/ContactImpulseLaw.hpp"
#include "collision/ContactLawTraits.hpp"
#include "collision/ImpulseResolution.hpp"
#include "../support/RandomBodies.hpp"

using namespace sef;

namespace {
namespace lawTraitsTest {

// Every enumerator of CollisionModel: they are numbered from 0, and
// collisionModelName knows each (its switch has no default).
std::vector<CollisionModel> everyModel() {
    std::vector<CollisionModel> models;
    for (int m = 0; collisionModelName(static_cast<CollisionModel>(m)) != "unknown"; ++m)
        models.push_back(static_cast<CollisionModel>(m));
    return models;
}

// A law of the model with random parameters; friction > 0 and eps_t != 0,
// so that a law that can act across the normal does.
CollisionParameters randomLaw(std::mt19937_64& rng, CollisionModel model) {
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    CollisionParameters p;
    p.model = model;
    p.restitution = unit(rng);
    p.tangentialRestitution = (unit(rng) < 0.5 ? -1.0 : 1.0) * (0.1 + 0.9 * unit(rng));
    p.friction = 0.05 + 1.5 * unit(rng);
    return p;
}

// An approaching contact between two random bodies: its frame (K^-1
// precomputed, as the solver's; target -eps_n u_n) and u.
struct Contact {
    ContactFrame frame;
    Vec3 u;
};

Contact randomContact(std::mt19937_64& rng, const CollisionParameters& law) {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    const double armScale = u(rng) < 0.0 ? 1.0 : 4.0; // strong coupling of n and t as well
    const RigidBodyState a = test::randomBody(rng, armScale), b = test::randomBody(rng, armScale);
    const Vec3 point = 0.5 * (a.position + b.position) + 0.3 * Vec3(u(rng), u(rng), u(rng));
    Vec3 n = Vec3(u(rng), u(rng), u(rng)).normalized();
    const Vec3 velocity = b.velocityAt(point) - a.velocityAt(point);
    if (velocity.dot(n) >= 0.0) n = -n;
    const Mat3 K = contactCompliance(a, &b, point);
    return {makeContactFrame(K, n, -law.restitution * n.dot(velocity), true), velocity};
}

// The same frame with another compliance and its inverse; n.K n kept.
ContactFrame otherCompliance(const ContactFrame& f) {
    ContactFrame g = f;
    g.compliance = 3.0 * f.compliance + Mat3::Identity() * f.normalCompliance;
    g.inverseCompliance = g.compliance.inverse();
    return g;
}

double tangentialPart(const Vec3& J, const Vec3& n) { return (J - n.dot(J) * n).norm(); }

constexpr int kContacts = 400;

} // namespace lawTraitsTest
} // namespace

TEST(ContactLawTraits, EveryModelIsVisited) {
    const std::vector<CollisionModel> models = lawTraitsTest::everyModel();
    EXPECT_GE(models.size(), 4u);
    for (CollisionModel m : models) EXPECT_EQ(collisionModelFromName(collisionModelName(m)), m);
}

// A law without tangential impulse acts along the normal for any input and
// reads only n.K n: with K and K^-1 replaced its impulses are bit for bit
// the same (the solver then builds neither). A law reported with one does
// act across the normal, and does read K.
TEST(ContactLawTraits, TangentialImpulseAsReported) {
    using namespace lawTraitsTest;
    std::mt19937_64 rng(71);
    for (CollisionModel model : everyModel()) {
        SCOPED_TRACE(collisionModelName(model));
        const CollisionParameters law = randomLaw(rng, model);
        double largestTangential = 0.0;
        int readsK = 0;
        for (int i = 0; i < kContacts; ++i) {
            const Contact c = randomContact(rng, law);
            const Vec3 J = contactImpulse(law, c.frame, c.u).impulse;
            const Vec3 other = contactImpulse(law, otherCompliance(c.frame), c.u).impulse;
            largestTangential = std::max(largestTangential, tangentialPart(J, c.frame.normal) / J.norm());
            readsK += J != other;
        }
        if (usesTangentialImpulse(model)) {
            EXPECT_GT(largestTangential, 1e-3);
            EXPECT_GT(readsK, 0);
        } else {
            EXPECT_LE(largestTangential, 1e-14);
            EXPECT_EQ(readsK, 0);
        }
    }
}

// A law reported as needing no K^-1 gives the same impulses, bit for bit,
// whatever the frame holds as K^-1. One reported as needing it reads it
// (a wrong K^-1 changes its answer), and with a correct one agrees with
// the factorised K (the inverse only saves the factorisation).
TEST(ContactLawTraits, InverseComplianceAsReported) {
    using namespace lawTraitsTest;
    std::mt19937_64 rng(72);
    for (CollisionModel model : everyModel()) {
        SCOPED_TRACE(collisionModelName(model));
        const CollisionParameters law = randomLaw(rng, model);
        int readsInverse = 0;
        double worst = 0.0;
        for (int i = 0; i < kContacts; ++i) {
            const Contact c = randomContact(rng, law);
            ContactFrame wrongInverse = c.frame;
            wrongInverse.inverseCompliance = 2.0 * c.frame.inverseCompliance;
            ContactFrame factorised = c.frame;
            factorised.hasInverse = false;
            const Vec3 J = contactImpulse(law, c.frame, c.u).impulse;
            readsInverse += contactImpulse(law, wrongInverse, c.u).impulse != J;
            const Vec3 Jf = contactImpulse(law, factorised, c.u).impulse;
            if (J.norm() > 0.0) worst = std::max(worst, (J - Jf).norm() / J.norm());
        }
        if (needsInverseCompliance(model)) {
            EXPECT_GT(readsInverse, 0);
            EXPECT_LE(worst, 1e-10);
        } else {
            EXPECT_EQ(readsInverse, 0);
        }
    }
}

// A law solved as cluster friction keeps its impulse in the cone |J_t| <=
// mu J_n and takes the sticking impulse K^-1 (target n + eps_t u_t - u)
// wherever that lies in the cone without adding energy: the solver's
// cluster block answers exactly so. A law reported otherwise differs from
// that cone law (the coulomb law of its parameters) on some contact, so
// the block would change its answers.
TEST(ContactLawTraits, ClusterFrictionAsReported) {
    using namespace lawTraitsTest;
    std::mt19937_64 rng(73);
    for (CollisionModel model : everyModel()) {
        SCOPED_TRACE(collisionModelName(model));
        const CollisionParameters law = randomLaw(rng, model);
        CollisionParameters coneLaw = law;
        coneLaw.model = CollisionModel::coulomb;
        int outsideCone = 0, sticking = 0, stickMismatches = 0, differsFromCone = 0;
        for (int i = 0; i < kContacts; ++i) {
            const Contact c = randomContact(rng, law);
            const Vec3& n = c.frame.normal;
            const Vec3 J = contactImpulse(law, c.frame, c.u).impulse;
            differsFromCone += J != contactImpulse(coneLaw, c.frame, c.u).impulse;
            if (!solvedAsClusterFriction(law)) continue;
            const double Jn = n.dot(J);
            outsideCone += Jn < 0.0 || tangentialPart(J, n) > law.friction * Jn * (1.0 + 1e-9);
            const double un = n.dot(c.u);
            const Vec3 target =
                c.frame.targetNormalVelocity * n + law.tangentialRestitution * (c.u - un * n);
            const Vec3 stick = c.frame.inverseCompliance * (target - c.u);
            const double stickN = n.dot(stick);
            const bool inCone = stickN >= 0.0 && tangentialPart(stick, n) <= law.friction * stickN &&
                                stick.dot(c.u + 0.5 * (c.frame.compliance * stick)) <= 0.0;
            if (!inCone) continue;
            ++sticking;
            stickMismatches += (J - stick).norm() > 1e-12 * stick.norm();
        }
        if (solvedAsClusterFriction(law)) {
            EXPECT_EQ(outsideCone, 0);
            EXPECT_GT(sticking, 0);
            EXPECT_EQ(stickMismatches, 0);
        } else {
            EXPECT_GT(differsFromCone, 0);
        }
    }
    // Without friction there is no cone: the coulomb law then acts along
    // the normal, which the solver's general path takes as it is.
    CollisionParameters frictionless = randomLaw(rng, CollisionModel::coulomb);
    frictionless.friction = 0.0;
    EXPECT_FALSE(solvedAsClusterFriction(frictionless));
    for (int i = 0; i < kContacts; ++i) {
        const Contact c = randomContact(rng, frictionless);
        const Vec3 J = contactImpulse(frictionless, c.frame, c.u).impulse;
        EXPECT_LE(tangentialPart(J, c.frame.normal), 1e-14 * J.norm());
    }
}
