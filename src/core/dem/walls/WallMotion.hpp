#pragma once
// Walls that move along their own surface: a conveyor belt (a plane
// translating in itself), a turntable (a plane turning about its normal), a
// rotating drum (a cylinder turning about its axis). The faces stay where
// they are; only the contact velocities see the motion, through the wall's
// velocity at the contact point (its part across the contact normal: a wall
// staying on its surface has no normal velocity, and a faceted drum's facet
// would otherwise get a spurious one at its edges).
#include "dem/walls/WallSet.hpp"
#include "geometry/Types.hpp"

#include <stdexcept>
#include <vector>

namespace sef::dem {

// Rigid motion of the faces tagged `patch` (WallFace::patch): a point x of
// them moves with velocity + angularVelocity x (x - origin).
struct WallMotion {
    int patch = -1;
    Vec3 velocity = Vec3::Zero();        // [m/s], of the point `origin`
    Vec3 angularVelocity = Vec3::Zero(); // [rad/s]
    Vec3 origin = Vec3::Zero();          // a point of the rotation axis
    Vec3 velocityAt(const Vec3& x) const { return velocity + angularVelocity.cross(x - origin); }
};

class WallMotionError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// The motion of each face of `walls` (index into `motions`, -1: at rest),
// checked: finite, one motion per patch, no point of a face faster than
// light (kSpeedLimit, as particles: larger values overflow the contact
// arithmetic), and every face staying on its
// surface, i.e. the velocity at the face's centroid along its normal at most
// 1e-3 of the largest speed of the face's vertices (a translation in the
// plane, a turn about the plane's normal, a drum facet turning about the
// drum's axis). Throws WallMotionError naming the patch otherwise.
std::vector<int> motionOfFaces(const WallSet& walls, const std::vector<WallMotion>& motions);

} // namespace sef::dem
