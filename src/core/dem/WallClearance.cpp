#include "dem/WallClearance.hpp"

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

} // namespace sef::dem
