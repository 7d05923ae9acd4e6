#include "contact/CellGrid.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace sef {

void CellGrid::build(const std::vector<Vec3>& centres, const std::vector<double>& radii,
                     double margin) {
    if (centres.size() != radii.size())
        throw std::invalid_argument("CellGrid::build: centres and radii differ in size");
    if (!(margin >= 0.0)) throw std::invalid_argument("CellGrid::build: margin must be >= 0");
    centres_ = centres;
    radii_ = radii;
    margin_ = margin;
    const int n = static_cast<int>(centres.size());
    Vec3 lo = Vec3::Constant(0.0), hi = Vec3::Constant(0.0);
    double rMax = 0.0;
    for (int i = 0; i < n; ++i) {
        if (!isFinite(centres[i]))
            throw std::invalid_argument("CellGrid::build: centre " + std::to_string(i) +
                                        " is not finite");
        if (!(radii[i] >= 0.0))
            throw std::invalid_argument("CellGrid::build: radius " + std::to_string(i) +
                                        " must be >= 0");
        lo = i == 0 ? centres[i] : Vec3(lo.cwiseMin(centres[i]));
        hi = i == 0 ? centres[i] : Vec3(hi.cwiseMax(centres[i]));
        rMax = std::max(rMax, radii[i]);
    }
    // Cell edge: the largest possible reach of a pair, so neighbours are
    // within one cell. Grow it if a sparse cloud would need too many cells.
    maxRadius_ = rMax;
    cellSize_ = std::max(2.0 * rMax + margin, 1e-300);
    const Vec3 extent = hi - lo;
    const double maxCells = 8.0 * std::max(n, 1) + 64.0;
    while ((std::floor(extent.x() / cellSize_) + 1) * (std::floor(extent.y() / cellSize_) + 1) *
               (std::floor(extent.z() / cellSize_) + 1) > maxCells) {
        cellSize_ *= 1.26; // ~ doubles the cell volume
    }
    origin_ = lo;
    for (int d = 0; d < 3; ++d) dims_[d] = static_cast<int>(std::floor(extent[d] / cellSize_)) + 1;
    const std::size_t cells = static_cast<std::size_t>(dims_[0]) * dims_[1] * dims_[2];

    // Counting sort of particles by cell.
    cellOfParticle_.resize(n);
    cellStart_.assign(cells + 1, 0);
    for (int i = 0; i < n; ++i) {
        int ix, iy, iz;
        cellOfParticle_[i] = static_cast<int>(cellOf(centres[i], ix, iy, iz));
        ++cellStart_[cellOfParticle_[i] + 1];
    }
    for (std::size_t c = 0; c < cells; ++c) cellStart_[c + 1] += cellStart_[c];
    sortedIndex_.resize(n);
    std::vector<int> fill(cellStart_.begin(), cellStart_.end() - 1);
    for (int i = 0; i < n; ++i) sortedIndex_[fill[cellOfParticle_[i]]++] = i;
}

std::int64_t CellGrid::cellOf(const Vec3& x, int& ix, int& iy, int& iz) const {
    auto index = [&](int d) {
        const int i = static_cast<int>(std::floor((x[d] - origin_[d]) / cellSize_));
        return std::clamp(i, 0, dims_[d] - 1);
    };
    ix = index(0);
    iy = index(1);
    iz = index(2);
    return ix + static_cast<std::int64_t>(dims_[0]) * (iy + static_cast<std::int64_t>(dims_[1]) * iz);
}

std::vector<std::pair<int, int>> CellGrid::candidatePairs() const {
    std::vector<std::pair<int, int>> pairs;
    forEachCandidatePair([&](int i, int j) { pairs.emplace_back(i, j); });
    return pairs;
}

} // namespace sef
