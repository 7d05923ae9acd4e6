// WallSet: validation, the grid index against brute force, inside test,
// outward crossings.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <string>

#include "DemTestSupport.hpp"
#include "dem/walls/WallSet.hpp"

using namespace sef;
using namespace sef::dem;

namespace {
std::vector<int> bruteForceNear(const WallSet& w, const Vec3& x, double r) {
    std::vector<int> out;
    for (std::size_t f = 0; f < w.size(); ++f)
        if ((w.closestPoint(f, x) - x).norm() <= r) out.push_back(static_cast<int>(f));
    return out;
}
} // namespace

TEST(WallSet, GridQueryEqualsBruteForceOnCylinderMesh) {
    const WallSet w(dem::test::cylinderWalls(0.0285, 0.4, 48));
    ASSERT_EQ(w.size(), 50u);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> ux(-0.04, 0.04), uz(-0.05, 0.45), ur(0.0, 0.02);
    int nonEmpty = 0;
    for (int k = 0; k < 3000; ++k) {
        const Vec3 x(ux(rng), ux(rng), uz(rng));
        const double r = ur(rng);
        std::vector<int> got;
        w.facesNear(x, r, got);
        const std::vector<int> expected = bruteForceNear(w, x, r);
        ASSERT_EQ(got, expected) << "query " << k;
        nonEmpty += !got.empty();
    }
    EXPECT_GT(nonEmpty, 500); // the test exercises hits, not only misses
}

TEST(WallSet, ClosestPointOfSquareFace) {
    const WallSet w(dem::test::boxWalls(Vec3(0, 0, 0), Vec3(1, 1, 1)));
    // face 4 is z = 0 (axis 2, side 0)
    ASSERT_NEAR(w.outwardNormalOf(4).z(), -1.0, 0.0);
    EXPECT_LT((w.closestPoint(4, Vec3(0.3, 0.4, 0.2)) - Vec3(0.3, 0.4, 0)).norm(), 1e-15);
    EXPECT_LT((w.closestPoint(4, Vec3(1.5, 0.4, 0.2)) - Vec3(1.0, 0.4, 0)).norm(), 1e-15);
    EXPECT_LT((w.closestPoint(4, Vec3(-1, -2, 3)) - Vec3(0, 0, 0)).norm(), 1e-15);
    EXPECT_DOUBLE_EQ(w.planeDistance(4, Vec3(0.3, 0.3, 0.25)), -0.25);
}

TEST(WallSet, ContainsForBoxAndCylinder) {
    const WallSet box(dem::test::boxWalls(Vec3(0, 0, 0), Vec3(1, 2, 3), 3));
    EXPECT_TRUE(box.contains(Vec3(0.5, 0.5, 0.5)));
    EXPECT_TRUE(box.contains(Vec3(0.01, 1.99, 2.99)));
    EXPECT_FALSE(box.contains(Vec3(1.01, 0.5, 0.5)));
    EXPECT_FALSE(box.contains(Vec3(0.5, 0.5, -1e-6)));
    const WallSet cyl(dem::test::cylinderWalls(1.0, 2.0, 64));
    EXPECT_TRUE(cyl.contains(Vec3(0.0, 0.0, 1.0)));
    EXPECT_TRUE(cyl.contains(Vec3(0.98, 0.0, 0.01)));
    EXPECT_FALSE(cyl.contains(Vec3(0.8, 0.8, 1.0))); // radius 1.13
    EXPECT_FALSE(cyl.contains(Vec3(0.0, 0.0, 2.1)));
}

TEST(WallSet, FirstOutwardCrossing) {
    const WallSet w(dem::test::boxWalls(Vec3(0, 0, 0), Vec3(1, 1, 1), 2));
    // leaves through the floor at (0.3, 0.6, 0), t = 0.5
    WallSet::Crossing c = w.firstOutwardCrossing(Vec3(0.3, 0.6, 0.1), Vec3(0.3, 0.6, -0.1));
    ASSERT_GE(c.face, 0);
    EXPECT_NEAR(c.t, 0.5, 1e-15);
    EXPECT_LT((c.point - Vec3(0.3, 0.6, 0)).norm(), 1e-15);
    EXPECT_EQ(w.outwardNormalOf(c.face), Vec3(0, 0, -1));
    // through a corner region: the first face crossed wins
    c = w.firstOutwardCrossing(Vec3(0.9, 0.5, 0.05), Vec3(1.3, 0.5, -0.05));
    ASSERT_GE(c.face, 0);
    EXPECT_EQ(w.outwardNormalOf(c.face), Vec3(1, 0, 0));
    EXPECT_NEAR(c.t, 0.25, 1e-14);
    // staying inside, or entering from outside, is no crossing
    EXPECT_LT(w.firstOutwardCrossing(Vec3(0.2, 0.2, 0.2), Vec3(0.8, 0.8, 0.8)).face, 0);
    EXPECT_LT(w.firstOutwardCrossing(Vec3(0.5, 0.5, -0.2), Vec3(0.5, 0.5, 0.2)).face, 0);
}

TEST(WallSet, RejectsBadFacesNamingTheIndex) {
    auto faces = dem::test::boxWalls(Vec3(0, 0, 0), Vec3(1, 1, 1));
    auto expectError = [](std::vector<WallFace> f, const std::string& needle) {
        try {
            WallSet w(std::move(f));
            ADD_FAILURE() << "no exception";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
        }
    };
    auto few = faces;
    few[3].vertices.resize(2);
    expectError(few, "wall face 3");
    auto flat = faces;
    flat[2].vertices = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(2, 0, 0)};
    expectError(flat, "wall face 2: has zero area");
    auto sideways = faces;
    sideways[1].outwardNormal = Vec3(0, 1, 0); // face 1 is x = 1
    expectError(sideways, "wall face 1: outwardNormal");
    auto zero = faces;
    zero[5].outwardNormal = Vec3::Zero();
    expectError(zero, "wall face 5");
}

TEST(WallSet, WarpedAndNonConvexFacesAreTriangulated) {
    std::vector<WallFace> faces;
    // warped quad (one corner lifted) and an L-shaped hexagon, both facing -z
    faces.push_back(WallFace{{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, 0.1), Vec3(0, 1, 0)}, Vec3(0, 0, -1), 0});
    faces.push_back(WallFace{{Vec3(2, 0, 0), Vec3(4, 0, 0), Vec3(4, 1, 0), Vec3(3, 1, 0), Vec3(3, 2, 0), Vec3(2, 2, 0)},
                             Vec3(0, 0, -1), 1});
    const WallSet w(faces);
    EXPECT_EQ(w.splitFaces(), 2);
    // 4 triangles from the quad; the L's vertex mean (3, 1) is one of its
    // vertices, so 2 of its 6 fan triangles are degenerate and dropped
    EXPECT_EQ(w.size(), 8u);
    for (std::size_t f = 0; f < w.size(); ++f) {
        EXPECT_LT(w.outwardNormalOf(f).z(), 0.0); // orientation kept
        EXPECT_EQ(w.face(f).patch, w.sourceFace(f));
    }
    // the notch of the L (3.5, 1.5) is not covered; its arms are
    std::vector<int> near;
    w.facesNear(Vec3(3.5, 1.5, -0.01), 0.02, near);
    EXPECT_TRUE(near.empty());
    w.facesNear(Vec3(3.5, 0.5, -0.01), 0.02, near);
    EXPECT_FALSE(near.empty());
}

TEST(WallSet, CoplanarFacesShareAPlaneAndInnerFacesHaveNoActiveFeature) {
    // A box with every side split into 3 x 3 quads: the nine quads of a side
    // share one plane, the six sides have six planes, and every quad is
    // interior (its edges are coplanar or concave). A lone quad is not
    // (its boundary edges are active), nor is a roof ridge (convex edge).
    const WallSet box(dem::test::boxWalls(Vec3(0, 0, 0), Vec3(1, 2, 3), 3));
    ASSERT_EQ(box.size(), 54u);
    for (std::size_t f = 0; f < box.size(); ++f) {
        EXPECT_TRUE(box.interiorFace(f)) << "face " << f;
        for (std::size_t g = 0; g < box.size(); ++g)
            EXPECT_EQ(box.planeOf(f) == box.planeOf(g), box.face(f).patch == box.face(g).patch)
                << "faces " << f << ", " << g;
    }
    const WallSet lone({WallFace{{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, 0), Vec3(0, 1, 0)}, Vec3(0, 0, -1), 0}});
    EXPECT_FALSE(lone.interiorFace(0));
    // two roof halves meeting in a ridge that points into the domain
    const WallSet ridge({WallFace{{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, 0.5), Vec3(0, 1, 0.5)}, Vec3(0, 0.5, -1), 0},
                         WallFace{{Vec3(0, 1, 0.5), Vec3(1, 1, 0.5), Vec3(1, 2, 0), Vec3(0, 2, 0)}, Vec3(0, -0.5, -1), 0}});
    EXPECT_NE(ridge.planeOf(0), ridge.planeOf(1));
    EXPECT_FALSE(ridge.interiorFace(0));
    EXPECT_FALSE(ridge.interiorFace(1));
}

// noFaceWithin may only say "none" where brute force finds none (the box of
// 16 x 16 faces per side, like the benchmark's floor, and the cylinder,
// whose tall side faces make coarse cells), and it must say so wherever the
// nearest face is three cells beyond the radius (the box: its faces fill
// their cells' boxes, so the cell distance bounds the true one).
TEST(WallSet, NoFaceWithinNeverHidesAFace) {
    const WallSet box(boxWalls(Vec3::Zero(), Vec3(0.4, 0.4, 0.4), 16));
    const WallSet cylinder(dem::test::cylinderWalls(0.0285, 0.4, 48));
    std::mt19937 rng(21);
    for (const WallSet* w : {&box, &cylinder}) {
        const Vec3 lo = w->lower().array() - 0.01, hi = w->upper().array() + 0.01;
        std::uniform_real_distribution<double> ux(lo.x(), hi.x()), uy(lo.y(), hi.y()), uz(lo.z(), hi.z()),
            ur(0.0, 0.01);
        int far = 0, said = 0;
        for (int k = 0; k < 20000; ++k) {
            const Vec3 x(ux(rng), uy(rng), uz(rng));
            const double r = ur(rng);
            const bool none = w->noFaceWithin(x, r);
            if (none) {
                ASSERT_TRUE(bruteForceNear(*w, x, r).empty()) << "query " << k;
            }
            if (w == &box && bruteForceNear(*w, x, r + 3.0 * w->cellSize()).empty()) {
                ++far;
                said += none;
            }
        }
        if (w == &box) {
            EXPECT_GT(far, 1000);
            EXPECT_EQ(said, far);
        }
    }
}
