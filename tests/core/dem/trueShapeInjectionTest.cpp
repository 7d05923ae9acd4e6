// Random injection by the true shape: non-spheres are packed by the exact
// narrow phase, not by their bounding spheres, so elongated, flat and blocky
// particles reach 25 % solids by their own volume in a box of 10 particle
// lengths with no pair overlapping and none cutting a wall; spheres are
// placed exactly as by the bounding-sphere injection before.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "contact/PairContact.hpp"
#include "DemTestSupport.hpp"
#include "dem/walls/BoxWalls.hpp"
#include "dem/injection/RandomInjection.hpp"
#include "dem/injection/WallClearance.hpp"

using namespace sef;
using namespace sef::dem;

namespace {

struct ShapeCase {
    const char* name;
    double a, b, c, eps1, eps2;
};

using dem::test::oneType;

// Pairs whose bounding spheres intersect and that the exact narrow phase
// finds in contact, asked in both orders (the answer must not depend on it).
int overlappingPairs(const ParticleSystem& ps) {
    int overlapping = 0;
    for (std::size_t i = 0; i < ps.size(); ++i)
        for (std::size_t j = i + 1; j < ps.size(); ++j) {
            const ParticleType& ti = ps.types[ps.type[i]];
            const ParticleType& tj = ps.types[ps.type[j]];
            const double reach = ti.boundingRadius + tj.boundingRadius;
            if ((ps.position[i] - ps.position[j]).squaredNorm() > reach * reach) continue;
            const Pose pi{ps.position[i], ps.orientation[i]}, pj{ps.position[j], ps.orientation[j]};
            if (detectPairContact(ti.shape, pi, tj.shape, pj).contact
                || detectPairContact(tj.shape, pj, ti.shape, pi).contact)
                ++overlapping;
        }
    return overlapping;
}

// Particles that reach into the walls (exact wall narrow phase of the DEM step)
int cuttingWalls(const ParticleSystem& ps, const WallSet& walls) {
    int cutting = 0;
    for (std::size_t i = 0; i < ps.size(); ++i)
        if (wallPenetration(walls, ps.types[ps.type[i]].shape, Pose{ps.position[i], ps.orientation[i]}) > 0)
            ++cutting;
    return cutting;
}

// The domain tests a solver passes: the bounding sphere clear of the walls
// (conservative), else the posed body (exact).
SphereAdmissible sphereClearOf(const WallSet& walls) { return sphereClearOfWallSet(walls); }
BodyAdmissible bodyClearOf(const WallSet& walls, const ParticleSystem& ps) {
    return bodyClearOfWallSet(walls, ps.types);
}

// The domain's questions in the order injectRandom asks them: (centre,
// bounding radius) or a posed body's orientation. In a decomposed run they
// are collective, so a seed must ask the same ones. bodyQuestions counts
// the exact (posed-body) ones.
using Question = Eigen::Vector4d;
ParticleSystem injectRecordingQuestions(const Superellipsoid& shape, const InjectionSpec& spec,
                                        const WallSet& walls, std::vector<Question>& asked,
                                        long* bodyQuestions = nullptr) {
    ParticleSystem ps = oneType(shape);
    injectRandom(
        ps, spec, 0,
        [&](const Vec3& x, double R) {
            asked.push_back(Question(x.x(), x.y(), x.z(), R));
            return sphereClearOf(walls)(x, R);
        },
        [&](int t, const Pose& pose) {
            asked.push_back(pose.orientation.coeffs());
            if (bodyQuestions) ++*bodyQuestions;
            return bodyClearOf(walls, ps)(t, pose);
        });
    return ps;
}

} // namespace

class TrueShapePacking : public ::testing::TestWithParam<std::tuple<ShapeCase, int>> {};

std::string shapeAndSeed(const ::testing::TestParamInfo<TrueShapePacking::ParamType>& info) {
    return std::string(std::get<0>(info.param).name) + "Seed" + std::to_string(std::get<1>(info.param));
}

// 25 % solids by true volume in a closed box whose side is 10 particle lengths
// (the bounding spheres of the same particles would fill 55-150 % of it:
// random sequential placement of bounding spheres stops near 38 %).
TEST_P(TrueShapePacking, QuarterSolidsInABoxOfTenLengthsWithoutOverlap) {
    const auto& [shapeCase, seed] = GetParam();
    const Superellipsoid shape(shapeCase.a, shapeCase.b, shapeCase.c, shapeCase.eps1, shapeCase.eps2);
    ParticleSystem ps = oneType(shape);
    const double side = 10 * 2 * std::max({shape.a(), shape.b(), shape.c()});
    const WallSet walls(boxWalls(Vec3::Zero(), Vec3::Constant(side)));
    InjectionSpec spec;
    spec.region.min = Vec3::Zero();
    spec.region.max = Vec3::Constant(side);
    spec.count = static_cast<long>(std::ceil(0.25 * std::pow(side, 3) / shape.volume()));
    spec.typeFractions = {1.0};
    spec.seed = static_cast<std::uint64_t>(seed);
    ASSERT_NO_THROW(injectRandom(ps, spec, 0, sphereClearOf(walls), bodyClearOf(walls, ps)));
    ASSERT_EQ(static_cast<long>(ps.size()), spec.count);
    EXPECT_GE(ps.size() * shape.volume() / std::pow(side, 3), 0.25);
    EXPECT_EQ(overlappingPairs(ps), 0);
    EXPECT_EQ(cuttingWalls(ps, walls), 0);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, TrueShapePacking,
    ::testing::Values(
        std::make_tuple(ShapeCase{"flatBlock", 3e-3, 1.5e-3, 0.75e-3, 0.3, 0.2}, 1),
        std::make_tuple(ShapeCase{"cube", 1e-3, 1e-3, 1e-3, 0.2, 0.2}, 1),
        std::make_tuple(ShapeCase{"cube", 1e-3, 1e-3, 1e-3, 0.2, 0.2}, 2),
        std::make_tuple(ShapeCase{"cube", 1e-3, 1e-3, 1e-3, 0.2, 0.2}, 3),
        std::make_tuple(ShapeCase{"block", 2e-3, 1e-3, 1e-3, 0.2, 0.2}, 1),
        std::make_tuple(ShapeCase{"diamond", 1e-3, 1e-3, 1e-3, 1.8, 1.8}, 1),
        std::make_tuple(ShapeCase{"diamond", 1e-3, 1e-3, 1e-3, 1.8, 1.8}, 2),
        std::make_tuple(ShapeCase{"prolate", 2e-3, 1e-3, 1e-3, 1.0, 1.0}, 1),
        std::make_tuple(ShapeCase{"oblate", 4e-3, 4e-3, 1e-3, 1.0, 1.0}, 1),
        // aspect ratio 4: random orientations alone stop at 22-25 %; the
        // nearest neighbour's orientation takes them past 25 %
        std::make_tuple(ShapeCase{"plate", 4e-3, 4e-3, 1e-3, 0.2, 0.2}, 1),
        std::make_tuple(ShapeCase{"plate", 4e-3, 4e-3, 1e-3, 0.2, 0.2}, 2),
        std::make_tuple(ShapeCase{"bar", 4e-3, 1e-3, 1e-3, 0.2, 0.2}, 1),
        std::make_tuple(ShapeCase{"bar", 4e-3, 1e-3, 1e-3, 0.2, 0.2}, 2),
        // the pointed aspect-4 shape that comes closest to 25 % (25.4 %, 25 s)
        std::make_tuple(ShapeCase{"flatBipyramid", 4e-3, 2e-3, 1e-3, 1.8, 0.2}, 1),
        // flat lenses with pointed rims: random orientations (and neighbours'
        // ones) stop at 24.9 % and 22.2 %; injected again with every body
        // turned alike they pass 25 % (the lens 1.8/0.2 holds ~35 % so)
        std::make_tuple(ShapeCase{"lens", 4e-3, 4e-3, 1e-3, 1.8, 1.8}, 1),
        std::make_tuple(ShapeCase{"squareLens", 4e-3, 4e-3, 1e-3, 1.8, 0.2}, 1)),
    shapeAndSeed);

// The other pointed aspect-4 shapes (eps1 1.8): 10000-13000 particles each,
// 25-45 s apiece, so not in the regular suite (26-27 % measured), and the
// lenses with another seed; run with
//   build/core/tests/demTests --gtest_also_run_disabled_tests --gtest_filter='*Pointed*'
INSTANTIATE_TEST_SUITE_P(
    DISABLED_PointedShapes, TrueShapePacking,
    ::testing::Values(
        std::make_tuple(ShapeCase{"spindle", 4e-3, 1e-3, 1e-3, 1.8, 1.0}, 1),
        std::make_tuple(ShapeCase{"spindle", 4e-3, 1e-3, 1e-3, 1.8, 1.0}, 2),
        std::make_tuple(ShapeCase{"bipyramid", 4e-3, 1e-3, 1e-3, 1.8, 0.2}, 1),
        std::make_tuple(ShapeCase{"bipyramid", 4e-3, 1e-3, 1e-3, 1.8, 0.2}, 2),
        std::make_tuple(ShapeCase{"flatBipyramid", 4e-3, 2e-3, 1e-3, 1.8, 0.2}, 2),
        std::make_tuple(ShapeCase{"lens", 4e-3, 4e-3, 1e-3, 1.8, 1.8}, 2),
        std::make_tuple(ShapeCase{"squareLens", 4e-3, 4e-3, 1e-3, 1.8, 0.2}, 2)),
    shapeAndSeed);

// The case a user met: 500 flat blocks (their own volume 7 % of the region,
// their bounding spheres 46 %) stopped at 299 with bounding spheres.
TEST(TrueShapeInjection, FiveHundredFlatBlocksFitTheirColumn) {
    const Superellipsoid block(3e-3, 1.5e-3, 0.75e-3, 0.3, 0.2);
    ParticleSystem ps = oneType(block);
    const Vec3 lo(0, 0, 0), hi(0.029, 0.029, 0.18);
    const WallSet walls(boxWalls(lo, hi));
    InjectionSpec spec;
    spec.region.min = lo;
    spec.region.max = hi;
    spec.count = 500;
    spec.typeFractions = {1.0};
    ASSERT_NO_THROW(injectRandom(ps, spec, 0, sphereClearOf(walls), bodyClearOf(walls, ps)));
    EXPECT_EQ(ps.size(), 500u);
    EXPECT_EQ(overlappingPairs(ps), 0);
    EXPECT_EQ(cuttingWalls(ps, walls), 0);
}

// Walls inside the region: bodies come closer to a wall than their bounding
// radius (the exact wall test admits them) yet none cuts it.
TEST(TrueShapeInjection, BodiesNearAWallAreAdmittedByTheExactWallTest) {
    const Superellipsoid block(3e-3, 1.5e-3, 0.75e-3, 0.3, 0.2);
    ParticleSystem ps = oneType(block);
    // the domain is the lower half of the region: its lid cuts through it
    const double side = 0.04;
    const WallSet walls(boxWalls(Vec3::Zero(), Vec3(side, side, side / 2)));
    InjectionSpec spec;
    spec.region.max = Vec3::Constant(side);
    spec.count = 150;
    spec.typeFractions = {1.0};
    spec.seed = 5;
    const auto insideDomain = [&](const Vec3& x) { return x.z() < side / 2; };
    const SphereAdmissible sphere = [&](const Vec3& x, double R) {
        return insideDomain(x) && sphereClearOf(walls)(x, R);
    };
    const BodyAdmissible body = [&](int t, const Pose& pose) {
        return insideDomain(pose.position) && bodyClearOf(walls, ps)(t, pose);
    };
    ASSERT_NO_THROW(injectRandom(ps, spec, 0, sphere, body));
    EXPECT_EQ(cuttingWalls(ps, walls), 0);
    EXPECT_EQ(overlappingPairs(ps), 0);
    double nearestToLid = side;
    for (const Vec3& x : ps.position) nearestToLid = std::min(nearestToLid, side / 2 - x.z());
    EXPECT_LT(nearestToLid, 0.5 * block.boundingRadius());
}

TEST(TrueShapeInjection, TheSameSeedGivesTheSameParticlesAndTheDomainTheSameQuestions) {
    const Superellipsoid block(2e-3, 1e-3, 1e-3, 0.2, 0.2);
    const WallSet walls(boxWalls(Vec3::Zero(), Vec3::Constant(0.03)));
    InjectionSpec spec;
    spec.region.max = Vec3::Constant(0.03);
    spec.count = 300; // 15 % solids: near the walls many are posed exactly
    spec.typeFractions = {1.0};
    spec.seed = 11;
    // every processor of a decomposed run injects alone, and its domain
    // tests are collective: the questions asked must match as the particles do
    long bodyQuestions = 0;
    const auto run = [&](std::vector<Question>& asked) {
        return injectRecordingQuestions(block, spec, walls, asked, &bodyQuestions);
    };
    std::vector<Question> asked1, asked2;
    const ParticleSystem a = run(asked1), b = run(asked2);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a.position[i], b.position[i]);
        EXPECT_EQ(a.orientation[i].coeffs(), b.orientation[i].coeffs());
    }
    EXPECT_EQ(asked1, asked2);
    EXPECT_GT(bodyQuestions, 0); // the exact path was taken
    spec.seed = 12;
    ParticleSystem c = oneType(block);
    injectRandom(c, spec, 0);
    EXPECT_NE(a.position[0], c.position[0]);
}

// Where random orientations jam (here flat lenses with pointed rims in a
// box of 5 lengths, 1000 trial positions each: random orientations stop
// short of 25 %), the
// injection starts again with the bodies of that type turned alike: parallel
// translates pack far denser. Still no overlap by the narrow phase, none
// cutting a wall, and a seed asks the domain the same questions (collective
// in a decomposed run). Without alignWithNeighbours orientations stay random.
TEST(TrueShapeInjection, WhereRandomOrientationsJamTheBodiesAreTurnedAlike) {
    const Superellipsoid lens(4e-3, 4e-3, 1e-3, 1.8, 0.2);
    const double side = 5 * 8e-3;
    const WallSet walls(boxWalls(Vec3::Zero(), Vec3::Constant(side)));
    InjectionSpec spec;
    spec.region.max = Vec3::Constant(side);
    spec.count = static_cast<long>(std::ceil(0.25 * std::pow(side, 3) / lens.volume()));
    spec.typeFractions = {1.0};
    spec.maxAttemptsPerParticle = 1000; // (jams sooner: a faster test)
    const auto run = [&](std::vector<Question>& asked) {
        return injectRecordingQuestions(lens, spec, walls, asked);
    };
    std::vector<Question> asked1, asked2;
    ParticleSystem a = oneType(lens);
    ASSERT_NO_THROW(a = run(asked1));
    ASSERT_EQ(static_cast<long>(a.size()), spec.count);
    for (const Quat& q : a.orientation) ASSERT_EQ(q.coeffs(), Quat::Identity().coeffs());
    EXPECT_EQ(overlappingPairs(a), 0);
    EXPECT_EQ(cuttingWalls(a, walls), 0);
    const ParticleSystem b = run(asked2);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a.position[i], b.position[i]);
    EXPECT_EQ(asked1, asked2);

    spec.alignWithNeighbours = false;
    ParticleSystem c = oneType(lens);
    try {
        injectRandom(c, spec, 0, sphereClearOf(walls), bodyClearOf(walls, c));
        FAIL() << "randomly turned lenses filled 25 % of a box of 5 lengths";
    } catch (const RandomInjectionError& err) {
        EXPECT_EQ(c.size(), 0u);
        EXPECT_EQ(std::string(err.what()).find("turned alike"), std::string::npos) << err.what();
    }
}

// Spheres take the bounding-sphere path unchanged: the placements of the
// injection before true-shape packing, to the last bit (values printed by
// that version for this input).
TEST(TrueShapeInjection, SpheresArePlacedAsByTheBoundingSphereInjection) {
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(0.005, 0.005, 0.005, 1, 1), 1000.0);
    ps.types.emplace_back(Superellipsoid(0.003, 0.003, 0.003, 1, 1), 1000.0);
    InjectionSpec spec;
    spec.count = 200;
    spec.typeFractions = {2, 1};
    spec.seed = 7;
    spec.region.max = Vec3(0.06, 0.06, 0.1);
    injectRandom(ps, spec, 0, [](const Vec3& x, double R) { return x.x() + R < 0.02 || x.y() > 0.0; });
    ASSERT_EQ(ps.size(), 200u);
    EXPECT_EQ(ps.type[0], 1);
    EXPECT_EQ(ps.position[0], Vec3(0.054262264956202781, 0.0093403711758639728, 0.086839838610972775));
    EXPECT_EQ(ps.position[99], Vec3(0.023716145569300188, 0.051373085610696437, 0.021555174337719307));
    EXPECT_EQ(ps.position[199], Vec3(0.00523293654010665, 0.046124807709027257, 0.096262723370875436));
    EXPECT_EQ(ps.orientation[199].coeffs(),
              Quat(0.63474106246555173, 0.55469474708107458, -0.42381615107992643,
                   -0.33135689409541841)
                  .coeffs());
}

// Too many for the region: the error names how many fit and why the next did not.
TEST(TrueShapeInjection, AFullRegionIsNamedWithTheOrientationsTried) {
    const Superellipsoid block(3e-3, 1.5e-3, 0.75e-3, 0.3, 0.2);
    ParticleSystem ps = oneType(block);
    InjectionSpec spec;
    spec.region.max = Vec3(0.02, 0.02, 0.02);
    spec.count = 1000;
    spec.typeFractions = {1.0};
    spec.maxAttemptsPerParticle = 300;
    try {
        injectRandom(ps, spec, 0);
        FAIL() << "1000 blocks (3 times the box's volume) were placed";
    } catch (const RandomInjectionError& err) {
        EXPECT_EQ(ps.size(), 0u);
        const InjectionRejections& why = err.rejections();
        EXPECT_GT(why.placed, 0);
        EXPECT_EQ(why.trials, 300);
        EXPECT_EQ(why.overlapping + why.outsideRegion, 300);
        EXPECT_GT(why.overlapping, 0);
        const std::string msg = err.what();
        EXPECT_NE(msg.find(std::to_string(why.placed) + " of 1000 particles placed"), std::string::npos) << msg;
        EXPECT_NE(msg.find("in each of the 4 orientations tried and in its nearest neighbour's"),
                  std::string::npos)
            << msg;
        EXPECT_NE(msg.find("enlarge the region or inject fewer particles"), std::string::npos) << msg;
        // (turned alike, more fit, yet not 1000)
        EXPECT_NE(msg.find("all turned alike (body axes along the coordinate axes), "), std::string::npos) << msg;
    }
}

// A slab thinner than the block's middle axis but thicker than its thinnest:
// centres can be drawn, yet no orientation fits (only those within the
// slab's 2 degrees of freedom would; random ones never do exactly).
TEST(TrueShapeInjection, ARegionTooThinForTheBodyIsNamed) {
    const Superellipsoid block(3e-3, 1.5e-3, 0.75e-3, 0.3, 0.2);
    ParticleSystem ps = oneType(block);
    InjectionSpec spec;
    spec.region.max = Vec3(0.05, 0.05, 2 * 0.76e-3);
    spec.count = 1;
    spec.typeFractions = {1.0};
    spec.maxAttemptsPerParticle = 200;
    try {
        injectRandom(ps, spec, 0);
        FAIL() << "a block was placed flat in a slab it barely fits";
    } catch (const RandomInjectionError& err) {
        EXPECT_EQ(err.rejections().outsideRegion, 200);
        EXPECT_NE(std::string(err.what()).find("200 crossed the region's boundary"), std::string::npos)
            << err.what();
    }
    // thinner than its thinnest side: no centre at all
    spec.region.max.z() = 1.4e-3;
    try {
        injectRandom(ps, spec, 0);
        FAIL() << "a block was placed in a slab thinner than it";
    } catch (const RandomInjectionError& err) {
        EXPECT_TRUE(err.rejections().regionTooSmall);
        EXPECT_NE(std::string(err.what()).find("region is too small"), std::string::npos) << err.what();
    }
}
