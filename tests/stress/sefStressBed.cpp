// One bed of the stress campaign: a dense bed of superellipsoids
// falling into, and settling in, a closed box, driven through DemEngine (the
// step both solvers call) with OpenFOAM's floating-point traps on (overflow,
// invalid, divide by zero). Any trapped operation kills the program with
// SIGFPE; otherwise it prints one JSON object and exits 0 only if the bed is
// clean: no particle lost or outside the box, every state finite, the
// largest overlap below 1 % of d_eq at every step.
//
//   sefStressBed --shape "a b c eps1 eps2" [--shape ...]   (mixed bed: equal shares)
//                [--count 200] [--seed 1] [--dt auto]
//                [--time T | --settle 0.1]   (T, or landing time of the column + settle)
//                [--model coulomb|frictionless] [--faces 8] [--density 2500] [--layers 5]
//
// The box: footprint for a bed about `layers` d_eq deep, walls split
// into faces x faces quads per side (as a blockMesh box's wall faces, so the
// particles meet edges and vertices between coplanar faces); injection with
// the dry solver's random non-overlapping region injection.
#include "FloatingPointTraps.hpp"
#include "dem/walls/BoxWalls.hpp"
#include "dem/engine/DemEngine.hpp"
#include "dem/injection/RandomInjection.hpp"
#include "contact/PairContact.hpp"

#include <deque>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace sef;
using namespace sef::dem;

namespace {

constexpr double kGravity = 9.81;
constexpr double kColumn = 0.05; // largest height of the injection column [m]

struct Options {
    std::vector<Superellipsoid> shapes;
    long count = 200;
    std::uint64_t seed = 1;
    double endTime = 0;      // 0: landing time of the column + settle
    double settle = 0.1;
    double dt = 0; // 0: automatic (below)
    std::string model = "coulomb";
    int faces = 8;
    double density = 2500.0;
    double layers = 5.0;
    bool diagnose = false; // on the first step above 1 % overlap: the pair's history
    bool reuse = true;     // the engine's reuse of narrow-phase answers (diagnosis)
};

Superellipsoid parseShape(const std::string& text) {
    std::istringstream in(text);
    double a, b, c, e1, e2;
    if (!(in >> a >> b >> c >> e1 >> e2)) throw std::invalid_argument("--shape needs \"a b c eps1 eps2\", got \"" + text + "\"");
    return Superellipsoid(a, b, c, e1, e2);
}

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string key = argv[i];
        if (i + 1 >= argc) throw std::invalid_argument(key + " needs a value");
        const std::string value = argv[++i];
        if (key == "--shape") o.shapes.push_back(parseShape(value));
        else if (key == "--count") o.count = std::stol(value);
        else if (key == "--seed") o.seed = std::stoull(value);
        else if (key == "--time") o.endTime = std::stod(value);
        else if (key == "--settle") o.settle = std::stod(value);
        else if (key == "--dt") o.dt = std::stod(value);
        else if (key == "--model") o.model = value;
        else if (key == "--faces") o.faces = std::stoi(value);
        else if (key == "--density") o.density = std::stod(value);
        else if (key == "--layers") o.layers = std::stod(value);
        else if (key == "--diagnose") o.diagnose = value == "1" || value == "yes";
        else if (key == "--reuse") o.reuse = value == "1" || value == "yes";
        else throw std::invalid_argument("unknown option " + key);
    }
    if (o.shapes.empty()) throw std::invalid_argument("at least one --shape is needed");
    if (o.count < 1 || o.endTime < 0.0 || o.settle < 0.0 || o.dt < 0.0 || o.faces < 1 || o.layers <= 0.0)
        throw std::invalid_argument("--count, --faces and --layers must be positive, --dt, --time and --settle not negative");
    return o;
}

// Deepest penetration [m] of particle i into the walls of the box [0, boxHi]:
// its support value along each outward normal beyond that wall's plane.
double boxWallDepth(const ParticleSystem& s, std::size_t i, const Vec3& boxHi) {
    double worst = -1e300;
    for (int axis = 0; axis < 3; ++axis)
        for (int side = 0; side < 2; ++side) {
            const Vec3 n = (side ? 1.0 : -1.0) * Vec3::Unit(axis);
            const double reach = s.types[s.type[i]].shape.supportValue(s.orientation[i].conjugate() * n);
            worst = std::max(worst, reach - (side ? boxHi[axis] - s.position[i][axis] : s.position[i][axis]));
        }
    return worst;
}

// The deepest overlapping pair (exact narrow phase, all pairs) of the state
// before the step that reported the deep overlap, and that pair's exact depth
// over the kept history: did it sink in over many steps unseen, or at once?
void diagnoseDeepestPair(const std::deque<ParticleSystem>& history, long step, double dt, const Vec3& boxHi,
                         const EngineSettings& coldSettings, int coldFaces) {
    const ParticleSystem& ps = history.back();
    PairContactOptions exact;
    exact.boundingVolumeRejection = false;
    auto depthOf = [&](const ParticleSystem& s, std::size_t i, std::size_t j) {
        const ContactResult r = detectPairContact(s.types[s.type[i]].shape, Pose{s.position[i], s.orientation[i]},
                                                  s.types[s.type[j]].shape, Pose{s.position[j], s.orientation[j]},
                                                  nullptr, exact);
        return r.contact ? r.depth : 0.0;
    };
    double deepest = 0.0;
    std::size_t bi = 0, bj = 0;
    for (std::size_t i = 0; i < ps.size(); ++i)
        for (std::size_t j = i + 1; j < ps.size(); ++j) {
            const double R = ps.types[ps.type[i]].boundingRadius + ps.types[ps.type[j]].boundingRadius;
            if ((ps.position[i] - ps.position[j]).squaredNorm() > R * R) continue;
            const double d = depthOf(ps, i, j) / std::min(ps.types[ps.type[i]].shape.equivalentDiameter(),
                                                          ps.types[ps.type[j]].shape.equivalentDiameter());
            if (d > deepest) deepest = d, bi = i, bj = j;
        }
    // the deepest wall penetration
    double deepestWall = 0.0;
    long wallId = -1;
    for (std::size_t i = 0; i < ps.size(); ++i) {
        const double depth = boxWallDepth(ps, i, boxHi) / ps.types[ps.type[i]].shape.equivalentDiameter();
        if (depth > deepestWall) deepestWall = depth, wallId = static_cast<long>(ps.id[i]);
    }
    std::fprintf(stderr, "deepest wall penetration: particle id %ld, %.3e d_eq\n", wallId, deepestWall);
    for (std::size_t k = 0; k < history.size(); ++k) { // its history, as for the pair below
        if (k % 50 != 0 && k + 20 < history.size()) continue;
        const ParticleSystem& h = history[k];
        for (std::size_t i = 0; i < h.size(); ++i) {
            if (h.id[i] != wallId) continue;
            const double worst = boxWallDepth(h, i, boxHi);
            std::fprintf(stderr, "  step %ld: wall depth %.4e m, position %.6g %.6g %.6g, speed %.3g\n",
                         step - static_cast<long>(history.size() - k - 1), worst, h.position[i].x(), h.position[i].y(),
                         h.position[i].z(), h.velocity[i].norm());
        }
    }
    // replay the last 1300 steps from the kept state by fresh engines, with
    // and without reused answers: does the particle sink in again?
    if (history.size() > 1300 && wallId >= 0) {
        for (int reuse = 1; reuse >= 0; --reuse) {
            ParticleSystem copy = history[history.size() - 1300];
            EngineSettings s = coldSettings;
            if (!reuse) s.contactReuseTolerance = s.flatContactReuseTolerance = 0.0;
            DemEngine replay(boxWalls(Vec3::Zero(), boxHi, coldFaces), s);
            double worstOverlap = 0.0;
            for (int k = 0; k < 1300; ++k) worstOverlap = std::max(worstOverlap, replay.step(copy, dt).maxOverlapOverDeq);
            std::fprintf(stderr, "replay of 1300 steps, reuse %d: max overlap %.3e d_eq\n", reuse, worstOverlap);
        }
    }
    // the same step by a fresh engine (cold warm starts, no reused answers)
    {
        ParticleSystem copy = ps;
        EngineSettings s = coldSettings;
        DemEngine cold(boxWalls(Vec3::Zero(), boxHi, coldFaces), s);
        const StepStatistics st = cold.step(copy, dt);
        std::fprintf(stderr, "the step again by a fresh engine: max overlap %.3e d_eq (pair contacts %ld, walls %ld)\n",
                     st.maxOverlapOverDeq, st.pairContacts, st.wallContacts);
    }
    std::fprintf(stderr, "step %ld (t = %.6g s): deepest pair ids %lld, %lld (types %d, %d): %.3e d_eq\n", step,
                 step * dt, static_cast<long long>(ps.id[bi]), static_cast<long long>(ps.id[bj]), ps.type[bi],
                 ps.type[bj], deepest);
    // the pair's depth back in time (every 50th kept state, then the last 20)
    const std::size_t m = history.size();
    for (std::size_t k = 0; k < m; ++k) {
        if (k % 50 != 0 && k + 20 < m) continue;
        const ParticleSystem& s = history[k];
        std::size_t i = s.size(), j = s.size();
        for (std::size_t q = 0; q < s.size(); ++q) {
            if (s.id[q] == ps.id[bi]) i = q;
            if (s.id[q] == ps.id[bj]) j = q;
        }
        if (i == s.size() || j == s.size()) continue;
        const double d = depthOf(s, i, j);
        std::fprintf(stderr, "  step %ld: depth %.4e m, centres %.6g apart\n", step - static_cast<long>(m - k - 1), d,
                     (s.position[i] - s.position[j]).norm());
        if (d > 1e-2 * s.types[s.type[i]].shape.equivalentDiameter()) { // the pair as superellipsoidContact input
            for (std::size_t b : {i, j}) {
                const Superellipsoid& sh = s.types[s.type[b]].shape;
                std::fprintf(stderr, "    body: shape [%.17g, %.17g, %.17g, %.17g, %.17g] position [%.17g, %.17g, %.17g] "
                             "orientation [%.17g, %.17g, %.17g, %.17g]\n", sh.a(), sh.b(), sh.c(), sh.eps1(), sh.eps2(),
                             s.position[b].x(), s.position[b].y(), s.position[b].z(), s.orientation[b].w(),
                             s.orientation[b].x(), s.orientation[b].y(), s.orientation[b].z());
            }
        }
    }
}

bool inside(const Vec3& x, const Vec3& lo, const Vec3& hi) {
    return (x.array() > lo.array()).all() && (x.array() < hi.array()).all();
}

int run(const Options& o) {
    ParticleSystem ps;
    double maxRadius = 0.0, meanVolume = 0.0, minDeq = 1e300;
    for (const auto& s : o.shapes) {
        ps.types.emplace_back(s, o.density);
        maxRadius = std::max(maxRadius, s.boundingRadius());
        meanVolume += s.volume() / o.shapes.size();
        minDeq = std::min(minDeq, s.equivalentDiameter());
    }
    // Footprint: a bed about `layers` d_eq deep at a solid fraction of 0.55
    // (at least five bounding radii wide, for long particles). Injection
    // region above it, sized for the bounding spheres at a fraction of 0.12
    // and made 1.5 times taller while random sequential addition cannot
    // place every particle (elongated shapes waste most of their spheres).
    const double bedVolume = o.count * meanVolume / 0.55;
    const double meanDeq = std::cbrt(6.0 * meanVolume / M_PI);
    // The footprint is widened (fewer layers) where the injection column would
    // be taller than kColumn: impacts stay below sqrt(2 g kColumn) = 1 m/s.
    const double sphereVolume = 4.0 / 3.0 * M_PI * maxRadius * maxRadius * maxRadius;
    const double footprint = std::max({std::sqrt(bedVolume / (o.layers * meanDeq)), 5.0 * maxRadius,
                                       std::sqrt(o.count * sphereVolume / 0.12 / kColumn)});
    double injectionHeight = o.count * sphereVolume / 0.12 / (footprint * footprint) + 2.0 * maxRadius;
    InjectionSpec spec;
    spec.count = o.count;
    spec.typeFractions.assign(o.shapes.size(), 1.0);
    spec.seed = o.seed;
    for (int attempt = 0;; ++attempt) {
        spec.region.min = Vec3::Constant(1.0001 * maxRadius);
        spec.region.max = Vec3(footprint, footprint, injectionHeight + 2.0 * maxRadius) - spec.region.min;
        try {
            injectRandom(ps, spec, 0);
            break;
        } catch (const InjectionError&) {
            if (attempt == 5) throw;
            injectionHeight *= 1.5;
        }
    }
    const Vec3 lo = Vec3::Zero(), hi(footprint, footprint, injectionHeight + 2.0 * maxRadius);

    EngineSettings s;
    s.pair.model = s.wall.model = o.model;
    s.pair.restitution = s.wall.restitution = 0.5;
    if (o.model == "coulomb") {
        s.pair.friction = s.wall.friction = 0.3;
        s.pair.tangentialRestitution = s.wall.tangentialRestitution = 0.0;
    }
    s.gravity = Vec3(0, 0, -kGravity);
    if (!o.reuse) s.contactReuseTolerance = s.flatContactReuseTolerance = 0.0;
    DemEngine engine(boxWalls(lo, hi, o.faces), s);

    auto potential = [&ps] {
        double e = 0.0;
        for (std::size_t i = 0; i < ps.size(); ++i) e += ps.types[ps.type[i]].mass * kGravity * ps.position[i][2];
        return e;
    };
    const double potentialStart = potential();

    // Run until the top of the column has landed plus `settle` seconds, or
    // until the bed is at rest as superellipsoidDEMFoam's stopWhenSettled
    // sees it: kinetic energy below 1e-6 of the released potential energy
    // for 0.05 s.
    const double landingTime = std::sqrt(2.0 * hi[2] / kGravity);
    // Time step: the given one, or (default) 1e-5 s or less, so that two
    // particles meeting head-on at the impact speed close by at most 0.5 %
    // of the smallest d_eq per step (the overlap a step of drift can make;
    // the acceptance bound is 1 %).
    const double dt = o.dt > 0.0 ? o.dt : std::min(1e-5, 0.0025 * minDeq / (kGravity * landingTime));
    const double endTime = o.endTime > 0.0 ? o.endTime : landingTime + o.settle;
    const long steps = std::lround(endTime / dt);
    const long quietStepsNeeded = std::lround(0.05 / dt);
    double maxOverlap = 0.0, kineticOverDrop = 0.0, settledAt = -1.0;
    long pushedBack = 0, fallbacks = 0, contactSteps = 0, newton = 0, quietSteps = 0, n = 0;
    const auto t0 = std::chrono::steady_clock::now();
    std::deque<ParticleSystem> history; // --diagnose: the states before the last steps
    bool diagnosed = false;
    for (; n < steps; ++n) {
        if (o.diagnose) {
            history.push_back(ps);
            if (history.size() > 3000) history.pop_front();
        }
        const StepStatistics st = engine.step(ps, dt);
        if (o.diagnose && !diagnosed && st.maxOverlapOverDeq > 1e-2) {
            diagnosed = true;
            diagnoseDeepestPair(history, n, dt, hi, s, o.faces);
        }
        maxOverlap = std::max(maxOverlap, st.maxOverlapOverDeq);
        pushedBack += st.pushedBack;
        fallbacks += st.fallbacks;
        contactSteps += st.contacts;
        newton += st.newtonIterations;
        const double drop = potentialStart - potential();
        kineticOverDrop = drop > 0.0 ? st.kineticEnergy / drop : 1.0;
        quietSteps = kineticOverDrop < 1e-6 ? quietSteps + 1 : 0;
        if (quietSteps >= quietStepsNeeded) {
            settledAt = (n + 1) * dt;
            ++n;
            break;
        }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    long lost = o.count - static_cast<long>(ps.size()), outside = 0, nonFinite = 0;
    for (std::size_t i = 0; i < ps.size(); ++i) {
        const bool finite = isFinite(ps.position[i]) && isFinite(ps.velocity[i])
                            && isFinite(ps.angularVelocity[i]) && isFinite(ps.orientation[i].coeffs());
        nonFinite += !finite;
        outside += finite && !inside(ps.position[i], lo, hi);
    }
    const bool clean = lost == 0 && outside == 0 && nonFinite == 0 && maxOverlap < 1e-2;
    std::printf("{\"clean\": %s, \"particles\": %zu, \"lost\": %ld, \"outside\": %ld, \"nonFinite\": %ld, "
                "\"maxOverlapOverDeq\": %.3e, \"pushedBack\": %ld, \"fallbacks\": %ld, "
                "\"contactsPerStep\": %.1f, \"newtonPerStep\": %.1f, \"kineticOverDrop\": %.2e, "
                "\"settledAt\": %.4g, \"time\": %.4g, \"dt\": %.3g, \"steps\": %ld, \"usPerParticleStep\": %.3f, "
                "\"box\": [%.4g, %.4g, %.4g]}\n",
                clean ? "true" : "false", ps.size(), lost, outside, nonFinite, maxOverlap, pushedBack, fallbacks,
                static_cast<double>(contactSteps) / n, static_cast<double>(newton) / n, kineticOverDrop,
                settledAt, n * dt, dt, n, 1e6 * seconds / (n * static_cast<double>(ps.size())), hi[0], hi[1], hi[2]);
    return clean ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
    try {
        const Options options = parse(argc, argv);
        sef::test::enableFloatingPointTraps(); // after parsing: the traps are for the engine
        return run(options);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "sefStressBed: %s\n", e.what());
        return 2;
    }
}
