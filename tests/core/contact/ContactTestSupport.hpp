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
// Drawn in a defined order (function arguments have none); the order is
// the one GCC gave the former argument list, so every test's shapes (the
// fuzz's among them) stay what they were.
inline Superellipsoid randomShape(std::mt19937& rng, double scale, double epsLo = 0.1,
                                  double epsHi = 1.9) {
    std::uniform_real_distribution<double> eps(epsLo, epsHi), axis(0.25 * scale, scale);
    const double eps2 = eps(rng), eps1 = eps(rng), c = axis(rng), b = axis(rng), a = axis(rng);
    return Superellipsoid(a, b, c, eps1, eps2);
}

inline Pose makePose(const Vec3& position, const Quat& q) {
    Pose p;
    p.position = position;
    p.orientation = q;
    return p;
}

} // namespace sef::test
