// Volume of a superellipsoid: closed form (Beta functions) against exact
// sphere/ellipsoid volumes and a deterministic quadrature of the height field.
#include "geometry/Superellipsoid.hpp"
#include "../support/Quadrature.hpp"

#include <gtest/gtest.h>
#include <cmath>

using sef::Superellipsoid;

namespace {

// V = 8 * int_0^a int_0^ymax(x) z(x, y) dy dx, from [Superellipsoid-OpenFOAM] eq. (3) solved for z.
double volumeByQuadrature(const Superellipsoid& s) {
    const double a = s.a(), b = s.b(), c = s.c(), e1 = s.eps1(), e2 = s.eps2();
    auto slice = [&](double x) {
        const double xa = std::pow(x / a, 2.0 / e2);
        if (xa >= 1.0) return 0.0;
        const double yMax = b * std::pow(1.0 - xa, e2 / 2.0);
        auto height = [&](double y) {
            const double inner = xa + std::pow(y / b, 2.0 / e2);
            const double r = std::pow(inner, e2 / e1);
            return r >= 1.0 ? 0.0 : c * std::pow(1.0 - r, e1 / 2.0);
        };
        return sef::test::tanhSinh(height, 0.0, yMax);
    };
    return 8.0 * sef::test::tanhSinh(slice, 0.0, a);
}

} // namespace

TEST(SuperellipsoidVolume, SphereIsExact) {
    const Superellipsoid s(0.3, 0.3, 0.3, 1.0, 1.0);
    EXPECT_NEAR(s.volume(), 4.0 / 3.0 * M_PI * 0.027, 1e-14);
    EXPECT_NEAR(s.equivalentDiameter(), 0.6, 1e-14);
}

TEST(SuperellipsoidVolume, EllipsoidIsExact) {
    const Superellipsoid s(5.0, 2.0, 1.0, 1.0, 1.0);
    EXPECT_NEAR(s.volume() / (4.0 / 3.0 * M_PI * 10.0), 1.0, 1e-13);
}

TEST(SuperellipsoidVolume, NearCubeApproachesBox) {
    // eps -> 0 fills the box 2a x 2b x 2c; at eps = 0.02 the rounding removes
    // well under 1 % of the volume, and the volume grows as eps shrinks.
    const Superellipsoid cube(1.0, 2.0, 3.0, 0.02, 0.02);
    const double box = 8.0 * 6.0;
    EXPECT_LT(cube.volume(), box);
    EXPECT_GT(cube.volume(), 0.99 * box);
    EXPECT_GT(cube.volume(), Superellipsoid(1.0, 2.0, 3.0, 0.1, 0.1).volume());
}

TEST(SuperellipsoidVolume, MatchesQuadratureAcrossShapes) {
    for (double e1 : {0.1, 0.3, 1.0, 1.5, 2.0}) {
        for (double e2 : {0.1, 0.5, 1.0, 2.0}) {
            const Superellipsoid s(2.5, 1.5, 1.0, e1, e2);
            EXPECT_NEAR(volumeByQuadrature(s) / s.volume(), 1.0, 1e-6)
                << "eps1=" << e1 << " eps2=" << e2;
        }
    }
}

TEST(SuperellipsoidVolume, OctahedronLimit) {
    // eps1 = eps2 = 2 is the octahedron |x|/a + |y|/b + |z|/c <= 1: V = 4abc/3.
    const Superellipsoid s(1.0, 2.0, 3.0, 2.0, 2.0);
    EXPECT_NEAR(s.volume(), 4.0 / 3.0 * 6.0, 1e-12);
}

TEST(SuperellipsoidValidation, RejectsBadParametersByName) {
    auto parameterOf = [](auto&& make) {
        try { make(); } catch (const sef::ShapeError& e) { return e.parameter(); }
        return std::string("none");
    };
    EXPECT_EQ(parameterOf([] { Superellipsoid(-1, 1, 1, 1, 1); }), "a");
    EXPECT_EQ(parameterOf([] { Superellipsoid(1, 0, 1, 1, 1); }), "b");
    EXPECT_EQ(parameterOf([] { Superellipsoid(1, 1, NAN, 1, 1); }), "c");
    EXPECT_EQ(parameterOf([] { Superellipsoid(1, 1, 1, 0, 1); }), "eps1");
    EXPECT_EQ(parameterOf([] { Superellipsoid(1, 1, 1, 1, 2.5); }), "eps2");
    EXPECT_EQ(parameterOf([] { Superellipsoid::fromExponents(1, 1, 1, 0.5, 2); }), "n1");
    EXPECT_EQ(parameterOf([] { Superellipsoid(1, 1, 1, 2, 2); }), "none");
}

TEST(SuperellipsoidValidation, ExponentFormIsEquivalent) {
    const auto s = Superellipsoid::fromExponents(1, 2, 3, 4.0, 8.0);
    EXPECT_DOUBLE_EQ(s.eps1(), 0.5);
    EXPECT_DOUBLE_EQ(s.eps2(), 0.25);
    EXPECT_DOUBLE_EQ(s.n1(), 4.0);
}
