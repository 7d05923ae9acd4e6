// ns per call of the geometry kernel hot paths: implicit function, gradient,
// Hessian, evaluate() (all three), third derivatives, support point/value,
// curvature, world-frame evaluate. Points cycle through a fixed set of 1024
// random near-surface points so the branch predictor cannot memorise one.
#include "geometry/PosedShape.hpp"

#include <benchmark/benchmark.h>

#include <random>
#include <vector>

namespace {

struct Fixture {
    sef::Superellipsoid shape;
    sef::Pose pose;
    std::vector<sef::Vec3> points, worldPoints, directions;
    explicit Fixture(double e1, double e2) : shape(0.05, 0.01, 0.025, e1, e2) {
        std::mt19937 rng(1);
        std::normal_distribution<double> g;
        std::uniform_real_distribution<double> scale(0.9, 1.1);
        pose.position = sef::Vec3(0.1, 0.2, 0.3);
        pose.orientation = sef::Quat(0.9, 0.1, -0.3, 0.2).normalized();
        for (int i = 0; i < 1024; ++i) {
            const sef::Vec3 d(g(rng), g(rng), g(rng));
            points.push_back(shape.radialSurfacePoint(d) * scale(rng));
            worldPoints.push_back(pose.toWorld(points.back()));
            directions.push_back(d.normalized());
        }
    }
};

// eps pairs: ellipsoid (1, 1), blocky (0.3, 0.5), pointy with edges (1.5, 1.2).
const Fixture& fixture(int which) {
    static const Fixture f[3] = {Fixture(1.0, 1.0), Fixture(0.3, 0.5), Fixture(1.5, 1.2)};
    return f[which];
}

template <class Call>
void run(benchmark::State& state, Call&& call) {
    const Fixture& f = fixture(static_cast<int>(state.range(0)));
    size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(call(f, i & 1023));
        ++i;
    }
}

void BM_implicitFunction(benchmark::State& s) {
    run(s, [](const Fixture& f, size_t i) { return f.shape.implicitFunction(f.points[i]); });
}
void BM_gradient(benchmark::State& s) {
    run(s, [](const Fixture& f, size_t i) { return f.shape.gradient(f.points[i]); });
}
void BM_hessian(benchmark::State& s) {
    run(s, [](const Fixture& f, size_t i) { return f.shape.hessian(f.points[i]); });
}
void BM_evaluate(benchmark::State& s) {
    run(s, [](const Fixture& f, size_t i) { return f.shape.evaluate(f.points[i]); });
}
void BM_thirdDerivatives(benchmark::State& s) {
    run(s, [](const Fixture& f, size_t i) { return f.shape.thirdDerivatives(f.points[i]); });
}
void BM_supportPoint(benchmark::State& s) {
    run(s, [](const Fixture& f, size_t i) { return f.shape.supportPoint(f.directions[i]); });
}
void BM_supportValue(benchmark::State& s) {
    run(s, [](const Fixture& f, size_t i) { return f.shape.supportValue(f.directions[i]); });
}
void BM_curvature(benchmark::State& s) {
    run(s, [](const Fixture& f, size_t i) { return f.shape.curvature(f.points[i]); });
}
void BM_evaluateWorld(benchmark::State& s) {
    run(s, [](const Fixture& f, size_t i) { return sef::evaluateWorld(f.shape, f.pose, f.worldPoints[i]); });
}
void BM_supportPointWorld(benchmark::State& s) {
    run(s, [](const Fixture& f, size_t i) {
        return sef::supportPointWorld(f.shape, f.pose, f.directions[i]);
    });
}

} // namespace

// Argument: 0 = ellipsoid (eps 1, 1), 1 = blocky (0.3, 0.5), 2 = edged (1.5, 1.2).
#define SEF_SHAPES ->Arg(0)->Arg(1)->Arg(2)
BENCHMARK(BM_implicitFunction) SEF_SHAPES;
BENCHMARK(BM_gradient) SEF_SHAPES;
BENCHMARK(BM_hessian) SEF_SHAPES;
BENCHMARK(BM_evaluate) SEF_SHAPES;
BENCHMARK(BM_thirdDerivatives) SEF_SHAPES;
BENCHMARK(BM_supportPoint) SEF_SHAPES;
BENCHMARK(BM_supportValue) SEF_SHAPES;
BENCHMARK(BM_curvature) SEF_SHAPES;
BENCHMARK(BM_evaluateWorld) SEF_SHAPES;
BENCHMARK(BM_supportPointWorld) SEF_SHAPES;
