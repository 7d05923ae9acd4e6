#include "dem/NearFaceCache.hpp"

#include <algorithm>

namespace sef::dem {

void NearFaceCache::facesNear(const WallSet& walls, std::size_t particle, std::int64_t identity,
                              double particleRadius, const Vec3& centre, double radius,
                              std::vector<int>& out) {
    if (particle >= entries_.size()) entries_.resize(particle + 1);
    Entry& e = entries_[particle];
    // inside the wider sphere, with a relative slack for the round-off of the test
    const bool covered = e.valid && e.identity == identity &&
                         (centre - e.centre).norm() + radius <= e.reach * (1.0 - 1e-12);
    if (!covered) {
        ++recomputations_;
        e.valid = true;
        e.identity = identity;
        e.centre = centre;
        e.reach = std::max(radius, particleRadius) * (1.0 + skinFraction_);
        e.faces.clear();
        walls.facesNear(centre, e.reach, e.faces);
    }
    for (int f : e.faces)
        if (walls.faceWithin(static_cast<std::size_t>(f), centre, radius)) out.push_back(f);
}

void NearFaceCache::permute(const std::vector<std::size_t>& fromSlot) {
    if (entries_.size() < fromSlot.size()) entries_.resize(fromSlot.size());
    scratch_.resize(fromSlot.size());
    for (std::size_t k = 0; k < fromSlot.size(); ++k) scratch_[k] = std::move(entries_[fromSlot[k]]);
    entries_.swap(scratch_); // (entries past fromSlot.size() are dropped)
}

} // namespace sef::dem
