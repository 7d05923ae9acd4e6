// Cost of the contact detection: pair detection cold and warm-started for
// spheres, ellipsoids (eps = 1), blocky (eps = 0.2) and diamond (eps = 1.8)
// shapes, a wall query, and the broad phase per particle.
#include "contact/CellGrid.hpp"
#include "contact/PairContact.hpp"
#include "contact/PolygonWallContact.hpp"
#include "contact/WallContact.hpp"

#include <benchmark/benchmark.h>

#include <random>

namespace {

using namespace sef;

struct Case {
    Superellipsoid s1, s2;
    std::vector<Pose> p1, p2;
};

// 256 random shallow-contact configurations of two shapes with the given eps.
Case makeCase(double eps, bool sphere) {
    const Superellipsoid s = sphere ? Superellipsoid(0.005, 0.005, 0.005, 1.0, 1.0)
                                    : Superellipsoid(0.008, 0.005, 0.004, eps, eps);
    Case c{s, s, {}, {}};
    std::mt19937 rng(7);
    std::normal_distribution<double> g(0.0, 1.0);
    while (c.p1.size() < 256) {
        Pose a, b;
        a.orientation = Quat(g(rng), g(rng), g(rng), g(rng)).normalized();
        b.orientation = Quat(g(rng), g(rng), g(rng), g(rng)).normalized();
        const Vec3 u = Vec3(g(rng), g(rng), g(rng)).normalized();
        // Bisect the centre distance along u to an overlap of ~1% of c.
        double lo = 0.0, hi = 0.04;
        for (int k = 0; k < 40; ++k) {
            b.position = 0.5 * (lo + hi) * u;
            const ContactResult r = detectPairContact(c.s1, a, c.s2, b);
            (r.contact && r.depth > 0.01 * 0.004 ? lo : hi) = 0.5 * (lo + hi);
        }
        b.position = lo * u;
        c.p1.push_back(a);
        c.p2.push_back(b);
    }
    return c;
}

// Path statistics over the configurations: share answered by the fallback
// and mean iteration count (Newton steps + GJK/EPA iterations).
void pathCounters(benchmark::State& state, const std::vector<ContactResult>& results) {
    double fallbacks = 0.0, iterations = 0.0;
    for (const ContactResult& r : results) {
        fallbacks += r.status == ContactStatus::fallback;
        iterations += r.iterations;
    }
    state.counters["fallbackShare"] = fallbacks / double(results.size());
    state.counters["meanIterations"] = iterations / double(results.size());
}

void pairCold(benchmark::State& state, double eps, bool sphere) {
    const Case c = makeCase(eps, sphere);
    std::vector<ContactResult> results(c.p1.size());
    std::size_t i = 0;
    for (auto _ : state) {
        const auto k = i++ % c.p1.size();
        results[k] = detectPairContact(c.s1, c.p1[k], c.s2, c.p2[k]);
        benchmark::DoNotOptimize(results[k]);
    }
    pathCounters(state, results);
}

void pairWarm(benchmark::State& state, double eps, bool sphere) {
    Case c = makeCase(eps, sphere);
    // The warm start a DEM engine keeps per pair: the last normal and where
    // the last flat patch's outline searches ended.
    std::vector<PairWarmStart> warm(c.p1.size());
    std::vector<PatchGuess> patch(c.p1.size());
    for (std::size_t k = 0; k < c.p1.size(); ++k) {
        warm[k].normal = Vec3::Zero(); // cold, keeping the patch guesses
        warm[k].patch = &patch[k];
        warm[k].normal = detectPairContact(c.s1, c.p1[k], c.s2, c.p2[k], &warm[k]).normal;
    }
    // Each query moves body 2 by a small DEM-like step (1e-6 m, 1e-4 rad).
    const Quat turn(Eigen::AngleAxisd(1e-4, Vec3(0.3, 0.5, 0.8).normalized()));
    std::vector<ContactResult> results(c.p1.size());
    std::size_t i = 0;
    for (auto _ : state) {
        const auto k = i++ % c.p1.size();
        Pose& p = c.p2[k];
        const double sign = (i / c.p1.size()) % 2 ? -1.0 : 1.0;
        p.position.x() += sign * 1e-6;
        p.orientation = (sign > 0 ? turn : turn.conjugate()) * p.orientation;
        const ContactResult r = detectPairContact(c.s1, c.p1[k], c.s2, p, &warm[k]);
        warm[k].normal = r.normal;
        results[k] = r;
        benchmark::DoNotOptimize(r);
    }
    pathCounters(state, results);
}

void wallQuery(benchmark::State& state, double eps) {
    const Superellipsoid s(0.008, 0.005, 0.004, eps, eps);
    std::mt19937 rng(8);
    std::normal_distribution<double> g(0.0, 1.0);
    std::vector<Pose> poses(256);
    for (auto& p : poses) {
        p.orientation = Quat(g(rng), g(rng), g(rng), g(rng)).normalized();
        p.position = Vec3(0, 0, 0.003);
    }
    const WallPlane wall{Vec3::Zero(), Vec3::UnitZ()};
    std::size_t i = 0;
    for (auto _ : state) benchmark::DoNotOptimize(detectWallContact(s, poses[i++ % 256], wall));
}

// Wall polygon: a step (top face z = 0, x <= 0; side face x = 0, z <= 0)
// with the particle over the top face (face contact) or on the convex edge
// (edge contact, 1-D Newton), both faces queried per iteration.
void wallPolygonQuery(benchmark::State& state, double eps, bool onEdge) {
    const Superellipsoid s(0.008, 0.005, 0.004, eps, eps);
    std::vector<WallPolygon> faces(2);
    faces[0].vertices = {{-0.05, -0.05, 0}, {0, -0.05, 0}, {0, 0.05, 0}, {-0.05, 0.05, 0}};
    faces[0].normal = Vec3::UnitZ();
    faces[1].vertices = {{0, -0.05, -0.05}, {0, 0.05, -0.05}, {0, 0.05, 0}, {0, -0.05, 0}};
    faces[1].normal = Vec3::UnitX();
    markActiveFeatures(faces, 1e-9);
    std::mt19937 rng(10);
    std::normal_distribution<double> g(0.0, 1.0);
    std::vector<Pose> poses(256);
    for (auto& p : poses) {
        p.orientation = Quat(g(rng), g(rng), g(rng), g(rng)).normalized();
        const Vec3 m = onEdge ? Vec3(1, 0, 1).normalized() : Vec3::UnitZ();
        const Vec3 anchor = onEdge ? Vec3::Zero() : Vec3(-0.02, 0, 0);
        const double reach = s.supportValue(p.orientation.conjugate() * (-m));
        p.position = anchor + (reach - 4e-5) * m;
    }
    std::size_t i = 0, contacts = 0;
    for (auto _ : state) {
        const Pose& p = poses[i++ % 256];
        for (const WallPolygon& f : faces) {
            const ContactResult r = detectPolygonWallContact(s, p, f);
            contacts += r.contact;
            benchmark::DoNotOptimize(r);
        }
    }
    state.counters["contactsPerQuery"] = double(contacts) / double(state.iterations());
}

void broadPhase(benchmark::State& state) {
    const int n = static_cast<int>(state.range(0));
    // Random packing at ~30% solid fraction of spheres of radius 0.005.
    const double r = 0.005;
    const double box = std::cbrt(n * 4.19 * r * r * r / 0.3);
    std::mt19937 rng(9);
    std::uniform_real_distribution<double> u(0.0, box);
    std::vector<Vec3> x(n);
    for (auto& p : x) p = Vec3(u(rng), u(rng), u(rng));
    const std::vector<double> radii(n, r);
    CellGrid grid;
    std::size_t pairs = 0;
    for (auto _ : state) {
        grid.build(x, radii);
        pairs = 0;
        grid.forEachCandidatePair([&](int, int) { ++pairs; });
        benchmark::DoNotOptimize(pairs);
    }
    state.counters["perParticle_ns"] = benchmark::Counter(
        double(n), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
    state.counters["pairs"] = double(pairs);
}

} // namespace

BENCHMARK_CAPTURE(pairCold, sphere, 1.0, true);
BENCHMARK_CAPTURE(pairCold, ellipsoid, 1.0, false);
BENCHMARK_CAPTURE(pairCold, blocky02, 0.2, false);
BENCHMARK_CAPTURE(pairCold, diamond18, 1.8, false);
BENCHMARK_CAPTURE(pairWarm, sphere, 1.0, true);
BENCHMARK_CAPTURE(pairWarm, ellipsoid, 1.0, false);
BENCHMARK_CAPTURE(pairWarm, blocky02, 0.2, false);
BENCHMARK_CAPTURE(pairWarm, diamond18, 1.8, false);
BENCHMARK_CAPTURE(wallQuery, ellipsoid, 1.0);
BENCHMARK_CAPTURE(wallQuery, blocky02, 0.2);
BENCHMARK_CAPTURE(wallPolygonQuery, ellipsoidFace, 1.0, false);
BENCHMARK_CAPTURE(wallPolygonQuery, ellipsoidEdge, 1.0, true);
BENCHMARK_CAPTURE(wallPolygonQuery, blocky02Edge, 0.2, true);
BENCHMARK(broadPhase)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);
