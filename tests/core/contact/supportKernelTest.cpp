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
    // eps1 = eps2: the kernel's p-norm ball form (a different formula from
    // the geometry's nested levels, the same point)
    for (double eps : {0.05, 0.2, 0.25, 0.5, 0.7, 1.5, 1.8, 1.99})
        shapes.push_back(Superellipsoid(0.01, 0.005, 0.004, eps, eps));
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

// Lanes evaluate each query exactly as a single call would (the patch and
// contact answers must not depend on what is evaluated beside them), for
// every kind of kernel mixed in one call: ellipsoid, p-norm ball, nested
// levels, eps = 2 limit.
TEST(SupportKernel, LanesMatchSingleCallsBitForBit) {
    std::mt19937 rng(32);
    const std::vector<Superellipsoid> shapes{Superellipsoid(0.01, 0.005, 0.004, 1.0, 1.0),
                                             Superellipsoid(0.01, 0.005, 0.004, 0.2, 0.2),
                                             Superellipsoid(0.01, 0.005, 0.004, 0.5, 0.25),
                                             Superellipsoid(0.01, 0.005, 0.004, 2.0, 0.3),
                                             Superellipsoid(0.01, 0.005, 0.004, 1.0, 0.2)};
    std::vector<SupportKernel> kernels;
    for (const Superellipsoid& s : shapes) kernels.emplace_back(s);
    std::uniform_int_distribution<int> pick(0, static_cast<int>(kernels.size()) - 1);
    for (int trial = 0; trial < 200; ++trial) {
        const int count = 1 + trial % SupportKernel::kMaxLanes;
        const SupportKernel* lanes[SupportKernel::kMaxLanes];
        Vec3 n[SupportKernel::kMaxLanes], p[SupportKernel::kMaxLanes];
        for (int i = 0; i < count; ++i) {
            lanes[i] = &kernels[static_cast<std::size_t>(pick(rng))];
            n[i] = i % 5 == 0 ? Vec3(0.0, -1.0, 0.0) : test::randomUnit(rng); // axes too
        }
        SupportKernel::supportLanes(lanes, n, p, count);
        for (int i = 0; i < count; ++i) {
            const Vec3 single = lanes[i]->support(n[i]);
            for (int c = 0; c < 3; ++c) EXPECT_EQ(p[i][c], single[c]) << "lane " << i << " of " << count;
        }
    }
}

} // namespace
} // namespace sef
