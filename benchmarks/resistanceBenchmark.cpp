// Resistance tensors: cache hit (acceptance: < 1 ms) and one numerical solve
// at low and default resolution (the default one is slow: seconds).
#include "hydrodynamics/ResistanceCache.hpp"

#include <benchmark/benchmark.h>

#include <filesystem>

namespace {

void BM_CacheHit(benchmark::State& state) {
    const auto dir = std::filesystem::temp_directory_path() / "sef-resistance-benchmark";
    const sef::Superellipsoid shape(2.0, 1.0, 1.0, 0.5, 1.5);
    sef::ResistanceSolverOptions opt;
    opt.resolution = 6;
    sef::cachedResistance(shape, opt, dir.string()); // fill
    for (auto _ : state) {
        bool hit = false;
        benchmark::DoNotOptimize(sef::cachedResistance(shape, opt, dir.string(), &hit));
        if (!hit) state.SkipWithError("cache miss");
    }
    std::filesystem::remove_all(dir);
}
BENCHMARK(BM_CacheHit)->Unit(benchmark::kMicrosecond);

void BM_Solve(benchmark::State& state) {
    const sef::Superellipsoid shape(5.0, 1.0, 1.0, 1.8, 1.8); // slowest shape surveyed
    for (auto _ : state)
        benchmark::DoNotOptimize(sef::solveResistance(shape, static_cast<int>(state.range(0))));
}
BENCHMARK(BM_Solve)->Arg(8)->Arg(sef::ResistanceSolverOptions::defaultResolution)
    ->Unit(benchmark::kMillisecond)->Iterations(1);

} // namespace
