// Numerical robustness of the kernel: no NaN/Inf anywhere in and around the
// shape (acceptance: 1e6 random points, eps in [0.1, 2], |x|/a up to 10),
// consistent values on the coordinate planes and for extreme exponents.
#include "TestShapes.hpp"
#include "geometry/PosedShape.hpp"

#include <gtest/gtest.h>

#include <cmath>

using sef::Mat3;
using sef::Superellipsoid;
using sef::Vec3;

namespace {

bool finite(const std::array<Mat3, 3>& T) {
    return sef::isFinite(T[0]) && sef::isFinite(T[1]) && sef::isFinite(T[2]);
}

// Scaled coordinate for the fuzz: mostly uniform in [-10, 10], with exact
// zeros, tiny values (deep underflow of the powers) and values near 1 (the
// surface) mixed in.
double fuzzCoordinate(std::mt19937& rng) {
    std::uniform_int_distribution<int> kind(0, 9);
    std::uniform_real_distribution<double> uni(-10.0, 10.0), logMag(-320.0, 0.0), near(-1.01, 1.01);
    switch (kind(rng)) {
    case 0: return 0.0;
    case 1: return std::pow(10.0, logMag(rng)) * (uni(rng) > 0 ? 1 : -1);
    case 2:
    case 3: return near(rng);
    default: return uni(rng);
    }
}

} // namespace

TEST(Robustness, NoNanOrInfOverMillionPointFuzz) {
    std::mt19937 rng(2024);
    std::uniform_real_distribution<double> eps(0.1, 2.0), aspect(1.0, 5.0), size(1e-3, 1.0);
    const int shapes = 200, pointsPerShape = 5000; // 1e6 points
    long bad = 0;
    for (int k = 0; k < shapes; ++k) {
        // Exact endpoints of the range and eps = 1 are included on purpose.
        const double specials[] = {0.1, 1.0, 2.0};
        const double e1 = k % 7 < 3 ? specials[k % 3] : eps(rng);
        const double e2 = k % 5 < 3 ? specials[(k / 3) % 3] : eps(rng);
        const double L = size(rng);
        const Superellipsoid s(L * aspect(rng), L, L * aspect(rng) / 2.5, e1, e2);
        for (int i = 0; i < pointsPerShape; ++i) {
            const Vec3 x(fuzzCoordinate(rng) * s.a(), fuzzCoordinate(rng) * s.b(),
                         fuzzCoordinate(rng) * s.c());
            const double f = s.implicitFunction(x);
            const Vec3 g = s.gradient(x);
            const sef::ImplicitDerivatives d = s.evaluate(x);
            const auto T = s.thirdDerivatives(x);
            const bool ok = std::isfinite(f) && sef::isFinite(g) && std::isfinite(d.value)
                            && sef::isFinite(d.gradient) && sef::isFinite(d.hessian) && finite(T);
            if (!ok && bad++ < 5)
                ADD_FAILURE() << "non-finite at eps=" << e1 << "," << e2 << " x=" << x.transpose();
            if (x.squaredNorm() > 0.0 && i % 10 == 0) {
                // Surface-based functions along the same direction.
                const Vec3 y = s.radialSurfacePoint(x);
                const sef::SurfaceCurvature c = s.curvature(y);
                const Vec3 sp = s.supportPoint(x);
                const bool ok2 = sef::isFinite(y) && std::isfinite(c.mean) && std::isfinite(c.gaussian)
                                 && sef::isFinite(sp) && std::isfinite(s.supportValue(x))
                                 && std::fabs(s.implicitFunction(y)) < 1e-12;
                if (!ok2 && bad++ < 5)
                    ADD_FAILURE() << "surface functions at eps=" << e1 << "," << e2
                                  << " d=" << x.transpose();
            }
        }
    }
    EXPECT_EQ(bad, 0);
}

TEST(Robustness, OddDerivativesVanishExactlyOnPlanes) {
    // By symmetry dS/dx = 0 on x = 0 and the x-y / x-z Hessian couplings vanish.
    for (double e : {0.1, 0.5, 1.0, 1.5, 2.0}) {
        const Superellipsoid s(0.05, 0.01, 0.025, e, 2.1 - e);
        const Vec3 x(0.0, 0.004, -0.01);
        const sef::ImplicitDerivatives d = s.evaluate(x);
        EXPECT_EQ(d.gradient[0], 0.0);
        EXPECT_EQ(d.hessian(0, 1), 0.0);
        EXPECT_EQ(d.hessian(0, 2), 0.0);
        EXPECT_TRUE(sef::isFinite(d.hessian));
        const auto T = s.thirdDerivatives(x);
        EXPECT_EQ(T[0](0, 0), 0.0);
        EXPECT_EQ(T[0](1, 1), 0.0);
    }
}

TEST(Robustness, SmoothShapesAreContinuousAcrossPlanes) {
    // For eps in {0.5, 1} (2/eps = 4, 2) gradient and Hessian are smooth
    // across the planes: the values on the plane equal those at a scaled
    // offset t = 1e-7 up to O(t) = 1e-7 relative (a capped or floored
    // power would show an O(1) jump here).
    for (double e1 : {0.5, 1.0})
        for (double e2 : {0.5, 1.0}) {
            const Superellipsoid s(0.05, 0.01, 0.025, e1, e2);
            for (int axis = 0; axis < 3; ++axis) {
                Vec3 on(0.02, 0.005, 0.01);
                on[axis] = 0.0;
                Vec3 off = on;
                off[axis] = 1e-7 * s.halfAxes()[axis];
                const Mat3 H0 = s.hessian(on), H1 = s.hessian(off);
                EXPECT_LT((H0 - H1).norm(), 1e-6 * H0.norm()) << e1 << " " << e2 << " " << axis;
                EXPECT_LT((s.gradient(on) - s.gradient(off)).norm(), 1e-6 * s.gradient(on).norm());
            }
        }
}

TEST(Robustness, ExtremeExponentsFarAway) {
    // eps = 0.1 (2/eps = 20) at |x|/a = 10 along a diagonal: S ~ 10^20 is finite
    // and matches the direct formula.
    const Superellipsoid s(1.0, 1.0, 1.0, 0.1, 0.1);
    const Vec3 x(10.0, 10.0, 10.0);
    const double direct = std::pow(2.0 * std::pow(10.0, 20), 1.0) + std::pow(10.0, 20) - 1;
    EXPECT_NEAR(s.implicitFunction(x) / direct, 1.0, 1e-13);
    EXPECT_TRUE(sef::isFinite(s.evaluate(x).hessian));
    // Deep inside near the centre the powers underflow harmlessly to S = -1.
    EXPECT_DOUBLE_EQ(s.implicitFunction(Vec3(1e-5, 1e-5, 1e-5)), -1.0);
    EXPECT_TRUE(sef::isFinite(s.gradient(Vec3(1e-200, 0, 1e-300))));
}

TEST(Robustness, FarPointsUnderTrapsStayFiniteAndOutside) {
    // Far outside the body (up to 1e12 half-axes, beyond the clamp of the
    // implicit function's powers) every function is finite (this executable
    // traps overflow, so an overflowing power would kill it) and S > 0.
    std::mt19937 rng(31);
    std::uniform_real_distribution<double> logDistance(0.5, 12.0), eps(0.1, 1.9);
    std::normal_distribution<double> g(0.0, 1.0);
    for (int k = 0; k < 20000; ++k) {
        const double e1 = k % 3 == 0 ? 0.1 : eps(rng), e2 = k % 5 == 0 ? 0.1 : eps(rng);
        const Superellipsoid s(1e-3, 4e-4, 2e-4, e1, e2);
        Vec3 d(g(rng), g(rng), g(rng));
        if (k % 7 == 0) d[k % 2] = 0.0; // on a coordinate plane: x = 0 or y = 0
        const Vec3 x = std::pow(10.0, logDistance(rng)) * s.a() * d.normalized();
        const sef::ImplicitDerivatives D = s.evaluate(x);
        ASSERT_TRUE(std::isfinite(D.value) && sef::isFinite(D.gradient) && sef::isFinite(D.hessian)
                    && finite(s.thirdDerivatives(x)))
            << "eps " << e1 << " " << e2 << " x " << x.transpose();
        EXPECT_GT(D.value, 0.0);
        EXPECT_GT(D.gradient.dot(x), 0.0); // S grows outward
        EXPECT_GT(s.gaugeFunction(x), 1.0);
    }
}
