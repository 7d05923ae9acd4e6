// The Verlet pair list visits exactly the pairs of CellGrid (margin 0), in
// the same order, while particles drift (small moves: the list is reused;
// large moves and a changed identity: it is rebuilt).
#include "contact/VerletPairList.hpp"

#include <gtest/gtest.h>

#include <random>

namespace sef {
namespace {

std::vector<std::pair<int, int>> gridPairs(const std::vector<Vec3>& x, const std::vector<double>& r) {
    CellGrid grid;
    grid.build(x, r);
    return grid.candidatePairs();
}

TEST(VerletPairList, SamePairsInTheSameOrderAsTheCellGrid) {
    std::mt19937 rng(23);
    std::uniform_real_distribution<double> pos(0.0, 0.1), rad(0.002, 0.005), unit(-1.0, 1.0);
    std::vector<Vec3> x(1500);
    std::vector<double> r(x.size());
    std::vector<std::int64_t> id(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
        x[i] = Vec3(pos(rng), pos(rng), 0.5 * pos(rng));
        r[i] = rad(rng);
        id[i] = static_cast<std::int64_t>(i);
    }
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

} // namespace
} // namespace sef
