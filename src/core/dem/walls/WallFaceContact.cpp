#include "dem/walls/WallFaceContact.hpp"

#include "contact/PolygonWallContact.hpp"

namespace sef::dem {

ContactResult detectFaceContact(const Superellipsoid& shape, const Pose& pose, const WallSet& walls,
                                int face, const Vec3* warmNormal, PatchGuess* patchGuess, KeptPatch* kept) {
    // The contact module's convex-polygon narrow phase: face contacts in
    // closed form, convex edges and vertices where the face owns them, so a
    // contact seen from several faces is reported by exactly one of them.
    // (validated when the wall set was built)
    return detectValidatedPolygonWallContact(shape, pose, walls.polygon(face), warmNormal, patchGuess, kept);
}

bool keptFaceContact(const Superellipsoid& shape, const Pose& pose, const WallSet& walls, int face,
                     const KeptPatch& kept, ContactResult& r) {
    return keptPolygonFaceContact(shape, pose, walls.polygon(face), kept, r);
}

} // namespace sef::dem
