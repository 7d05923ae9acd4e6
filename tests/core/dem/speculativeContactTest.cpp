// Contacts before penetration (EngineSettings::speculativeWallContacts and
// speculativePairContacts, dem/engine/DemDetection.cpp).
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
//  - Pairs: two ellipsoids meeting head-on at 13 % of their d_eq per
//    substep rebound at e times their approach, exactly, without entering
//    each other; random shapes (eps 0.2-1.8) striking off-centre keep
//    momentum and angular momentum to round-off, never gain energy and
//    enter each other by less than the allowed penetration; a 10 x 10
//    patch of tilted blocks dropped on a floor (steps of 1e-3 s) overlaps
//    by less than 1 % of d_eq (more without the pair contacts).
#include "DemTestSupport.hpp"
#include "contact/PairContact.hpp"
#include "dem/engine/DemEngine.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

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
        EngineSettings s = test::restingBedSettings();
        s.pair.twistingFriction = s.wall.twistingFriction = 0.01;
        DemEngine engine(test::boxWalls(Vec3::Zero(), Vec3(0.006, 0.006, 0.006)), s);
        double largest = 0.0;
        for (int k = 0; k < 1500; ++k) largest = std::max(largest, engine.step(ps, 1e-3, 2).maxOverlapOverDeq);
        EXPECT_LT(largest, 0.01);
    }
}


// Two bodies of the given shapes meeting at `speed` (relative), frictionless,
// e 0.5, no gravity, substeps of h; the second offset across the line of
// approach by `offset` and both turned at random (seeded).
struct PairStrike {
    double largestOverlap = 0.0; // of d_eq
    long speculative = 0, touching = 0;
    Vec3 momentumBefore, momentumAfter, angularBefore, angularAfter;
    double energyBefore = 0.0, energyAfter = 0.0;
    double approachBefore = 0.0, approachAfter = 0.0; // along the line of the centres
};

Vec3 angularMomentum(const ParticleSystem& ps) {
    Vec3 L = Vec3::Zero();
    for (std::size_t k = 0; k < ps.size(); ++k) {
        const ParticleType& t = ps.types[static_cast<std::size_t>(ps.type[k])];
        const Mat3 R = ps.orientation[k].toRotationMatrix();
        const Vec3 inertia = t.principalInertia;
        L += ps.position[k].cross(t.mass * ps.velocity[k]) +
             R * inertia.cwiseProduct(R.transpose() * ps.angularVelocity[k]);
    }
    return L;
}

PairStrike strikePair(const Superellipsoid& a, const Superellipsoid& b, const Quat& qa, const Quat& qb,
                      double offset, bool speculative) {
    const double speed = 1.0, h = 1e-4;
    ParticleSystem ps;
    ps.types.emplace_back(a, 2500.0);
    ps.types.emplace_back(b, 2500.0);
    // centre distance along x at which they touch (bisection on the exact query)
    PairContactOptions exact;
    exact.boundingVolumeRejection = false;
    double lo = 0.0, hi = a.boundingRadius() + b.boundingRadius();
    for (int it = 0; it < 100; ++it) {
        const double mid = 0.5 * (lo + hi);
        const ContactResult c =
            detectPairContact(a, Pose{Vec3::Zero(), qa}, b, Pose{Vec3(mid, offset, 0), qb}, nullptr, exact);
        (c.contact && c.depth > 0.0 ? lo : hi) = mid;
    }
    // 2.37 substeps of travel apart: the first contact falls inside a substep
    const double x = hi + 2.37 * speed * h;
    ps.add(0, 0, Vec3::Zero(), qa, Vec3(0.5 * speed, 0, 0));
    ps.add(1, 1, Vec3(x, offset, 0), qb, Vec3(-0.5 * speed, 0, 0));
    EngineSettings s;
    s.pair.model = s.wall.model = "frictionless";
    s.pair.restitution = s.wall.restitution = 0.5;
    s.speculativePairContacts = speculative;
    DemEngine engine({}, s);
    PairStrike out;
    const auto energy = [&ps] {
        double E = 0.0;
        for (std::size_t k = 0; k < ps.size(); ++k) {
            const ParticleType& t = ps.types[static_cast<std::size_t>(ps.type[k])];
            const Vec3 w = ps.orientation[k].conjugate() * ps.angularVelocity[k];
            E += 0.5 * t.mass * ps.velocity[k].squaredNorm() + 0.5 * w.dot(t.principalInertia.cwiseProduct(w));
        }
        return E;
    };
    const auto momentum = [&ps] {
        return Vec3(ps.types[0].mass * ps.velocity[0] + ps.types[1].mass * ps.velocity[1]);
    };
    out.momentumBefore = momentum();
    out.angularBefore = angularMomentum(ps);
    out.energyBefore = energy();
    out.approachBefore = ps.velocity[0].x() - ps.velocity[1].x();
    for (int k = 0; k < 20; ++k) {
        const StepStatistics st = engine.step(ps, h);
        out.largestOverlap = std::max(out.largestOverlap, st.maxOverlapOverDeq);
        out.speculative += st.speculativePairContacts;
        out.touching += st.pairContacts;
    }
    out.momentumAfter = momentum();
    out.angularAfter = angularMomentum(ps);
    out.energyAfter = energy();
    out.approachAfter = ps.velocity[0].x() - ps.velocity[1].x();
    return out;
}

TEST(SpeculativePairContacts, AHeadOnStrikeReboundsWithItsRestitution) {
    // two ellipsoids side by side (long axes along y), meeting along x on
    // their centre line: the bounding spheres overlap well before the
    // bodies touch (a pair is asked for its gap only then)
    const Superellipsoid ellipsoid(2.5e-4, 5e-4, 2.5e-4, 1.0, 1.0);
    const PairStrike with = strikePair(ellipsoid, ellipsoid, Quat::Identity(), Quat::Identity(), 0.0, true);
    const PairStrike without = strikePair(ellipsoid, ellipsoid, Quat::Identity(), Quat::Identity(), 0.0, false);
    EXPECT_GT(with.speculative, 0);
    EXPECT_EQ(with.touching, 0); // met at the gap: they never touched
    EXPECT_EQ(without.speculative, 0);
    // frictionless, on their centre line: u' = -e u, to round-off
    EXPECT_NEAR(with.approachAfter, -0.5 * with.approachBefore, 1e-12);
    EXPECT_LT(with.largestOverlap, 1e-6);
    // without: they enter by the rest of a substep's travel (0.63 of 1e-4 m
    // against d_eq 7.9e-4 m)
    EXPECT_GT(without.largestOverlap, 0.05);
}

TEST(SpeculativePairContacts, RandomShapesKeepMomentumAndEnterByNoMoreThanTheAllowedPenetration) {
    std::mt19937 rng(17);
    std::uniform_real_distribution<double> eps(0.2, 1.8), axis(0.6, 1.0), across(-0.5, 0.5);
    int met = 0;
    for (int trial = 0; trial < 12; ++trial) {
        SCOPED_TRACE("trial " + std::to_string(trial));
        const Superellipsoid a(5e-4 * axis(rng), 4e-4 * axis(rng), 3e-4 * axis(rng), eps(rng), eps(rng));
        const Superellipsoid b(5e-4 * axis(rng), 4e-4 * axis(rng), 3e-4 * axis(rng), eps(rng), eps(rng));
        const Quat qa = test::randomOrientation(rng), qb = test::randomOrientation(rng);
        const double offset = across(rng) * std::min(a.boundingRadius(), b.boundingRadius());
        const PairStrike s = strikePair(a, b, qa, qb, offset, true);
        if (s.speculative > 0) ++met;
        // (momentum scale: the mass times the 1 m/s approach)
        const double mass = 2500.0 * (a.volume() + b.volume());
        EXPECT_LT((s.momentumAfter - s.momentumBefore).norm(), 1e-12 * mass);
        EXPECT_LT((s.angularAfter - s.angularBefore).norm(), 1e-12 * mass * a.boundingRadius());
        EXPECT_LE(s.energyAfter, s.energyBefore * (1.0 + 1e-12));
        // the allowed penetration (1e-4 d_eq) and the rounding of the gap
        EXPECT_LT(s.largestOverlap, 2e-4);
    }
    EXPECT_GE(met, 10); // (a glancing strike may miss, or touch only once turned)
}

// The benchmark's resting-bed patch (demBoxBenchmark blocksDropped), other seeds.
double patchLargestOverlap(double eps, bool pairs, unsigned seed) {
    ParticleSystem ps = test::tiltedBlockPatch(eps, seed);
    const int side = 10;
    const double L = side * test::kBlockPatchSpacing;
    EngineSettings s = test::restingBedSettings();
    s.speculativePairContacts = pairs;
    DemEngine engine(test::boxWalls(Vec3::Zero(), Vec3(L, L, 0.02), side), s);
    double largest = 0.0;
    for (int k = 0; k < 1500; ++k) largest = std::max(largest, engine.step(ps, 1e-3, 2).maxOverlapOverDeq);
    return largest;
}

TEST(SpeculativePairContacts, ABlockPatchSettlesWithinOnePercentOverlap) {
    double largestWithout = 0.0;
    for (const double eps : {0.25, 0.5, 1.0}) {
        SCOPED_TRACE("eps " + std::to_string(eps));
        EXPECT_LT(patchLargestOverlap(eps, true, 5), 0.01);
        largestWithout = std::max(largestWithout, patchLargestOverlap(eps, false, 5));
    }
    EXPECT_GT(largestWithout, 0.01); // (the premise: blocks strike each other)
}

} // namespace
} // namespace sef::dem
