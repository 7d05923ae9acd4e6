#pragma once
// How deep a posed particle reaches into the walls, with the exact narrow
// phase of the DEM step (contact/PolygonWallContact.hpp). Injection from a
// settled bed needs it: a particle resting on the floor has its bounding
// sphere, but not its body, through the wall.
#include "dem/injection/RandomInjection.hpp"
#include "dem/walls/WallSet.hpp"
#include "geometry/Pose.hpp"
#include "geometry/Superellipsoid.hpp"

namespace sef::dem {

// The deepest penetration [m] of the particle into any wall face within its
// bounding radius; 0 when it touches none.
double wallPenetration(const WallSet& walls, const Superellipsoid& shape, const Pose& pose);

// Random injection against walls alone (tools, benchmarks, tests; the
// solvers also ask their mesh): a bounding sphere that no face comes
// within, and a posed body that cuts no face (exact). Both refer to their
// arguments, which must outlive them.
SphereAdmissible sphereClearOfWallSet(const WallSet& walls);
BodyAdmissible bodyClearOfWallSet(const WallSet& walls, const std::vector<ParticleType>& types);

} // namespace sef::dem
