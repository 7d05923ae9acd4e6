#include "dem/injection/WallClearance.hpp"

#include "contact/PolygonWallContact.hpp"

#include <algorithm>
#include <vector>

namespace sef::dem {

double wallPenetration(const WallSet& walls, const Superellipsoid& shape, const Pose& pose) {
    std::vector<int> near;
    walls.facesNear(pose.position, shape.boundingRadius(), near);
    double deepest = 0.0;
    for (int f : near) {
        const ContactResult c = detectValidatedPolygonWallContact(shape, pose, walls.polygon(f));
        if (c.contact) deepest = std::max(deepest, c.depth);
    }
    return deepest;
}

SphereAdmissible sphereClearOfWallSet(const WallSet& walls) {
    return [&walls](const Vec3& x, double R) {
        std::vector<int> near;
        walls.facesNear(x, R, near);
        return near.empty();
    };
}

BodyAdmissible bodyClearOfWallSet(const WallSet& walls, const std::vector<ParticleType>& types) {
    return [&walls, &types](int t, const Pose& pose) {
        return wallPenetration(walls, types[static_cast<std::size_t>(t)].shape, pose) <= 0.0;
    };
}

} // namespace sef::dem
