#pragma once
// Shared test fixtures of the geometry tests: shape families and seeded
// random points (deterministic: fixed seeds).
#include "geometry/Superellipsoid.hpp"

#include <random>
#include <vector>

namespace sef::test {

// Aspect ratios up to 5 (a : b : c = 5 : 1 : 2.5 and permutations), SI-like sizes.
inline std::vector<Vec3> halfAxesSet() {
    return {{0.01, 0.01, 0.01}, {0.05, 0.01, 0.025}, {0.01, 0.05, 0.02}, {0.02, 0.03, 0.1}};
}

// A random point in scaled coordinates |x_i|/L_i in [lo, hi] with random signs.
inline Vec3 randomScaledPoint(std::mt19937& rng, const Vec3& halfAxes, double lo, double hi) {
    std::uniform_real_distribution<double> mag(lo, hi);
    std::bernoulli_distribution sign(0.5);
    Vec3 x;
    for (int i = 0; i < 3; ++i) x[i] = (sign(rng) ? 1.0 : -1.0) * mag(rng) * halfAxes[i];
    return x;
}

inline Vec3 randomUnitVector(std::mt19937& rng) {
    std::normal_distribution<double> g;
    Vec3 v(g(rng), g(rng), g(rng));
    return v.normalized();
}

inline Quat randomRotation(std::mt19937& rng) {
    std::normal_distribution<double> g;
    Quat q(g(rng), g(rng), g(rng), g(rng));
    return q.normalized();
}

} // namespace sef::test
