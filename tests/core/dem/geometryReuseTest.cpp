// Reuse of narrow-phase answers (dem/engine/PairGeometryReuse.hpp): the reused depth
// against the exact query after small relative motions, the tolerance gates,
// and the flat-patch flag.
#include "../contact/ContactTestSupport.hpp"
#include "contact/PairContact.hpp"
#include "DemTestSupport.hpp"
#include "contact/CommonNormalNewton.hpp"
#include "contact/ContactPatch.hpp"
#include "dem/engine/PairGeometryReuse.hpp"
#include "dem/walls/WallFaceContact.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

namespace sef::dem {
namespace {

PairPose posed(const Vec3& x, const Quat& q) { return PairPose{x, q.toRotationMatrix(), q}; }

Quat rotationBy(const Vec3& axis, double angle) {
    return Quat(Eigen::AngleAxisd(angle, axis.normalized()));
}

// Random shapes of the pair tests: half-axes 1-4 mm, eps from smallestEps
// to 1.8 (the contact tests' helper).
Superellipsoid randomShape(std::mt19937& rng, double smallestEps) {
    return sef::test::randomShape(rng, 0.004, smallestEps, 1.8);
}

// The narrow phase without its bounding-volume rejection: the exact
// answer the reuse tests compare with.
PairContactOptions exactQueries() {
    PairContactOptions o;
    o.boundingVolumeRejection = false;
    return o;
}

// Ellipsoid pairs in shallow contact, then moved by a relative translation
// delta (fraction of r_min) or rotated by theta: the reused depth is the
// overlap along the stored normal with the stored points. Pure translation:
// the stored points ARE the supports along n, so the reused depth is the
// separating-axis overlap along n, an upper bound of the exact depth whose
// excess is second order, O(r (delta/r)^2). Rotation: O(R theta^2) either way.
TEST(GeometryReuse, PairDepthMatchesExactQueryToSecondOrder) {
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    const Superellipsoid A(0.004, 0.002, 0.0015, 1.0, 1.0), B(0.003, 0.003, 0.0015, 0.8, 1.0);
    const double rMin = std::min(A.boundingRadius(), B.boundingRadius());
    double worstTranslation = 0, worstRotation = 0;
    int tested = 0;
    for (int k = 0; k < 200; ++k) {
        const Quat qA = Quat(unit(rng), unit(rng), unit(rng), unit(rng)).normalized();
        const Quat qB = Quat(unit(rng), unit(rng), unit(rng), unit(rng)).normalized();
        const Vec3 dir = Vec3(unit(rng), unit(rng), unit(rng)).normalized();
        // B approaches A along dir until the depth is ~1e-3 r_min (bisection)
        const Vec3 xA = Vec3::Zero();
        double lo = 0.0, hi = 2.0 * (A.boundingRadius() + B.boundingRadius());
        for (int it = 0; it < 60; ++it) {
            const double mid = 0.5 * (lo + hi);
            const ContactResult c = detectPairContact(A, Pose{xA, qA}, B, Pose{xA + mid * dir, qB});
            (c.contact && c.depth > 1e-3 * rMin ? lo : hi) = mid;
        }
        const Vec3 xB = xA + lo * dir;
        const ContactResult exact0 = detectPairContact(A, Pose{xA, qA}, B, Pose{xB, qB});
        if (!exact0.contact || exact0.status == ContactStatus::fallback) continue;
        WarmStartEntry e;
        storePairReference(e, posed(xA, qA), posed(xB, qB), exact0);
        ASSERT_FALSE(e.flatReference); // smooth shapes: no patch

        const double delta = 1e-5;
        const Vec3 shift = delta * rMin * Vec3(unit(rng), unit(rng), unit(rng)).normalized();
        ContactResult reused;
        ASSERT_TRUE(reusePairReference(e, posed(xA, qA), posed(xB + shift, qB), 2e-5, 2e-5, rMin, reused));
        const ContactResult exact1 = detectPairContact(A, Pose{xA, qA}, B, Pose{xB + shift, qB});
        // upper bound up to round-off of the exact solve (1e-12 of the size)
        EXPECT_GE(reused.depth, exact1.depth - 1e-12 * rMin);
        worstTranslation = std::max(worstTranslation, (reused.depth - exact1.depth) / rMin);

        const double theta = 1e-5;
        const Quat qB2 = rotationBy(Vec3(unit(rng), unit(rng), unit(rng)), theta) * qB;
        ASSERT_TRUE(reusePairReference(e, posed(xA, qA), posed(xB, qB2), 2e-5, 2e-5, rMin, reused));
        const ContactResult exact2 = detectPairContact(A, Pose{xA, qA}, B, Pose{xB, qB2});
        worstRotation = std::max(worstRotation, std::abs(reused.depth - exact2.depth) / rMin);
        // beyond the tolerance: no reuse
        EXPECT_FALSE(reusePairReference(e, posed(xA, qA), posed(xB + 3.0 * shift, qB), 2e-5, 2e-5, rMin, reused));
        EXPECT_FALSE(reusePairReference(e, posed(xA, qA), posed(xB, rotationBy(Vec3::UnitX(), 3e-5) * qB),
                                        2e-5, 2e-5, rMin, reused));
        ++tested;
    }
    ASSERT_GT(tested, 150);
    std::cout << "[ reuse    ] pair depth excess (translation 1e-5 r): " << worstTranslation
              << " r; |error| (rotation 1e-5 rad): " << worstRotation << " r\n";
    // second order: (1e-5)^2 = 1e-10 r times a curvature ratio of order one
    // (aspect ratios up to 2.7; measured 0.8e-10 and 1.2e-10); first order
    // would be 1e-5
    EXPECT_LT(worstTranslation, 1e-9);
    EXPECT_LT(worstRotation, 1e-9);
}

// A particle on a floor face: the reused depth against the face plane after
// a small translation is exact (the plane is flat; a vertical shift changes
// the depth by exactly the shift), after a rotation theta it errs by
// O(R theta^2); edge answers are never reused.
TEST(GeometryReuse, WallFaceDepthMatchesExactQuery) {
    const WallSet walls(test::boxWalls(Vec3::Zero(), Vec3(0.1, 0.1, 0.1)));
    int floor = -1;
    for (std::size_t f = 0; f < walls.size(); ++f)
        if (walls.face(f).outwardNormal.z() < -0.5) floor = static_cast<int>(f);
    ASSERT_GE(floor, 0);
    const Superellipsoid shape(0.004, 0.002, 0.0015, 1.0, 1.0);
    const Quat q = rotationBy(Vec3(1, 2, 3), 0.7);
    const double h = shape.supportValue(q.conjugate() * Vec3(0, 0, -1));
    const Vec3 x(0.05, 0.05, h - 1e-7);
    const ContactResult exact0 = detectFaceContact(shape, Pose{x, q}, walls, floor, nullptr);
    ASSERT_TRUE(exact0.contact);
    ASSERT_EQ(exact0.feature, WallFeature::face);
    WarmStartEntry e;
    storeWallReference(e, posed(x, q), exact0);
    ASSERT_TRUE(e.hasReference);
    const double r = shape.boundingRadius();

    const Vec3 shift(3e-9, -2e-9, -4e-9); // |shift| ~ 1e-6 r
    ContactResult reused;
    ASSERT_TRUE(reuseWallReference(e, posed(x + shift, q), 1e-5, 1e-5, r, reused));
    const ContactResult exact1 = detectFaceContact(shape, Pose{x + shift, q}, walls, floor, nullptr);
    EXPECT_NEAR(reused.depth, exact1.depth, 1e-15);
    EXPECT_NEAR(reused.depth, exact0.depth + 4e-9, 1e-15);
    EXPECT_TRUE(reused.normal.isApprox(exact1.normal, 1e-15));

    const double theta = 5e-6;
    const Quat q2 = rotationBy(Vec3(0.3, -1, 0.2), theta) * q;
    ASSERT_TRUE(reuseWallReference(e, posed(x, q2), 1e-5, 1e-5, r, reused));
    const ContactResult exact2 = detectFaceContact(shape, Pose{x, q2}, walls, floor, nullptr);
    // the stored point stays on the surface: its depth is below the exact
    // (deepest) one by O(R theta^2) = 1e-13 m here
    EXPECT_LE(reused.depth, exact2.depth + 1e-16);
    EXPECT_GT(reused.depth, exact2.depth - 10.0 * r * theta * theta);
    EXPECT_FALSE(reuseWallReference(e, posed(x + Vec3(0, 0, 2e-5 * r), q), 1e-5, 1e-5, r, reused));

    // an answer on an edge is not stored as a reference
    WarmStartEntry edge;
    ContactResult onEdge = exact0;
    onEdge.feature = WallFeature::edge;
    storeWallReference(edge, posed(x, q), onEdge);
    EXPECT_FALSE(edge.hasReference);
    EXPECT_FALSE(reuseWallReference(edge, posed(x, q), 1e-5, 1e-5, r, reused));
}

// Blocky pair face to face: the exact answer sits on the flat patch centre
// and is flagged flat, so the looser flat tolerance applies; the reused
// depth after a rotation theta errs by at most theta times the patch
// half-width.
TEST(GeometryReuse, FlatPatchAnswersUseTheFlatTolerance) {
    const Superellipsoid cube(0.005, 0.005, 0.005, 0.2, 0.2);
    const Quat qA = Quat::Identity(), qB = rotationBy(Vec3::UnitZ(), 0.3);
    const Vec3 xA = Vec3::Zero(), xB(0.0007, -0.0004, 0.01 - 2e-6);
    const ContactResult exact0 = detectPairContact(cube, Pose{xA, qA}, cube, Pose{xB, qB});
    ASSERT_TRUE(exact0.contact);
    ASSERT_TRUE(exact0.onFlatPatch);
    WarmStartEntry e;
    storePairReference(e, posed(xA, qA), posed(xB, qB), exact0);
    ASSERT_TRUE(e.flatReference);
    const double r = cube.boundingRadius(), theta = 5e-5;
    const Quat qB2 = rotationBy(Vec3(1, 0.5, 0), theta) * qB;
    ContactResult reused;
    // beyond the curved tolerance, within the flat one
    ASSERT_TRUE(reusePairReference(e, posed(xA, qA), posed(xB, qB2), 1e-5, 1e-4, r, reused));
    EXPECT_FALSE(reusePairReference(e, posed(xA, qA), posed(xB, qB2), 1e-5, 1e-5, r, reused));
    ASSERT_TRUE(reusePairReference(e, posed(xA, qA), posed(xB, qB2), 1e-5, 1e-4, r, reused));
    const ContactResult exact1 = detectPairContact(cube, Pose{xA, qA}, cube, Pose{xB, qB2});
    EXPECT_NEAR(reused.depth, exact1.depth, theta * 0.005);
    EXPECT_TRUE(reused.onFlatPatch);
}

// Face-on-face blocks: the overlap's minimum over normals sits on a face
// normal (a kink of the overlap function). After either body turns by a
// few substeps' rotation, the stored normal turned with the body whose face
// holds the minimum starts the warm solve on it. From the stale world
// normal the solve can stop on the flat face short of the minimum (the
// depth is an upper bound of min f, so the smaller answer is the better):
// measured here, 7-10 % too deep when the face holding the minimum turned.
// The turned start is never worse, in depth or iterations, and agrees with
// a cold query.
TEST(GeometryReuse, FlatPatchWarmNormalFollowsTheFace) {
    const Superellipsoid big(0.006, 0.006, 0.005, 0.2, 0.2), small(0.004, 0.004, 0.004, 0.25, 0.25);
    const Vec3 xA = Vec3::Zero(), xB(0.0004, -0.0003, 0.009 - 3e-6);
    for (int turnA = 0; turnA < 2; ++turnA)
        for (const Vec3& axis : {Vec3(1, 0.3, 0), Vec3(-0.2, 1, 0.1), Vec3(0.7, -0.7, 0.2)}) {
            const Quat qA = rotationBy(Vec3(0, 0, 1), 0.2), qB = rotationBy(Vec3(0, 0, 1), 0.9);
            const ContactResult exact0 = detectPairContact(big, Pose{xA, qA}, small, Pose{xB, qB});
            ASSERT_TRUE(exact0.contact && exact0.onFlatPatch);
            WarmStartEntry e;
            storePairReference(e, posed(xA, qA), posed(xB, qB), exact0);
            const Quat turn = rotationBy(axis, 2e-4);
            const Quat qA2 = turnA ? turn * qA : qA, qB2 = turnA ? qB : turn * qB;
            const Pose pA{xA, qA2}, pB{xB, qB2};
            const Vec3 n = flatPatchWarmNormal(e, PosedBody(big, pA), PosedBody(small, pB));
            PairWarmStart turned{n}, stale{exact0.normal};
            const ContactResult a = detectPairContact(big, pA, small, pB, &turned);
            const ContactResult b = detectPairContact(big, pA, small, pB, &stale);
            const ContactResult cold = detectPairContact(big, pA, small, pB);
            ASSERT_TRUE(a.contact);
            EXPECT_LE(a.depth, b.depth * (1.0 + 1e-9)) << turnA;
            EXPECT_LE(a.iterations, b.iterations) << turnA;
            EXPECT_NEAR(a.depth, cold.depth, 1e-3 * cold.depth) << turnA;
            // With face charts the stale start reaches the same
            // minimum too; the angle iteration alone stopped short where A's
            // face turned (3 of these 6 cases, 7-10 % too deep).
            EXPECT_NEAR(b.depth, cold.depth, 1e-3 * cold.depth) << turnA;
        }
}

// Pairs apart by their boxes: the stored gap is a certificate. Random
// shapes, poses and motions of B (in A's frame, some far beyond the gap):
// whenever pairStillSeparated says "apart", the exact query (no bounding
// volumes) finds no contact, and, as the bound is at half the gap, the exact
// distance is at least half of it. Small motions are recognised (the test
// is not vacuous) and large ones are not.
TEST(GeometryReuse, SeparatedPairsStayApartWhileTheBoundSaysSo) {
    std::mt19937 rng(23);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    const PairContactOptions exactOnly = exactQueries();
    int certified = 0, refused = 0, pairs = 0;
    for (int k = 0; k < 400; ++k) {
        const Superellipsoid A = randomShape(rng, 0.3), B = randomShape(rng, 0.3);
        const Quat qA = sef::test::randomRotation(rng), qB = sef::test::randomRotation(rng);
        const Vec3 xA(unit(rng), unit(rng), unit(rng));
        const double reach = A.boundingRadius() + B.boundingRadius();
        const Vec3 xB = xA + 0.9 * reach * Vec3(unit(rng), unit(rng), unit(rng)).normalized();
        const ContactResult first = detectPairContact(A, Pose{xA, qA}, B, Pose{xB, qB});
        if (first.status != ContactStatus::orientedBox) continue; // spheres overlap, boxes apart
        ++pairs;
        WarmStartEntry e;
        storeSeparatedPair(e, posed(xA, qA), posed(xB, qB), -first.depth);
        ASSERT_GT(e.separation, 0.0);
        for (int m = 0; m < 20; ++m) {
            const double size = e.separation * std::pow(10.0, -2.0 + 3.0 * (m % 10) / 9.0); // 1e-2 .. 10 gaps
            const Vec3 move = size * Vec3(unit(rng), unit(rng), unit(rng)).normalized();
            const Quat turn = rotationBy(Vec3(unit(rng), unit(rng), unit(rng)), size / B.boundingRadius());
            // B moved and turned, A turned about its centre (B's pose in A's frame changes too)
            const Quat qA2 = m % 2 ? rotationBy(Vec3(unit(rng), unit(rng), unit(rng)), 0.3 * size / reach) * qA : qA;
            const Quat qB2 = turn * qB;
            const Vec3 xB2 = xB + move;
            if (pairStillSeparated(e, posed(xA, qA2), posed(xB2, qB2), B.boundingRadius())) {
                ++certified;
                const ContactResult exact = detectPairContact(A, Pose{xA, qA2}, B, Pose{xB2, qB2}, nullptr, exactOnly);
                ASSERT_FALSE(exact.contact) << "pair " << k << " move " << m;
                ASSERT_LT(exact.depth, -0.5 * e.separation * (1.0 - 1e-6)) << "pair " << k << " move " << m;
            } else {
                ++refused;
            }
        }
    }
    EXPECT_GT(pairs, 50);
    EXPECT_GT(certified, 10 * pairs / 2); // the small half of the motions
    EXPECT_GT(refused, 2 * pairs);         // motions of several gaps
}

// Pairs just apart (gaps from 1e-7 to 1e-2 of r_min) at the reference, then
// moved within the reuse tolerance: the reused answer says "no contact"
// exactly when the exact query does (a gap above the reach of the
// tolerance is answered without evaluating the depth; below it the depth is
// evaluated and may turn positive only by the reuse error).
TEST(GeometryReuse, ApartPairsStayApartWithinTheTolerance) {
    std::mt19937 rng(31);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    const Superellipsoid A(0.004, 0.002, 0.0015, 0.7, 1.2), B(0.003, 0.0025, 0.0015, 1.0, 0.8);
    const double rMin = std::min(A.boundingRadius(), B.boundingRadius()), tolerance = 1e-5;
    const PairContactOptions exactOnly = exactQueries();
    int answered = 0;
    for (int k = 0; k < 200; ++k) {
        const Quat qA = Quat(unit(rng), unit(rng), unit(rng), unit(rng)).normalized();
        const Quat qB = Quat(unit(rng), unit(rng), unit(rng), unit(rng)).normalized();
        const Vec3 dir = Vec3(unit(rng), unit(rng), unit(rng)).normalized();
        const double gap = rMin * std::pow(10.0, -7.0 + 5.0 * (k % 6) / 5.0);
        // B backs off along dir until the exact depth is -gap (bisection)
        double lo = 0.0, hi = 2.0 * (A.boundingRadius() + B.boundingRadius());
        for (int it = 0; it < 80; ++it) {
            const double mid = 0.5 * (lo + hi);
            const ContactResult c =
                detectPairContact(A, Pose{Vec3::Zero(), qA}, B, Pose{mid * dir, qB}, nullptr, exactOnly);
            (c.depth < -gap ? hi : lo) = mid;
        }
        const Vec3 xB = hi * dir;
        const ContactResult exact0 =
            detectPairContact(A, Pose{Vec3::Zero(), qA}, B, Pose{xB, qB}, nullptr, exactOnly);
        if (exact0.status != ContactStatus::newton || exact0.contact) continue;
        WarmStartEntry e;
        e.normal = exact0.normal;
        storePairReference(e, posed(Vec3::Zero(), qA), posed(xB, qB), exact0);
        for (int m = 0; m < 10; ++m) {
            const Vec3 xB1 = xB + 0.9 * tolerance * rMin * Vec3(unit(rng), unit(rng), unit(rng)).normalized();
            const Quat qB1 = rotationBy(Vec3(unit(rng), unit(rng), unit(rng)), 0.9 * tolerance) * qB;
            ContactResult reused;
            ASSERT_TRUE(reusePairReference(e, posed(Vec3::Zero(), qA), posed(xB1, qB1), tolerance, tolerance,
                                           rMin, reused));
            const ContactResult exact1 =
                detectPairContact(A, Pose{Vec3::Zero(), qA}, B, Pose{xB1, qB1}, nullptr, exactOnly);
            if (gap > 1e-4 * rMin) { // far beyond what the tolerance can close
                ASSERT_FALSE(reused.contact) << "pair " << k;
                ASSERT_FALSE(exact1.contact) << "pair " << k;
            }
            // the reused depth (or the bound standing for it) within the reuse error of the exact one
            if (!reused.contact) ++answered;
            EXPECT_NEAR(reused.depth, exact1.depth, 4.0 * tolerance * A.boundingRadius()) << "pair " << k;
        }
    }
    EXPECT_GT(answered, 1000);
}


// Pairs apart at an exact answer, then moved step by step (B moved and
// turned, A turned): whenever the motion bound (apartWithinMotionBound)
// says "apart", separatedAlongReference says so too (the overlap along the
// reference normal is below -margin) and the exact query finds no contact;
// where separatedAlongReference answers, the reference is moved to now
// (refreshApartReference) and then reproduces that answer: reused at the
// same pose it is the same overlap, and the motion bound starts from it.
TEST(GeometryReuse, MotionBoundAgreesWithTheSeparatingAxis) {
    std::mt19937 rng(41);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    const PairContactOptions exactOnly = exactQueries();
    int bounded = 0, refreshed = 0, pairs = 0;
    for (int k = 0; k < 300; ++k) {
        const Superellipsoid A = randomShape(rng, 0.2), B = randomShape(rng, 0.2);
        Quat qA = sef::test::randomRotation(rng), qB = sef::test::randomRotation(rng);
        const Vec3 xA(unit(rng), unit(rng), unit(rng));
        const double reach = A.boundingRadius() + B.boundingRadius();
        Vec3 xB = xA + 0.8 * reach * Vec3(unit(rng), unit(rng), unit(rng)).normalized();
        const ContactResult first = detectPairContact(A, Pose{xA, qA}, B, Pose{xB, qB}, nullptr, exactOnly);
        if (first.status != ContactStatus::newton || first.contact) continue;
        ++pairs;
        WarmStartEntry e;
        e.normal = first.normal;
        storePairReference(e, posed(xA, qA), posed(xB, qB), first);
        const double margin = 1e-2 * std::min(A.boundingRadius(), B.boundingRadius());
        for (int m = 0; m < 30; ++m) {
            const double size = -first.depth * std::pow(10.0, -3.0 + 3.0 * (m % 6) / 5.0); // 1e-3 .. 1 gaps
            xB += size * Vec3(unit(rng), unit(rng), unit(rng)).normalized();
            qB = rotationBy(Vec3(unit(rng), unit(rng), unit(rng)), size / B.boundingRadius()) * qB;
            qA = rotationBy(Vec3(unit(rng), unit(rng), unit(rng)), 0.3 * size / reach) * qA;
            const PosedBody bodyA(A, Pose{xA, qA}), bodyB(B, Pose{xB, qB});
            ContactResult along;
            const bool separated = separatedAlongReference(e, bodyA, bodyB, margin, along);
            if (apartWithinMotionBound(e, posed(xA, qA), posed(xB, qB), B.boundingRadius(), margin)) {
                ++bounded;
                ASSERT_TRUE(separated) << "pair " << k << " move " << m;
                const ContactResult exact = detectPairContact(A, Pose{xA, qA}, B, Pose{xB, qB}, nullptr, exactOnly);
                ASSERT_FALSE(exact.contact) << "pair " << k << " move " << m;
                continue;
            }
            if (!separated) break; // the exact query's turn: a new reference
            ++refreshed;
            refreshApartReference(e, posed(xA, qA), posed(xB, qB), along);
            ContactResult reused;
            ASSERT_TRUE(reusePairReference(e, posed(xA, qA), posed(xB, qB), 1e-5, 1e-4,
                                           std::min(A.boundingRadius(), B.boundingRadius()), reused));
            EXPECT_FALSE(reused.contact);
            EXPECT_NEAR(reused.depth, along.depth, 1e-12 * reach) << "pair " << k << " move " << m;
            EXPECT_TRUE(apartWithinMotionBound(e, posed(xA, qA), posed(xB, qB), B.boundingRadius(), margin));
        }
    }
    EXPECT_GT(pairs, 100);
    EXPECT_GT(bounded, 5 * pairs);   // small motions pass the bound
    EXPECT_GT(refreshed, pairs);     // larger ones need the support calls
}

// Flat-patch answers under a relative translation of up to 1e-3 of the
// smaller bounding radius (flatContactReuseTranslation), no rotation:
// face-on-face, edge-on-face and corner-on-face blocks (eps 0.2 to 0.5). A
// translation leaves both support points along the stored normal where
// they were in their body frames, and a flat contact's minimum of the
// overlap on the face normal, so the reused depth is the exact query's (to
// the Newton tolerance); the stored patch points lag by at most the
// translation (plus the outline's own search tolerance). The rotation
// tolerance stays as it was: a turn beyond it is not reused.
TEST(GeometryReuse, FlatPatchAnswersFollowTranslations) {
    std::mt19937 rng(53);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    int checked = 0;
    double worstDepth = 0.0, worstPoint = 0.0;
    for (const double eps : {0.2, 0.25, 0.4, 0.5}) {
        const Superellipsoid A(0.005, 0.004, 0.003, eps, eps), B(0.004, 0.004, 0.0035, eps, eps);
        const double rMin = std::min(A.boundingRadius(), B.boundingRadius());
        const double L = std::min(A.halfAxes().minCoeff(), B.halfAxes().minCoeff());
        for (int k = 0; k < 60; ++k) {
            // B above A's top face: aligned (face on face), turned about one
            // horizontal axis (edge on face) or two (corner on face)
            Quat qB = rotationBy(Vec3::UnitZ(), unit(rng));
            if (k % 3 >= 1) qB = rotationBy(Vec3::UnitX(), 0.5 + 0.3 * unit(rng)) * qB;
            if (k % 3 == 2) qB = rotationBy(Vec3::UnitY(), 0.5 + 0.3 * unit(rng)) * qB;
            const Quat qA = Quat::Identity();
            // height from B's lowest point, 2e-4 L of overlap
            const Vec3 pLow = PosedBody(B, Pose{Vec3::Zero(), qB}).support(-Vec3::UnitZ());
            const Vec3 xB(0.002 * unit(rng), 0.002 * unit(rng), A.c() - pLow.z() - 2e-4 * L);
            const ContactResult exact0 = detectPairContact(A, Pose{Vec3::Zero(), qA}, B, Pose{xB, qB});
            if (!exact0.contact || !exact0.onFlatPatch) continue;
            WarmStartEntry e;
            storePairReference(e, posed(Vec3::Zero(), qA), posed(xB, qB), exact0);
            ASSERT_TRUE(e.flatReference);
            for (int m = 0; m < 4; ++m) {
                // across the normal (in the contact plane) up to the flat
                // translation tolerance, along it within the flat tolerance
                const Vec3 n = exact0.normal;
                Vec3 across(unit(rng), unit(rng), unit(rng));
                across -= n.dot(across) * n;
                across *= 0.99e-3 * rMin / across.norm();
                const Vec3 move = across + std::min(0.99e-4 * rMin, 0.5 * exact0.depth) * unit(rng) * n;
                ContactResult reused, refused;
                ASSERT_TRUE(reusePairReference(e, posed(Vec3::Zero(), qA), posed(xB + move, qB), 1e-5, 1e-4,
                                               rMin, reused, 1e-3));
                // not beyond either, nor with the flat tolerance for both
                EXPECT_FALSE(reusePairReference(e, posed(Vec3::Zero(), qA), posed(xB + 1.02 * across, qB),
                                                1e-5, 1e-4, rMin, refused, 1e-3));
                EXPECT_FALSE(reusePairReference(e, posed(Vec3::Zero(), qA), posed(xB + 1.02e-4 * rMin * n, qB),
                                                1e-5, 1e-4, rMin, refused, 1e-3));
                EXPECT_FALSE(reusePairReference(e, posed(Vec3::Zero(), qA), posed(xB + move, qB), 1e-5, 1e-4,
                                                rMin, refused));
                const ContactResult exact1 =
                    detectPairContact(A, Pose{Vec3::Zero(), qA}, B, Pose{xB + move, qB});
                ASSERT_TRUE(exact1.contact);
                ++checked;
                worstDepth = std::max(worstDepth, std::fabs(reused.depth - exact1.depth) / L);
                EXPECT_NEAR(reused.depth, exact1.depth, 1e-7 * L) << "eps " << eps << " pair " << k;
                // The patch points: across the normal alone (a move along it
                // changes the depth and the patch with it, within the flat
                // tolerance as before) they lag by the move at most, plus
                // the search tolerance of both outlines (kLateralTolerance:
                // 2e-3 of the cap's reach, both answers).
                ContactResult reusedAcross;
                ASSERT_TRUE(reusePairReference(e, posed(Vec3::Zero(), qA), posed(xB + across, qB), 1e-5, 1e-4,
                                               rMin, reusedAcross, 1e-3));
                const ContactResult exactAcross =
                    detectPairContact(A, Pose{Vec3::Zero(), qA}, B, Pose{xB + across, qB});
                ASSERT_TRUE(exactAcross.contact);
                EXPECT_NEAR(reusedAcross.depth, exactAcross.depth, 1e-7 * L) << "eps " << eps << " pair " << k;
                const Vec3 offset = reusedAcross.point - exactAcross.point;
                const Vec3 lateral = offset - exactAcross.normal.dot(offset) * exactAcross.normal;
                worstPoint = std::max(worstPoint, lateral.norm() / (across.norm() + 4e-3 * L));
            }
        }
    }
    std::printf("flat translation reuse: %d checked, worst depth error %.3g L, worst lateral point "
                "offset %.3g (move across + 4e-3 L)\n", checked, worstDepth, worstPoint);
    EXPECT_GT(checked, 400);
    EXPECT_LT(worstPoint, 1.0);
}


// Blocks face on face (B turned about the normal, tilted by up to 2e-3 rad,
// offset laterally), then B slid across the normal (up to 3e-2 r_min) and
// spun about it (up to 3e-2 rad; the slide tolerance is 3e-2 here). Each
// cap is the same part of its body, so the kept outlines moved with their
// bodies and intersected again (reuseKeptPatch) are the patch of the two
// bodies now along the reference's normal (pairPatch there):
//  - slid only, that patch's searches, started from the reference's
//    guesses, run along the same directions in each body and end within
//    their tolerance of the same body points (a drop within 5 %: ~0.5 % of
//    a cap's reach on a face, more on the sliver of an inclined one): the
//    points agree within 1e-2 L, the rim points within 3e-2 L (as many, bar
//    one at its threshold), while the reference's points moved with A (what
//    the flat gate reuses) lag by the slide (up to 5e-2 L here);
//  - spun too, a fresh (cold) outline of B's cap has its vertices in other
//    directions of the same cap: both are inscribed octagons of it, whose
//    patch points agree within 3e-2 L.
// The depth is the overlap along that normal; a move along it (within the
// flat tolerance) keeps it the exact query's. Beyond the slide, spin or
// tilt bounds the reuse refuses.
TEST(GeometryReuse, KeptPatchFollowsSlidesAndSpins) {
    std::mt19937 rng(71);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    const double slideTolerance = 3e-2;
    int checked = 0, declined = 0, withRims = 0, sameRimsSlid = 0, sameRims = 0;
    double worstDepth = 0.0, worstSlid = 0.0, worstSpun = 0.0, stalePoint = 0.0;
    for (const double eps : {0.2, 0.25, 0.4, 0.5}) {
        const Superellipsoid A(0.005, 0.004, 0.003, eps, eps), B(0.004, 0.004, 0.0035, eps, eps);
        const double rMin = std::min(A.boundingRadius(), B.boundingRadius());
        const double L = std::min(A.halfAxes().minCoeff(), B.halfAxes().minCoeff());
        const Pose pA{Vec3::Zero(), Quat::Identity()};
        const PosedBody bodyA(A, pA);
        for (int k = 0; k < 50; ++k) {
            const Quat qB = rotationBy(Vec3(unit(rng), unit(rng), 0.0), 2e-3 * std::fabs(unit(rng))) *
                            rotationBy(Vec3::UnitZ(), unit(rng));
            const Vec3 pLow = PosedBody(B, Pose{Vec3::Zero(), qB}).support(-Vec3::UnitZ());
            const Vec3 xB(0.002 * unit(rng), 0.002 * unit(rng), A.c() - pLow.z() - 2e-4 * L);
            PatchGuess guess;
            KeptPatch kept;
            PairWarmStart warm{Vec3::Zero(), &guess, &kept};
            const ContactResult exact0 = detectPairContact(A, pA, B, Pose{xB, qB}, &warm);
            if (!exact0.contact || !exact0.onFlatPatch || !kept.valid) continue;
            WarmStartEntry e;
            storePairReference(e, posed(pA.position, pA.orientation), posed(xB, qB), exact0);
            const Vec3 n = exact0.normal;
            Vec3 across(unit(rng), unit(rng), unit(rng));
            across -= n.dot(across) * n;
            across *= 0.99 * slideTolerance * rMin * std::fabs(unit(rng)) / across.norm();
            const auto reuse = [&](const Vec3& x, const Quat& q, ContactResult& r) {
                return reuseKeptPatch(e, kept, posed(pA.position, pA.orientation), posed(x, q), bodyA,
                                      PosedBody(B, Pose{x, q}), 1e-4, slideTolerance, rMin, r);
            };
            // the patch now along the reference's normal, and its point
            const auto alongReference = [&](const Vec3& x, const Quat& q, PatchGuess* g, Vec3& midpoint,
                                            double& depth) {
                const PosedBody bodyB(B, Pose{x, q});
                Vec3 p1, p2;
                depth = overlapAlong(bodyA, bodyB, n, p1, p2);
                midpoint = 0.5 * (p1 + p2);
                return pairPatch(bodyA, bodyB, n, p1, p2, g);
            };
            ContactResult slid, refused;
            if (!reuse(xB + across, qB, slid)) { // where only bounds were kept and a rim is possible now
                ++declined;
                continue;
            }
            PatchGuess lastGuess = guess;
            Vec3 midpoint;
            double depth;
            const PatchPoints fresh = alongReference(xB + across, qB, &lastGuess, midpoint, depth);
            ASSERT_TRUE(fresh.found);
            ++checked;
            worstDepth = std::max(worstDepth, std::fabs(slid.depth - depth) / L);
            EXPECT_NEAR(slid.depth, depth, 1e-9 * L) << "eps " << eps << " pair " << k;
            const double slidPoint = (slid.point - midpoint - fresh.centroid).norm() / L;
            worstSlid = std::max(worstSlid, slidPoint);
            EXPECT_LT(slidPoint, 1e-2) << "eps " << eps << " pair " << k;
            withRims += fresh.rimCount > 0;
            if (slid.rimCount == fresh.rimCount) { // (else a rim point at its threshold)
                ++sameRimsSlid;
                for (int m = 0; m < slid.rimCount; ++m)
                    EXPECT_LT((slid.rim[m] - midpoint - fresh.rim[m]).norm(), 3e-2 * L) << "eps " << eps << " pair " << k;
            }
            ContactResult stale;
            ASSERT_TRUE(reusePairReference(e, posed(pA.position, pA.orientation), posed(xB + across, qB), 1.0, 1.0,
                                           rMin, stale)); // (the flat gate made to accept the move)
            stalePoint = std::max(stalePoint, (stale.point - midpoint - fresh.centroid).norm() / L);
            // slid and spun: the cold outline of the same caps
            const Quat qB2 = rotationBy(n, 0.99 * slideTolerance * unit(rng)) * qB;
            ContactResult spun;
            if (!reuse(xB + across, qB2, spun)) {
                ++declined;
                continue;
            }
            const PatchPoints cold = alongReference(xB + across, qB2, nullptr, midpoint, depth);
            ASSERT_TRUE(cold.found);
            EXPECT_NEAR(spun.depth, depth, 1e-9 * L);
            const double spunPoint = (spun.point - midpoint - cold.centroid).norm() / L;
            worstSpun = std::max(worstSpun, spunPoint);
            EXPECT_LT(spunPoint, 3e-2) << "eps " << eps << " pair " << k;
            sameRims += spun.rimCount == cold.rimCount;
            // along the normal (within the flat tolerance): the exact query's depth
            const Vec3 xAlong = xB + std::min(0.99e-4 * rMin, 0.5 * exact0.depth) * unit(rng) * n;
            ContactResult along;
            if (reuse(xAlong, qB, along)) {
                EXPECT_NEAR(along.depth, detectPairContact(A, pA, B, Pose{xAlong, qB}).depth, 1e-7 * L);
            }
            // beyond the slide, the spin, the tilt
            EXPECT_FALSE(reuse(xB + 1.02 * slideTolerance * rMin * across.normalized(), qB, refused));
            EXPECT_FALSE(reuse(xB, rotationBy(n, 1.02 * slideTolerance) * qB, refused));
            EXPECT_FALSE(reuse(xB, rotationBy(n.unitOrthogonal(), 1.02e-4) * qB, refused));
        }
    }
    std::printf("kept patch reuse: %d checked, %d declined (%d with rims; as many rims: slid %d, spun %d), worst depth "
                "error %.3g L, point offset slid %.3g L, spun %.3g L; the reference's points: %.3g L\n",
                checked, declined, withRims, sameRimsSlid, sameRims, worstDepth, worstSlid, worstSpun, stalePoint);
    EXPECT_GT(checked, 100);
    EXPECT_LT(declined, checked / 10);
    EXPECT_GT(withRims, 20);
    EXPECT_GE(sameRimsSlid, checked - checked / 20);
    EXPECT_GE(sameRims, checked - checked / 10);
    EXPECT_GT(stalePoint, 3 * worstSlid); // the comparison can tell a lagging point
}


// The same for a block on a floor face whose edge cuts its patch (a lone
// square face: its edges are boundary edges, so they end the floor). The
// kept outlines of the particle's cap and zone, moved with it and cut by
// the edges again (reuseKeptWallPatch), give the face answer a fresh query
// gives (with the reference's search guesses): the same depth, the point
// within 1e-2 L and rim points within 3e-2 L (the searches' tolerance, as
// above), while the reference's points (reuseWallReference) lag by the
// slide. Beyond the bounds, or once the face no longer claims the deepest
// point, the reuse refuses.
TEST(GeometryReuse, KeptWallPatchFollowsSlidesAndSpins) {
    std::mt19937 rng(83);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    const double half = 0.006;
    const WallSet walls({WallFace{{Vec3(-half, -half, 0), Vec3(half, -half, 0), Vec3(half, half, 0), Vec3(-half, half, 0)},
                                  Vec3(0, 0, -1)}});
    const double slideTolerance = 3e-2;
    int checked = 0, declined = 0, cut = 0, sameRims = 0;
    double worstPoint = 0.0, worstRim = 0.0, stalePoint = 0.0;
    for (const double eps : {0.2, 0.3, 0.5}) {
        const Superellipsoid shape(0.005, 0.004, 0.003, eps, eps);
        const double r = shape.boundingRadius(), L = shape.halfAxes().minCoeff();
        for (int k = 0; k < 40; ++k) {
            const Quat q = rotationBy(Vec3(unit(rng), unit(rng), 0.0), 2e-3 * std::fabs(unit(rng))) *
                           rotationBy(Vec3::UnitZ(), 0.3 * unit(rng));
            const double h = shape.supportValue(q.conjugate() * Vec3(0, 0, -1));
            const Vec3 x(0.003 + 0.002 * unit(rng), 0.002 * unit(rng), h - 2e-4 * L);
            PatchGuess guess;
            KeptPatch kept;
            const ContactResult exact0 = detectFaceContact(shape, Pose{x, q}, walls, 0, nullptr, &guess, &kept);
            if (!exact0.contact || exact0.feature != WallFeature::face || !exact0.onFlatPatch || !kept.valid) continue;
            WarmStartEntry e;
            storeWallReference(e, posed(x, q), exact0);
            Vec3 across(unit(rng), unit(rng), 0.0);
            across *= 0.99 * slideTolerance * r * std::fabs(unit(rng)) / across.norm();
            const Quat q2 = rotationBy(Vec3::UnitZ(), 0.99 * slideTolerance * unit(rng)) * q;
            const Vec3 x2 = x + across;
            ContactResult reused, refused;
            if (!reuseKeptWallPatch(e, kept, posed(x2, q2), shape, walls, 0, 1e-4, slideTolerance, r, reused)) {
                ++declined; // (the face no longer claims the deepest point)
                continue;
            }
            PatchGuess lastGuess = guess;
            const ContactResult fresh = detectFaceContact(shape, Pose{x2, q2}, walls, 0, nullptr, &lastGuess);
            ASSERT_EQ(fresh.feature, WallFeature::face);
            ++checked;
            cut += x2.x() + shape.a() > half;
            EXPECT_NEAR(reused.depth, fresh.depth, 1e-12 * L) << "eps " << eps << " case " << k;
            EXPECT_TRUE(reused.normal.isApprox(fresh.normal, 1e-15));
            const double point = (reused.surfacePoint2 - fresh.surfacePoint2).norm() / L;
            worstPoint = std::max(worstPoint, point);
            EXPECT_LT(point, 1e-2) << "eps " << eps << " case " << k;
            ContactResult stale;
            ASSERT_TRUE(reuseWallReference(e, posed(x2, q2), 1.0, 1.0, r, stale)); // (made to accept)
            stalePoint = std::max(stalePoint, (stale.surfacePoint2 - fresh.surfacePoint2).norm() / L);
            if (reused.rimCount == fresh.rimCount) { // (else a rim point at its threshold)
                ++sameRims;
                for (int m = 0; m < reused.rimCount; ++m) {
                    const double rim = (reused.rim[m] - fresh.rim[m]).norm() / L;
                    worstRim = std::max(worstRim, rim);
                    EXPECT_LT(rim, 3e-2) << "eps " << eps << " case " << k;
                }
            }
            // beyond the slide, the spin, the tilt
            EXPECT_FALSE(reuseKeptWallPatch(e, kept, posed(x + 1.02 * slideTolerance * r * across.normalized(), q),
                                            shape, walls, 0, 1e-4, slideTolerance, r, refused));
            EXPECT_FALSE(reuseKeptWallPatch(e, kept, posed(x, rotationBy(Vec3::UnitZ(), 1.02 * slideTolerance) * q),
                                            shape, walls, 0, 1e-4, slideTolerance, r, refused));
            EXPECT_FALSE(reuseKeptWallPatch(e, kept, posed(x, rotationBy(Vec3::UnitX(), 1.02e-4) * q), shape, walls,
                                            0, 1e-4, slideTolerance, r, refused));
        }
    }
    std::printf("kept wall patch reuse: %d checked (%d cut by the edge), %d declined, %d with as many rims; "
                "worst point offset %.3g L, rim %.3g L; the reference's points: %.3g L\n",
                checked, cut, declined, sameRims, worstPoint, worstRim, stalePoint);
    EXPECT_GT(checked, 60);
    EXPECT_GT(cut, 20);
    EXPECT_GE(sameRims, checked - checked / 10);
    EXPECT_GT(stalePoint, 3 * worstPoint);
}

} // namespace
} // namespace sef::dem
