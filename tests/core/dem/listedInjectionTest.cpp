// injectListed: exact overlap test with a tolerated overlap (a settled bed
// rests with small overlaps); the system stays unchanged on failure.
#include <gtest/gtest.h>

#include <stdexcept>

#include "dem/injection/RandomInjection.hpp"

using namespace sef;
using namespace sef::dem;

namespace {
std::vector<ListedParticle> touchingPair(double r, double overlap) {
    ListedParticle a, b;
    b.position = Vec3(2.0 * r - overlap, 0, 0);
    return {a, b};
}
} // namespace

TEST(ListedInjection, ToleratedOverlapIsAFractionOfTheEquivalentDiameter) {
    const double r = 0.005, d = 2 * r;
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(r, r, r, 1.0, 1.0), 1000.0);
    // resting contact of a settled bed: 1e-4 d_eq
    EXPECT_THROW(injectListed(ps, touchingPair(r, 1e-4 * d), 0), InjectionError);
    EXPECT_EQ(ps.size(), 0u);
    injectListed(ps, touchingPair(r, 1e-4 * d), 0, {}, 1e-2);
    EXPECT_EQ(ps.size(), 2u);
    // deeper than tolerated: refused, nothing added
    ParticleSystem deep;
    deep.types = ps.types;
    EXPECT_THROW(injectListed(deep, touchingPair(r, 2e-2 * d), 0, {}, 1e-2), InjectionError);
    EXPECT_EQ(deep.size(), 0u);
    EXPECT_THROW(injectListed(deep, touchingPair(r, 0.0), 0, {}, -1.0), std::invalid_argument);
}
