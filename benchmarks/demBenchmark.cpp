// Cost of one DEM step per particle in a settled bed: a few hundred
// ellipsoids/spheres settle in a closed box (outside the timed loop), then
// steps of the quiet bed are timed. Counter us_per_particle_step is the
// number to compare with the goal (< 1 us, benchmarks/README.md) and LIGGGHTS (3 us).
#include <benchmark/benchmark.h>

#include <random>
#include <string>

#include "dem/walls/BoxWalls.hpp"
#include "dem/engine/DemEngine.hpp"

using namespace sef;
using namespace sef::dem;

namespace {

struct SettledBed {
    ParticleSystem ps;
    std::unique_ptr<DemEngine> engine;
};

SettledBed makeBed(int perSide, int layers, const std::string& model) {
    SettledBed bed;
    bed.ps.types.emplace_back(Superellipsoid(0.004, 0.004, 0.004, 1.0, 1.0), 1000.0);
    bed.ps.types.emplace_back(Superellipsoid(0.0045, 0.0035, 0.003, 1.0, 1.0), 1000.0);
    const double spacing = 0.0105, L = perSide * spacing;
    std::mt19937 rng(3);
    std::normal_distribution<double> g(0.0, 1.0);
    std::uniform_real_distribution<double> jitter(-0.05, 0.05);
    int id = 0;
    for (int k = 0; k < layers; ++k)
        for (int j = 0; j < perSide; ++j)
            for (int i = 0; i < perSide; ++i) {
                const Vec3 x = spacing * Vec3(i + 0.5 + jitter(rng), j + 0.5 + jitter(rng), k + 0.5);
                bed.ps.add(id % 2, id, x, Quat(g(rng), g(rng), g(rng), g(rng)).normalized());
                ++id;
            }
    EngineSettings s;
    s.pair.model = s.wall.model = model;
    s.pair.restitution = s.wall.restitution = 0.3;
    s.pair.friction = s.wall.friction = 0.5;
    s.pair.tangentialRestitution = s.wall.tangentialRestitution = 0.0;
    s.gravity = Vec3(0, 0, -9.81);
    bed.engine = std::make_unique<DemEngine>(boxWalls(Vec3::Zero(), Vec3(L, L, 3 * layers * spacing)), s);
    for (int k = 0; k < 3000; ++k) bed.engine->step(bed.ps, 5e-5); // settle: 0.15 s
    return bed;
}

void settledBed(benchmark::State& state, const std::string& model) {
    SettledBed bed = makeBed(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)), model);
    long contacts = 0, steps = 0, sweeps = 0;
    for (auto _ : state) {
        const StepStatistics st = bed.engine->step(bed.ps, 5e-5);
        contacts += st.contacts;
        sweeps += st.sweeps;
        ++steps;
    }
    const double n = static_cast<double>(bed.ps.size());
    state.counters["particles"] = n;
    state.counters["contacts_per_step"] = static_cast<double>(contacts) / steps;
    state.counters["sweeps_per_step"] = static_cast<double>(sweeps) / steps;
    state.counters["us_per_particle_step"] =
        benchmark::Counter(n * 1e-6, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
    state.counters["us_per_contact_step"] = benchmark::Counter(
        contacts / static_cast<double>(steps) * 1e-6,
        benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

} // namespace

BENCHMARK_CAPTURE(settledBed, coulomb, std::string("coulomb"))->Args({8, 4})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(settledBed, frictionless, std::string("frictionless"))->Args({8, 4})->Unit(benchmark::kMillisecond);
