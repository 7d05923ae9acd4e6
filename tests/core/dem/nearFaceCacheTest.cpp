// NearFaceCache answers exactly like WallSet::facesNear while particles
// wander near the walls of a cylinder mesh (small steps: lists reused; jumps
// and segment spheres of push-back queries: recomputed as needed).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "DemTestSupport.hpp"
#include "dem/engine/NearFaceCache.hpp"

using namespace sef;
using namespace sef::dem;

TEST(NearFaceCache, SameFacesAsTheWallSet) {
    const WallSet w(dem::test::cylinderWalls(0.0285, 0.1, 48));
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

// The engine renumbers its bodies (spatial order) and carries the cache
// entries along with permute: answers stay exact whichever slot a particle
// is queried at, with or without the permutation that matches.
TEST(NearFaceCache, PermutedEntriesAnswerExactly) {
    const WallSet w(dem::test::cylinderWalls(0.0285, 0.1, 48));
    std::mt19937 rng(4);
    std::uniform_real_distribution<double> ux(-0.03, 0.03), uz(-0.005, 0.105), unit(-1.0, 1.0);
    const double r = 0.004;
    const std::size_t n = 120;
    std::vector<Vec3> x(n);
    for (Vec3& c : x) c = Vec3(ux(rng), ux(rng), uz(rng));
    std::vector<std::size_t> slotOf(n); // particle -> slot
    for (std::size_t i = 0; i < n; ++i) slotOf[i] = i;
    NearFaceCache cache;
    for (int step = 0; step < 60; ++step) {
        // new slots: a random permutation, announced to the cache on even steps only
        std::vector<std::size_t> particleAt(n);
        for (std::size_t i = 0; i < n; ++i) particleAt[i] = i;
        std::shuffle(particleAt.begin(), particleAt.end(), rng);
        std::vector<std::size_t> fromSlot(n);
        for (std::size_t k = 0; k < n; ++k) fromSlot[k] = slotOf[particleAt[k]];
        const bool announced = step % 2 == 0;
        if (announced) cache.permute(fromSlot);
        for (std::size_t k = 0; k < n; ++k) slotOf[particleAt[k]] = k;
        const long before = cache.recomputations();
        for (std::size_t k = 0; k < n; ++k) {
            const std::size_t i = particleAt[k];
            x[i] += 2e-5 * Vec3(unit(rng), unit(rng), unit(rng));
            std::vector<int> got, expected;
            cache.facesNear(w, k, static_cast<std::int64_t>(i), r, x[i], r, got);
            w.facesNear(x[i], r, expected);
            ASSERT_EQ(got, expected) << "step " << step << " particle " << i;
        }
        // moves of 2e-5 m stay inside the 0.4 mm skin: a carried entry
        // answers; an entry left at the old slot names another particle
        const long made = cache.recomputations() - before;
        if (step > 0 && announced) {
            EXPECT_EQ(made, 0) << "step " << step;
        }
        if (!announced) {
            EXPECT_GT(made, long(n) * 9 / 10) << "step " << step;
        }
    }
}

// A fine wall mesh: a particle reaches dozens of faces (more than an entry
// holds inline); the answers stay those of the wall set.
TEST(NearFaceCache, ManyFacesPerParticle) {
    const WallSet w(boxWalls(Vec3::Zero(), Vec3(0.04, 0.04, 0.04), 32)); // faces of 1.25 mm
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> u(-0.002, 0.042), unit(-1.0, 1.0);
    const double r = 0.004;
    std::vector<Vec3> x(100);
    for (Vec3& c : x) c = Vec3(u(rng), u(rng), u(rng));
    NearFaceCache cache;
    std::size_t most = 0;
    for (int step = 0; step < 50; ++step)
        for (std::size_t i = 0; i < x.size(); ++i) {
            x[i] += 1e-4 * Vec3(unit(rng), unit(rng), unit(rng));
            std::vector<int> got, expected;
            cache.facesNear(w, i, static_cast<std::int64_t>(i), r, x[i], r, got);
            w.facesNear(x[i], r, expected);
            ASSERT_EQ(got, expected) << "step " << step << " particle " << i;
            most = std::max(most, got.size());
        }
    EXPECT_GT(most, 20u);
}

// The cached distances decide most faces without the exact test (d -+ s
// against the radius, with a margin); a sphere that grazes a face, its
// distance within round-off of the radius, must still get the exact test's
// answer. A box floor (z = 0): centres at heights r (1 + delta) for deltas
// from -1e-8 to 1e-8 (inside the margin and out), moved in tiny steps from
// an entry made at another height, so the floor is in, out, or undecided by
// the bounds.
TEST(NearFaceCache, GrazingSpheresGetTheExactAnswer) {
    const WallSet w(boxWalls(Vec3::Zero(), Vec3(0.04, 0.04, 0.04)));
    const double r = 0.004;
    long inside = 0, outside = 0;
    for (int start = -2; start <= 2; ++start) {
        NearFaceCache cache;
        const Vec3 base(0.02, 0.02, r * (1.0 + 1e-3 * start)); // the entry's centre
        std::vector<int> got, expected;
        cache.facesNear(w, 0, 7, r, base, r, got);
        for (int k = -40; k <= 40; ++k) {
            const double delta = 1e-8 * k / 20.0; // -2e-8 .. 2e-8
            const Vec3 centre(0.02 + 1e-9 * k, 0.02, r * (1.0 + delta));
            got.clear();
            expected.clear();
            cache.facesNear(w, 0, 7, r, centre, r, got);
            w.facesNear(centre, r, expected);
            ASSERT_EQ(got, expected) << "start " << start << " k " << k;
            const bool floor = !expected.empty();
            (floor ? inside : outside) += 1;
        }
    }
    // both answers occur: the grazing band was crossed
    EXPECT_GT(inside, 0);
    EXPECT_GT(outside, 0);
}
