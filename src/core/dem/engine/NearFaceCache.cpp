#include "dem/engine/NearFaceCache.hpp"

#include <algorithm>

namespace sef::dem {

void NearFaceCache::facesNear(const WallSet& walls, std::size_t particle, std::int64_t identity,
                              double particleRadius, const Vec3& centre, double radius,
                              std::vector<int>& out) {
    if (particle >= entryOfSlot_.size()) entryOfSlot_.resize(particle + 1, -1);
    int& handle = entryOfSlot_[particle];
    if (handle < 0) {
        if (freeEntries_.empty()) {
            handle = static_cast<int>(entries_.size());
            entries_.emplace_back();
        } else {
            handle = freeEntries_.back();
            freeEntries_.pop_back();
            entries_[static_cast<std::size_t>(handle)].valid = false;
        }
    }
    Entry& e = entries_[static_cast<std::size_t>(handle)];
    // inside the wider sphere, with a relative slack for the round-off of the test
    double shift = (centre - e.centre).norm();
    const bool covered = e.valid && e.identity == identity && shift + radius <= e.reach * (1.0 - 1e-12);
    if (!covered) {
        ++recomputations_;
        shift = 0.0; // the entry is made at this centre
        e.valid = true;
        e.identity = identity;
        e.centre = centre;
        e.reach = std::max(radius, particleRadius) * (1.0 + skinFraction_);
        scratchFaces_.clear();
        walls.facesNear(centre, e.reach, scratchFaces_);
        e.count = static_cast<int>(scratchFaces_.size());
        scratchDistances_.clear();
        for (const int f : scratchFaces_)
            scratchDistances_.push_back((walls.closestPoint(static_cast<std::size_t>(f), centre) - centre).norm());
        const std::ptrdiff_t inlined =
            static_cast<std::ptrdiff_t>(std::min<std::size_t>(scratchFaces_.size(), Entry::kInline));
        std::copy_n(scratchFaces_.begin(), inlined, e.faces.begin());
        std::copy_n(scratchDistances_.begin(), inlined, e.distance.begin());
        e.more.assign(scratchFaces_.begin() + inlined, scratchFaces_.end());
        e.moreDistance.assign(scratchDistances_.begin() + inlined, scratchDistances_.end());
    }
    // The exact test only where the bounds d -+ shift leave it open; the
    // margin (1e-9 relative) is far above the round-off of the distances and
    // of the test, so the answers are the test's.
    const double surelyIn = radius * (1.0 - 1e-9), surelyOut = radius * (1.0 + 1e-9);
    const auto keepWithin = [&](const int* first, const int* last, const double* distance) {
        for (; first != last; ++first, ++distance) {
            if (*distance + shift < surelyIn) out.push_back(*first);
            else if (!(*distance - shift > surelyOut) &&
                     walls.faceWithin(static_cast<std::size_t>(*first), centre, radius))
                out.push_back(*first);
        }
    };
    keepWithin(e.faces.data(), e.faces.data() + std::min(e.count, Entry::kInline), e.distance.data());
    keepWithin(e.more.data(), e.more.data() + e.more.size(), e.moreDistance.data());
}

void NearFaceCache::permute(const std::vector<std::size_t>& fromSlot) {
    if (entryOfSlot_.size() < fromSlot.size()) entryOfSlot_.resize(fromSlot.size(), -1);
    scratch_.resize(fromSlot.size());
    for (std::size_t k = 0; k < fromSlot.size(); ++k) scratch_[k] = entryOfSlot_[fromSlot[k]];
    // slots past fromSlot.size() are gone: their entries are free again
    for (std::size_t k = fromSlot.size(); k < entryOfSlot_.size(); ++k)
        if (entryOfSlot_[k] >= 0) freeEntries_.push_back(entryOfSlot_[k]);
    entryOfSlot_.swap(scratch_);
}

} // namespace sef::dem
