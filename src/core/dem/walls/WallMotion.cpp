#include "dem/walls/WallMotion.hpp"
#include "kinematics/StateChecks.hpp"

#include <algorithm>
#include <sstream>
#include <string>

namespace sef::dem {

namespace {

std::string describe(const Vec3& v) {
    std::ostringstream os;
    os << "(" << v.x() << " " << v.y() << " " << v.z() << ")";
    return os.str();
}

double largestComponent(const Vec3& v) { return v.cwiseAbs().maxCoeff(); }

// Whether every point of the face moves slower than light (the bound
// particle states are held to, kinematics/StateChecks.hpp), tested without
// forming a product that could overflow: the angular part is bounded by
// |omega| r with r the face's farthest vertex from the origin.
bool belowSpeedLimit(const WallMotion& w, const WallFace& face) {
    if (largestComponent(w.velocity) > kSpeedLimit) return false;
    const double omega = largestComponent(w.angularVelocity);
    if (omega == 0.0) return true;
    double r = 0.0;
    for (const Vec3& v : face.vertices) r = std::max(r, largestComponent(v - w.origin));
    // (components: |omega x d| <= 2 max|omega_i| max|d_i| per component)
    return r <= 1.0 ? 2.0 * omega * r <= kSpeedLimit : omega <= kSpeedLimit / (2.0 * r);
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
        if (!belowSpeedLimit(*it, face))
            throw WallMotionError(
                "wall motion of patch " + std::to_string(face.patch) + ": face " + std::to_string(f) +
                " would move faster than light (velocity " + describe(it->velocity) + " m/s, angular velocity " +
                describe(it->angularVelocity) + " rad/s about " + describe(it->origin) +
                "); the bound particle speeds are held to");
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
