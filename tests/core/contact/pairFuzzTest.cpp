// Fuzz of the pair narrow phase against references
// that share no code with it:
//  - depth: a derivative-free global minimisation of the overlap
//    f(n) = h1(n) + h2(-n) over the sphere (2000 Fibonacci directions, then
//    compass search from the 6 best), with the support values of the
//    geometry kernel (not the contact module's SupportKernel); f_ref is an
//    upper bound of the true depth min f;
//  - contact: dense parametric surface sampling of each body with inside
//    tests in the other (a sampled point with S < -1e-6 is a witness of
//    overlap);
//  - consistency: f recomputed along the returned normal equals the depth.
// Checked: zero NaN; no "no contact" with an overlap witness; no contact
// claimed deeper than the band when the reference found a separating axis;
// in contact, the returned depth never exceeds f_ref by more than the band (a
// local, not global, minimum would); the depth equals f along the normal. Worst errors are printed relative to the smaller
// half-axis L.
//
// Default: 300 configurations (~1 s). Larger sweep: set SEF_CONTACT_FUZZ,
// e.g. SEF_CONTACT_FUZZ=100000 contactTests --gtest_filter=PairFuzz.*
#include "ContactTestSupport.hpp"
#include "contact/PairContact.hpp"
#include "geometry/ParametricSurface.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

namespace sef {
namespace {

struct Pair {
    Superellipsoid s1, s2;
    Pose p1, p2;
};

double overlapReference(const Pair& c, const Vec3& n) {
    const Vec3 d1 = c.p1.directionToBody(n), d2 = c.p2.directionToBody(-n);
    return n.dot(c.p1.position - c.p2.position) + c.s1.supportValue(d1) + c.s2.supportValue(d2);
}

// Global minimum of f over the sphere, derivative free.
double minimumOverlap(const Pair& c) {
    const int count = 2000;
    std::vector<std::pair<double, Vec3>> samples;
    samples.reserve(count);
    const double golden = M_PI * (3.0 - std::sqrt(5.0));
    for (int i = 0; i < count; ++i) {
        const double z = 1.0 - (2.0 * i + 1.0) / count, r = std::sqrt(1.0 - z * z);
        const Vec3 n(r * std::cos(golden * i), r * std::sin(golden * i), z);
        samples.emplace_back(overlapReference(c, n), n);
    }
    std::partial_sort(samples.begin(), samples.begin() + 6, samples.end(),
                      [](const auto& a, const auto& b) { return a.first < b.first; });
    double best = samples[0].first;
    for (int s = 0; s < 6; ++s) {
        Vec3 n = samples[s].second;
        double f = samples[s].first;
        // Compass search on the sphere, 8 directions, with a basis turned by
        // 22.5 deg at every other level so ridges of f are not followed
        // along one axis only.
        int moves = 0;
        for (double step = 0.05; step > 1e-10 && moves < 3000; ++moves) {
            Vec3 t1, t2;
            const Vec3 helper = std::abs(n.x()) < 0.57 ? Vec3::UnitX() : Vec3::UnitY();
            t1 = n.cross(helper).normalized();
            t2 = n.cross(t1);
            bool improved = false;
            for (int k = 0; k < 8; ++k) {
                const double phi = k * M_PI / 4 + (step < 1e-3 ? M_PI / 8 : 0.0);
                const Vec3 trial = (n + step * (std::cos(phi) * t1 + std::sin(phi) * t2)).normalized();
                const double ft = overlapReference(c, trial);
                if (ft < f) {
                    f = ft;
                    n = trial;
                    improved = true;
                }
            }
            if (!improved) step *= 0.5;
        }
        best = std::min(best, f);
    }
    return best;
}

// Largest depth of a sampled surface point of body a inside body b, as -S_b.
double deepestSample(const Superellipsoid& a, const Pose& pa, const Superellipsoid& b,
                     const Pose& pb) {
    double most = -1e300;
    const int ne = 40, nw = 80;
    for (int i = 0; i <= ne; ++i)
        for (int j = 0; j < nw; ++j) {
            const double eta = -M_PI / 2 + M_PI * i / ne, w = -M_PI + 2 * M_PI * j / nw;
            const Vec3 x = pa.toWorld(surfacePoint(a, eta, w));
            most = std::max(most, -b.implicitFunction(pb.toBody(x)));
        }
    return most;
}

// Random pairs of shapes from makeShape against the brute-force references.
template <class ShapeMaker>
void fuzzPairs(const char* label, unsigned seed, ShapeMaker makeShape) {
    const char* env = std::getenv("SEF_CONTACT_FUZZ");
    const int count = env ? std::max(1, std::atoi(env)) : 300;
    const char* onlyEnv = std::getenv("SEF_CONTACT_FUZZ_ONLY");
    const int only = onlyEnv ? std::atoi(onlyEnv) : -1;
    std::mt19937 rng(seed);
    // Tolerance band on the depth (relative to L): the fallback's EPA
    // tolerance is 1e-6 L and the Newton stagnation stop 1e-8 L; the
    // compass search reference converges to ~1e-9 L.
    const double band = 2e-6;
    double worstAboveReference = 0.0, worstConsistency = 0.0, worstGapUnderestimate = 0.0;
    int wrongDecisions = 0, nans = 0, contacts = 0, fallbacks = 0;
    for (int k = 0; k < count; ++k) {
        Pair c{makeShape(rng), makeShape(rng), {}, {}};
        // Even k: centre distance from deep overlap to a clear gap. Odd k:
        // near contact (DEM-like), d = (1 - s) d0 with d0 the distance at
        // which the projections on the centre line u just touch, s in
        // [-0.02, 0.1] (overlap along u up to 10% of d0).
        c.p1 = test::makePose(Vec3(0.01, -0.02, 0.03), test::randomRotation(rng));
        const Quat q2 = test::randomRotation(rng);
        const Vec3 u = test::randomUnit(rng);
        double distance;
        if (k % 2 == 0) {
            const double reach = c.s1.boundingRadius() + c.s2.boundingRadius();
            distance = std::uniform_real_distribution<double>(0.05, 1.05)(rng) * reach;
        } else {
            const double d0 = c.s1.supportValue(c.p1.directionToBody(u)) +
                              c.s2.supportValue(q2.conjugate() * (-u));
            distance = (1.0 - std::uniform_real_distribution<double>(-0.02, 0.1)(rng)) * d0;
        }
        c.p2 = test::makePose(c.p1.position + distance * u, q2);
        const double L = std::min(c.s1.halfAxes().minCoeff(), c.s2.halfAxes().minCoeff());
        if (only >= 0 && k != only) continue; // debugging one configuration

        const ContactResult r = detectPairContact(c.s1, c.p1, c.s2, c.p2);
        if (!(std::isfinite(r.depth) && isFinite(r.normal) && isFinite(r.point))) {
            ++nans;
            continue;
        }
        contacts += r.contact;
        fallbacks += r.status == ContactStatus::fallback;
        const bool rejected = r.status == ContactStatus::boundingSphere ||
                              r.status == ContactStatus::orientedBox;
        const double fRef = minimumOverlap(c);
        const double witness = std::max(deepestSample(c.s1, c.p1, c.s2, c.p2),
                                        deepestSample(c.s2, c.p2, c.s1, c.p1));
        const bool overlapWitnessed = witness > 1e-6;
        const bool separatedForSure = fRef < -band * L;
        if ((!r.contact && overlapWitnessed) || (r.contact && r.depth > band * L && separatedForSure)) {
            ++wrongDecisions;
            ADD_FAILURE() << "config " << k << ": contact " << r.contact << " depth/L " << r.depth / L
                          << " fRef/L " << fRef / L << " witness " << witness << " status "
                          << toString(r.status);
        }
        if (rejected) {
            EXPECT_LT(fRef, 0.0) << k; // a rejection is a proof of separation
            continue;
        }
        // In contact, the returned depth is the minimum of f: never above
        // any f value. Separated, it is f along a separating axis: minus a
        // lower bound of the gap, exact only where Newton converged at a
        // smooth point (near the singular face centres of blocky shapes it
        // may stop early: seen up to ~0.3 L of gap underestimate).
        const double above = (r.depth - fRef) / L;
        if (!r.contact && fRef < 0.0) {
            worstGapUnderestimate = std::max(worstGapUnderestimate, above);
            continue;
        }
        worstAboveReference = std::max(worstAboveReference, above);
        EXPECT_LE(above, band) << "config " << k << " status " << toString(r.status) << " depth/L "
                               << r.depth / L << " fRef/L " << fRef / L << " iterations "
                               << r.iterations << " eps " << c.s1.eps1() << " " << c.s1.eps2()
                               << " " << c.s2.eps1() << " " << c.s2.eps2();
        // Consistency with the geometry kernel's support values along the
        // returned normal (the fallback clamps an intersecting depth at 0).
        const double along = overlapReference(c, r.normal);
        const double consistency =
            std::abs((r.status == ContactStatus::fallback && r.contact ? std::max(along, 0.0) : along) -
                     r.depth) / L;
        worstConsistency = std::max(worstConsistency, consistency);
        EXPECT_LE(consistency, 1e-9) << k;
    }
    std::printf("%s: %d configurations, %d contacts, %d fallback answers, %d wrong "
                "decisions, %d NaN; worst depth above the reference %.3g L, worst "
                "depth vs f(normal) %.3g L; separated: worst gap underestimate %.3g L\n",
                label, count, contacts, fallbacks, wrongDecisions, nans, worstAboveReference,
                worstConsistency, worstGapUnderestimate);
    EXPECT_EQ(nans, 0);
    EXPECT_EQ(wrongDecisions, 0);
}

TEST(PairFuzz, AgreesWithBruteForceReferences) {
    fuzzPairs("pair fuzz", 2024, [](std::mt19937& rng) { return test::randomShape(rng, 0.01); });
}

// Blocky p-norm balls (eps1 = eps2 < 1): the shapes whose Newton iteration
// runs in face charts (CommonNormalNewton.cpp), which random
// nested shapes almost never are.
TEST(PairFuzz, BlockyBallsAgreeWithBruteForceReferences) {
    fuzzPairs("blocky ball fuzz", 2025, [](std::mt19937& rng) {
        std::uniform_real_distribution<double> eps(0.15, 0.95), axis(0.0025, 0.01);
        const double e = eps(rng);
        return Superellipsoid(axis(rng), axis(rng), axis(rng), e, e);
    });
}

} // namespace
} // namespace sef
