#pragma once
// Broad phase: uniform cell grid (linked cells; [Superquadric-LIGGGHTS], "Neighbor search";
// [Polyhedra-DEM], linked cells). Particles are binned by their centre into cubic
// cells of edge >= the largest bounding-sphere diameter (+ margin), so every
// pair whose bounding spheres overlap lies in the same or in adjacent cells.
// Candidate pairs are found in O(N) for a bounded number density.
//
// Storage is the cache-friendly form of a linked-cell list: a counting sort
// of particle indices by cell (cellStart / sortedIndex, CSR layout).
//
//   CellGrid grid;
//   grid.build(centres, radii);              // bounding radii of the shapes
//   grid.forEachCandidatePair([&](int i, int j) { ... detectPairContact ... });
#include "geometry/Types.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace sef {

class CellGrid {
public:
    // margin widens every sphere (e.g. the distance particles may travel
    // before the next rebuild). Throws std::invalid_argument if sizes differ,
    // a radius is negative or a coordinate is not finite.
    void build(const std::vector<Vec3>& centres, const std::vector<double>& radii,
               double margin = 0.0);

    // visit(i, j) with i < j, once per pair whose inflated bounding spheres
    // overlap: |x_i - x_j| <= r_i + r_j + margin.
    template <class Visitor> void forEachCandidatePair(Visitor&& visit) const;

    std::vector<std::pair<int, int>> candidatePairs() const;

    // visit(i) for every particle whose inflated sphere may reach the sphere
    // (centre, radius): used for wall faces (bounding sphere of the face).
    template <class Visitor> void forEachNear(const Vec3& centre, double radius, Visitor&& visit) const;

    // Cell of particle i; candidate pairs of i are visited by ascending cell.
    int cellOfParticle(int i) const { return cellOfParticle_[static_cast<std::size_t>(i)]; }

    double cellSize() const { return cellSize_; }
    std::size_t cellCount() const { return cellStart_.empty() ? 0 : cellStart_.size() - 1; }

private:
    std::int64_t cellOf(const Vec3& x, int& ix, int& iy, int& iz) const;

    std::vector<Vec3> centres_;
    std::vector<double> radii_;
    double margin_ = 0.0;
    double maxRadius_ = 0.0;
    double cellSize_ = 1.0;
    Vec3 origin_ = Vec3::Zero();
    int dims_[3] = {1, 1, 1};
    std::vector<int> cellStart_;   // size cells + 1
    std::vector<int> sortedIndex_; // particle indices grouped by cell
    std::vector<int> cellOfParticle_;
};

template <class Visitor> void CellGrid::forEachCandidatePair(Visitor&& visit) const {
    const int n = static_cast<int>(centres_.size());
    for (int i = 0; i < n; ++i) {
        const int c = cellOfParticle_[i];
        const int ix = c % dims_[0], iy = (c / dims_[0]) % dims_[1], iz = c / (dims_[0] * dims_[1]);
        for (int dz = -1; dz <= 1; ++dz) {
            const int z = iz + dz;
            if (z < 0 || z >= dims_[2]) continue;
            for (int dy = -1; dy <= 1; ++dy) {
                const int y = iy + dy;
                if (y < 0 || y >= dims_[1]) continue;
                for (int dx = -1; dx <= 1; ++dx) {
                    const int x = ix + dx;
                    if (x < 0 || x >= dims_[0]) continue;
                    const int cell = x + dims_[0] * (y + dims_[1] * z);
                    for (int k = cellStart_[cell]; k < cellStart_[cell + 1]; ++k) {
                        const int j = sortedIndex_[k];
                        if (j <= i) continue;
                        const double reach = radii_[i] + radii_[j] + margin_;
                        if ((centres_[j] - centres_[i]).squaredNorm() <= reach * reach) visit(i, j);
                    }
                }
            }
        }
    }
}

template <class Visitor>
void CellGrid::forEachNear(const Vec3& centre, double radius, Visitor&& visit) const {
    if (centres_.empty()) return;
    const double reachMax = radius + maxRadius_ + margin_;
    int lo[3], hi[3];
    for (int d = 0; d < 3; ++d) {
        lo[d] = static_cast<int>(std::floor((centre[d] - reachMax - origin_[d]) / cellSize_));
        hi[d] = static_cast<int>(std::floor((centre[d] + reachMax - origin_[d]) / cellSize_));
        lo[d] = std::max(lo[d], 0);
        hi[d] = std::min(hi[d], dims_[d] - 1);
        if (lo[d] > hi[d]) return;
    }
    for (int z = lo[2]; z <= hi[2]; ++z)
        for (int y = lo[1]; y <= hi[1]; ++y)
            for (int x = lo[0]; x <= hi[0]; ++x) {
                const int cell = x + dims_[0] * (y + dims_[1] * z);
                for (int k = cellStart_[cell]; k < cellStart_[cell + 1]; ++k) {
                    const int j = sortedIndex_[k];
                    const double reach = radius + radii_[j] + margin_;
                    if ((centres_[j] - centre).squaredNorm() <= reach * reach) visit(j);
                }
            }
}

} // namespace sef
