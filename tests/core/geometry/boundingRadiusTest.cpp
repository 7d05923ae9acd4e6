// Minimal bounding sphere radius ([Superquadric-LIGGGHTS], "Neighbor search") against a
// dense sampling of the surface: never smaller, equal within the sampling error.
#include "TestShapes.hpp"
#include "geometry/ParametricSurface.hpp"

#include <gtest/gtest.h>

#include <cmath>

using sef::Superellipsoid;
using sef::Vec3;

TEST(BoundingRadius, SphereEllipsoidBox) {
    EXPECT_DOUBLE_EQ(Superellipsoid(0.3, 0.3, 0.3, 1, 1).boundingRadius(), 0.3);
    EXPECT_DOUBLE_EQ(Superellipsoid(0.3, 0.5, 0.1, 1, 1).boundingRadius(), 0.5);
    EXPECT_DOUBLE_EQ(Superellipsoid(0.3, 0.5, 0.1, 2, 1.5).boundingRadius(), 0.5);
    // eps -> 0 approaches the box corner sqrt(a^2 + b^2 + c^2) from below.
    const double corner = std::sqrt(0.09 + 0.25 + 0.01);
    const double r = Superellipsoid(0.3, 0.5, 0.1, 0.02, 0.02).boundingRadius();
    EXPECT_LT(r, corner);
    EXPECT_GT(r, 0.98 * corner);
}

TEST(BoundingRadius, EqualsDenseSamplingMaximum) {
    // A parametric grid of 800 x 1600 points plus a local refinement around
    // the best sample: the maximum distance must not exceed R (to round-off)
    // and must come within 1e-8 relative of it.
    double worst = 0.0;
    for (double e1 : {0.1, 0.3, 0.7, 1.0, 1.4, 2.0})
        for (double e2 : {0.1, 0.5, 1.0, 1.6, 2.0})
            for (const Vec3& L : sef::test::halfAxesSet()) {
                const Superellipsoid s(L[0], L[1], L[2], e1, e2);
                const double R = s.boundingRadius();
                double best = 0.0, bestEta = 0.0, bestW = 0.0;
                auto probe = [&](double eta, double w) {
                    const double d = sef::surfacePoint(s, eta, w).norm();
                    ASSERT_LE(d, R * (1.0 + 1e-14)) << e1 << " " << e2;
                    if (d > best) { best = d; bestEta = eta; bestW = w; }
                };
                const int nEta = 200, nW = 400;
                for (int i = 0; i <= nEta; ++i)
                    for (int j = 0; j < nW; ++j)
                        probe(-M_PI / 2 + M_PI * i / nEta, -M_PI + 2 * M_PI * j / nW);
                // Zoom in around the best sample (the distance is smooth in the
                // angles near an interior maximum).
                double span = M_PI / nEta;
                for (int level = 0; level < 30; ++level) {
                    const double e0 = bestEta, w0 = bestW;
                    for (int i = -4; i <= 4; ++i)
                        for (int j = -4; j <= 4; ++j)
                            probe(std::clamp(e0 + span * i / 4, -M_PI / 2, M_PI / 2), w0 + 2 * span * j / 4);
                    span *= 0.5;
                }
                const double gap = 1.0 - best / R;
                worst = std::max(worst, gap);
                EXPECT_LT(gap, 1e-8) << "eps1=" << e1 << " eps2=" << e2 << " L=" << L.transpose();
            }
    std::printf("bounding radius: largest gap to the sampled maximum %.2e (relative)\n", worst);
}
