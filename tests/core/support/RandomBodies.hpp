#pragma once
// Random rigid bodies for the collision tests: physical inertia (that of a
// random ellipsoid, so the triangle inequality holds), random pose and
// motion. armScale spreads the centres: larger arms r = p - x make the
// contact compliance K couple normal and tangential directions strongly.
#include "kinematics/RigidBodyState.hpp"
#include "kinematics/OrientationUpdate.hpp"

#include <random>

namespace sef::test {

inline RigidBodyState randomBody(std::mt19937_64& rng, double armScale = 1.0) {
    std::uniform_real_distribution<double> u(-1.0, 1.0), pos(0.5, 2.0);
    RigidBodyState s;
    s.mass = pos(rng);
    const double ax = 0.3 * pos(rng), by = 0.3 * pos(rng), cz = 0.3 * pos(rng);
    s.principalInertia = 0.2 * s.mass * Vec3(by * by + cz * cz, ax * ax + cz * cz, ax * ax + by * by);
    s.orientation = quaternionFromRotationVector(3.0 * Vec3(u(rng), u(rng), u(rng)));
    s.position = armScale * Vec3(u(rng), u(rng), u(rng));
    s.velocity = 2.0 * Vec3(u(rng), u(rng), u(rng));
    s.angularVelocity = 5.0 * Vec3(u(rng), u(rng), u(rng));
    return s;
}

} // namespace sef::test
