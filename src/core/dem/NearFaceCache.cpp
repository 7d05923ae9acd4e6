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

} // namespace sef::dem
