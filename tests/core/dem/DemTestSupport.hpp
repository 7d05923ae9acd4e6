#pragma once
// Small helpers for the DEM tests: walls of an axis-aligned box.
#include "dem/walls/BoxWalls.hpp"
#include "dem/engine/DemEngine.hpp"
#include "dem/walls/WallSet.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>
#include <vector>

namespace sef::dem::test {

using sef::dem::boxWalls;

// A particle system with one particle type and no particles.
inline ParticleSystem oneType(const Superellipsoid& shape, double rho = 1000.0) {
    ParticleSystem ps;
    ps.types.emplace_back(shape, rho);
    return ps;
}

// The resting-bed laws of the benchmark patches (demBoxBenchmark
// blocksDropped): Coulomb mu 0.3 (sticking), e 0.5, rolling resistance
// 0.01, gravity -9.81 along z.
inline EngineSettings restingBedSettings() {
    EngineSettings s;
    s.pair.model = s.wall.model = "coulomb";
    s.pair.restitution = s.wall.restitution = 0.5;
    s.pair.friction = s.wall.friction = 0.3;
    s.pair.rollingFriction = s.wall.rollingFriction = 0.01;
    s.gravity = Vec3(0, 0, -9.81);
    return s;
}

// The benchmark patches' blocks (demBoxBenchmark blocksDropped): side x
// side blocks with half-axes 0.5, 0.375, 0.25 mm and exponent eps, 2500
// kg/m^3, 1.2 mm apart, each tilted 0.3 rad about a random horizontal axis
// and turned at random about the vertical, 0.1 mm above a floor at z = 0.
constexpr double kBlockPatchSpacing = 1.2e-3; // [m]: a patch of side blocks spans side times it
inline ParticleSystem tiltedBlockPatch(double eps, unsigned seed, int side = 10) {
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(0.0005, 0.000375, 0.00025, eps, eps), 2500.0);
    const double spacing = kBlockPatchSpacing, R = ps.types[0].boundingRadius;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> angle(0.0, 2.0 * M_PI);
    for (int id = 0; id < side * side; ++id) {
        const double phi = angle(rng);
        const Quat q(Eigen::AngleAxisd(0.3, Vec3(std::cos(phi), std::sin(phi), 0)) *
                     Eigen::AngleAxisd(angle(rng), Vec3::UnitZ()));
        ps.add(0, id, Vec3(spacing * (id % side + 0.5), spacing * (id / side + 0.5), R + 1e-4), q);
    }
    return ps;
}

// A uniformly distributed random orientation.
inline Quat randomOrientation(std::mt19937& rng) {
    std::normal_distribution<double> n(0.0, 1.0);
    return Quat(n(rng), n(rng), n(rng), n(rng)).normalized();
}

// Closed cylinder of radius R around the z axis, z in [0, L]: N planar side
// quads and two N-gon caps (the concave bottom rim is where faces meet).
inline std::vector<WallFace> cylinderWalls(double R, double L, int N) {
    const double pi = 3.14159265358979323846;
    std::vector<WallFace> faces;
    std::vector<Vec3> bottom, top;
    for (int k = 0; k < N; ++k) {
        const double a0 = 2 * pi * k / N, a1 = 2 * pi * (k + 1) / N, am = 0.5 * (a0 + a1);
        const Vec3 p0(R * std::cos(a0), R * std::sin(a0), 0), p1(R * std::cos(a1), R * std::sin(a1), 0);
        faces.push_back(WallFace{{p0, p1, p1 + Vec3(0, 0, L), p0 + Vec3(0, 0, L)},
                                 Vec3(std::cos(am), std::sin(am), 0), 0});
        bottom.push_back(p0);
        top.push_back(p0 + Vec3(0, 0, L));
    }
    faces.push_back(WallFace{bottom, Vec3(0, 0, -1), 1});
    faces.push_back(WallFace{top, Vec3(0, 0, 1), 2});
    return faces;
}

// Restart check: `ps` advanced `steps` steps of dt by `engine` itself, by a
// new engine that read its saved state, and by a new engine without it
// (cold warm starts). Sums the rim points of the continuous run.
struct RestartRuns {
    ParticleSystem continuous, restarted, cold;
    long continuousRimPoints = 0;
};

// (state: what the restarted engine reads; default: engine's own state)
inline RestartRuns runWithRestart(DemEngine& engine, const std::vector<WallFace>& walls,
                                  const EngineSettings& settings, const ParticleSystem& ps, double dt,
                                  int steps, const std::string* givenState = nullptr) {
    std::stringstream state;
    if (givenState) state.str(*givenState);
    else engine.writeState(state);
    DemEngine restarted(walls, settings), cold(walls, settings);
    restarted.readState(state);
    RestartRuns runs{ps, ps, ps};
    for (int n = 0; n < steps; ++n) {
        runs.continuousRimPoints += engine.step(runs.continuous, dt).rimPoints;
        restarted.step(runs.restarted, dt);
        cold.step(runs.cold, dt);
    }
    return runs;
}

// The restarted run equals the continuous one bit for bit (positions,
// velocities, angular velocities); returns how far the cold run drifted
// (largest velocity or angular-velocity difference), which should be > 0
// for the saved warm starts to have mattered.
inline double expectRestartExact(const RestartRuns& runs) {
    const ParticleSystem &a = runs.continuous, &b = runs.restarted, &c = runs.cold;
    double coldDifference = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a.position[i], b.position[i]) << i;
        EXPECT_EQ(a.velocity[i], b.velocity[i]) << i;
        EXPECT_EQ(a.angularVelocity[i], b.angularVelocity[i]) << i;
        coldDifference = std::max({coldDifference, (a.velocity[i] - c.velocity[i]).norm(),
                                   (a.angularVelocity[i] - c.angularVelocity[i]).norm()});
    }
    return coldDifference;
}

} // namespace sef::dem::test
