#pragma once
// Where random injection may put a particle in its region (box or finite
// cylinder): centres drawn uniformly, and whether a posed body lies inside.
// Faces that a periodic lattice opens (RegionOpenings) do not bound the body.
#include "dem/boundaries/PeriodicLattice.hpp"
#include "dem/injection/RandomInjection.hpp"

#include <array>

namespace sef::dem {

// Faces of the region that periodic boundaries open: where the region spans
// a whole period between two of its faces normal to a periodic direction,
// the domain goes on beyond them (through the periodic boundary). A body may
// cross such a face (its part beyond is its image's, at the other side) and
// centres are drawn up to it: a region closed there would leave a layer
// without particles at the periodic boundary, as if a wall stood there.
struct RegionOpenings {
    std::array<bool, 3> boxAxis{}; // box: its two faces normal to axis k
    bool cylinderEnds = false;     // cylinder: its end discs
};

// The faces `lattice` opens: a box's faces normal to axis k, a cylinder's
// ends, when a periodic direction's normal is parallel to them and the region
// is at least one period long between them (none without a lattice).
RegionOpenings periodicOpenings(const InjectionRegion& region, const PeriodicLattice& lattice);

// A uniformly random centre at least `margin` inside the region (margin =
// bounding radius: the bounding sphere lies in the region), up to its open
// faces. False when the region is narrower than 2 margin between closed
// faces (no draw is made then). The same draws with or without openings.
bool sampleCentre(const InjectionRegion& region, double margin, PortableRandom& rng, Vec3& x,
                  const RegionOpenings& open = {});

// Whether the sphere (x, R) lies in the region (touching its boundary
// counts; open faces do not bound it).
bool sphereInRegion(const InjectionRegion& region, const Vec3& x, double R,
                    const RegionOpenings& open = {});

// Whether the posed body lies in the region (open faces do not bound it):
// exact for a box and along a cylinder's axis (support distances); radially
// in a cylinder by the smaller of two bounds of the body's distance from the
// axis, its bounding sphere's and its bounding box's farthest corner
// (conservative).
bool bodyInRegion(const InjectionRegion& region, const Superellipsoid& shape, const Pose& pose,
                  const RegionOpenings& open = {});

} // namespace sef::dem
