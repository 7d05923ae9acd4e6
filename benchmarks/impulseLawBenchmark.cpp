// The Coulomb contact law (collision/ContactImpulseLaw.hpp) on random
// strongly coupled contacts (long arms, friction 0-1.5, targets in
// [0, -u_n]), as the collision tests draw them. Per call, over all 4096
// contacts (sticking, sliding, reduced sliding mixed) and over the ones the
// law answers with reduced friction (its costliest path: a bisection on the
// friction, one sliding search per halving). Counter: share of the contacts
// in that regime.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "collision/ContactImpulseLaw.hpp"
#include "collision/ImpulseResolution.hpp"
#include "../tests/core/support/RandomBodies.hpp"

using namespace sef;

namespace {

struct Contact {
    CollisionParameters params;
    ContactFrame frame;
    Vec3 u;
};

std::vector<Contact> randomContacts(bool reducedOnly) {
    std::mt19937_64 rng(36);
    std::uniform_real_distribution<double> unit(0.0, 1.0), sym(-1.0, 1.0);
    std::vector<Contact> out;
    while (out.size() < 4096) {
        const RigidBodyState a = test::randomBody(rng, 4.0), b = test::randomBody(rng, 4.0);
        const Vec3 point = 0.5 * (a.position + b.position) + 0.3 * Vec3(sym(rng), sym(rng), sym(rng));
        Vec3 n = Vec3(sym(rng), sym(rng), sym(rng)).normalized();
        const Vec3 u = b.velocityAt(point) - a.velocityAt(point);
        if (u.dot(n) >= 0.0) n = -n;
        Contact c;
        c.params.model = CollisionModel::coulomb;
        c.params.restitution = unit(rng);
        c.params.friction = 1.5 * unit(rng);
        c.u = u;
        c.frame = makeContactFrame(contactCompliance(a, &b, point), n, -unit(rng) * n.dot(u), true);
        if (!reducedOnly || contactImpulse(c.params, c.frame, c.u).regime == CollisionRegime::reducedSliding)
            out.push_back(c);
    }
    return out;
}

void coulombLaw(benchmark::State& state, bool reducedOnly) {
    const std::vector<Contact> contacts = randomContacts(reducedOnly);
    std::size_t i = 0;
    for (auto _ : state) {
        const Contact& c = contacts[i++ % contacts.size()];
        benchmark::DoNotOptimize(contactImpulse(c.params, c.frame, c.u));
    }
}

BENCHMARK_CAPTURE(coulombLaw, all, false);
BENCHMARK_CAPTURE(coulombLaw, reducedSliding, true);

} // namespace
