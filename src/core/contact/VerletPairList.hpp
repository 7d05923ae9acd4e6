#pragma once
// Broad phase for slowly moving particles: the candidate pairs of CellGrid
// (bounding spheres overlap, |x_i - x_j| <= r_i + r_j), found in a cached
// list of the pairs within r_i + r_j + skin (a Verlet list) instead of
// scanning 27 cells per particle. Why: in a settled bed the particles move
// ~1e-9 m per substep, so the list stays valid for thousands of substeps.
//
// Valid while no particle moved more than skin/2 since the list was built
// (then |x_i - x_j| grew by at most skin for every pair), and the particles
// (identities, radii) are the same; otherwise it is rebuilt. The ORDER of the
// particles may change between calls: the list is kept per identity (both
// directions of every pair) and mapped to the current indices. Why: large
// systems are processed in spatial order recomputed at every step
// (dem/engine/DemEngine.cpp), and in a falling bed some particle changes its cell
// almost every step; keyed by position in the order, the list was rebuilt
// at every such step (14 % of a 1e4-particle filling step, against nothing
// at 1e3, which keeps its order).
//
// Same pairs in the same order as CellGrid::forEachCandidatePair on the
// current centres (i ascending, then j by the cell of that grid, then j), so
// the result of a simulation does not depend on the cache.
#include "contact/CellGrid.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace sef {

class VerletPairList {
public:
    // skin = skinFraction * largest bounding radius.
    explicit VerletPairList(double skinFraction = 0.1) : skinFraction_(skinFraction) {}

    // visit(i, j), i < j, for every pair whose bounding spheres overlap.
    // identity[i] names particle i (e.g. its id): a changed identity, order
    // or radius rebuilds the list. Throws like CellGrid::build.
    template <class Visitor>
    void forEachCandidatePair(const std::vector<Vec3>& centres, const std::vector<double>& radii,
                              const std::vector<std::int64_t>& identity, Visitor&& visit);

    long rebuilds() const { return rebuilds_; }

private:
    void update(const std::vector<Vec3>& centres, const std::vector<double>& radii,
                const std::vector<std::int64_t>& identity);
    bool stillValid(const std::vector<Vec3>& centres, const std::vector<double>& radii) const; // after mapToBuild
    void rebuild(const std::vector<Vec3>& centres, const std::vector<double>& radii,
                 const std::vector<std::int64_t>& identity);

    // slotOfCurrent_/currentOfSlot_ from the identities; false if they are
    // not those of the build (other particles, or a repeated identity).
    bool mapToBuild(const std::vector<std::int64_t>& identity);
    int slotOfIdentity(std::int64_t id) const;

    double skinFraction_;
    double skin_ = 0.0;
    long rebuilds_ = 0;
    CellGrid grid_;                  // of the current centres: the visiting order
    CellGrid wide_;                  // scratch of rebuild (margin = skin)
    // per build slot (the particle order at the build)
    std::vector<Vec3> builtCentres_;
    std::vector<double> builtRadii_;
    std::vector<std::int64_t> builtIdentity_;
    std::vector<int> start_, partners_;      // CSR: all partners (slots) of each slot
    // The same with only the partners of a larger slot: while the particles
    // keep the order of the build (sameOrder_, the usual case) a slot is a
    // current index, and a pair is visited from its smaller index; this
    // skips the other half of the list and its loads of far particles
    // (that loop would cost 9 % of a settled 1000-particle bed).
    std::vector<int> upperStart_, upperPartners_;
    bool sameOrder_ = false;
    // identity -> slot: a table over [identityBase_, identityBase_ + size)
    // when the identities are compact (ids 0..n-1: the usual case), else a
    // sorted list of (identity, slot)
    std::int64_t identityBase_ = 0;
    std::vector<int> slotTable_;
    std::vector<std::pair<std::int64_t, int>> slotList_;
    std::vector<int> slotOfCurrent_, currentOfSlot_;
    std::vector<std::pair<int, int>> builtPairs_; // scratch of rebuild
    std::vector<std::pair<int, int>> visits_; // (cell, j) of one i
};

template <class Visitor>
void VerletPairList::forEachCandidatePair(const std::vector<Vec3>& centres,
                                          const std::vector<double>& radii,
                                          const std::vector<std::int64_t>& identity,
                                          Visitor&& visit) {
    update(centres, radii, identity);
    const int n = static_cast<int>(centres.size());
    for (int i = 0; i < n; ++i) {
        visits_.clear();
        // the test of CellGrid (margin 0)
        const auto touches = [&](int j) {
            const double reach = radii[i] + radii[j];
            return (centres[j] - centres[i]).squaredNorm() <= reach * reach;
        };
        if (sameOrder_) {
            for (int k = upperStart_[i]; k < upperStart_[i + 1]; ++k) {
                const int j = upperPartners_[k];
                if (touches(j)) visits_.emplace_back(grid_.cellOfParticle(j), j);
            }
        } else {
            const int slot = slotOfCurrent_[static_cast<std::size_t>(i)];
            for (int k = start_[slot]; k < start_[slot + 1]; ++k) {
                const int j = currentOfSlot_[static_cast<std::size_t>(partners_[k])];
                if (j <= i) continue; // the pair is visited from its smaller index
                if (touches(j)) visits_.emplace_back(grid_.cellOfParticle(j), j);
            }
        }
        // (mostly in order already: partners are stored by cell at the build
        // and few move cells between builds; a full sort costs 2 % of a settled bed)
        if (!std::is_sorted(visits_.begin(), visits_.end())) std::sort(visits_.begin(), visits_.end());
        for (const auto& cellAndJ : visits_) visit(i, cellAndJ.second);
    }
}

} // namespace sef
