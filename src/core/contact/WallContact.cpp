#include "contact/WallContact.hpp"

#include "contact/BoundingVolumes.hpp"
#include "contact/ContactPatch.hpp"
#include "contact/PosedBody.hpp"

#include <algorithm>
#include <stdexcept>

namespace sef {

WallPlane WallPlane::fromPoints(const Vec3& a, const Vec3& b, const Vec3& c) {
    const Vec3 n = (c - a).cross(b - a); // [Superellipsoid-OpenFOAM], eq. (24)
    const double norm = n.norm();
    const double scale = std::max({(b - a).norm(), (c - a).norm(), 1e-300});
    if (!(norm > 1e-12 * scale * scale))
        throw std::invalid_argument("WallPlane::fromPoints: the three points are collinear");
    return {a, n / norm};
}

ContactResult detectWallContact(const Superellipsoid& shape, const Pose& pose,
                                const WallPlane& wall, bool boundingVolumeRejection) {
    const PosedBody body(shape, pose);
    const Vec3& n = wall.normal;
    ContactResult r;
    r.normal = n;
    r.status = ContactStatus::closedForm;
    if (boundingVolumeRejection) {
        const double height = n.dot(body.position - wall.point); // W(centre), eq. (25)
        const double sphereGap = height - shape.boundingRadius();
        if (sphereGap > 0.0) {
            r.depth = -sphereGap;
            r.status = ContactStatus::boundingSphere;
            return r;
        }
        const double boxGap =
            orientedBoxPlaneGap({body.position, body.rotation, shape.halfAxes()}, wall.point, n);
        if (boxGap > 0.0) {
            r.depth = -boxGap;
            r.status = ContactStatus::orientedBox;
            return r;
        }
    }
    // [Superellipsoid-OpenFOAM], Part 2 (eqs. 43-50): the surface point with normal -n_w.
    const Vec3 deepest = body.support(-n);
    r.depth = -n.dot(deepest - wall.point); // -W(deepest), eq. (25)
    r.contact = r.depth > 0.0;
    r.surfacePoint2 = deepest;
    r.surfacePoint1 = deepest + r.depth * n; // Part 1: its projection on the wall
    // Flat faces: the centre of the part below the plane (ContactPatch.hpp).
    r.point = 0.5 * (r.surfacePoint1 + r.surfacePoint2);
    placeOnWallPatch(r, wallPatch(body, n, deepest, r.depth));
    return r;
}

} // namespace sef
