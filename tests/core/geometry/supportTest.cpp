// Support point / support value ([Superquadric-LIGGGHTS], "Particle-wall contact") and the
// radial surface point.
#include "TestShapes.hpp"
#include "geometry/ParametricSurface.hpp"
#include "geometry/PosedShape.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

using sef::Superellipsoid;
using sef::Vec3;

namespace {
const double kEpsSet[] = {0.1, 0.2, 0.5, 1.0, 1.5, 2.0};
}

TEST(SupportPoint, OnSurfaceWithNormalAlongDirection) {
    std::mt19937 rng(5);
    double worstF = 0, worstAngle = 0;
    for (double e1 : kEpsSet)
        for (double e2 : kEpsSet)
            for (const Vec3& L : sef::test::halfAxesSet()) {
                const Superellipsoid s(L[0], L[1], L[2], e1, e2);
                for (int k = 0; k < 50; ++k) {
                    const Vec3 n = sef::test::randomUnitVector(rng) * 3.7; // not unit on purpose
                    const Vec3 x = s.supportPoint(n);
                    const double f = s.implicitFunction(x);
                    worstF = std::max(worstF, std::fabs(f));
                    EXPECT_LT(std::fabs(f), 1e-10) << e1 << " " << e2;
                    EXPECT_NEAR(s.supportValue(n), n.dot(x), 1e-14 * std::fabs(n.dot(x)) + 1e-16);
                    // Normal parallel to n: only where the normal is defined
                    // (eps = 2 puts the support point on a vertex/edge).
                    if (e1 < 2.0 && e2 < 2.0) {
                        const Vec3 g = s.gradient(x).normalized();
                        const double angle = g.cross(n.normalized()).norm();
                        worstAngle = std::max(worstAngle, angle);
                        EXPECT_GT(g.dot(n), 0.0);
                        // Tolerance: the normal direction of a point with
                        // |f| ~ 1e-16 is exact to ~1e-12 away from near-edges.
                        EXPECT_LT(angle, 1e-9) << e1 << " " << e2 << " n=" << n.transpose();
                    }
                }
            }
    std::printf("support point: max |f| = %.2e, max sin(angle(grad, n)) = %.2e\n", worstF, worstAngle);
}

TEST(SupportPoint, NotExceededBySampledSurfacePoints) {
    // 1e5 parametric surface points per shape must not beat h(n).
    std::mt19937 rng(9);
    std::uniform_real_distribution<double> eta(-M_PI / 2, M_PI / 2), w(-M_PI, M_PI);
    for (double e1 : {0.1, 0.5, 1.0, 2.0})
        for (double e2 : {0.2, 1.0, 1.5}) {
            const Superellipsoid s(0.05, 0.01, 0.025, e1, e2);
            std::vector<Vec3> dirs;
            for (int k = 0; k < 5; ++k) dirs.push_back(sef::test::randomUnitVector(rng));
            dirs.push_back(Vec3(1, 0, 0));
            dirs.push_back(Vec3(0, -1, 1));
            std::vector<double> h;
            for (const Vec3& n : dirs) h.push_back(s.supportValue(n));
            for (int k = 0; k < 100000; ++k) {
                const Vec3 x = sef::surfacePoint(s, eta(rng), w(rng));
                for (size_t j = 0; j < dirs.size(); ++j)
                    ASSERT_LE(dirs[j].dot(x), h[j] * (1.0 + 1e-12)) << e1 << " " << e2;
            }
        }
}

TEST(SupportPoint, ClosedFormCases) {
    // Sphere: R n / |n|. Ellipsoid: h(n) = sqrt((a nx)^2 + (b ny)^2 + (c nz)^2).
    const Superellipsoid sphere(0.3, 0.3, 0.3, 1.0, 1.0);
    const Vec3 n(1.0, -2.0, 0.5);
    EXPECT_TRUE(sphere.supportPoint(n).isApprox(0.3 * n.normalized(), 1e-14));
    const Superellipsoid ell(0.5, 0.2, 0.1, 1.0, 1.0);
    EXPECT_NEAR(ell.supportValue(n), std::hypot(0.5 * 1.0, 0.2 * 2.0, 0.1 * 0.5), 1e-15);
    // Axis directions hit the vertices, for any shape, including zeros in n.
    const Superellipsoid box(0.5, 0.2, 0.1, 0.1, 0.3);
    EXPECT_TRUE(box.supportPoint(Vec3(0, 0, -2)).isApprox(Vec3(0, 0, -0.1), 1e-15));
    EXPECT_TRUE(box.supportPoint(Vec3(0, 3, 0)).isApprox(Vec3(0, 0.2, 0), 1e-15));
    // Octahedron (eps = 2): the support point is a vertex, h = max |L_i n_i|.
    const Superellipsoid oct(0.5, 0.2, 0.1, 2.0, 2.0);
    EXPECT_DOUBLE_EQ(oct.supportValue(Vec3(0.3, 1.0, -0.2)), 0.2);
    EXPECT_TRUE(oct.supportPoint(Vec3(0.3, 1.0, -0.2)).isApprox(Vec3(0, 0.2, 0)));
    EXPECT_THROW(box.supportPoint(Vec3::Zero()), std::invalid_argument);
    EXPECT_THROW(box.supportValue(Vec3(NAN, 0, 1)), std::invalid_argument);
}

TEST(SupportPoint, WorldFrameAndBoxes) {
    std::mt19937 rng(1);
    const Superellipsoid s(0.05, 0.01, 0.025, 0.4, 1.2);
    sef::Pose pose;
    pose.position = Vec3(1.0, 2.0, -0.5);
    pose.orientation = sef::test::randomRotation(rng);
    for (int k = 0; k < 20; ++k) {
        const Vec3 n = sef::test::randomUnitVector(rng);
        const Vec3 X = sef::supportPointWorld(s, pose, n);
        EXPECT_NEAR(sef::implicitFunctionWorld(s, pose, X), 0.0, 1e-12);
        EXPECT_NEAR(sef::supportValueWorld(s, pose, n), n.dot(X), 1e-14);
        EXPECT_LT(sef::gradientWorld(s, pose, X).normalized().cross(n).norm(), 1e-9);
    }
    const sef::AxisAlignedBox box = sef::axisAlignedBox(s, pose);
    const sef::OrientedBox obb = sef::orientedBox(s, pose);
    EXPECT_TRUE(obb.axes.isApprox(pose.rotation()));
    EXPECT_TRUE(obb.halfExtents.isApprox(s.halfAxes()));
    std::uniform_real_distribution<double> eta(-M_PI / 2, M_PI / 2), w(-M_PI, M_PI);
    Vec3 lo = Vec3::Constant(1e9), hi = Vec3::Constant(-1e9);
    for (int k = 0; k < 20000; ++k) {
        const Vec3 X = pose.toWorld(sef::surfacePoint(s, eta(rng), w(rng)));
        lo = lo.cwiseMin(X);
        hi = hi.cwiseMax(X);
        // Every surface point lies in both boxes.
        const Vec3 local = obb.axes.transpose() * (X - obb.center);
        EXPECT_TRUE((local.cwiseAbs().array() <= obb.halfExtents.array() * (1 + 1e-12)).all());
    }
    // Tight: sampled extremes approach the box within sampling resolution
    // (2e4 points: well below 2 % of the half-axes here).
    EXPECT_TRUE((lo.array() >= box.min.array() - 1e-14).all());
    EXPECT_TRUE((hi.array() <= box.max.array() + 1e-14).all());
    EXPECT_LT((lo - box.min).maxCoeff(), 1e-3);
    EXPECT_LT((box.max - hi).maxCoeff(), 1e-3);
}

TEST(RadialSurfacePoint, OnSurfaceAndOnRay) {
    std::mt19937 rng(2);
    for (double e1 : kEpsSet)
        for (double e2 : kEpsSet) {
            const Superellipsoid s(0.05, 0.01, 0.025, e1, e2);
            for (int k = 0; k < 50; ++k) {
                const Vec3 d = sef::test::randomUnitVector(rng) * 0.1;
                const Vec3 x = s.radialSurfacePoint(d);
                EXPECT_NEAR(s.implicitFunction(x), 0.0, 1e-12);
                EXPECT_LT(x.normalized().cross(d.normalized()).norm(), 1e-14);
                EXPECT_GT(x.dot(d), 0.0);
            }
        }
    EXPECT_THROW(Superellipsoid(1, 1, 1, 1, 1).radialSurfacePoint(Vec3::Zero()), std::invalid_argument);
}
