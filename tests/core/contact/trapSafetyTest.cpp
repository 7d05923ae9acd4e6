// The narrow phase under OpenFOAM's floating-point traps (this executable
// runs with overflow, invalid and divide by zero trapped) on the
// configurations a dense bed hands it and the random fuzz rarely draws:
// deep overlaps down to coincident centres, exactly aligned blocky faces
// (coordinate planes through the contact), warm starts from a wrong or
// zero normal, particles sunk through or far above a wall. Any trapped
// operation kills the test; every answer must be finiteResult, and pressed or
// coincident pairs are in contact.
#include "ContactTestSupport.hpp"
#include "contact/PairContact.hpp"
#include "contact/PolygonWallContact.hpp"
#include "contact/WallContact.hpp"

#include <gtest/gtest.h>

namespace sef {
namespace {

bool finiteResult(const ContactResult& r) {
    return isFinite(r.point) && isFinite(r.normal) && std::isfinite(r.depth) && isFinite(r.surfacePoint1)
           && isFinite(r.surfacePoint2);
}

// The campaign's shape range: eps1, eps2 in [0.1, 1.9], aspect ratio up to 5.
Superellipsoid stressShape(std::mt19937& rng) {
    std::uniform_real_distribution<double> eps(0.1, 1.9), axis(0.2e-3, 1e-3);
    std::uniform_int_distribution<int> pick(0, 5);
    // Exact ends of the range and the blocky values of the reported crash.
    const double special[] = {0.1, 0.25, 1.0, 1.9};
    auto e = [&] { return pick(rng) < 2 ? special[pick(rng) % 4] : eps(rng); };
    // One in three a p-norm ball (eps1 = eps2): blocky ones take the face
    // charts of the Newton iteration.
    if (pick(rng) < 2) {
        const double ball = e();
        return Superellipsoid(axis(rng), axis(rng), axis(rng), ball, ball);
    }
    return Superellipsoid(axis(rng), axis(rng), axis(rng), e(), e());
}

TEST(TrapSafety, DeepPairOverlapsDownToCoincidentCentres) {
    std::mt19937 rng(17);
    std::uniform_real_distribution<double> logDepth(-6.0, std::log10(0.3));
    auto depth = [&](std::mt19937& g) { return std::pow(10.0, logDepth(g)); }; // shallow (resting) to deep
    long contacts = 0, total = 0;
    for (int k = 0; k < 3000; ++k) {
        const Superellipsoid s1 = stressShape(rng), s2 = stressShape(rng);
        // One in four: both axis-aligned (faces exactly parallel, contact on
        // coordinate planes of both bodies); one in eight: centres coincide.
        const bool aligned = k % 4 == 0;
        const Quat q1 = aligned ? Quat::Identity() : test::randomRotation(rng);
        const Quat q2 = aligned ? Quat::Identity() : test::randomRotation(rng);
        // Aligned: the centre separation is the sum of the half-axes along
        // the line of centres less a small depth (face on face, the contact
        // on that body axis: x = y = 0 exactly, as in a settled bed of blocks
        // at the origin); otherwise a deep overlap in a random direction.
        const int axis = k % 3;
        const double touching = s1.halfAxes()[axis] + s2.halfAxes()[axis];
        const double reach = s1.halfAxes().minCoeff() + s2.halfAxes().minCoeff();
        const Vec3 offset = k % 8 == 1 ? Vec3::Zero()
                            : aligned ? Vec3((touching - depth(rng) * reach) * Vec3::Unit(axis))
                                      : Vec3((1.0 - depth(rng)) * reach * test::randomUnit(rng));
        const Pose p1 = test::makePose(aligned ? Vec3::Zero() : Vec3(0.01, -0.02, 0.03), q1);
        const Pose p2 = test::makePose(p1.position + offset, q2);
        PairWarmStart wrong;
        wrong.normal = k % 3 == 0 ? Vec3::Zero() : test::randomUnit(rng); // a stale or empty warm start
        const PairWarmStart* warmStarts[] = {nullptr, &wrong};
        for (const PairWarmStart* warm : warmStarts) {
            const ContactResult r = detectPairContact(s1, p1, s2, p2, warm);
            ASSERT_TRUE(finiteResult(r)) << k;
            if (aligned || offset.squaredNorm() == 0.0) {
                ++total;
                contacts += r.contact;
            }
        }
    }
    // Aligned faces pressed together and coincident centres overlap (a
    // random direction may pass between the flanks of two diamonds).
    EXPECT_EQ(contacts, total);
}

TEST(TrapSafety, WallContactsSunkThroughAndFarAbove) {
    std::mt19937 rng(23);
    std::uniform_real_distribution<double> height(-3.0, 3.0), far(10.0, 1e6);
    const WallPlane floor;
    WallPolygon square;
    square.vertices = {Vec3(-0.01, -0.01, 0), Vec3(0.01, -0.01, 0), Vec3(0.01, 0.01, 0), Vec3(-0.01, 0.01, 0)};
    long sunkContacts = 0, sunk = 0;
    for (int k = 0; k < 3000; ++k) {
        const Superellipsoid s = stressShape(rng);
        const double R = s.boundingRadius();
        const double z = (k % 5 == 0 ? far(rng) : height(rng)) * R;
        const Quat q = k % 4 == 0 ? Quat::Identity() : test::randomRotation(rng);
        const Pose pose = test::makePose(Vec3(0.002, -0.001, z), q);
        const Vec3 wrongNormal = test::randomUnit(rng);
        const ContactResult plane = detectWallContact(s, pose, floor, k % 2 == 0);
        const ContactResult polygon = detectPolygonWallContact(s, pose, square, k % 2 ? &wrongNormal : nullptr);
        ASSERT_TRUE(finiteResult(plane) && finiteResult(polygon)) << k << " z/R = " << z / R;
        if (z < -R) { // entirely below the floor
            ++sunk;
            sunkContacts += plane.contact && polygon.contact;
        }
    }
    EXPECT_GT(sunk, 0);
    EXPECT_EQ(sunkContacts, sunk);
}

} // namespace
} // namespace sef

namespace sef {
namespace {

TEST(GrazingFallback, UndecidedGjkReportsTheGrazingDepthNotAnArbitraryOverlap) {
    // Found by the stress campaign (mixed bed, seed 3): a diamond (eps 1.9)
    // and a 5:1:1 block (eps 0.1) touching to within 1e-12 m. GJK could
    // decide neither way (grazing); the fallback then took the overlap along
    // a default direction, 1.8e-4 m = 8.5 % of d_eq, and overlap removal shoved
    // the pair apart. The reference is the minimum of the overlap over all
    // normals (dense sampling and compass search): -2e-12 m.
    const Superellipsoid diamond(0.002, 0.0015, 0.001, 1.9, 1.9), rod(0.0025, 0.0005, 0.0005, 0.1, 0.1);
    const Pose p1 = test::makePose(Vec3(0.019961946371855489, 0.0023641707532436993, 0.00091509759331741508),
                                   Quat(-0.16438330292426023, -0.54330755399436004, 0.81082502619289443,
                                        -0.14268079195066369));
    const Pose p2 = test::makePose(Vec3(0.021571744921274505, 0.0032439232149843802, 0.001187425870706302),
                                   Quat(-0.65882883861670283, 0.063365474635297056, -0.14156398895052955,
                                        -0.73613111268552189));
    for (const bool forceFallback : {false, true}) {
        PairContactOptions o;
        o.forceFallback = forceFallback;
        const ContactResult r = detectPairContact(diamond, p1, rod, p2, nullptr, o);
        EXPECT_LT(std::fabs(r.depth), 1e-9) << "force fallback " << forceFallback; // 2e-6 of the rod's width
        EXPECT_GT(r.normal.dot(Vec3(0.698735, 0.283905, 0.656634)), 0.9999);
    }
}

} // namespace
} // namespace sef
