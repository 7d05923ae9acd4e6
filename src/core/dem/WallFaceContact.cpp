#include "dem/WallFaceContact.hpp"

#include "contact/WallContact.hpp"

namespace sef::dem {

ContactResult detectFaceContact(const Superellipsoid& shape, const Pose& pose, const WallSet& walls,
                                int face, const Vec3* /*warmNormal*/) {
    // The plane narrow phase is exact and closed form (contact module). A face
    // is a bounded piece of its plane: the contact belongs to this face if the
    // particle's deepest point projects into the polygon. Coplanar neighbours
    // sharing an edge may both claim it; DemContacts merges such duplicates.
    const WallFace& f = walls.face(face);
    const WallPlane plane{f.vertices[0], -f.outwardNormal};
    ContactResult r = detectWallContact(shape, pose, plane, true);
    if (!r.contact) return r;
    const double tolerance = 1e-9 * shape.halfAxes().maxCoeff();
    if (!walls.faceContainsProjection(face, r.surfacePoint2, tolerance)) r.contact = false;
    return r;
}

} // namespace sef::dem
