// Injection into a periodic box (InjectionSpec::periodic, injectListed's
// lattice): no two particles overlap through the periodic boundaries, checked
// by brute force over every pair and every lattice shift; the same fill
// without the lattice does overlap there (the check can fail); listed
// particles overlapping only through the periodicity are refused; a box too
// short for the particles is refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>

#include "contact/PairContact.hpp"
#include "DemTestSupport.hpp"
#include "dem/injection/RandomInjection.hpp"

using namespace sef;
using namespace sef::dem;

namespace {

// The triply periodic box [0, L]^3.
PeriodicLattice periodicBox(double L) {
    std::vector<PeriodicDirection> d;
    for (int a = 0; a < 3; ++a) d.push_back(PeriodicDirection{L * Vec3::Unit(a), Vec3::Zero(), Vec3::Unit(a)});
    return PeriodicLattice(d);
}

using dem::test::oneType;

struct Overlaps {
    int direct = 0;  // pairs overlapping where they are
    int through = 0; // pairs overlapping through the periodic boundaries (i at x_i + s)
};

// Every pair, as it is and over every lattice shift, by the exact narrow
// phase (contact with a positive depth; the bounding spheres only skip pairs
// that cannot touch). Independent of the injection's grid and shift choice.
Overlaps bruteForceOverlaps(const ParticleSystem& ps, const PeriodicLattice& lattice) {
    Overlaps found;
    std::vector<Vec3> shifts{Vec3::Zero()};
    shifts.insert(shifts.end(), lattice.shifts().begin(), lattice.shifts().end());
    for (std::size_t i = 0; i < ps.size(); ++i)
        for (std::size_t j = i + 1; j < ps.size(); ++j) {
            const ParticleType& ti = ps.types[ps.type[i]];
            const ParticleType& tj = ps.types[ps.type[j]];
            const double reach = ti.boundingRadius + tj.boundingRadius;
            for (std::size_t k = 0; k < shifts.size(); ++k) {
                const Pose pi{ps.position[i] + shifts[k], ps.orientation[i]}, pj{ps.position[j], ps.orientation[j]};
                if ((pi.position - pj.position).squaredNorm() > reach * reach) continue;
                const ContactResult c = detectPairContact(ti.shape, pi, tj.shape, pj);
                if (c.contact && c.depth > 0) ++(k == 0 ? found.direct : found.through);
            }
        }
    return found;
}

// Particles whose bounding sphere crosses a face of [0, L]^3 (they reach
// through a periodic boundary).
int crossingFaces(const ParticleSystem& ps, double L) {
    int crossing = 0;
    for (std::size_t i = 0; i < ps.size(); ++i) {
        const double R = ps.types[ps.type[i]].boundingRadius;
        const Vec3& x = ps.position[i];
        if ((x.array() - R < 0.0).any() || (x.array() + R > L).any()) ++crossing;
    }
    return crossing;
}

bool insideBox(const ParticleSystem& ps, double L) {
    return std::all_of(ps.position.begin(), ps.position.end(),
                       [L](const Vec3& x) { return (x.array() >= 0.0).all() && (x.array() < L).all(); });
}

struct FillCase {
    const char* name;
    double a, b, c, eps1, eps2;
    double side; // of the periodic box
};

void PrintTo(const FillCase& f, std::ostream* os) { *os << f.name; }

// The number of particles that fill the box to `solids` by their own volume.
long countFor(const Superellipsoid& shape, double side, double solids) {
    return static_cast<long>(std::ceil(solids * std::pow(side, 3) / shape.volume()));
}

InjectionSpec fillSpec(const Vec3& lo, const Vec3& hi, long count) {
    InjectionSpec spec;
    spec.region.min = lo;
    spec.region.max = hi;
    spec.count = count;
    spec.typeFractions = {1.0};
    spec.seed = 3;
    return spec;
}

constexpr double solids = 0.27;

} // namespace

class PeriodicFill : public ::testing::TestWithParam<FillCase> {};

// The region is the whole periodic box: its faces are open (bodies cross
// them, as they do in the periodic flow), every centre is in the box, and no
// pair overlaps, directly or through the periodicity.
TEST_P(PeriodicFill, NoPairOverlapsThroughThePeriodicBoundaries) {
    const FillCase& f = GetParam();
    const Superellipsoid shape(f.a, f.b, f.c, f.eps1, f.eps2);
    const double L = f.side;
    const PeriodicLattice lattice = periodicBox(L);
    ParticleSystem ps = oneType(shape);
    InjectionSpec spec = fillSpec(Vec3::Zero(), Vec3::Constant(L), countFor(shape, L, solids));
    spec.periodic = lattice;
    ASSERT_NO_THROW(injectRandom(ps, spec, 0));
    ASSERT_EQ(static_cast<long>(ps.size()), spec.count);
    const double fill = ps.size() * shape.volume() / std::pow(L, 3);
    EXPECT_GE(fill, solids);
    EXPECT_TRUE(insideBox(ps, L));
    const Overlaps o = bruteForceOverlaps(ps, lattice);
    EXPECT_EQ(o.direct, 0);
    EXPECT_EQ(o.through, 0);
    const int crossing = crossingFaces(ps, L);
    EXPECT_GT(crossing, 0); // the faces are not walls
    std::cout << "  " << f.name << ": " << ps.size() << " particles, fill " << fill << ", " << crossing
              << " reaching through a face, overlaps " << o.direct << " direct, " << o.through
              << " through the periodicity\n";
}

// The same fill with no lattice, the region grown by the bounding radius so
// that bodies reach through the faces as they do above: pairs do overlap
// through the periodicity, so the check above can fail. (The centres are
// left where they are, up to R - inscribed radius beyond the faces: brought
// back into the box, some would overlap others directly.)
TEST_P(PeriodicFill, WithoutTheLatticeTheSameFillOverlapsThroughTheBoundaries) {
    const FillCase& f = GetParam();
    const Superellipsoid shape(f.a, f.b, f.c, f.eps1, f.eps2);
    const double L = f.side, R = shape.boundingRadius();
    const PeriodicLattice lattice = periodicBox(L);
    ParticleSystem ps = oneType(shape);
    const InjectionSpec spec =
        fillSpec(Vec3::Constant(-R), Vec3::Constant(L + R), countFor(shape, L, solids));
    ASSERT_NO_THROW(injectRandom(ps, spec, 0));
    const double fill = ps.size() * shape.volume() / std::pow(L, 3);
    EXPECT_GE(fill, solids);
    const Overlaps o = bruteForceOverlaps(ps, lattice);
    EXPECT_EQ(o.direct, 0);
    EXPECT_GT(o.through, 0);
    std::cout << "  " << f.name << " without the lattice: " << ps.size() << " particles, fill " << fill
              << ", overlaps " << o.direct << " direct, " << o.through << " through the periodicity\n";
}

INSTANTIATE_TEST_SUITE_P(Shapes, PeriodicFill,
                         ::testing::Values(FillCase{"spheres", 1e-3, 1e-3, 1e-3, 1.0, 1.0, 0.02},
                                           FillCase{"flatBlocks", 3e-3, 1.5e-3, 0.75e-3, 0.3, 0.2, 0.048}),
                         [](const ::testing::TestParamInfo<FillCase>& info) { return std::string(info.param.name); });

// A periodic pipe: a cylinder one period long, periodic along its axis. Its
// ends are open (bodies cross them), its mantle is not.
TEST(PeriodicInjection, APeriodicPipeIsFilledThroughItsEnds) {
    const Superellipsoid block(2e-3, 1e-3, 1e-3, 0.3, 0.3);
    const double L = 0.03, radius = 0.012;
    const PeriodicLattice lattice({PeriodicDirection{Vec3(0, 0, L), Vec3::Zero(), Vec3::UnitZ()}});
    ParticleSystem ps = oneType(block);
    InjectionSpec spec = fillSpec(Vec3::Zero(), Vec3::Zero(), 0);
    spec.region.kind = InjectionRegion::Kind::cylinder;
    spec.region.point2 = Vec3(0, 0, L);
    spec.region.radius = radius;
    spec.count = static_cast<long>(std::ceil(0.2 * M_PI * radius * radius * L / block.volume()));
    spec.periodic = lattice;
    ASSERT_NO_THROW(injectRandom(ps, spec, 0));
    const Overlaps o = bruteForceOverlaps(ps, lattice);
    EXPECT_EQ(o.direct, 0);
    EXPECT_EQ(o.through, 0);
    int throughEnds = 0;
    for (std::size_t i = 0; i < ps.size(); ++i) {
        const Vec3& x = ps.position[i];
        EXPECT_TRUE(x.z() >= 0.0 && x.z() < L);
        EXPECT_LE(x.head<2>().norm(), radius - 0.9e-3); // the mantle bounds the body
        if (x.z() < block.boundingRadius() || x.z() > L - block.boundingRadius()) ++throughEnds;
    }
    EXPECT_GT(throughEnds, 0);
}

// Every processor of a decomposed run injects alone with collective domain
// tests: the same seed must give the same particles and the same questions.
TEST(PeriodicInjection, TheSameSeedGivesTheSameParticlesAndTheDomainTheSameQuestions) {
    const Superellipsoid block(2e-3, 1e-3, 1e-3, 0.3, 0.3);
    const double L = 0.03;
    const auto run = [&](std::vector<Eigen::Vector4d>& asked) {
        ParticleSystem ps = oneType(block);
        InjectionSpec spec = fillSpec(Vec3::Zero(), Vec3::Constant(L), 350); // ~24 % solids
        spec.periodic = periodicBox(L);
        // a domain that refuses a slab, so that bodies are posed and asked about
        const SphereAdmissible sphere = [&](const Vec3& x, double R) {
            asked.emplace_back(x.x(), x.y(), x.z(), R);
            return std::abs(x.z() - 0.5 * L) > R;
        };
        const BodyAdmissible body = [&](int, const Pose& pose) {
            asked.push_back(pose.orientation.coeffs());
            return std::abs(pose.position.z() - 0.5 * L) > 0.5e-3;
        };
        injectRandom(ps, spec, 0, sphere, body);
        return ps;
    };
    std::vector<Eigen::Vector4d> asked1, asked2;
    const ParticleSystem a = run(asked1), b = run(asked2);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a.position[i], b.position[i]);
        EXPECT_EQ(a.orientation[i].coeffs(), b.orientation[i].coeffs());
    }
    EXPECT_EQ(asked1, asked2);
    EXPECT_GT(asked1.size(), a.size());
    EXPECT_EQ(bruteForceOverlaps(a, periodicBox(L)).through, 0);
}

// Two listed particles clear of each other in the box but overlapping through
// a periodic boundary: refused with the lattice (naming both), taken without.
TEST(PeriodicInjection, ListedParticlesOverlappingThroughTheBoundaryAreRefused) {
    const double L = 0.048;
    const Superellipsoid sphere(1e-3, 1e-3, 1e-3, 1.0, 1.0);
    const Superellipsoid block(3e-3, 1.5e-3, 0.75e-3, 0.3, 0.2);
    ListedParticle a, b;
    // spheres across the x faces: 1.5 mm apart through them (2 mm touch)
    a.position = Vec3(0.5e-3, 0.01, 0.01);
    b.position = Vec3(L - 1e-3, 0.01, 0.01);
    // blocks across a corner (the shift (L, L, L)): aligned, 2, 1.5, 1.2 mm apart
    ListedParticle c, d;
    c.position = Vec3(1e-3, 1e-3, 1e-3);
    d.position = Vec3(L - 1e-3, L - 0.5e-3, L - 0.2e-3);
    for (const auto& [shape, pair] : {std::make_pair(sphere, std::vector<ListedParticle>{a, b}),
                                      std::make_pair(block, std::vector<ListedParticle>{c, d})}) {
        ParticleSystem ps = oneType(shape);
        ASSERT_NO_THROW(injectListed(ps, pair, 0)); // no lattice: nothing to see
        ParticleSystem periodic = oneType(shape);
        try {
            injectListed(periodic, pair, 0, {}, 0.0, periodicBox(L));
            ADD_FAILURE() << "an overlap through the periodic boundary was accepted";
        } catch (const InjectionError& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("listed particle 1 overlaps particle id 0"), std::string::npos) << what;
            EXPECT_NE(what.find("periodic"), std::string::npos) << what;
        }
        EXPECT_EQ(periodic.size(), 0u); // unchanged
    }
    // clear through the boundary too: taken
    b.position.x() = L - 2e-3;
    ParticleSystem ps = oneType(sphere);
    EXPECT_NO_THROW(injectListed(ps, {a, b}, 0, {}, 0.0, periodicBox(L)));
    EXPECT_EQ(ps.size(), 2u);
}

// A particle could touch its own image: both injections refuse the box.
TEST(PeriodicInjection, ABoxTooShortForTheParticlesIsRefused) {
    const Superellipsoid sphere(1e-3, 1e-3, 1e-3, 1.0, 1.0);
    const double L = 3.5e-3; // not longer than 2 bounding diameters
    ParticleSystem ps = oneType(sphere);
    InjectionSpec spec = fillSpec(Vec3::Zero(), Vec3::Constant(L), 1);
    spec.periodic = periodicBox(L);
    EXPECT_THROW(injectRandom(ps, spec, 0), PeriodicError);
    ListedParticle p;
    p.position = Vec3::Constant(L / 2);
    EXPECT_THROW(injectListed(ps, {p}, 0, {}, 0.0, periodicBox(L)), PeriodicError);
    EXPECT_EQ(ps.size(), 0u);
}
