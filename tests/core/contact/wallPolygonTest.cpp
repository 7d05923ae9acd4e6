// Superellipsoid - wall polygon: a tiled floor counts each contact once,
// a concave corner gives one contact per face, a convex step edge gives one
// edge contact (exact for a sphere), vertices, agreement with the plane
// inside the face, and the feature flags of markActiveFeatures.
#include "ContactTestSupport.hpp"
#include "contact/PolygonWallContact.hpp"
#include "contact/WallContact.hpp"

#include <gtest/gtest.h>

namespace sef {
namespace {

WallPolygon polygon(std::vector<Vec3> vertices, const Vec3& normal) {
    WallPolygon p;
    p.vertices = std::move(vertices);
    p.normal = normal;
    return p;
}

// Floor z = 0 over [-n h, n h]^2, normal +z: cells split into two triangles
// (alternating diagonals) or kept as quads (alternating vertex order).
std::vector<WallPolygon> tiledFloor(int n, double h, bool triangles) {
    std::vector<WallPolygon> faces;
    for (int i = -n; i < n; ++i)
        for (int j = -n; j < n; ++j) {
            const Vec3 a(i * h, j * h, 0), b((i + 1) * h, j * h, 0), c((i + 1) * h, (j + 1) * h, 0),
                d(i * h, (j + 1) * h, 0);
            if (!triangles) {
                faces.push_back(polygon((i + j) % 2 ? std::vector<Vec3>{a, b, c, d}
                                                    : std::vector<Vec3>{d, c, b, a},
                                        Vec3::UnitZ()));
            } else if ((i + j) % 2) {
                faces.push_back(polygon({a, b, c}, Vec3::UnitZ()));
                faces.push_back(polygon({a, c, d}, Vec3::UnitZ()));
            } else {
                faces.push_back(polygon({a, b, d}, Vec3::UnitZ()));
                faces.push_back(polygon({b, c, d}, Vec3::UnitZ()));
            }
        }
    return faces;
}

std::vector<ContactResult> contactsWith(const std::vector<WallPolygon>& faces,
                                        const Superellipsoid& s, const Pose& pose) {
    std::vector<ContactResult> out;
    for (const WallPolygon& f : faces) {
        const ContactResult r = detectPolygonWallContact(s, pose, f);
        EXPECT_TRUE(isFinite(r.normal) && std::isfinite(r.depth) && isFinite(r.point));
        if (r.contact) out.push_back(r);
    }
    return out;
}

TEST(WallPolygon, TiledFloorCountsEachContactOnce) {
    const double h = 0.01;
    for (bool triangles : {true, false}) {
        std::vector<WallPolygon> floor = tiledFloor(3, h, triangles);
        markActiveFeatures(floor, 1e-9);
        std::mt19937 rng(21);
        std::vector<Vec3> centres{{0, 0, 0}, {h, h, 0}, {0.5 * h, 0, 0}, {0, -0.5 * h, 0},
                                  {0.5 * h, 0.5 * h, 0}, {h, 0.25 * h, 0}};
        std::uniform_real_distribution<double> u(-1.5 * h, 1.5 * h);
        for (int k = 0; k < 40; ++k) centres.emplace_back(u(rng), u(rng), 0.0);
        for (const Vec3& xy : centres) {
            // A sphere (deepest point exactly over the shared edge / vertex)
            // and a rotated superellipsoid.
            const Superellipsoid sphere(0.004, 0.004, 0.004, 1.0, 1.0);
            const Pose ps = test::makePose(xy + Vec3(0, 0, 0.0035), Quat::Identity());
            const auto c1 = contactsWith(floor, sphere, ps);
            ASSERT_EQ(c1.size(), 1u) << xy.transpose() << " triangles " << triangles;
            EXPECT_EQ(c1[0].feature, WallFeature::face);
            EXPECT_NEAR(c1[0].depth, 0.0005, 1e-15);

            const Superellipsoid blocky(0.006, 0.004, 0.003, 0.4, 1.5);
            const Pose pb = test::makePose(xy + Vec3(0, 0, 0.002), test::randomRotation(rng));
            const auto c2 = contactsWith(floor, blocky, pb);
            const ContactResult plane =
                detectWallContact(blocky, pb, WallPlane{Vec3::Zero(), Vec3::UnitZ()}, false);
            ASSERT_EQ(c2.size(), plane.contact ? 1u : 0u) << xy.transpose();
            if (plane.contact) {
                EXPECT_NEAR(c2[0].depth, plane.depth, 1e-15);
            }
        }
    }
}

TEST(WallPolygon, FlagsOfAFlatFloorAndOfABox) {
    std::vector<WallPolygon> floor = tiledFloor(2, 0.01, true);
    markActiveFeatures(floor, 1e-9);
    int activeEdges = 0, activeVertices = 0, ownedVertices = 0;
    for (const WallPolygon& f : floor) {
        for (bool a : f.activeEdges) activeEdges += a;
        for (bool a : f.activeVertices) activeVertices += a;
        for (bool a : f.ownedVertices) ownedVertices += a;
    }
    // 4 x 4 cells: 16 boundary edges, 16 boundary vertices, 25 vertices.
    EXPECT_EQ(activeEdges, 16);
    EXPECT_EQ(activeVertices, 16);
    EXPECT_EQ(ownedVertices, 25);

    // Unit cube as 6 quads. Domain outside (normals outward of the cube):
    // all 12 edges convex, active once; all 8 vertices active once.
    // Domain inside (normals inward): all edges concave, nothing active.
    for (double side : {1.0, -1.0}) {
        std::vector<WallPolygon> box;
        for (int axis = 0; axis < 3; ++axis)
            for (double s : {-1.0, 1.0}) {
                const Vec3 n = s * Vec3::Unit(axis), t1 = Vec3::Unit((axis + 1) % 3),
                           t2 = Vec3::Unit((axis + 2) % 3);
                box.push_back(polygon({n + t1 + t2, n - t1 + t2, n - t1 - t2, n + t1 - t2}, side * n));
            }
        markActiveFeatures(box, 1e-9);
        int edges = 0, vertices = 0;
        for (const WallPolygon& f : box) {
            for (bool a : f.activeEdges) edges += a;
            for (bool a : f.activeVertices) vertices += a;
        }
        EXPECT_EQ(edges, side > 0 ? 12 : 0);
        EXPECT_EQ(vertices, side > 0 ? 8 : 0);
    }
}

// A floor periodic in x and y (a period of two cells, where the two edges
// from a vertex to its neighbour and on to the vertex's periodic partner
// join the same two points, and of one face): no edge or vertex is active,
// every periodic vertex and edge is owned once, and a body with its
// periodic copies meets the floor exactly once, as it meets the plane.
TEST(WallPolygon, PeriodicFloorHasNoEdgesAndCountsEachContactOnce) {
    const double h = 0.01;
    for (int layout = 0; layout < 3; ++layout) {
        SCOPED_TRACE("layout " + std::to_string(layout));
        // 0: 2 x 2 triangle pairs, 1: 2 x 2 quads, 2: one square face
        std::vector<WallPolygon> floor =
            layout < 2 ? tiledFloor(1, h, layout == 0)
                       : std::vector<WallPolygon>{polygon({{-h, -h, 0}, {h, -h, 0}, {h, h, 0}, {-h, h, 0}},
                                                          Vec3::UnitZ())};
        const double period = 2 * h;
        std::vector<Vec3> shifts;
        for (int i = -1; i <= 1; ++i)
            for (int j = -1; j <= 1; ++j)
                if (i || j) shifts.emplace_back(i * period, j * period, 0.0);
        markActiveFeatures(floor, 1e-9 * h, shifts);
        int activeEdges = 0, activeVertices = 0, ownedEdges = 0, ownedVertices = 0;
        for (const WallPolygon& f : floor) {
            for (bool a : f.activeEdges) activeEdges += a;
            for (bool a : f.activeVertices) activeVertices += a;
            for (bool a : f.ownedEdges) ownedEdges += a;
            for (bool a : f.ownedVertices) ownedVertices += a;
        }
        EXPECT_EQ(activeEdges, 0);
        EXPECT_EQ(activeVertices, 0);
        // per period: 4 vertices and 8 cell edges (+ 4 diagonals) for 2 x 2
        // cells, 1 vertex and 2 edges for one face
        EXPECT_EQ(ownedVertices, layout < 2 ? 4 : 1);
        EXPECT_EQ(ownedEdges, layout == 0 ? 12 : layout == 1 ? 8 : 2);

        std::mt19937 rng(8 + layout);
        std::uniform_real_distribution<double> u(-h, h);
        std::vector<Vec3> centres{{0, 0, 0}, {h, h, 0}, {-h, 0, 0}, {0, h, 0}, {0.5 * h, -h, 0}};
        for (int k = 0; k < 40; ++k) centres.emplace_back(u(rng), u(rng), 0.0);
        const Superellipsoid sphere(0.004, 0.004, 0.004, 1.0, 1.0), blocky(0.006, 0.004, 0.003, 0.4, 1.5);
        for (const Vec3& xy : centres) {
            const Quat q = test::randomRotation(rng);
            for (const auto& [shape, pose] : {std::pair{sphere, test::makePose(xy + Vec3(0, 0, 0.0035), Quat::Identity())},
                                              std::pair{blocky, test::makePose(xy + Vec3(0, 0, 0.002), q)}}) {
                std::vector<ContactResult> all = contactsWith(floor, shape, pose);
                for (const Vec3& s : shifts) {
                    const auto more = contactsWith(floor, shape, test::makePose(pose.position + s, pose.orientation));
                    all.insert(all.end(), more.begin(), more.end());
                }
                const ContactResult plane =
                    detectWallContact(shape, pose, WallPlane{Vec3::Zero(), Vec3::UnitZ()}, false);
                ASSERT_EQ(all.size(), plane.contact ? 1u : 0u) << xy.transpose();
                if (plane.contact) {
                    EXPECT_EQ(all[0].feature, WallFeature::face);
                    EXPECT_NEAR(all[0].depth, plane.depth, 1e-15);
                }
            }
        }
    }
}

TEST(WallPolygon, ConcaveCornerGivesOneContactPerFace) {
    // Floor z = 0 (x in [0, 0.05]) and wall x = 0 (z in [0, 0.05]): a 90 deg
    // concave corner along y, like the bottom rim of a container.
    std::vector<WallPolygon> corner{
        polygon({{0, -0.05, 0}, {0.05, -0.05, 0}, {0.05, 0.05, 0}, {0, 0.05, 0}}, Vec3::UnitZ()),
        polygon({{0, -0.05, 0}, {0, 0.05, 0}, {0, 0.05, 0.05}, {0, -0.05, 0.05}}, Vec3::UnitX())};
    markActiveFeatures(corner, 1e-9);
    EXPECT_FALSE(corner[0].activeEdges[3]); // the shared, concave edge
    EXPECT_FALSE(corner[1].activeEdges[0]);
    const double R = 0.005;
    const Superellipsoid sphere(R, R, R, 1.0, 1.0);
    const Pose pose = test::makePose(Vec3(R - 2e-4, 0.01, R - 3e-4), Quat::Identity());
    const ContactResult floor = detectPolygonWallContact(sphere, pose, corner[0]);
    const ContactResult wall = detectPolygonWallContact(sphere, pose, corner[1]);
    ASSERT_TRUE(floor.contact && wall.contact);
    EXPECT_EQ(floor.feature, WallFeature::face);
    EXPECT_EQ(wall.feature, WallFeature::face);
    EXPECT_NEAR(floor.depth, 3e-4, 1e-15);
    EXPECT_NEAR(wall.depth, 2e-4, 1e-15);
    EXPECT_NEAR((floor.normal - Vec3::UnitZ()).norm(), 0.0, 1e-15);
    EXPECT_NEAR((wall.normal - Vec3::UnitX()).norm(), 0.0, 1e-15);
}

// Step: top face z = 0 (x <= 0, normal +z), side face x = 0 (z <= 0,
// normal +x); the convex edge is the y axis.
std::vector<WallPolygon> step() {
    std::vector<WallPolygon> s{
        polygon({{-0.05, -0.05, 0}, {0, -0.05, 0}, {0, 0.05, 0}, {-0.05, 0.05, 0}}, Vec3::UnitZ()),
        polygon({{0, -0.05, -0.05}, {0, 0.05, -0.05}, {0, 0.05, 0}, {0, -0.05, 0}}, Vec3::UnitX())};
    markActiveFeatures(s, 1e-9);
    return s;
}

TEST(WallPolygon, SphereOnConvexEdgeIsExact) {
    const std::vector<WallPolygon> faces = step();
    EXPECT_TRUE(faces[0].activeEdges[1]);  // owned by the lower face index
    EXPECT_FALSE(faces[1].activeEdges[2]);
    const double R = 0.005;
    const Superellipsoid sphere(R, R, R, 1.0, 1.0);
    std::mt19937 rng(5);
    for (double angleDeg : {5.0, 30.0, 45.0, 60.0, 85.0}) {
        const double a = angleDeg * M_PI / 180.0, d = 0.8 * R;
        const Vec3 m(std::sin(a), 0.0, std::cos(a)); // from +z towards +x
        const Pose pose = test::makePose(Vec3(0, 0.003, 0) + d * m, test::randomRotation(rng));
        const auto contacts = contactsWith(faces, sphere, pose);
        ASSERT_EQ(contacts.size(), 1u) << angleDeg;
        const ContactResult& r = contacts[0];
        EXPECT_EQ(r.feature, WallFeature::edge);
        EXPECT_EQ(r.featureIndex, 1);
        // Analytic: depth R - d along the perpendicular from the edge.
        EXPECT_NEAR(r.depth, R - d, 1e-10 * R) << angleDeg;
        EXPECT_NEAR((r.normal - m).norm(), 0.0, 1e-9) << angleDeg;
        EXPECT_NEAR((r.surfacePoint1 - Vec3(0, 0.003, 0)).norm(), 0.0, 1e-10 * R);
        EXPECT_NEAR((r.surfacePoint2 - (pose.position - R * m)).norm(), 0.0, 1e-10 * R);
    }
    // Pressed against the side face just below the edge, with the edge
    // inside the sphere: only the side face answers (no edge double count).
    const Pose side = test::makePose(Vec3(R - 3e-4, 0.0, -0.2 * R), Quat::Identity());
    const auto contacts = contactsWith(faces, sphere, side);
    ASSERT_EQ(contacts.size(), 1u);
    EXPECT_EQ(contacts[0].feature, WallFeature::face);
    EXPECT_NEAR(contacts[0].depth, 3e-4, 1e-15);
}

TEST(WallPolygon, BevelledEdgeMatchesArcSampling) {
    // Independent check: the wall solid behind a convex 45 deg bevel is the
    // wedge {z <= 0} & {ng.x <= 0} with its edge on the y axis. For a convex
    // particle its penetration depth is min over the normal cone of
    // f(m) = h_wedge(m) + h_particle(-m) = h_particle(-m) (edge through the
    // origin), m = (sin t, 0, cos t), t in [0, pi/4]: sampled densely with the
    // exact support value (sampling error ~ f'' dt^2 / 8 < 1e-9 L here).
    // Exactly one face / edge must answer, with that depth.
    const Vec3 ng = Vec3(1, 0, 1).normalized();
    std::vector<WallPolygon> faces{
        polygon({{-0.05, -0.05, 0}, {0, -0.05, 0}, {0, 0.05, 0}, {-0.05, 0.05, 0}}, Vec3::UnitZ()),
        polygon({{0, -0.05, 0}, {0, 0.05, 0}, {0.05, 0.05, -0.05}, {0.05, -0.05, -0.05}}, ng)};
    markActiveFeatures(faces, 1e-9);
    ASSERT_TRUE(faces[0].activeEdges[1]);
    std::mt19937 rng(6);
    int edgeContacts = 0, faceContacts = 0;
    for (int k = 0; k < 60; ++k) {
        const Superellipsoid s = test::randomShape(rng, 0.006, 0.2, 1.8);
        const Quat q = test::randomRotation(rng);
        const double a = std::uniform_real_distribution<double>(0.1, 0.7)(rng);
        const Vec3 m(std::sin(a), 0.0, std::cos(a));
        const double reach = s.supportValue(q.conjugate() * (-m));
        const Pose pose = test::makePose(Vec3(0, 0.001, 0) + (reach - 2e-4) * m, q);
        double fMin = 1e300;
        for (int i = 0; i <= 20000; ++i) {
            const double t = (M_PI / 4) * i / 20000.0;
            const Vec3 mm(std::sin(t), 0.0, std::cos(t));
            fMin = std::min(fMin, -mm.dot(pose.position) + s.supportValue(q.conjugate() * (-mm)));
        }
        const auto contacts = contactsWith(faces, s, pose);
        if (fMin < -1e-9) {
            EXPECT_TRUE(contacts.empty()) << k;
            continue;
        }
        ASSERT_EQ(contacts.size(), 1u) << k << " fMin " << fMin;
        EXPECT_LE(contacts[0].depth, fMin + 1e-12) << k; // the minimum is below any sample
        EXPECT_NEAR(contacts[0].depth, fMin, 1e-9) << k;
        if (contacts[0].feature == WallFeature::edge) {
            ++edgeContacts;
            EXPECT_NEAR(contacts[0].normal.y(), 0.0, 1e-12); // perpendicular to the edge
        } else {
            ++faceContacts;
        }
    }
    // Both paths are exercised by these 60 configurations.
    EXPECT_GE(edgeContacts, 10);
    EXPECT_GE(faceContacts, 5);
}

TEST(WallPolygon, VertexOfAnIsolatedSquare) {
    const WallPolygon square =
        polygon({{0, 0, 0}, {0.01, 0, 0}, {0.01, 0.01, 0}, {0, 0.01, 0}}, Vec3::UnitZ());
    const double R = 0.004;
    const Superellipsoid sphere(R, R, R, 1.0, 1.0);
    const Vec3 m = Vec3(1, 1, 1.5).normalized();
    const Pose pose = test::makePose(Vec3(0.01, 0.01, 0) + 0.9 * R * m, Quat::Identity());
    const ContactResult r = detectPolygonWallContact(sphere, pose, square);
    ASSERT_TRUE(r.contact);
    EXPECT_EQ(r.feature, WallFeature::vertex);
    EXPECT_EQ(r.featureIndex, 2);
    EXPECT_NEAR(r.depth, 0.1 * R, 1e-10 * R);
    EXPECT_NEAR((r.normal - m).norm(), 0.0, 1e-8);
    // Warm-started from the answer: converges at once, same result.
    const ContactResult w = detectPolygonWallContact(sphere, pose, square, &r.normal);
    EXPECT_NEAR(w.depth, r.depth, 1e-14);
    EXPECT_LE(w.iterations, 1);
    // Inactive vertex and edges: no contact.
    WallPolygon inactive = square;
    inactive.activeEdges.assign(4, false);
    inactive.activeVertices.assign(4, false);
    EXPECT_FALSE(detectPolygonWallContact(sphere, pose, inactive).contact);
}

TEST(WallPolygon, AgreesWithThePlaneInsideTheFace) {
    const double L = 0.05;
    const WallPolygon square = polygon({{-L, -L, 0}, {L, -L, 0}, {L, L, 0}, {-L, L, 0}}, Vec3::UnitZ());
    std::mt19937 rng(7);
    for (int k = 0; k < 100; ++k) {
        const Superellipsoid s = test::randomShape(rng, 0.01);
        const Pose pose = test::makePose(Vec3(0.01, -0.02, 0.003), test::randomRotation(rng));
        const ContactResult p = detectPolygonWallContact(s, pose, square);
        const ContactResult w = detectWallContact(s, pose, WallPlane{Vec3::Zero(), Vec3::UnitZ()});
        ASSERT_EQ(p.contact, w.contact);
        if (!w.contact) continue;
        EXPECT_EQ(p.feature, WallFeature::face);
        EXPECT_EQ(p.depth, w.depth);
        EXPECT_NEAR((p.surfacePoint2 - w.surfacePoint2).norm(), 0.0, 1e-15);
    }
}

// The support point along the face normal is remembered for the next query
// of the same pose (a particle asks every floor face near it): it must be
// keyed by the shape's parameters, not its address. Shapes built one after
// another in the same stack slot, same pose, get each their own depth.
TEST(WallPolygon, ShapesAtTheSameAddressAndPoseGetTheirOwnDepth) {
    const WallPolygon floor = polygon({Vec3(-2, -2, 0), Vec3(2, -2, 0), Vec3(2, 2, 0), Vec3(-2, 2, 0)},
                                      Vec3::UnitZ());
    const Pose pose{Vec3(0.1, -0.2, 0.9), Quat::Identity()};
    const double heights[] = {1.0, 0.5, 1.2, 1.0}; // half-axis c: depth c - 0.9
    for (int round = 0; round < 2; ++round)
        for (double c : heights) {
            const Superellipsoid shape(1.0, 1.0, c, 1.0, 1.0);
            const ContactResult r = detectPolygonWallContact(shape, pose, floor);
            if (c > 0.9) {
                ASSERT_TRUE(r.contact) << c;
                EXPECT_NEAR(r.depth, c - 0.9, 1e-12) << c;
            } else {
                EXPECT_FALSE(r.contact) << c;
            }
        }
}

TEST(WallPolygon, BadInputThrows) {
    const Superellipsoid s(0.01, 0.01, 0.01, 1.0, 1.0);
    EXPECT_THROW(detectPolygonWallContact(s, Pose{}, polygon({{0, 0, 0}, {1, 0, 0}}, Vec3::UnitZ())),
                 std::invalid_argument);
    WallPolygon p = polygon({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, Vec3::UnitZ());
    p.activeEdges = {true};
    EXPECT_THROW(detectPolygonWallContact(s, Pose{}, p), std::invalid_argument);
    std::vector<WallPolygon> v{p};
    EXPECT_THROW(markActiveFeatures(v, 0.0), std::invalid_argument);
    std::vector<WallPolygon> valid{polygon({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, Vec3::UnitZ())};
    EXPECT_THROW(markActiveFeatures(valid, 1e-9, {Vec3(std::nan(""), 0, 0)}), std::invalid_argument);
    EXPECT_THROW(markActiveFeatures(valid, 1e-9, {Vec3(1e-10, 0, 0)}), std::invalid_argument);
    EXPECT_NO_THROW(markActiveFeatures(valid, 1e-9, {Vec3(1, 0, 0), Vec3(-1, 0, 0)}));
}

TEST(WallPolygon, AStaleWarmNormalNeverDropsAVertexContact) {
    // A polygon vertex inside a sharp-edged body is a contact whatever the
    // warm start: a stale normal (from another feature, or pointing away)
    // must give the cold answer. Sharp prisms (eps 1.9/0.1) and diamonds,
    // random poses around the vertex of an isolated square (the campaign's
    // prisms sank into a wall corner when a failed warm start dropped it).
    const WallPolygon square =
        polygon({{0, 0, 0}, {0.01, 0, 0}, {0.01, 0.01, 0}, {0, 0.01, 0}}, Vec3::UnitZ());
    std::mt19937 rng(77);
    std::uniform_real_distribution<double> inward(0.6, 0.98);
    long vertexContacts = 0;
    for (int k = 0; k < 2000; ++k) {
        const Superellipsoid s = k % 2 ? Superellipsoid(0.002, 0.0015, 0.001, 1.9, 0.1)
                                       : Superellipsoid(0.002, 0.0015, 0.001, 1.9, 1.9);
        const Quat q = test::randomRotation(rng);
        Vec3 m = test::randomUnit(rng);
        m = Vec3(std::fabs(m.x()), std::fabs(m.y()), std::fabs(m.z()) + 0.2).normalized(); // beyond the corner
        const Vec3 reach = s.supportPoint(q.conjugate() * -m);
        const Pose pose = test::makePose(Vec3(0.01, 0.01, 0) - inward(rng) * (q * reach).dot(m) * m, q);
        const ContactResult cold = detectPolygonWallContact(s, pose, square);
        if (!(cold.contact && cold.feature == WallFeature::vertex)) continue;
        ++vertexContacts;
        for (const Vec3& stale : {Vec3(-cold.normal), Vec3(test::randomUnit(rng)), Vec3(Vec3::UnitX())}) {
            const ContactResult warm = detectPolygonWallContact(s, pose, square, &stale);
            ASSERT_TRUE(warm.contact) << k;
            // Known limit, left for later: a stale start may converge to
            // another stationary point of the vertex's common-normal problem
            // (seen: a depth up to 16 % above the cold one); only keeping the
            // contact is asserted here.
            EXPECT_GT(warm.depth, 0.0) << k;
        }
    }
    EXPECT_GT(vertexContacts, 100);
}

} // namespace
} // namespace sef

namespace sef {
namespace {

TEST(WallPolygon, ConcaveCornerClaimsADeepestPointBeyondTheEdge) {
    // Floor z = 0 and wall y = 0 meeting in a concave edge along x. A rod
    // tilted down toward the wall reaches below the floor at y < 0, beyond
    // the corner edge: the floor must still report its penetration (and the
    // wall its own), not clip it away.
    std::vector<WallPolygon> corner{
        polygon({{-0.05, 0, 0}, {0.05, 0, 0}, {0.05, 0.05, 0}, {-0.05, 0.05, 0}}, Vec3::UnitZ()),
        polygon({{-0.05, 0, 0}, {-0.05, 0, 0.05}, {0.05, 0, 0.05}, {0.05, 0, 0}}, Vec3::UnitY())};
    markActiveFeatures(corner, 1e-9);
    const Superellipsoid rod(0.004, 0.001, 0.001, 1.0, 1.0);
    const Quat tilt(Eigen::AngleAxisd(M_PI / 4, Vec3::UnitX()));
    const Pose pose = test::makePose(Vec3(0.0, 0.0025, 0.0015), tilt * Quat(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitZ())));
    const Vec3 lowest = pose.position + pose.orientation * rod.supportPoint(pose.orientation.conjugate() * -Vec3::UnitZ());
    ASSERT_LT(lowest.y(), 0.0) << "the test needs the deepest point beyond the edge";
    ASSERT_LT(lowest.z(), 0.0);
    const ContactResult floor = detectPolygonWallContact(rod, pose, corner[0]);
    ASSERT_TRUE(floor.contact);
    EXPECT_EQ(floor.feature, WallFeature::face);
    EXPECT_NEAR(floor.depth, -lowest.z(), 1e-12);
    const ContactResult wall = detectPolygonWallContact(rod, pose, corner[1]);
    EXPECT_TRUE(wall.contact);
}

} // namespace
} // namespace sef
