// Exact pair cases: sphere-sphere (analytic points, normal, depth) and two
// identical aligned superellipsoids face to face (depth 2a - d along x).
#include "ContactTestSupport.hpp"
#include "contact/PairContact.hpp"

#include <gtest/gtest.h>

namespace sef {
namespace {

// Tolerance 1e-10 relative; the answer is a couple of
// support-point evaluations, so rounding is ~1e-15.
constexpr double relTol = 1e-10;

TEST(PairExact, SphereSphereOverlapIsAnalytic) {
    const double r1 = 0.01, r2 = 0.004;
    const Superellipsoid s1(r1, r1, r1, 1.0, 1.0), s2(r2, r2, r2, 1.0, 1.0);
    std::mt19937 rng(1);
    for (int k = 0; k < 50; ++k) {
        const Vec3 u = test::randomUnit(rng);
        const double d = (0.2 + 0.75 * k / 50.0) * (r1 + r2);
        const Pose p1 = test::makePose(Vec3(0.1, -0.2, 0.3), test::randomRotation(rng));
        const Pose p2 = test::makePose(p1.position + d * u, test::randomRotation(rng));
        const ContactResult r = detectPairContact(s1, p1, s2, p2);
        ASSERT_TRUE(r.contact);
        EXPECT_NEAR(r.depth, r1 + r2 - d, relTol * r2);
        EXPECT_NEAR((r.normal - u).norm(), 0.0, relTol);
        EXPECT_NEAR((r.surfacePoint1 - (p1.position + r1 * u)).norm(), 0.0, relTol * r2);
        EXPECT_NEAR((r.surfacePoint2 - (p2.position - r2 * u)).norm(), 0.0, relTol * r2);
        EXPECT_NEAR((r.point - 0.5 * (r.surfacePoint1 + r.surfacePoint2)).norm(), 0.0, 1e-15);
        // deep overlaps (> 0.05 r2) are re-checked by the fallback, then polished
        EXPECT_TRUE(r.status == ContactStatus::newton || r.status == ContactStatus::fallback);
    }
}

TEST(PairExact, SeparatedSpheresGiveMinusTheGap) {
    const Superellipsoid s(0.01, 0.01, 0.01, 1.0, 1.0);
    const Pose p1 = test::makePose(Vec3::Zero(), Quat::Identity());
    const Pose p2 = test::makePose(Vec3(0.0, 0.0205, 0.0), Quat::Identity());
    PairContactOptions noRejection;
    noRejection.boundingVolumeRejection = false;
    const ContactResult r = detectPairContact(s, p1, s, p2, nullptr, noRejection);
    EXPECT_FALSE(r.contact);
    EXPECT_NEAR(r.depth, -0.0005, relTol * 0.01);
    EXPECT_NEAR((r.normal - Vec3::UnitY()).norm(), 0.0, relTol);
    // With the pre-evaluation the pair is rejected by the bounding spheres.
    const ContactResult rejected = detectPairContact(s, p1, s, p2);
    EXPECT_FALSE(rejected.contact);
    EXPECT_EQ(rejected.status, ContactStatus::boundingSphere);
    EXPECT_NEAR(rejected.depth, -0.0005, relTol * 0.01);
}

TEST(PairExact, AlignedSuperellipsoidsFaceToFace) {
    // Identical shapes, same orientation, offset d along body x (a < b, c):
    // the overlap along x is 2a - d and x is the common normal by symmetry.
    for (double eps : {0.2, 0.6, 1.0, 1.4, 1.8}) {
        const double a = 0.004, b = 0.008, c = 0.01;
        const Superellipsoid s(a, b, c, eps, eps);
        const Quat q = Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
        const Vec3 xAxis = q * Vec3::UnitX();
        for (double d : {1.99 * a, 1.9 * a, 1.6 * a}) {
            const Pose p1 = test::makePose(Vec3(0.01, 0.02, 0.03), q);
            const Pose p2 = test::makePose(p1.position + d * xAxis, q);
            const ContactResult r = detectPairContact(s, p1, s, p2);
            ASSERT_TRUE(r.contact) << "eps " << eps << " d " << d;
            if (eps > 1.0) {
                // eps > 1: the x "faces" are vertices; tilting the normal
                // inside their normal cone lowers the overlap (f(n) = (2a-d) n_x
                // there), so 2a - d is only an upper bound of the depth.
                EXPECT_LE(r.depth, 2 * a - d + relTol * a);
                EXPECT_GT(r.depth, 0.0);
                continue;
            }
            EXPECT_NEAR(r.depth, 2 * a - d, relTol * a) << "eps " << eps << " d " << d;
            EXPECT_NEAR((r.normal - xAxis).norm(), 0.0, 1e-8) << "eps " << eps << " d " << d;
        }
    }
}

} // namespace
} // namespace sef
