// The benchmark case, driving DemEngine directly (benchmarks/README.md):
// superellipsoids with half-axes 2.0, 1.5, 1.0 mm, eps1 = eps2 = 0.5,
// rho = 2500 kg/m^3, eps_n = 0.5 (pair and wall), dt = 1e-5 s, closed box.
//  - boxFilling/N: N particles start on a jittered lattice (random
//    orientations, 2.5 % gaps of the bounding spheres) over a footprint that grows with N (the bed
//    depth stays the same, ~6 layers), and fall; after 0.02 s (the lower
//    layers have landed and collide) the next steps are timed (N = 1e3, 1e4,
//    1e5: is the cost per particle-step flat in N?).
//  - denseSettled: 1e3 particles in a 0.04 m x 0.04 m footprint (about
//    five layers) settle untimed until the kinetic energy is below 1e-6 of the
//    released potential energy (at most 0.6 s), then the quiet bed is timed.
//  - settledMonolayer/<sleeping>: the same 1e3 particles dropped onto a
//    0.1 m x 0.1 m floor, where they settle in about one layer, settled
//    and timed as denseSettled (coulomb); 1: with sleeping (sleepTime
//    0.05 s) and rolling resistance 0.01.
//  - blocksOnFloor: 400 small blocks rocking on a floor, steps of 1e-3 s
//    (the dry analogue of cloudBox's bed; see the function).
//  - restingBlocks/<eps*100>: 400 small blocks lying flat and apart on a
//    floor, at rest: the cost of a resting wall contact (us_per_contact_step,
//    the whole step shared by the contacts).
// Counters: us_per_particle_step, us_per_contact_step (per contact pair,
// walls included), contacts_per_particle, sweeps_per_step, reused_share
// (pair queries answered from the previous exact answer).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "dem/walls/BoxWalls.hpp"
#include "dem/engine/DemEngine.hpp"

using namespace sef;
using namespace sef::dem;

namespace {

struct Bed {
    ParticleSystem ps;
    std::unique_ptr<DemEngine> engine;
};

constexpr double dt = 1e-5;

Bed makeBed(long count, double footprint, const std::string& model) {
    Bed bed;
    bed.ps.types.emplace_back(Superellipsoid(0.002, 0.0015, 0.001, 0.5, 0.5), 2500.0);
    const double spacing = 2.05 * bed.ps.types[0].boundingRadius; // 2.5 % gaps of bounding spheres
    const long perSide = static_cast<long>(footprint / spacing);
    const long layers = (count + perSide * perSide - 1) / (perSide * perSide);
    std::mt19937 rng(7);
    std::normal_distribution<double> g(0.0, 1.0);
    std::uniform_real_distribution<double> jitter(-0.04, 0.04);
    const double margin = 0.5 * (footprint - perSide * spacing);
    for (long id = 0; id < count; ++id) {
        const long i = id % perSide, j = (id / perSide) % perSide, k = id / (perSide * perSide);
        const Vec3 x(margin + spacing * (i + 0.5 + jitter(rng)), margin + spacing * (j + 0.5 + jitter(rng)),
                     spacing * (k + 0.5));
        bed.ps.add(0, id, x, Quat(g(rng), g(rng), g(rng), g(rng)).normalized());
    }
    EngineSettings s;
    s.pair.model = s.wall.model = model;
    s.pair.restitution = s.wall.restitution = 0.5;
    s.pair.friction = s.wall.friction = 0.3;
    s.pair.tangentialRestitution = s.wall.tangentialRestitution = 0.0;
    s.gravity = Vec3(0, 0, -9.81);
    s.reorderParticles = true; // as superellipsoidDEMFoam
    bed.engine = std::make_unique<DemEngine>(
        boxWalls(Vec3::Zero(), Vec3(footprint, footprint, (layers + 2) * spacing)), s);
    return bed;
}

void timeSteps(benchmark::State& state, Bed& bed, double stepDt = dt, int substeps = 1) {
    long contacts = 0, steps = 0, sweeps = 0, reused = 0, pairQueries = 0;
    double kinetic = 0.0;
    for (auto _ : state) {
        const StepStatistics st = bed.engine->step(bed.ps, stepDt, substeps);
        contacts += st.contacts;
        sweeps += st.sweeps;
        reused += st.reusedPairs;
        pairQueries += st.candidatePairs;
        kinetic = st.kineticEnergy;
        ++steps;
    }
    const double n = static_cast<double>(bed.ps.size());
    state.counters["particles"] = n;
    state.counters["contacts_per_particle"] = static_cast<double>(contacts) / steps / n;
    state.counters["sweeps_per_step"] = static_cast<double>(sweeps) / steps;
    state.counters["reused_share"] = pairQueries ? static_cast<double>(reused) / pairQueries : 0.0;
    state.counters["kinetic_energy"] = kinetic;
    state.counters["us_per_particle_step"] =
        benchmark::Counter(n * 1e-6, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
    state.counters["us_per_contact_step"] = benchmark::Counter(
        std::max(1.0, contacts / static_cast<double>(steps)) * 1e-6,
        benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void boxFilling(benchmark::State& state, const std::string& model) {
    const long count = state.range(0);
    Bed bed = makeBed(count, 0.04 * std::sqrt(count / 1000.0), model);
    for (int k = 0; k < 2000; ++k) bed.engine->step(bed.ps, dt); // 0.02 s: contacts form
    timeSteps(state, bed);
}

// Potential energy of the bed relative to the floor [J].
double potentialEnergy(const ParticleSystem& ps) {
    double e = 0.0;
    for (std::size_t i = 0; i < ps.size(); ++i) e += ps.types[0].mass * 9.81 * ps.position[i].z();
    return e;
}

// Settles the bed (see denseSettled), then times it.
void settleAndTime(benchmark::State& state, Bed& bed) {
    // Settle untimed until the bed is at rest (the lattice lands after about
    // 0.15 s; a frictional bed is quiet after about 0.3 s): kinetic energy below
    // 1e-6 of the released potential energy, at most 0.6 s.
    const double potential0 = potentialEnergy(bed.ps);
    for (int k = 0; k < 60000; ++k) {
        const StepStatistics st = bed.engine->step(bed.ps, dt);
        if (k >= 15000 && st.kineticEnergy < 1e-6 * (potential0 - potentialEnergy(bed.ps))) break;
    }
    timeSteps(state, bed);
    state.counters["settled_ke_ratio"] = state.counters["kinetic_energy"] / (potential0 - potentialEnergy(bed.ps));
}

void denseSettled(benchmark::State& state, const std::string& model) {
    Bed bed = makeBed(1000, 0.04, model);
    settleAndTime(state, bed);
}

void settledMonolayer(benchmark::State& state) {
    Bed bed = makeBed(1000, 0.1, "coulomb");
    if (state.range(0) == 1) {
        EngineSettings s = bed.engine->settings();
        s.sleepTime = 0.05;
        s.pair.rollingFriction = s.wall.rollingFriction = 0.01;
        bed.engine = std::make_unique<DemEngine>(boxWalls(Vec3::Zero(), Vec3(0.1, 0.1, 0.04)), s);
    }
    settleAndTime(state, bed);
    double highest = 0.0;
    for (const Vec3& x : bed.ps.position) highest = std::max(highest, x.z());
    state.counters["highest_centre_mm"] = 1e3 * highest;
}

// Flat blocks apart on a floor, at rest (see the list above).
void restingBlocks(benchmark::State& state) {
    const double eps = state.range(0) / 100.0;
    Bed bed;
    bed.ps.types.emplace_back(Superellipsoid(0.0005, 0.000375, 0.00025, eps, eps), 2500.0);
    const int side = 20;
    const double spacing = 1.5e-3, L = side * spacing;
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> yaw(0.0, 2.0 * M_PI);
    for (int id = 0; id < side * side; ++id)
        bed.ps.add(0, id, Vec3(spacing * (id % side + 0.5), spacing * (id / side + 0.5), 0.00025),
                   Quat(Eigen::AngleAxisd(yaw(rng), Vec3::UnitZ())));
    EngineSettings s;
    s.pair.model = s.wall.model = "coulomb";
    s.pair.restitution = s.wall.restitution = 0.5;
    s.pair.friction = s.wall.friction = 0.3;
    s.gravity = Vec3(0, 0, -9.81);
    bed.engine = std::make_unique<DemEngine>(boxWalls(Vec3::Zero(), Vec3(L, L, 0.01), side), s);
    for (int k = 0; k < 200; ++k) bed.engine->step(bed.ps, 1e-4); // 0.02 s: resting
    long reusedWalls = 0, wallContacts = 0;
    for (auto _ : state) {
        const StepStatistics st = bed.engine->step(bed.ps, 1e-4);
        reusedWalls += st.reusedWalls;
        wallContacts += st.wallContacts;
    }
    state.counters["wall_reused_share"] = wallContacts ? double(reusedWalls) / double(wallContacts) : 0.0;
    state.counters["contacts_per_particle"] = double(wallContacts) / double(state.iterations()) / (side * side);
    state.counters["us_per_contact_step"] = benchmark::Counter(
        std::max(1.0, double(wallContacts) / double(state.iterations())) * 1e-6,
        benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// The dry analogue of a bed on the floor of cloudBox (benchmarks/README.md):
// 400 blocks of its shape (half-axes 0.5, 0.375, 0.25 mm, eps 0.5) laid
// nearly flat (tilts ~0.2 rad) in a 20 x 20 patch on a floor of 2.2 mm
// quads (its cells), coulomb mu 0.3, steps of 1e-3 s with 2 substeps as the
// cloud takes them. After 0.8 s they still rock on the floor (the wall
// answers are not reused), and a share of the contacts takes the Coulomb
// law's reduced-friction path. range(0) = 1: the same with sleeping
// (sleepTime 0.2 s) and rolling resistance 0.01.
void blocksOnFloor(benchmark::State& state) {
    Bed bed;
    bed.ps.types.emplace_back(Superellipsoid(0.0005, 0.000375, 0.00025, 0.5, 0.5), 2500.0);
    const int side = 20;
    const double spacing = 1.1e-3, L = side * spacing;
    std::mt19937 rng(3);
    std::normal_distribution<double> g(0.0, 1.0);
    std::uniform_real_distribution<double> jitter(-0.05, 0.05);
    for (int id = 0; id < side * side; ++id) {
        const Quat q = Quat(1.0, 0.15 * g(rng), 0.15 * g(rng), 0.5 * g(rng)).normalized();
        bed.ps.add(0, id, Vec3(spacing * (id % side + 0.5 + jitter(rng)), spacing * (id / side + 0.5 + jitter(rng)), 4e-4), q);
    }
    EngineSettings s;
    s.pair.model = s.wall.model = "coulomb";
    s.pair.restitution = s.wall.restitution = 0.5;
    s.pair.friction = s.wall.friction = 0.3;
    s.gravity = Vec3(0, 0, -9.81);
    s.reorderParticles = true;
    if (state.range(0) == 1) { // sleeping after 0.2 s still, with rolling resistance 0.01
        s.sleepTime = 0.2;
        s.pair.rollingFriction = s.wall.rollingFriction = 0.01;
    }
    bed.engine = std::make_unique<DemEngine>(boxWalls(Vec3::Zero(), Vec3(L, L, 0.02), 10), s);
    long asleep = 0;
    for (int k = 0; k < 800; ++k) asleep = bed.engine->step(bed.ps, 1e-3, 2).sleepingParticles;
    timeSteps(state, bed, 1e-3, 2);
    state.counters["asleep_share_before"] = double(asleep) / double(bed.ps.size());
}

// Blocks dropped at a tilt (the resting-bed case of doc/dem.md, "Overlap
// removal without feeding velocity", "Twisting resistance", "Sleeping"): a
// side x side patch (side = range(2): 10, or 1 for a single block) of the
// cloudBox shape with exponent eps = range(0) / 100, each tilted 0.3 rad
// about a random horizontal axis, 0.1 mm above a floor; Coulomb mu 0.3
// (sticking, eps_t 0), e 0.5, rolling resistance 0.01, steps of 10^-range(3)
// s with 2 substeps. range(1): 0 overlap removal not paying its energy, 1
// paying it, 2 paying it with sleeping after 0.2 s still, 3 paying it with
// twisting resistance 0.01, 4 paying it without rolling resistance, 5
// paying it with every correction made in full (paidCorrectionDepth 0). 1.5 s
// untimed, then 100 steps timed. Counters: median_spin and max_spin (|omega|
// at the end, rad/s), wall_reused_share, max_overlap (of d_eq, over the
// whole run), asleep_share (at the end), energy_rise (the largest growth of
// the mechanical energy, kinetic + gravity potential at step ends, over its
// lowest value so far, from 0.5 s on) and rotation_end (the rotational
// kinetic energy at the end), both over sum m g d_eq.
void blocksDropped(benchmark::State& state) {
    const double eps = state.range(0) / 100.0;
    const long mode = state.range(1);
    const int side = static_cast<int>(state.range(2));
    const double stepDt = std::pow(10.0, -static_cast<double>(state.range(3)));
    Bed bed;
    bed.ps.types.emplace_back(Superellipsoid(0.0005, 0.000375, 0.00025, eps, eps), 2500.0);
    const double spacing = 1.2e-3, L = side * spacing;
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> angle(0.0, 2.0 * M_PI);
    const double R = bed.ps.types[0].boundingRadius;
    for (int id = 0; id < side * side; ++id) {
        const double phi = angle(rng);
        const Quat q(Eigen::AngleAxisd(0.3, Vec3(std::cos(phi), std::sin(phi), 0)) *
                     Eigen::AngleAxisd(angle(rng), Vec3::UnitZ()));
        bed.ps.add(0, id, Vec3(spacing * (id % side + 0.5), spacing * (id / side + 0.5), R + 1e-4), q);
    }
    EngineSettings s;
    s.pair.model = s.wall.model = "coulomb";
    s.pair.restitution = s.wall.restitution = 0.5;
    s.pair.friction = s.wall.friction = 0.3;
    s.pair.rollingFriction = s.wall.rollingFriction = mode == 4 ? 0.0 : 0.01;
    s.gravity = Vec3(0, 0, -9.81);
    s.reorderParticles = true;
    s.correctionPaysEnergy = mode != 0;
    s.sleepTime = mode == 2 ? 0.2 : 0.0;
    if (mode == 3) s.pair.twistingFriction = s.wall.twistingFriction = 0.01;
    if (mode == 5) s.paidCorrectionDepth = 0.0;
    bed.engine = std::make_unique<DemEngine>(boxWalls(Vec3::Zero(), Vec3(L, L, 0.02), side), s);
    double maxOverlap = 0.0, lowest = std::numeric_limits<double>::infinity(), rise = 0.0;
    const long untimed = std::lround(1.5 / stepDt);
    for (long k = 1; k <= untimed; ++k) {
        const StepStatistics st = bed.engine->step(bed.ps, stepDt, 2);
        maxOverlap = std::max(maxOverlap, st.maxOverlapOverDeq);
        if (k * stepDt < 0.5) continue;
        double E = st.kineticEnergy; // (the particles' order may change: a sum over all)
        for (std::size_t i = 0; i < bed.ps.size(); ++i) E -= bed.ps.types[0].mass * s.gravity.dot(bed.ps.position[i]);
        rise = std::max(rise, E - lowest);
        lowest = std::min(lowest, E);
    }
    long reusedWalls = 0, wallContacts = 0, asleep = 0;
    for (auto _ : state) {
        const StepStatistics st = bed.engine->step(bed.ps, stepDt, 2);
        reusedWalls += st.reusedWalls;
        wallContacts += st.wallContacts;
        maxOverlap = std::max(maxOverlap, st.maxOverlapOverDeq);
        asleep = st.sleepingParticles;
    }
    double rotationEnd = 0.0;
    for (std::size_t i = 0; i < bed.ps.size(); ++i) {
        const Vec3 w = bed.ps.orientation[i].conjugate() * bed.ps.angularVelocity[i];
        rotationEnd += 0.5 * w.dot(bed.ps.types[0].principalInertia.cwiseProduct(w));
    }
    const double dropScale = double(bed.ps.size()) * bed.ps.types[0].mass * 9.81 * 2.0 * R;
    std::vector<double> spin;
    for (const Vec3& w : bed.ps.angularVelocity) spin.push_back(w.norm());
    std::sort(spin.begin(), spin.end());
    const double n = static_cast<double>(bed.ps.size());
    state.counters["median_spin"] = spin[spin.size() / 2];
    state.counters["max_spin"] = spin.back();
    state.counters["wall_reused_share"] = wallContacts ? double(reusedWalls) / double(wallContacts) : 0.0;
    state.counters["max_overlap"] = maxOverlap;
    state.counters["asleep_share"] = double(asleep) / double(bed.ps.size());
    state.counters["energy_rise"] = rise / dropScale;
    state.counters["rotation_end"] = rotationEnd / dropScale;
    state.counters["us_per_particle_step"] =
        benchmark::Counter(n * 1e-6, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

} // namespace

BENCHMARK(blocksDropped)->ArgsProduct({{25, 50, 100}, {0, 1, 2, 3, 4, 5}, {10}, {3}})->Iterations(100)->Unit(benchmark::kMillisecond);
BENCHMARK(blocksDropped)->ArgsProduct({{25, 50, 100}, {3}, {1}, {3, 5}})->Iterations(100)->Unit(benchmark::kMillisecond);
BENCHMARK(blocksDropped)->ArgsProduct({{25, 50, 100}, {3}, {10}, {5}})->Iterations(100)->Unit(benchmark::kMillisecond);
BENCHMARK(blocksOnFloor)->Arg(0)->Arg(1)->Iterations(200)->Unit(benchmark::kMillisecond);
BENCHMARK(restingBlocks)->Arg(25)->Arg(50)->Arg(100)->Iterations(2000)->Unit(benchmark::kMillisecond);
BENCHMARK(settledMonolayer)->Arg(0)->Arg(1)->Iterations(1000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(boxFilling, frictionless, std::string("frictionless"))
    ->Arg(1000)->Arg(10000)->Iterations(300)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(boxFilling, frictionless, std::string("frictionless"))
    ->Arg(100000)->Iterations(30)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(denseSettled, frictionless, std::string("frictionless"))
    ->Iterations(1000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(denseSettled, coulomb, std::string("coulomb"))
    ->Iterations(1000)->Unit(benchmark::kMillisecond);
