// NearFaceCache answers exactly like WallSet::facesNear while particles
// wander near the walls of a cylinder mesh (small steps: lists reused; jumps
// and segment spheres of push-back queries: recomputed as needed).
#include <gtest/gtest.h>

#include <random>

#include "DemTestSupport.hpp"
#include "dem/NearFaceCache.hpp"

using namespace sef;
using namespace sef::dem;

TEST(NearFaceCache, SameFacesAsTheWallSet) {
    const WallSet w(test::cylinderWalls(0.0285, 0.1, 48));
    std::mt19937 rng(9);
    std::uniform_real_distribution<double> ux(-0.03, 0.03), uz(-0.005, 0.105), unit(-1.0, 1.0);
    const double r = 0.004;
    std::vector<Vec3> x(200);
    for (Vec3& c : x) c = Vec3(ux(rng), ux(rng), uz(rng));
    NearFaceCache cache;
    long hits = 0;
    for (int step = 0; step < 200; ++step) {
        const double move = step % 50 == 49 ? 5e-3 : 2e-5; // occasional jumps
        for (std::size_t i = 0; i < x.size(); ++i) {
            const Vec3 before = x[i];
            x[i] += move * Vec3(unit(rng), unit(rng), unit(rng));
            const std::int64_t id = step < 150 ? i : 1000 + i; // new identities late
            std::vector<int> got, expected;
            cache.facesNear(w, i, id, r, x[i], r, got);
            w.facesNear(x[i], r, expected);
            ASSERT_EQ(got, expected) << "step " << step << " particle " << i;
            hits += !got.empty();
            // the push-back query: the sphere around the substep's segment
            const Vec3 mid = 0.5 * (before + x[i]);
            const double half = 0.5 * (x[i] - before).norm();
            got.clear();
            expected.clear();
            cache.facesNear(w, i, id, r, mid, half, got);
            w.facesNear(mid, half, expected);
            ASSERT_EQ(got, expected) << "segment, step " << step << " particle " << i;
        }
    }
    EXPECT_GT(hits, 5000); // the test exercises faces, not only misses
}
