#pragma once
// The particles placed so far by random injection, and whether a candidate
// fits among them. A uniform hash grid (cell size twice the largest bounding
// radius) is the broad phase: two bounding spheres can only intersect if
// their centres are in the same or neighbouring cells, so a candidate is
// compared with the particles of its 27 cells, not with all (O(N)
// injection). Bounding spheres that intersect are then decided by the exact
// narrow phase of the DEM step (contact/PairContact.hpp).
#include "dem/particles/ParticleSystem.hpp"
#include "geometry/Pose.hpp"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace sef::dem {

class PlacementGrid {
public:
    // Indexes the particles already in ps (they are respected).
    explicit PlacementGrid(const ParticleSystem& ps);

    // Adds particle `index` of ps (after ps.add).
    void insert(const ParticleSystem& ps, int index);

    // Indices of the particles of ps whose bounding sphere intersects the
    // sphere (x, R) (touching counts), nearest first: the nearest is the most
    // likely to overlap, so the exact test usually stops at the first.
    void sphereNeighbours(const Vec3& x, double R, std::vector<int>& out) const;

    // Whether a particle of type t at `pose` overlaps any of `neighbours`
    // (from sphereNeighbours) by the exact narrow phase. `confirmByNarrowPhase`:
    // pairs found clear are also asked the narrow phase in both orders,
    // aligned twins too (see the .cpp), so no pair is left that the DEM step
    // would find in contact.
    bool overlapsAny(const ParticleSystem& ps, int t, const Pose& pose, const std::vector<int>& neighbours,
                     bool confirmByNarrowPhase = false) const;

private:
    std::int64_t key(const Vec3& x, int di, int dj, int dk) const;

    // kept in the cell (not looked up by index): the broad phase reads
    // hundreds of these per candidate near saturation
    struct Entry {
        Vec3 x;
        double R;
        int index;
    };
    double cell_ = 1.0;
    std::vector<double> inscribedRadius_; // per type: a ball surely inside the body
    std::unordered_map<std::int64_t, std::vector<Entry>> cells_;
};

// True when the body is its bounding sphere (a = b = c, eps1 = eps2 = 1):
// its orientation does not change where it fits.
bool isSphere(const Superellipsoid& shape);

// Radius of a ball about the centre that lies inside the body (every
// support distance is at least this).
double inscribedRadius(const Superellipsoid& shape);

} // namespace sef::dem
