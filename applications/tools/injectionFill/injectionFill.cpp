// injectionFill a b c eps1 eps2 seed fraction
// Injects particles of one shape (half-axes a b c, exponents eps1 eps2) at
// random into a closed cubic box whose side is 10 particle lengths (the box
// is the region, its faces are walls; the domain tests a solver passes) up
// to `fraction` solids by true volume, and prints the fill reached, whether
// the bodies had to be turned alike, the pairs in contact by the exact
// narrow phase (both orders) and the bodies cutting a wall. Where the count
// does not fit, the injection's message says how many did.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

#include "contact/PairContact.hpp"
#include "dem/walls/BoxWalls.hpp"
#include "dem/injection/RandomInjection.hpp"
#include "dem/injection/WallClearance.hpp"

using namespace sef;
using namespace sef::dem;

namespace {

// Pairs the narrow phase finds in contact (either order); the particles
// sorted along x, so only those within a bounding diameter in x are paired.
long pairsInContact(const ParticleSystem& ps) {
    const Superellipsoid& shape = ps.types[0].shape;
    const double reach = 2 * ps.types[0].boundingRadius;
    std::vector<std::size_t> order(ps.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](std::size_t i, std::size_t j) { return ps.position[i].x() < ps.position[j].x(); });
    long contacts = 0;
    for (std::size_t m = 0; m < order.size(); ++m)
        for (std::size_t k = m + 1; k < order.size(); ++k) {
            const std::size_t i = order[m], j = order[k];
            if (ps.position[j].x() - ps.position[i].x() > reach) break;
            if ((ps.position[i] - ps.position[j]).squaredNorm() > reach * reach) continue;
            const Pose pi{ps.position[i], ps.orientation[i]}, pj{ps.position[j], ps.orientation[j]};
            if (detectPairContact(shape, pi, shape, pj).contact || detectPairContact(shape, pj, shape, pi).contact)
                ++contacts;
        }
    return contacts;
}

long cuttingWalls(const ParticleSystem& ps, const WallSet& walls) {
    long cutting = 0;
    for (std::size_t i = 0; i < ps.size(); ++i)
        if (wallPenetration(walls, ps.types[0].shape, Pose{ps.position[i], ps.orientation[i]}) > 0) ++cutting;
    return cutting;
}

// Particles in the one orientation of bodies turned alike (identity)
long turnedAlike(const ParticleSystem& ps) {
    return std::count_if(ps.orientation.begin(), ps.orientation.end(),
                         [](const Quat& q) { return q.coeffs() == Quat::Identity().coeffs(); });
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 8) {
        std::fprintf(stderr, "usage: injectionFill a b c eps1 eps2 seed fraction\n");
        return 2;
    }
    const Superellipsoid shape(std::atof(argv[1]), std::atof(argv[2]), std::atof(argv[3]), std::atof(argv[4]),
                               std::atof(argv[5]));
    ParticleSystem ps;
    ps.types.emplace_back(shape, 1000.0);
    const double side = 10 * 2 * shape.halfAxes().maxCoeff();
    const WallSet walls(boxWalls(Vec3::Zero(), Vec3::Constant(side)));
    InjectionSpec spec;
    spec.region.max = Vec3::Constant(side);
    spec.count = static_cast<long>(std::ceil(std::atof(argv[7]) * std::pow(side, 3) / shape.volume()));
    spec.typeFractions = {1.0};
    spec.seed = std::strtoull(argv[6], nullptr, 10);
    const auto start = std::chrono::steady_clock::now();
    try {
        injectRandom(
            ps, spec, 0,
            sphereClearOfWallSet(walls), bodyClearOfWallSet(walls, ps.types));
    } catch (const RandomInjectionError& err) {
        std::printf("%ld particles do not fit: %s\n", spec.count, err.what());
        return 1;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%ld particles, %.2f %% solids, %ld turned alike, %ld pairs in contact, %ld cutting a wall, "
                "%.1f s\n",
                static_cast<long>(ps.size()), 100 * ps.size() * shape.volume() / std::pow(side, 3), turnedAlike(ps),
                pairsInContact(ps), cuttingWalls(ps, walls), seconds);
    return 0;
}
