// Face charts of blocky p-norm balls (contact/FaceChart.hpp) and the
// common-normal Newton that uses them (CommonNormalNewton.cpp).
#include "ContactTestSupport.hpp"
#include "contact/CommonNormalNewton.hpp"
#include "contact/FaceChart.hpp"

#include <gtest/gtest.h>

namespace sef {
namespace {

// A direction whose support point lies on the face of body axis 2 (sign
// `side`), tilted by up to `tilt` in the body frame.
Vec3 nearFaceNormal(std::mt19937& rng, const PosedBody& b, double tilt, double side) {
    std::uniform_real_distribution<double> u(-tilt, tilt);
    return (b.rotation * Vec3(u(rng), u(rng), side)).normalized();
}

// The chart inverts the support map: the planes of the support point's two
// face coordinates (FaceChart::planeNormal) both contain the direction that
// gave the point, and so meet in it (the normal of a mixed chart).
TEST(FaceChart, InvertsTheSupportMap) {
    std::mt19937 rng(5);
    for (double eps : {0.2, 0.25, 0.5, 0.8}) {
        const Superellipsoid s(0.008, 0.005, 0.004, eps, eps);
        for (int k = 0; k < 20; ++k) {
            const Pose pose = test::makePose(0.01 * test::randomUnit(rng), test::randomRotation(rng));
            const PosedBody b(s, pose);
            for (double orientation : {1.0, -1.0}) {
                const Vec3 n = orientation * nearFaceNormal(rng, b, 0.3, k % 2 ? 1.0 : -1.0);
                FaceChart chart;
                ASSERT_TRUE(FaceChart::at(b, b.support(n), chart));
                Vec3 v[2];
                for (int j = 0; j < 2; ++j) {
                    v[j] = chart.planeNormal(j, chart.coordinates()[j]).normalized();
                    EXPECT_LT(std::abs(v[j].dot(n)), 1e-12) << eps;
                }
                EXPECT_LT(v[0].cross(v[1]).normalized().cross(n).norm(), 1e-12) << eps;
            }
        }
    }
}

// Smooth and nested shapes have no chart (the angle iteration serves them).
TEST(FaceChart, OnlyBlockyBalls) {
    const Pose pose;
    FaceChart chart;
    const Superellipsoid ellipsoid(0.008, 0.005, 0.004, 1.0, 1.0), nested(0.008, 0.005, 0.004, 0.2, 0.3),
        diamond(0.008, 0.005, 0.004, 1.8, 1.8);
    for (const Superellipsoid* s : {&ellipsoid, &nested, &diamond}) {
        const PosedBody b(*s, pose);
        EXPECT_FALSE(FaceChart::at(b, b.support(Vec3(0.1, 0.2, 1.0)), chart));
    }
}

// Newton with face charts against the angle iteration alone, on random
// shallow blocky pairs (cold starts from the centre line): never a deeper
// answer beyond the fuzz band (2e-6 L), each converged answer a local
// minimum of f (no probe 1e-7 rad away is lower), and far fewer iterations
// (the angle iteration converges only linearly on flat faces).
TEST(FaceChartNewton, SameMinimumInFewerIterations) {
    for (double eps : {0.2, 0.25, 0.4}) {
        std::mt19937 rng(eps == 0.2 ? 11 : 12);
        const Superellipsoid s(0.008, 0.005, 0.004, eps, eps);
        const double L = 0.004;
        CommonNormalSettings charts;
        charts.gradientTolerance = 1e-10 * L;
        charts.depthTolerance = 1e-12 * L;
        charts.stagnationDepthTolerance = 1e-8 * L;
        charts.postStepTolerance = 1e-9 * L;
        CommonNormalSettings angles = charts;
        angles.faceCharts = false;
        int iterationsCharts = 0, iterationsAngles = 0, converged = 0;
        for (int k = 0; k < 60; ++k) {
            const Pose pA = test::makePose(Vec3::Zero(), test::randomRotation(rng));
            const Vec3 u = test::randomUnit(rng);
            // centre distance of a shallow overlap along u
            const Pose probe = test::makePose(Vec3::Zero(), test::randomRotation(rng));
            const PosedBody a(s, pA), b0(s, probe);
            const double reach = u.dot(a.support(u)) + u.dot(b0.support(-u) - Vec3::Zero()) * -1.0;
            const Pose pB = test::makePose((reach - 0.02 * L) * u, probe.orientation);
            const PosedBody b(s, pB);
            const CommonNormalSolution withCharts = solveCommonNormal(a, b, u, charts);
            const CommonNormalSolution withAngles = solveCommonNormal(a, b, u, angles);
            iterationsCharts += withCharts.iterations;
            iterationsAngles += withAngles.iterations;
            if (!withCharts.converged) continue;
            ++converged;
            if (withAngles.converged) {
                EXPECT_LE(withCharts.overlap, withAngles.overlap + 2e-6 * L) << eps << " " << k;
            }
            Vec3 t1, t2, p1, p2;
            tangentBasis(withCharts.normal, t1, t2);
            for (const Vec3& t : {t1, t2, Vec3(-t1), Vec3(-t2)}) {
                const Vec3 n = (withCharts.normal + 1e-7 * t).normalized();
                EXPECT_GE(overlapAlong(a, b, n, p1, p2), withCharts.overlap - 1e-9 * L) << eps << " " << k;
            }
        }
        EXPECT_GE(converged, 57) << eps;
        EXPECT_LT(iterationsCharts, 0.7 * iterationsAngles) << eps;
    }
}

} // namespace
} // namespace sef
