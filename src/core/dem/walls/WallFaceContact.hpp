#pragma once
// Narrow phase particle - one face of a WallSet (thin adapter over the
// contact module; the convex-polygon narrow phase lives there).
//
// Result convention of contact/ContactResult.hpp: body 1 is the wall, body 2
// the particle; normal points from the wall into the domain (= -outward
// normal of the face); surfacePoint2 is the deepest point of the particle.
#include "contact/ContactResult.hpp"
#include "dem/walls/WallSet.hpp"
#include "geometry/Pose.hpp"
#include "geometry/Superellipsoid.hpp"

namespace sef::dem {

// kept (optional, out): the outlines of a face answer's flat patch.
ContactResult detectFaceContact(const Superellipsoid& shape, const Pose& pose, const WallSet& walls,
                                int face, const Vec3* warmNormal, PatchGuess* patchGuess = nullptr,
                                KeptPatch* kept = nullptr);

// The face answer from kept outlines (contact/PolygonWallContact.hpp,
// keptPolygonFaceContact); false where it cannot answer.
bool keptFaceContact(const Superellipsoid& shape, const Pose& pose, const WallSet& walls, int face,
                     const KeptPatch& kept, ContactResult& r);

} // namespace sef::dem
