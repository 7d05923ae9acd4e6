// The cell grid finds exactly the pairs of overlapping bounding spheres
// (compared with the O(N^2) all-pairs loop), and rejects bad input.
#include "contact/CellGrid.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace sef {
namespace {

TEST(CellGrid, FindsExactlyTheOverlappingSpheres) {
    std::mt19937 rng(21);
    std::uniform_real_distribution<double> pos(0.0, 0.2), rad(0.002, 0.01);
    std::vector<Vec3> x(2000);
    std::vector<double> r(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
        x[i] = Vec3(pos(rng), pos(rng), 0.5 * pos(rng));
        r[i] = rad(rng);
    }
    for (double margin : {0.0, 0.003}) {
        CellGrid grid;
        grid.build(x, r, margin);
        auto pairs = grid.candidatePairs();
        std::sort(pairs.begin(), pairs.end());
        std::vector<std::pair<int, int>> brute;
        for (int i = 0; i < int(x.size()); ++i)
            for (int j = i + 1; j < int(x.size()); ++j)
                if ((x[i] - x[j]).norm() <= r[i] + r[j] + margin) brute.emplace_back(i, j);
        EXPECT_EQ(pairs, brute) << "margin " << margin;
        EXPECT_GT(brute.size(), 100u);
    }
}

TEST(CellGrid, ForEachNearMatchesBruteForce) {
    std::mt19937 rng(22);
    std::uniform_real_distribution<double> pos(-1.0, 1.0);
    std::vector<Vec3> x(500);
    std::vector<double> r(x.size(), 0.05);
    for (auto& p : x) p = Vec3(pos(rng), pos(rng), pos(rng));
    CellGrid grid;
    grid.build(x, r);
    const Vec3 c(0.1, -0.2, 0.3);
    std::vector<int> found;
    grid.forEachNear(c, 0.3, [&](int i) { found.push_back(i); });
    std::sort(found.begin(), found.end());
    std::vector<int> brute;
    for (int i = 0; i < int(x.size()); ++i)
        if ((x[i] - c).norm() <= 0.3 + r[i]) brute.push_back(i);
    EXPECT_EQ(found, brute);
}

TEST(CellGrid, RejectsBadInput) {
    CellGrid grid;
    EXPECT_THROW(grid.build({Vec3::Zero()}, {}), std::invalid_argument);
    EXPECT_THROW(grid.build({Vec3::Zero()}, {-1.0}), std::invalid_argument);
    EXPECT_THROW(grid.build({Vec3(NAN, 0, 0)}, {1.0}), std::invalid_argument);
    grid.build({}, {});
    EXPECT_TRUE(grid.candidatePairs().empty());
}

} // namespace
} // namespace sef
