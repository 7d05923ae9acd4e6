#pragma once
// Walls are data: planar convex faces (from the mesh wall patches, or built
// by hand) with a spatial index, built once at start-up.
#include "geometry/Types.hpp"

#include <vector>

namespace sef::dem {

struct WallFace {
    std::vector<Vec3> vertices;   // convex polygon, ordered (either orientation)
    Vec3 outwardNormal;           // unit, pointing OUT of the particle domain
                                  // (OpenFOAM boundary-face normal direction)
    int patch = -1;               // user tag (mesh patch index)
};

} // namespace sef::dem
