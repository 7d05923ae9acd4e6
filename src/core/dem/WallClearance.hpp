#pragma once
// How deep a posed particle reaches into the walls, with the exact narrow
// phase of the DEM step (contact/PolygonWallContact.hpp). Injection from a
// settled bed needs it: a particle resting on the floor has its bounding
// sphere, but not its body, through the wall.
#include "dem/WallSet.hpp"
#include "geometry/Pose.hpp"
#include "geometry/Superellipsoid.hpp"

namespace sef::dem {

// The deepest penetration [m] of the particle into any wall face within its
// bounding radius; 0 when it touches none.
double wallPenetration(const WallSet& walls, const Superellipsoid& shape, const Pose& pose);

} // namespace sef::dem
