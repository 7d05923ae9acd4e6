// The Verlet pair list visits exactly the pairs of CellGrid (margin 0), in
// the same order, while particles drift (small moves: the list is reused;
// large moves and a changed identity: it is rebuilt).
#include "contact/VerletPairList.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace sef {
namespace {

std::vector<std::pair<int, int>> gridPairs(const std::vector<Vec3>& x, const std::vector<double>& r) {
    CellGrid grid;
    grid.build(x, r);
    return grid.candidatePairs();
}

// n particles at random in a 0.1 x 0.1 x 0.05 m box, radii 2-5 mm, ids
// firstId + idStride k.
struct Particles {
    std::vector<Vec3> x;
    std::vector<double> r;
    std::vector<std::int64_t> id;
};

Particles randomParticles(std::size_t n, std::mt19937& rng, std::int64_t firstId, std::int64_t idStride) {
    std::uniform_real_distribution<double> pos(0.0, 0.1), rad(0.002, 0.005);
    Particles p{std::vector<Vec3>(n), std::vector<double>(n), std::vector<std::int64_t>(n)};
    for (std::size_t i = 0; i < n; ++i) {
        p.x[i] = Vec3(pos(rng), pos(rng), 0.5 * pos(rng));
        p.r[i] = rad(rng);
        p.id[i] = firstId + idStride * static_cast<std::int64_t>(i);
    }
    return p;
}

TEST(VerletPairList, SamePairsInTheSameOrderAsTheCellGrid) {
    std::mt19937 rng(23);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    auto [x, r, id] = randomParticles(1500, rng, 0, 1);
    VerletPairList list(0.1); // skin 0.5 mm
    for (int step = 0; step < 60; ++step) {
        // steps 0-39: moves of 20 um (several per rebuild); then 1 mm jumps
        const double move = step < 40 ? 2e-5 : 1e-3;
        for (Vec3& c : x) c += move * Vec3(unit(rng), unit(rng), unit(rng)).normalized();
        if (step == 50) std::swap(id[3], id[7]); // another particle order
        std::vector<std::pair<int, int>> visited;
        list.forEachCandidatePair(x, r, id, [&](int i, int j) { visited.emplace_back(i, j); });
        ASSERT_EQ(visited, gridPairs(x, r)) << "step " << step;
        ASSERT_GT(visited.size(), 500u);
    }
    EXPECT_GE(list.rebuilds(), 20 + 1); // every jump, and the new order
    EXPECT_LE(list.rebuilds(), 10 + 20 + 1); // drift: reused for several steps
}

// Large systems are processed in a spatial order that changes from step to
// step (dem/engine/DemEngine.cpp): the same particles in another order, moved by
// less than the skin, keep the list (no rebuild) and still give exactly the
// cell grid's pairs in its order. Ids need not be compact (a sorted lookup
// then) and a repeated id forces a rebuild.
TEST(VerletPairList, ReorderedParticlesKeepTheList) {
    for (const std::int64_t idStride : {1, 1000}) {
        std::mt19937 rng(5);
        std::uniform_real_distribution<double> unit(-1.0, 1.0);
        auto [x, r, id] = randomParticles(1200, rng, 7, idStride);
        VerletPairList list(0.1);
        std::vector<std::size_t> perm(x.size());
        for (int step = 0; step < 12; ++step) {
            for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = i;
            std::shuffle(perm.begin(), perm.end(), rng);
            std::vector<Vec3> px(x.size());
            std::vector<double> pr(x.size());
            std::vector<std::int64_t> pid(x.size());
            for (std::size_t k = 0; k < perm.size(); ++k) {
                x[perm[k]] += 1e-5 * Vec3(unit(rng), unit(rng), unit(rng)).normalized();
                px[k] = x[perm[k]];
                pr[k] = r[perm[k]];
                pid[k] = id[perm[k]];
            }
            std::vector<std::pair<int, int>> visited;
            list.forEachCandidatePair(px, pr, pid, [&](int i, int j) { visited.emplace_back(i, j); });
            ASSERT_EQ(visited, gridPairs(px, pr)) << "step " << step << ", id stride " << idStride;
            ASSERT_GT(visited.size(), 300u);
        }
        EXPECT_EQ(list.rebuilds(), 1) << "id stride " << idStride; // 12 orders, 0.12 mm < skin/2 in all
        // a repeated identity cannot be mapped: rebuilt
        std::vector<std::int64_t> twice = id;
        twice[5] = twice[6];
        list.forEachCandidatePair(x, r, twice, [](int, int) {});
        EXPECT_EQ(list.rebuilds(), 2);
        std::vector<std::pair<int, int>> visited;
        list.forEachCandidatePair(x, r, twice, [&](int i, int j) { visited.emplace_back(i, j); });
        EXPECT_EQ(visited, gridPairs(x, r));
    }
}

} // namespace
} // namespace sef
