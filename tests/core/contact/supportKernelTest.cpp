// The contact module's fast support kernel against the geometry kernel's
// closed form (same formulas, fewer pow calls): agreement to rounding.
#include "ContactTestSupport.hpp"
#include "contact/SupportKernel.hpp"

#include <gtest/gtest.h>

namespace sef {
namespace {

TEST(SupportKernel, MatchesGeometrySupportPointAndDerivatives) {
    std::mt19937 rng(31);
    std::vector<Superellipsoid> shapes{Superellipsoid(0.01, 0.005, 0.004, 1.0, 1.0),
                                       Superellipsoid(0.01, 0.005, 0.004, 2.0, 0.3),
                                       Superellipsoid(0.01, 0.005, 0.004, 1.0, 0.2)};
    for (int k = 0; k < 40; ++k) shapes.push_back(test::randomShape(rng, 0.01, 0.1, 1.99));
    for (const Superellipsoid& s : shapes) {
        const SupportKernel kernel(s);
        std::vector<Vec3> directions{Vec3::UnitX(), -Vec3::UnitY(), Vec3::UnitZ(), Vec3(1, 1e-200, 0),
                                     Vec3(1, 1, 1), Vec3(0, 1, -1)};
        for (int j = 0; j < 50; ++j) directions.push_back(test::randomUnit(rng));
        for (const Vec3& n : directions) {
            const Vec3 expected = s.supportPoint(n);
            // Both are closed forms of the same point: rounding (a few ulp of
            // the largest half-axis, amplified by pow at most ~100 times).
            EXPECT_NEAR((kernel.support(n) - expected).norm(), 0.0, 1e-13 * s.a())
                << s.eps1() << " " << s.eps2() << " n " << n.transpose();
            const Vec3 x = 0.7 * expected;
            EXPECT_NEAR(kernel.implicitFunction(x), s.implicitFunction(x), 1e-13);
            const ImplicitDerivatives a = kernel.evaluate(x), b = s.evaluate(x);
            EXPECT_NEAR((a.gradient - b.gradient).norm(), 0.0, 1e-12 * b.gradient.norm());
            EXPECT_NEAR((a.hessian - b.hessian).norm(), 0.0, 1e-12 * b.hessian.norm());
        }
    }
}

} // namespace
} // namespace sef
