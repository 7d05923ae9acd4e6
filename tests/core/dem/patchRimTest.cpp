// Rim points of flat-face contacts (contact/ContactPatch.hpp): where they
// are, which contacts get them, and what they are for: a block on a face
// comes to rest instead of rocking on its patch centroid for ever.
#include "DemTestSupport.hpp"
#include "contact/ContactPatch.hpp"
#include "contact/PairContact.hpp"
#include "dem/engine/DemEngine.hpp"
#include "dem/walls/WallFaceContact.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <sstream>

namespace sef::dem {
namespace {

constexpr double kGravityRim = 9.81;

int floorFace(const WallSet& walls) {
    for (std::size_t f = 0; f < walls.size(); ++f)
        if (walls.face(f).outwardNormal.z() < -0.5) return static_cast<int>(f);
    return -1;
}

// A shape resting on the floor of a box, sunk by `depth`.
ContactResult restingOnFloor(const Superellipsoid& shape, const Quat& q, double depth) {
    const WallSet walls(test::boxWalls(Vec3::Zero(), Vec3(0.1, 0.1, 0.1)));
    const double h = shape.supportValue(q.conjugate() * Vec3(0, 0, -1));
    return detectFaceContact(shape, Pose{Vec3(0.05, 0.05, h - depth), q}, walls, floorFace(walls),
                             nullptr);
}

// A cube-like block flat on the floor at the allowed penetration of the
// engine (1e-4 d_eq), or at a tenth of it: four rim points, symmetric about
// the centroid (the zone is), at least kRimMinimum half-axes out, and inside
// the contact zone: the block reaches to within the zone depth of the floor
// under each of them.
class PatchRimOnFloor : public ::testing::TestWithParam<double> {};

TEST_P(PatchRimOnFloor, FlatBlockHasFourSymmetricRimPointsInsideTheZone) {
    const Superellipsoid cube(0.004, 0.004, 0.004, 0.2, 0.2);
    const Quat q = Quat(Eigen::AngleAxisd(0.3, Vec3::UnitZ())); // turned about the normal
    const double depth = GetParam() * cube.equivalentDiameter();
    const ContactResult r = restingOnFloor(cube, q, depth);
    ASSERT_TRUE(r.contact);
    ASSERT_EQ(r.rimCount, kRimPoints);
    const Vec3 centre(0.05, 0.05, 0.0);
    Vec3 sum = Vec3::Zero();
    for (int k = 0; k < r.rimCount; ++k) {
        const Vec3 offset = r.rim[k] - r.point;
        sum += offset;
        EXPECT_NEAR(offset.z(), 0.0, 1e-15);                          // in the contact plane
        EXPECT_GE(offset.norm(), kRimMinimum * 0.004 * (1 - 1e-12)); // a real lever arm
        // at the zone depth above the floor under the rim point the block is present
        const double h = cube.supportValue(q.conjugate() * Vec3(0, 0, -1));
        const double zone = kRimZoneDepth * 0.004;
        const Vec3 body = q.conjugate() * (Vec3(r.rim[k].x(), r.rim[k].y(), zone) -
                                           Vec3(0.05, 0.05, h - depth));
        EXPECT_LE(cube.implicitFunction(body), 1.0);
    }
    // patch symmetric about the centre below the block: offsets cancel to
    // the patch-outline tolerance (0.5 % of the patch width)
    EXPECT_LT(sum.norm(), 5e-3 * 0.004);
    EXPECT_LT((r.point - centre).head<2>().norm(), 5e-3 * 0.004);
}

// 1e-5 d_eq: seen in beds, where a face is held by its neighbours
INSTANTIATE_TEST_SUITE_P(Depths, PatchRimOnFloor, ::testing::Values(1e-4, 1e-5));

// Curved contacts keep their single exact point: an ellipsoid has no patch,
// and an eps = 0.5 block resting at the allowed penetration has a patch only
// ~0.18 half-axes wide (where its face drops by the depth), below kRimMinimum.
TEST(PatchRim, CurvedContactsHaveNoRimPoints) {
    const Quat q = Quat::Identity();
    const Superellipsoid ellipsoid(0.004, 0.003, 0.002, 1.0, 1.0);
    EXPECT_EQ(restingOnFloor(ellipsoid, q, 1e-4 * ellipsoid.equivalentDiameter()).rimCount, 0);
    const Superellipsoid rounded(0.002, 0.0015, 0.001, 0.5, 0.5);
    const ContactResult r = restingOnFloor(rounded, q, 1e-4 * rounded.equivalentDiameter());
    ASSERT_TRUE(r.contact);
    EXPECT_EQ(r.rimCount, 0);
}

// Pairs: one block resting flat on another gets rim points in the contact
// plane, symmetric about the patch centroid.
TEST(PatchRim, FaceOnFacePairHasRimPoints) {
    const Superellipsoid cube(0.004, 0.004, 0.004, 0.2, 0.2);
    const double depth = 1e-4 * cube.equivalentDiameter();
    const Quat q = Quat(Eigen::AngleAxisd(0.2, Vec3::UnitZ()));
    const ContactResult r = detectPairContact(cube, Pose{Vec3::Zero(), Quat::Identity()}, cube,
                                              Pose{Vec3(0, 0, 0.008 - depth), q});
    ASSERT_TRUE(r.contact);
    ASSERT_EQ(r.rimCount, kRimPoints);
    Vec3 sum = Vec3::Zero();
    for (int k = 0; k < r.rimCount; ++k) {
        sum += r.rim[k] - r.point;
        EXPECT_NEAR(r.normal.dot(r.rim[k] - r.point), 0.0, 1e-12);
    }
    EXPECT_LT(sum.norm(), 5e-3 * 0.004);
}

struct DropResult {
    double kineticOverDrop = 0.0; // at the end
    long rimPoints = 0;           // summed over the run
};

// A frictionless eps = 0.2 cube dropped 2 mm onto the floor with a 5 degree
// tilt (e_n = 0.2, dt = 1e-5), run for `seconds`; within: corrections only
// as far as they are paid (EngineSettings::correctionWithinPayment).
DropResult dropTiltedCube(bool rims, double seconds, bool within = true) {
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(0.004, 0.004, 0.004, 0.2, 0.2), 1000.0);
    const Quat q(Eigen::AngleAxisd(5.0 * M_PI / 180.0, Vec3(1, 0.3, 0).normalized()));
    const double drop = 0.002;
    const double h = ps.types[0].shape.supportValue(q.conjugate() * Vec3(0, 0, -1));
    ps.add(0, 0, Vec3(0.05, 0.05, h + drop), q);
    EngineSettings s;
    s.gravity = Vec3(0, 0, -kGravityRim);
    s.pair.restitution = s.wall.restitution = 0.2;
    s.patchRimPoints = rims;
    s.correctionWithinPayment = within;
    DemEngine engine(test::boxWalls(Vec3::Zero(), Vec3(0.1, 0.1, 0.1)), s);
    DropResult result;
    StepStatistics st;
    const long steps = std::lround(seconds / 1e-5);
    for (long n = 0; n < steps; ++n) {
        st = engine.step(ps, 1e-5);
        result.rimPoints += st.rimPoints;
    }
    // The kinetic energy reported at the end of a step includes the last
    // half kick, m (g h / 2)^2 / 2 for a body at rest: subtract that floor.
    const double mass = ps.types[0].mass;
    const double restFloor = 0.5 * mass * std::pow(0.5 * kGravityRim * 1e-5, 2);
    result.kineticOverDrop = (st.kineticEnergy - restFloor) / (mass * kGravityRim * drop);
    return result;
}

// Without rim points, when overlap removal may lift more than it pays, the
// cube keeps rocking on its patch centroid (measured: 1.6e-5 of the drop
// energy at 0.4 s, where at rest leaves below 1e-8); with them it comes
// to rest within a few rocking periods, either way. Corrections within payment alone also stop
// it (measured: at rest, the half-kick floor exactly).
TEST(PatchRim, DroppedCubeComesToRestWithRimPointsOrCorrectionsWithinPayment) {
    const DropResult with = dropTiltedCube(true, 0.4);
    const DropResult withBeyond = dropTiltedCube(true, 0.4, false);
    const DropResult without = dropTiltedCube(false, 0.4, false);
    const DropResult withoutWithin = dropTiltedCube(false, 0.4);
    EXPECT_GT(with.rimPoints, 0);
    EXPECT_EQ(without.rimPoints, 0);
    EXPECT_LT(with.kineticOverDrop, 1e-8);
    EXPECT_LT(withBeyond.kineticOverDrop, 1e-8);
    EXPECT_GT(without.kineticOverDrop, 1e-6);
    EXPECT_LT(withoutWithin.kineticOverDrop, 1e-8);
}

// A small bed of frictionless cube-like blocks (18 in a 3 x 3 footprint,
// random orientations, e_n = 0.2) after 0.25 s: rim points in use, nothing
// lost, overlaps small; a restart from the saved engine state (which holds
// the rim points' warm starts) continues bit for bit, and without that state
// it does not (so the rim warm starts matter and are carried).
TEST(PatchRim, BedOfBlocksRestartsExactly) {
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(0.004, 0.004, 0.004, 0.2, 0.2), 1000.0);
    std::mt19937 rng(3);
    std::normal_distribution<double> normal(0.0, 1.0);
    const double spacing = 0.0125;
    int id = 0;
    for (int k = 0; k < 2; ++k)
        for (int j = 0; j < 3; ++j)
            for (int i = 0; i < 3; ++i)
                ps.add(0, id++, Vec3(spacing * (i + 0.5), spacing * (j + 0.5), 0.01 + spacing * k),
                       Quat(normal(rng), normal(rng), normal(rng), normal(rng)).normalized());
    EngineSettings s;
    s.gravity = Vec3(0, 0, -kGravityRim);
    s.pair.restitution = s.wall.restitution = 0.2;
    const auto walls = test::boxWalls(Vec3::Zero(), Vec3(3 * spacing, 3 * spacing, 0.1));
    DemEngine engine(walls, s);
    const double mass = ps.types[0].mass;
    auto potential = [&] {
        double e = 0;
        for (const Vec3& x : ps.position) e += mass * kGravityRim * x.z();
        return e;
    };
    const double potential0 = potential();
    long rims = 0, pushed = 0;
    double maxOverlap = 0;
    for (int n = 0; n < 5000; ++n) { // 0.25 s at dt = 5e-5
        const StepStatistics st = engine.step(ps, 5e-5);
        rims += st.rimPoints;
        pushed += st.pushedBack;
        maxOverlap = std::max(maxOverlap, st.maxOverlapOverDeq);
    }
    EXPECT_GT(potential0 - potential(), 0.0);
    EXPECT_GT(rims, 0);
    EXPECT_EQ(pushed, 0);
    EXPECT_LT(maxOverlap, 0.01);
    for (const Vec3& x : ps.position) EXPECT_TRUE(engine.walls().contains(x));

    const test::RestartRuns runs = test::runWithRestart(engine, walls, s, ps, 5e-5, 400);
    EXPECT_GT(runs.continuousRimPoints, 0);
    EXPECT_GT(test::expectRestartExact(runs), 0.0);
}

// The paper's one-partner rule uses single points only.
TEST(PatchRim, OnePartnerPerStepUsesNoRimPoints) {
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(0.004, 0.004, 0.004, 0.2, 0.2), 1000.0);
    const double h = ps.types[0].shape.supportValue(Vec3(0, 0, -1));
    ps.add(0, 0, Vec3(0.05, 0.05, h - 1e-7), Quat::Identity());
    EngineSettings s;
    s.gravity = Vec3(0, 0, -kGravityRim);
    s.onePartnerPerStep = true;
    DemEngine engine(test::boxWalls(Vec3::Zero(), Vec3(0.1, 0.1, 0.1)), s);
    const StepStatistics st = engine.step(ps, 1e-5);
    EXPECT_EQ(st.wallContacts, 1);
    EXPECT_EQ(st.rimPoints, 0);
}

} // namespace
} // namespace sef::dem
