#pragma once
// Shared helpers of the contact tests: random shapes and poses (fixed seeds).
#include "geometry/Pose.hpp"
#include "geometry/Superellipsoid.hpp"

#include <cmath>
#include <random>

namespace sef::test {

inline Quat randomRotation(std::mt19937& rng) {
    std::normal_distribution<double> g(0.0, 1.0);
    Quat q(g(rng), g(rng), g(rng), g(rng));
    q.normalize();
    return q;
}

inline Vec3 randomUnit(std::mt19937& rng) {
    std::normal_distribution<double> g(0.0, 1.0);
    return Vec3(g(rng), g(rng), g(rng)).normalized();
}

// eps1, eps2 in [epsLo, epsHi], half-axes in [scale / 4, scale] (aspect <= 4).
inline Superellipsoid randomShape(std::mt19937& rng, double scale, double epsLo = 0.1,
                                  double epsHi = 1.9) {
    std::uniform_real_distribution<double> eps(epsLo, epsHi), axis(0.25 * scale, scale);
    return Superellipsoid(axis(rng), axis(rng), axis(rng), eps(rng), eps(rng));
}

inline Pose makePose(const Vec3& position, const Quat& q) {
    Pose p;
    p.position = position;
    p.orientation = q;
    return p;
}

} // namespace sef::test
