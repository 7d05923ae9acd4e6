// Mean and Gaussian curvature ([Superquadric-LIGGGHTS] eqs. 38-39): analytic sphere and
// ellipsoid values, and the fundamental forms of the parametric surface for
// general superellipsoids.
#include "TestShapes.hpp"
#include "geometry/ParametricSurface.hpp"

#include <gtest/gtest.h>

#include <cmath>

using sef::Superellipsoid;
using sef::Vec3;

TEST(Curvature, SphereIsOneOverR) {
    std::mt19937 rng(4);
    for (double R : {1e-3, 0.3, 7.0}) {
        const Superellipsoid s(R, R, R, 1.0, 1.0);
        for (int k = 0; k < 50; ++k) {
            const Vec3 x = R * sef::test::randomUnitVector(rng);
            const sef::SurfaceCurvature c = s.curvature(x);
            EXPECT_NEAR(c.mean * R, 1.0, 1e-13);
            EXPECT_NEAR(c.gaussian * R * R, 1.0, 1e-13);
        }
        // Axis points (exact zeros in two coordinates) too.
        EXPECT_NEAR(s.curvature(Vec3(0, 0, -R)).mean * R, 1.0, 1e-14);
    }
}

TEST(Curvature, EllipsoidVerticesAndGeneralPoints) {
    const double a = 0.5, b = 0.2, c = 0.1;
    const Superellipsoid s(a, b, c, 1.0, 1.0);
    // Vertex (a, 0, 0): principal curvatures a/b^2 and a/c^2.
    sef::SurfaceCurvature k = s.curvature(Vec3(a, 0, 0));
    EXPECT_NEAR(k.mean, 0.5 * (a / (b * b) + a / (c * c)), 1e-12);
    EXPECT_NEAR(k.gaussian, a * a / (b * b * c * c), 1e-10);
    k = s.curvature(Vec3(0, -b, 0));
    EXPECT_NEAR(k.mean, 0.5 * (b / (a * a) + b / (c * c)), 1e-12);
    EXPECT_NEAR(k.gaussian, b * b / (a * a * c * c), 1e-10);
    k = s.curvature(Vec3(0, 0, c));
    EXPECT_NEAR(k.mean, 0.5 * (c / (a * a) + c / (b * b)), 1e-12);
    EXPECT_NEAR(k.gaussian, c * c / (a * a * b * b), 1e-12);
    // Any surface point, with h = 1 / sqrt(x^2/a^4 + y^2/b^4 + z^2/c^4):
    //   K = h^4 / (a b c)^2,  H = h^3 (a^2 + b^2 + c^2 - |x|^2) / (2 a^2 b^2 c^2).
    std::mt19937 rng(8);
    for (int i = 0; i < 100; ++i) {
        const Vec3 x = s.radialSurfacePoint(sef::test::randomUnitVector(rng));
        const double h = 1.0 / std::sqrt(std::pow(x[0], 2) / std::pow(a, 4)
                                         + std::pow(x[1], 2) / std::pow(b, 4)
                                         + std::pow(x[2], 2) / std::pow(c, 4));
        const double abc2 = a * a * b * b * c * c;
        k = s.curvature(x);
        EXPECT_NEAR(k.gaussian / (std::pow(h, 4) / abc2), 1.0, 1e-12);
        EXPECT_NEAR(k.mean / (std::pow(h, 3) * (a * a + b * b + c * c - x.squaredNorm()) / (2 * abc2)),
                    1.0, 1e-12);
    }
}

TEST(Curvature, MatchesParametricFundamentalForms) {
    // Fundamental forms of x(eta, w) by 4th-order central differences
    // (h = 1e-3: truncation ~1e-12, round-off in the second derivatives
    // ~1e-16 / h^2 = 1e-10 relative), away from the parametric poles and
    // seams where the parametrisation itself is singular.
    auto diff = [](auto&& f, double h) {
        return ((f(-2 * h) - 8.0 * f(-h) + 8.0 * f(h) - f(2 * h)) / (12.0 * h)).eval();
    };
    const double h = 1e-3;
    for (double e1 : {0.2, 0.6, 1.0, 1.5})
        for (double e2 : {0.3, 1.0, 1.8}) {
            const Superellipsoid s(0.05, 0.01, 0.025, e1, e2);
            for (double eta : {-1.1, -0.4, 0.3, 0.9})
                for (double w : {-2.5, -0.7, 0.4, 1.2, 2.0}) {
                    auto X = [&](double de, double dw) { return sef::surfacePoint(s, eta + de, w + dw); };
                    auto Xe = [&](double de, double dw) {
                        return diff([&](double t) { return X(de + t, dw); }, h);
                    };
                    auto Xw = [&](double de, double dw) {
                        return diff([&](double t) { return X(de, dw + t); }, h);
                    };
                    const Vec3 xe = Xe(0, 0), xw = Xw(0, 0);
                    const Vec3 xee = diff([&](double t) { return Xe(t, 0); }, h);
                    const Vec3 xww = diff([&](double t) { return Xw(0, t); }, h);
                    const Vec3 xew = diff([&](double t) { return Xe(0, t); }, h);
                    const Vec3 x = X(0, 0);
                    Vec3 n = xe.cross(xw).normalized();
                    if (n.dot(s.gradient(x)) < 0) n = -n; // outward
                    const double E = xe.dot(xe), F = xe.dot(xw), G = xw.dot(xw);
                    const double L = xee.dot(n), M = xew.dot(n), N = xww.dot(n);
                    const double det = E * G - F * F;
                    const double gaussRef = (L * N - M * M) / det;
                    const double meanRef = -(E * N - 2 * F * M + G * L) / (2 * det);
                    const sef::SurfaceCurvature k = s.curvature(x);
                    EXPECT_NEAR(k.gaussian / gaussRef, 1.0, 1e-6) << e1 << " " << e2 << " " << eta << " " << w;
                    EXPECT_NEAR(k.mean / meanRef, 1.0, 1e-6) << e1 << " " << e2 << " " << eta << " " << w;
                }
        }
}

TEST(Curvature, FiniteOnEdges) {
    // eps > 1: the curvature of the rounded edge is infinite in theory; the
    // kernel must still return finite, positive numbers.
    const Superellipsoid s(0.05, 0.01, 0.025, 1.8, 1.9);
    for (const Vec3& x : {Vec3(0.05, 0, 0), Vec3(0, 0.01, 0), Vec3(0, 0, 0.025)}) {
        const sef::SurfaceCurvature k = s.curvature(x);
        EXPECT_TRUE(std::isfinite(k.mean) && std::isfinite(k.gaussian));
        EXPECT_GT(k.mean, 0.0);
    }
}
