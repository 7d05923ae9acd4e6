// Properties of the pair narrow phase on random configurations of random
// shapes (eps1, eps2 in [0.1, 1.9], aspect ratio up to 4):
//  - swapping the bodies negates the normal and keeps the depth;
//  - a rigid motion of the whole configuration transforms the result;
//  - the Newton path and the GJK/EPA fallback agree;
//  - a warm start from the previous step converges in a few Newton steps;
//  - no NaN anywhere.
#include "ContactTestSupport.hpp"
#include "contact/PairContact.hpp"

#include <gtest/gtest.h>

namespace sef {
namespace {

struct Config {
    Superellipsoid s1, s2;
    Pose p1, p2;
};

// Centre distance from deep overlap (0.3) to beyond contact (1.1) in units of
// the sum of the bounding radii projected... simply of the mean half-axes.
Config randomConfig(std::mt19937& rng, double sepLo = 0.3) {
    const Superellipsoid s1 = test::randomShape(rng, 0.01), s2 = test::randomShape(rng, 0.01);
    std::uniform_real_distribution<double> sep(sepLo, 1.1);
    const double reach = 0.5 * (s1.halfAxes().sum() + s2.halfAxes().sum()) / 1.5;
    const Pose p1 = test::makePose(Vec3(0.01, 0.02, -0.03), test::randomRotation(rng));
    const Pose p2 = test::makePose(p1.position + sep(rng) * reach * test::randomUnit(rng),
                                   test::randomRotation(rng));
    return {s1, s2, p1, p2};
}

bool finite(const ContactResult& r) {
    return isFinite(r.point) && isFinite(r.normal) && std::isfinite(r.depth) &&
           isFinite(r.surfacePoint1) && isFinite(r.surfacePoint2);
}

PairContactOptions exactOptions() {
    PairContactOptions o;
    o.boundingVolumeRejection = false; // also compare separated configurations
    return o;
}

TEST(PairProperties, SwapNegatesNormalAndKeepsDepth) {
    std::mt19937 rng(11);
    for (int k = 0; k < 300; ++k) {
        const Config c = randomConfig(rng);
        const ContactResult r12 = detectPairContact(c.s1, c.p1, c.s2, c.p2, nullptr, exactOptions());
        const ContactResult r21 = detectPairContact(c.s2, c.p2, c.s1, c.p1, nullptr, exactOptions());
        ASSERT_TRUE(finite(r12) && finite(r21));
        const double L = std::min(c.s1.halfAxes().minCoeff(), c.s2.halfAxes().minCoeff());
        EXPECT_EQ(r12.contact, r21.contact) << k;
        // Both solve the same minimum: equal to the solver tolerance (the
        // residual 1e-10 L gives a depth error far below 1e-9 L).
        const bool bothNewton = r12.status == ContactStatus::newton && r21.status == ContactStatus::newton;
        EXPECT_NEAR(r12.depth, r21.depth, (bothNewton ? 1e-8 : 2e-6) * L) << k;
        // Normals agree unless the minimum is degenerate (two minima with the
        // same depth), which random configurations practically never hit.
        EXPECT_NEAR((r12.normal + r21.normal).norm(), 0.0, bothNewton ? 1e-5 : 2e-2) << k;
    }
}

TEST(PairProperties, RigidMotionTransformsTheResult) {
    std::mt19937 rng(12);
    for (int k = 0; k < 200; ++k) {
        const Config c = randomConfig(rng);
        const Quat q = test::randomRotation(rng);
        const Vec3 t(0.3, -1.2, 2.5);
        auto moved = [&](const Pose& p) {
            return test::makePose(q * p.position + t, q * p.orientation);
        };
        const ContactResult r = detectPairContact(c.s1, c.p1, c.s2, c.p2, nullptr, exactOptions());
        const ContactResult m =
            detectPairContact(c.s1, moved(c.p1), c.s2, moved(c.p2), nullptr, exactOptions());
        const double L = std::min(c.s1.halfAxes().minCoeff(), c.s2.halfAxes().minCoeff());
        EXPECT_EQ(r.contact, m.contact) << k;
        // Newton-Newton: same minimum to the solver tolerance; if a fallback
        // answered, its EPA tolerance 1e-6 L bounds the difference. On nearly
        // flat faces (eps < 0.6) Newton converges only linearly and stops when
        // its decrement stagnates below 1e-8 L (PairContactOptions::
        // stagnationTolerance); the decrement estimates, not bounds, the depth
        // error there (seen: up to ~3e-8 L), so those get the EPA band.
        const double epsMin = std::min({c.s1.eps1(), c.s1.eps2(), c.s2.eps1(), c.s2.eps2()});
        const bool bothNewton = r.status == ContactStatus::newton && m.status == ContactStatus::newton;
        const bool tight = bothNewton && epsMin > 0.6;
        EXPECT_NEAR(r.depth, m.depth, (tight ? 1e-8 : 2e-6) * L) << k;
        EXPECT_NEAR((q * r.normal - m.normal).norm(), 0.0, tight ? 1e-5 : 2e-2) << k;
        // Points: the support point on a nearly flat face (eps < 0.6) is
        // ill-conditioned (the face has no unique extreme point), so only
        // rounder shapes are compared; 1e-4 L ~ normal error 1e-5 x radius.
        if (epsMin > 0.6) {
            EXPECT_NEAR((q * r.point + t - m.point).norm(), 0.0, 1e-4 * L) << k;
        }
    }
}

TEST(PairProperties, NewtonAndFallbackAgree) {
    std::mt19937 rng(13);
    PairContactOptions epaOnly = exactOptions();
    epaOnly.forceFallback = true;
    epaOnly.polishFallback = false;
    int compared = 0;
    for (int k = 0; k < 3000 && compared < 100; ++k) {
        const Config c = randomConfig(rng, 0.6); // shallower: where Newton answers
        const ContactResult newton = detectPairContact(c.s1, c.p1, c.s2, c.p2, nullptr, exactOptions());
        const ContactResult epa = detectPairContact(c.s1, c.p1, c.s2, c.p2, nullptr, epaOnly);
        ASSERT_TRUE(finite(newton) && finite(epa));
        if (newton.status != ContactStatus::newton) continue; // fallback answered both
        const double L = std::min(c.s1.halfAxes().minCoeff(), c.s2.halfAxes().minCoeff());
        EXPECT_EQ(newton.contact, epa.contact) << k;
        if (!epa.contact) continue; // GJK: separating axis, no depth to compare
        ++compared;
        // EPA stops when the support gap is below 1e-6 L; the overlap along
        // its normal is within that of the minimum (Newton's, exact).
        EXPECT_LE(newton.depth, epa.depth + 1e-9 * L) << k;
        EXPECT_NEAR(newton.depth, epa.depth, 2e-6 * L) << k;
        // Normal error of EPA ~ sqrt(2 tol / curvature term): loose bound.
        EXPECT_LT((newton.normal - epa.normal).norm(), 2e-2) << k;
    }
    EXPECT_GE(compared, 50);
}

TEST(PairProperties, WarmStartConvergesInAFewSteps) {
    // A DEM step: each body moves by 1e-3 of its size and turns by 1e-3 rad;
    // warm-started from the previous normal, Newton needs ~1-3 steps.
    std::mt19937 rng(14);
    // Smooth-ish shapes (all eps >= 0.4) and blocky ones separately: on the
    // nearly flat faces of blocky shapes Newton converges linearly (f ~
    // |angle|^(2/(2-eps))) and stops on a stagnating decrement, which takes
    // a few more steps (these calls used to end in the GJK/EPA fallback).
    int calls = 0, totalSteps = 0, maxSteps = 0, smoothCalls = 0, smoothSteps = 0;
    for (int k = 0; k < 200; ++k) {
        Config c = randomConfig(rng);
        ContactResult r = detectPairContact(c.s1, c.p1, c.s2, c.p2, nullptr, exactOptions());
        if (!r.contact) continue;
        PairWarmStart warm{r.normal};
        const Vec3 v = 1e-5 * test::randomUnit(rng);
        const Vec3 w = 1e-3 * test::randomUnit(rng);
        for (int step = 0; step < 5; ++step) {
            c.p2.position += v;
            c.p2.orientation = (Quat(Eigen::AngleAxisd(w.norm(), w.normalized())) * c.p2.orientation).normalized();
            r = detectPairContact(c.s1, c.p1, c.s2, c.p2, &warm, exactOptions());
            ASSERT_TRUE(finite(r));
            if (r.status != ContactStatus::newton) continue;
            EXPECT_TRUE(r.warmStarted);
            warm.normal = r.normal;
            ++calls;
            totalSteps += r.iterations;
            if (std::min({c.s1.eps1(), c.s1.eps2(), c.s2.eps1(), c.s2.eps2()}) >= 0.4) {
                ++smoothCalls;
                smoothSteps += r.iterations;
            }
            maxSteps = std::max(maxSteps, r.iterations);
        }
    }
    ASSERT_GT(calls, 100);
    const double mean = double(totalSteps) / calls;
    RecordProperty("meanWarmSteps", std::to_string(mean));
    const double smoothMean = double(smoothSteps) / smoothCalls;
    std::printf("warm start: %d calls, mean %.2f Newton steps (smooth %d calls: %.2f), max %d\n",
                calls, mean, smoothCalls, smoothMean, maxSteps);
    ASSERT_GT(smoothCalls, 50);
    EXPECT_LE(smoothMean, 3.0);
    EXPECT_LE(mean, 4.0);
    EXPECT_LE(maxSteps, 40); // the iteration budget: never exceeded
}

} // namespace
} // namespace sef
