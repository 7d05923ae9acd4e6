// BM_FluidForces: one fluidForces call, the forces of a particle that the
// coupled cloud evaluates for every particle and step, with the cloud's
// force set (drag, rotational drag, strain torque, buoyancy, pressure
// gradient, added mass). Args: shape (0 sphere, 1 prolate 2.5).
//
// BM_DragStep: cost of the fluid drag in the DEM step per particle-step: 1000 separated
// particles (no contacts) in a shear flow, their drag from fluidForces as
// the cloud sets it (once: the step's cost does not depend on its values),
// one step with 2 substeps timed. Args: shape (0 sphere, 1 prolate 2.5),
// turning (1: the drag re-evaluated at each substep's midpoint
// orientation, as the solvers do for a drag that turns with the body;
// 0: the same drag held over the step, for comparison).
#include <benchmark/benchmark.h>

#include <random>

#include "dem/engine/DemEngine.hpp"
#include "hydrodynamics/FluidForces.hpp"

using namespace sef;
using namespace sef::dem;

namespace {

void BM_DragStep(benchmark::State& state) {
    const bool prolate = state.range(0) == 1, turning = state.range(1) == 1;
    const double c = 1e-4;
    const Superellipsoid shape = prolate ? Superellipsoid(2.5 * c, c, c, 1.0, 1.0) : Superellipsoid(c, c, c, 1.0, 1.0);
    const HydrodynamicShape hydro = makeHydrodynamicShape(shape);
    ParticleSystem ps;
    ps.types.emplace_back(shape, 2500.0);
    std::mt19937 rng(5);
    std::normal_distribution<double> g(0.0, 1.0);
    const int n = 1000;
    for (int i = 0; i < n; ++i)
        ps.add(0, i, 1e-3 * Vec3(i % 10, (i / 10) % 10, i / 100), Quat(g(rng), g(rng), g(rng), g(rng)).normalized());
    ps.fluidDrag.resize(ps.size());
    FluidState fluid;
    fluid.density = 1000.0;
    fluid.dynamicViscosity = 1e-3;
    fluid.velocityGradient(0, 1) = 50.0;
    EngineSettings settings;
    settings.gravity = Vec3(0, 0, -9.81);
    DemEngine engine({}, settings);
    const FluidForceModel model;
    // the drag of the start, kept (the cost of the step does not depend on it)
    for (std::size_t i = 0; i < ps.size(); ++i) {
        const ParticleFluidForces f = fluidForces(hydro, ps.types[0].mass, ps.orientation[i], ps.velocity[i], fluid,
                                                  settings.gravity, model, ps.angularVelocity[i]);
        ps.fluidDrag[i] = f.drag;
        ps.fluidDrag[i].turnsWithBody = f.drag.turnsWithBody && turning;
        ps.externalForce[i] = f.force;
    }
    for (auto _ : state) engine.step(ps, 1e-4, 2);
    state.counters["us_per_particle_step"] =
        benchmark::Counter(static_cast<double>(n) * 1e-6, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_FluidForces(benchmark::State& state) {
    const double c = 1e-4;
    const Superellipsoid shape =
        state.range(0) == 1 ? Superellipsoid(2.5 * c, c, c, 1.0, 1.0) : Superellipsoid(c, c, c, 1.0, 1.0);
    const HydrodynamicShape hydro = makeHydrodynamicShape(shape);
    const double mass = 2500.0 * shape.volume();
    FluidState fluid;
    fluid.density = 1000.0;
    fluid.dynamicViscosity = 1e-3;
    fluid.velocity = Vec3(0.01, 0.0, 0.02);
    fluid.velocityGradient(0, 1) = 50.0;
    fluid.acceleration = Vec3(0.0, 0.0, 0.1);
    FluidForceModel model;
    model.rotationalDrag = model.strainTorque = model.buoyancy = model.pressureGradient = model.addedMass = true;
    model.directionalAddedMass = true;
    const Quat q = Quat(1.0, 0.2, -0.3, 0.1).normalized();
    for (auto _ : state) {
        const ParticleFluidForces f = fluidForces(hydro, mass, q, Vec3::Zero(), fluid, Vec3(0, 0, -9.81), model, Vec3::Zero());
        benchmark::DoNotOptimize(f.force);
    }
}

} // namespace

BENCHMARK(BM_FluidForces)->Arg(0)->Arg(1)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_DragStep)->Args({0, 1})->Args({1, 0})->Args({1, 1})->Unit(benchmark::kMicrosecond);
