// injectRandom says why it failed: the next particle's trial positions are
// counted as outside the domain (the caller's admissible test) or as
// overlapping particles already placed, and the message names the cause
// (a region outside the mesh is not reported as "could place only 0
// of 10 without overlap").
#include <gtest/gtest.h>

#include <string>

#include "dem/injection/RandomInjection.hpp"

using namespace sef;
using namespace sef::dem;

namespace {

constexpr double r = 0.005;

ParticleSystem spheres() {
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(r, r, r, 1.0, 1.0), 1000.0);
    return ps;
}

InjectionSpec boxSpec(double side, long count, long attempts) {
    InjectionSpec spec;
    spec.region.min = Vec3::Zero();
    spec.region.max = Vec3::Constant(side);
    spec.count = count;
    spec.typeFractions = {1.0};
    spec.maxAttemptsPerParticle = attempts;
    return spec;
}

// The error of a failing injection; the system must stay unchanged
RandomInjectionError failure(const InjectionSpec& spec,
                             const std::function<bool(const Vec3&, double)>& admissible = {}) {
    ParticleSystem ps = spheres();
    try {
        injectRandom(ps, spec, 0, admissible);
    } catch (const RandomInjectionError& err) {
        EXPECT_EQ(ps.size(), 0u);
        return err;
    }
    ADD_FAILURE() << "injectRandom did not throw";
    return RandomInjectionError("", {});
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

TEST(RandomInjectionRejections, ARegionOutsideTheDomainIsNamedAsSuch) {
    // every position refused, as a region outside the mesh would be
    const RandomInjectionError err = failure(boxSpec(0.1, 10, 2000), [](const Vec3&, double) {
        return false;
    });
    const InjectionRejections& why = err.rejections();
    EXPECT_EQ(why.placed, 0);
    EXPECT_EQ(why.trials, 2000);
    EXPECT_EQ(why.inadmissible, 2000);
    EXPECT_EQ(why.overlapping, 0);
    EXPECT_FALSE(why.regionTooSmall);
    const std::string msg = err.what();
    EXPECT_TRUE(contains(msg, "0 of 10 particles placed")) << msg;
    EXPECT_TRUE(contains(msg, "2000 of 2000 trial positions")) << msg;
    EXPECT_TRUE(contains(msg, "outside the domain or cut a wall")) << msg;
    EXPECT_TRUE(contains(msg, "is the region inside the mesh")) << msg;
    EXPECT_FALSE(contains(msg, "inject fewer")) << msg;
}

TEST(RandomInjectionRejections, AFullRegionIsNamedAsOverlap) {
    // a box 3 bounding diameters wide holds at most 27 spheres on a lattice
    // and far fewer at random: 100 cannot fit, and nothing is outside
    const RandomInjectionError err = failure(boxSpec(6 * r, 100, 500));
    const InjectionRejections& why = err.rejections();
    EXPECT_GT(why.placed, 0);
    EXPECT_LT(why.placed, 28);
    EXPECT_EQ(why.trials, 500);
    EXPECT_EQ(why.overlapping, 500);
    EXPECT_EQ(why.inadmissible, 0);
    const std::string msg = err.what();
    EXPECT_TRUE(contains(msg, std::to_string(why.placed) + " of 100 particles placed")) << msg;
    EXPECT_TRUE(contains(msg, "500 overlapped")) << msg;
    EXPECT_TRUE(contains(msg, "enlarge the region or inject fewer particles")) << msg;
    EXPECT_FALSE(contains(msg, "is the region inside the mesh")) << msg;
}

TEST(RandomInjectionRejections, BothCausesAreCountedApart) {
    // half of the box (x > side/2) is outside the domain; the other half fills
    const double side = 8 * r;
    const RandomInjectionError err =
        failure(boxSpec(side, 200, 400), [&](const Vec3& x, double) { return x.x() < side / 2; });
    const InjectionRejections& why = err.rejections();
    EXPECT_EQ(why.trials, 400);
    EXPECT_EQ(why.inadmissible + why.overlapping, 400);
    EXPECT_GT(why.inadmissible, 0);
    EXPECT_GT(why.overlapping, 0);
    const std::string msg = err.what();
    EXPECT_TRUE(contains(msg, std::to_string(why.inadmissible) + " of 400 trial positions")) << msg;
    EXPECT_TRUE(contains(msg, std::to_string(why.overlapping) + " overlapped")) << msg;
    EXPECT_TRUE(contains(msg, "(inside the mesh)")) << msg;
}

TEST(RandomInjectionRejections, ARegionSmallerThanAParticleIsNamed) {
    const RandomInjectionError err = failure(boxSpec(1.5 * r, 3, 100));
    EXPECT_TRUE(err.rejections().regionTooSmall);
    EXPECT_EQ(err.rejections().trials, 0);
    EXPECT_TRUE(contains(err.what(), "region is too small")) << err.what();
}

TEST(RandomInjectionRejections, ASuccessfulInjectionIsUnchanged) {
    // the counting does not change which positions are accepted: the same
    // seed gives the same packing as an admissible test that accepts all
    ParticleSystem a = spheres(), b = spheres();
    injectRandom(a, boxSpec(0.1, 20, 1000), 0);
    injectRandom(b, boxSpec(0.1, 20, 1000), 0, [](const Vec3&, double) { return true; });
    ASSERT_EQ(a.size(), 20u);
    ASSERT_EQ(b.size(), 20u);
    for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a.position[i], b.position[i]);
}
