#pragma once
// Overlap removal after an impulse ([Superellipsoid-OpenFOAM], sec. 5.3: "the identified
// overlap of particles is removed after each collision by a corresponding
// displacement of the particles according to the identified contact point
// and surface normal"). The pair is separated along the common normal by
// the penetration depth, split by inverse mass so the centre of mass of the
// pair does not move; walls are fixed, the particle takes the whole depth.
#include "geometry/Types.hpp"
#include "kinematics/RigidBodyState.hpp"

namespace sef {

struct OverlapDisplacement {
    Vec3 body1 = Vec3::Zero();
    Vec3 body2 = Vec3::Zero(); // zero for walls
};

// normal: unit, from body 1 to body 2 (wall: from the particle into the
// wall). Depth <= 0 gives zero displacements. Throws std::invalid_argument
// for non-finite depth, non-positive masses or a non-unit normal.
OverlapDisplacement overlapDisplacement(double mass1, double mass2, const Vec3& normal,
                                        double penetrationDepth);
OverlapDisplacement wallOverlapDisplacement(const Vec3& normalTowardsWall,
                                            double penetrationDepth);

// Apply the displacements to the positions.
OverlapDisplacement removeOverlap(RigidBodyState& body1, RigidBodyState& body2,
                                  const Vec3& normal, double penetrationDepth);
OverlapDisplacement removeWallOverlap(RigidBodyState& particle, const Vec3& normalTowardsWall,
                                      double penetrationDepth);

} // namespace sef
