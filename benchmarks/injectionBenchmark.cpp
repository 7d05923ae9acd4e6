// Random injection by the true shape (dem/injection/RandomInjection.hpp,
// benchmarks/README.md): 1e4 particles at 20 % solids by their own volume
// in a closed cubic box (region = box, walls = its faces, the domain tests a
// solver passes: bounding sphere clear of the walls, else the exact body).
//  - trueShape/<shape>: sphere, prolate (2:1:1, eps 1), flatBlock
//    (3:1.5:0.75, eps 0.3/0.2), cube (eps 0.2); one injection per
//    iteration, one iteration (seconds each; --benchmark_repetitions=N).
// Counter: us_per_particle.
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "dem/walls/BoxWalls.hpp"
#include "dem/injection/RandomInjection.hpp"
#include "dem/injection/WallClearance.hpp"

using namespace sef;
using namespace sef::dem;

namespace {

constexpr long count = 10000;
constexpr double solids = 0.20;

Superellipsoid shapeOf(int which) {
    switch (which) {
    case 0: return Superellipsoid(1e-3, 1e-3, 1e-3, 1.0, 1.0);
    case 1: return Superellipsoid(2e-3, 1e-3, 1e-3, 1.0, 1.0);
    case 2: return Superellipsoid(3e-3, 1.5e-3, 0.75e-3, 0.3, 0.2);
    default: return Superellipsoid(1e-3, 1e-3, 1e-3, 0.2, 0.2);
    }
}

void trueShape(benchmark::State& state, int which) {
    const Superellipsoid shape = shapeOf(which);
    const double side = std::cbrt(count * shape.volume() / solids);
    const WallSet walls(boxWalls(Vec3::Zero(), Vec3::Constant(side)));
    InjectionSpec spec;
    spec.region.max = Vec3::Constant(side);
    spec.count = count;
    spec.typeFractions = {1.0};
    for (auto _ : state) {
        ParticleSystem ps;
        ps.types.emplace_back(shape, 1000.0);
        injectRandom(
            ps, spec, 0,
            sphereClearOfWallSet(walls), bodyClearOfWallSet(walls, ps.types));
        benchmark::DoNotOptimize(ps.position.data());
    }
    state.counters["us_per_particle"] = benchmark::Counter(
        static_cast<double>(count) * 1e-6, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

} // namespace

BENCHMARK_CAPTURE(trueShape, sphere, 0)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(trueShape, prolate, 1)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(trueShape, flatBlock, 2)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(trueShape, cube, 3)->Unit(benchmark::kSecond)->Iterations(1);
