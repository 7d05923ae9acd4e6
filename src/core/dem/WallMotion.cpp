#include "dem/WallMotion.hpp"

#include <algorithm>
#include <string>

namespace sef::dem {

namespace {

std::string describe(const Vec3& v) {
    return "(" + std::to_string(v.x()) + " " + std::to_string(v.y()) + " " + std::to_string(v.z()) + ")";
}

} // namespace

std::vector<int> motionOfFaces(const WallSet& walls, const std::vector<WallMotion>& motions) {
    for (std::size_t m = 0; m < motions.size(); ++m) {
        const WallMotion& w = motions[m];
        if (!isFinite(w.velocity) || !isFinite(w.angularVelocity) || !isFinite(w.origin))
            throw WallMotionError("wall motion of patch " + std::to_string(w.patch) + ": not finite");
        for (std::size_t o = 0; o < m; ++o)
            if (motions[o].patch == w.patch)
                throw WallMotionError("wall motion of patch " + std::to_string(w.patch) + ": given twice");
    }
    std::vector<int> motionOf(walls.size(), -1);
    for (std::size_t f = 0; f < walls.size(); ++f) {
        const WallFace& face = walls.face(f);
        const auto it = std::find_if(motions.begin(), motions.end(),
                                     [&](const WallMotion& w) { return w.patch == face.patch; });
        if (it == motions.end()) continue;
        motionOf[f] = static_cast<int>(it - motions.begin());
        Vec3 centroid = Vec3::Zero();
        double speed = 0.0;
        for (const Vec3& v : face.vertices) {
            centroid += v;
            speed = std::max(speed, it->velocityAt(v).norm());
        }
        centroid /= static_cast<double>(face.vertices.size());
        const Vec3 n = walls.outwardNormalOf(f);
        const double normalSpeed = std::abs(n.dot(it->velocityAt(centroid)));
        if (normalSpeed > 1e-3 * speed)
            throw WallMotionError(
                "wall motion of patch " + std::to_string(face.patch) + ": face " + std::to_string(f) +
                " (centroid " + describe(centroid) + ", normal " + describe(n) + ") would leave its surface: "
                "normal speed " + std::to_string(normalSpeed) + " m/s of " + std::to_string(speed) +
                " m/s. Only motions along the wall's own surface are supported (a plane translating "
                "in itself or turning about its normal, a cylinder turning about its axis)");
    }
    return motionOf;
}

} // namespace sef::dem
