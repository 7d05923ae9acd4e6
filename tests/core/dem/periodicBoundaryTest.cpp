// Periodic boundaries (dem/boundaries/PeriodicLattice.hpp, dem/boundaries/PeriodicImages.hpp):
// contacts across a periodic boundary against the same contact in the
// interior, and a periodic gas that must keep its momentum and energy.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <random>

#include "DemTestSupport.hpp"
#include "contact/PairContact.hpp"
#include "dem/walls/BoxWalls.hpp"
#include "dem/engine/DemEngine.hpp"
#include "dem/boundaries/PeriodicImages.hpp"

using namespace sef;
using namespace sef::dem;

namespace {

// The periodic box [lo, lo + L]^3 in the given directions (0: x, 1: y, 2: z).
PeriodicLattice periodicBox(double L, std::vector<int> axes, const Vec3& lo = Vec3::Zero()) {
    std::vector<PeriodicDirection> d;
    for (const int a : axes) {
        Vec3 t = Vec3::Zero();
        t[a] = L;
        d.push_back(PeriodicDirection{t, lo, t / L});
    }
    return PeriodicLattice(d);
}

// One step with images, then every centre brought back into the box.
StepStatistics stepPeriodic(DemEngine& engine, PeriodicImages& images, ParticleSystem& ps, double dt,
                            int substeps) {
    double vmax = 0;
    for (const Vec3& v : ps.velocity) vmax = std::max(vmax, v.norm());
    const double travel = 2 * (vmax + engine.settings().gravity.norm() * dt) * dt;
    images.build(ps, travel);
    const StepStatistics stats = engine.step(ps, dt, substeps, &images);
    images.remove(ps);
    for (Vec3& x : ps.position) images.lattice().wrap(x);
    return stats;
}

using dem::test::randomOrientation;

// x - y reduced to the shortest vector over the lattice (the two are the same
// place of a periodic box when it is ~0).
Vec3 periodicDifference(const PeriodicLattice& lattice, const Vec3& x, const Vec3& y) {
    Vec3 best = x - y;
    for (const Vec3& s : lattice.shifts())
        if ((x - y + s).norm() < best.norm()) best = x - y + s;
    return best;
}

EngineSettings coulombLaw() {
    EngineSettings s;
    s.pair.model = s.wall.model = "coulomb";
    s.pair.restitution = s.wall.restitution = 0.6;
    s.pair.friction = s.wall.friction = 0.3;
    return s;
}

} // namespace

TEST(PeriodicLattice, ShiftsWrapAndRefusals) {
    EXPECT_EQ(periodicBox(1.0, {0}).shifts().size(), 2u);
    EXPECT_EQ(periodicBox(1.0, {0, 2}).shifts().size(), 8u);
    const PeriodicLattice box = periodicBox(0.1, {0, 1, 2});
    EXPECT_EQ(box.shifts().size(), 26u);
    EXPECT_DOUBLE_EQ(box.shortestShift(), 0.1);
    Vec3 x(-0.01, 0.25, 0.05);
    EXPECT_TRUE(box.wrap(x));
    EXPECT_NEAR((x - Vec3(0.09, 0.05, 0.05)).norm(), 0.0, 1e-15);
    Vec3 inside(0.02, 0.03, 0.04);
    EXPECT_FALSE(box.wrap(inside));
    Vec3 bad(std::nan(""), 0, 0);
    EXPECT_THROW(box.wrap(bad), PeriodicError);

    // a particle near the corner of the box sees 7 images, one in the middle none
    std::vector<int> near;
    box.shiftsWithinReach(Vec3(0.001, 0.001, 0.001), 0.005, Vec3::Zero(), Vec3::Constant(0.1), near);
    EXPECT_EQ(near.size(), 7u);
    near.clear();
    box.shiftsWithinReach(Vec3::Constant(0.05), 0.005, Vec3::Zero(), Vec3::Constant(0.1), near);
    EXPECT_TRUE(near.empty());

    EXPECT_NO_THROW(box.requireRoomFor(0.024));
    EXPECT_THROW(box.requireRoomFor(0.026), PeriodicError);
    const Vec3 t(1, 0, 0);
    EXPECT_THROW(PeriodicLattice({{t, Vec3::Zero(), t}, {2 * t, Vec3::Zero(), t}}), PeriodicError);
    EXPECT_THROW(PeriodicLattice({{t, Vec3::Zero(), -t}}), PeriodicError);
    EXPECT_THROW(PeriodicLattice({{t, Vec3::Zero(), 2 * t}}), PeriodicError);
}

// Two particles collide across a periodic boundary (each direction in turn;
// spheres, and tilted blocky bodies with spin and friction); the same pair
// moved into the middle of the box collides there. Every step the two runs
// agree to 1e-12 (positions through the periodicity).
TEST(PeriodicImages, PairCollisionAcrossTheBoundaryIsTheInteriorOne) {
    // The box is [L, 2L]^3 with L = 2^-4 m and the coordinates start on a
    // grid of 2^-16 m: every centre of both runs lies in the same binary
    // range, so each rounds its drift alike, and the two runs differ only by
    // the rounding of the images' coordinates (~1e-17 m). (Translated by an
    // arbitrary amount, the same collision differs by the rounding of the
    // positions, amplified up to the narrow phase's tolerance, 1e-12 m.)
    const double u = std::ldexp(1.0, -16), L = 0.0625;
    const Vec3 lo = Vec3::Constant(L), hi = Vec3::Constant(2 * L);
    struct Shape {
        Superellipsoid shape;
        bool tilted;
    };
    for (const Shape& kind : {Shape{Superellipsoid(0.004, 0.004, 0.004, 1, 1), false},
                              Shape{Superellipsoid(0.006, 0.004, 0.003, 0.4, 0.6), true}}) {
        for (int axis = 0; axis < 3; ++axis) {
            SCOPED_TRACE("axis " + std::to_string(axis) + (kind.tilted ? ", blocks" : ", spheres"));
            const PeriodicLattice lattice = periodicBox(L, {0, 1, 2}, lo);
            ParticleSystem across;
            across.types.emplace_back(kind.shape, 2500);
            std::mt19937 rng(11 + axis);
            const Quat q0 = kind.tilted ? randomOrientation(rng) : Quat::Identity();
            const Quat q1 = kind.tilted ? randomOrientation(rng) : Quat::Identity();
            Vec3 x0 = Vec3::Constant(1.5 * L), x1 = x0, v0 = Vec3(0.05, -0.02, 0.03), v1 = -v0;
            x0[axis] = 2 * L - 426 * u; // the smaller id just inside the far plane...
            x1[axis] = L + 406 * u;     // ...the other just inside the near one
            x1[(axis + 1) % 3] += 66 * u;
            v0[axis] = 0.5;
            v1[axis] = -0.4;
            const Vec3 w0 = kind.tilted ? Vec3(5, -3, 2) : Vec3::Zero();
            const Vec3 w1 = kind.tilted ? Vec3(0, 4, 1) : Vec3::Zero();
            across.add(0, 1, x0, q0, v0, w0);
            across.add(0, 2, x1, q1, v1, w1);
            // the same pair, met in the middle of the box
            Vec3 offset = Vec3::Zero();
            offset[axis] = -0.5 * L;
            ParticleSystem interior = across;
            interior.position[0] += offset;
            interior.position[1] += offset + lattice.directions()[static_cast<std::size_t>(axis)].translation;

            DemEngine engineAcross({}, coulombLaw()), engineInterior({}, coulombLaw());
            PeriodicImages imagesAcross(lattice, lo, hi), imagesInterior(lattice, lo, hi);
            long contacts = 0; // (touching, or met at a gap they were closing)
            for (int step = 0; step < 120; ++step) {
                const StepStatistics st = stepPeriodic(engineAcross, imagesAcross, across, 2e-4, 3);
                contacts += st.pairContacts + st.speculativePairContacts;
                stepPeriodic(engineInterior, imagesInterior, interior, 2e-4, 3);
                for (std::size_t i = 0; i < 2; ++i) {
                    const Vec3 d =
                        periodicDifference(lattice, across.position[i], interior.position[i] - offset);
                    // (positions: relative to the size plus the way travelled)
                    ASSERT_LT(d.norm() / (0.004 + 0.5 * 2e-4 * (step + 1)), 1e-12) << "step " << step;
                    ASSERT_LT((across.velocity[i] - interior.velocity[i]).norm() / 0.5, 1e-12);
                    ASSERT_LT((across.angularVelocity[i] - interior.angularVelocity[i]).norm() * 0.004 / 0.5,
                              1e-12);
                    ASSERT_LT((across.orientation[i].coeffs() - interior.orientation[i].coeffs()).norm(), 1e-12);
                }
            }
            EXPECT_GT(contacts, 0);                                  // they met across the boundary
            EXPECT_LT(across.velocity[0][axis], 0.45);               // and were deflected
            EXPECT_GT(imagesAcross.images(), 0u);
        }
    }
}

// A flat disc (a cylinder-like superellipsoid, eps1 1/3) dropped tilted onto
// a floor across a periodic boundary: the part of it beyond the boundary
// stands over the floor's faces at the other side, which only its image
// reaches, and the floor's edges on the boundary are no edges (the faces
// beyond continue the floor). It must land as the same disc does in the
// middle of the box: the same largest overlap, and at rest lying on the
// floor at the same height, at the same place. (With images that took no
// wall contacts it sank 0.12 d_eq into the floor, against 0.0025 d_eq in
// the interior, and came to rest 2 d_eq away; with the boundary edges
// active it rocked on them.)
TEST(PeriodicImages, DiscLandingAcrossTheBoundaryIsTheInteriorOne) {
    const double L = 4e-3, H = 4e-3, dt = 5e-5;
    const PeriodicLattice lattice = periodicBox(L, {0, 1});
    std::vector<WallFace> floor;
    for (const WallFace& f : boxWalls(Vec3::Zero(), Vec3(L, L, H), 2))
        if (f.outwardNormal.z() < -0.5) floor.push_back(f);
    ASSERT_EQ(floor.size(), 4u);
    const Superellipsoid disc(0.5e-3, 0.5e-3, 0.5e-3 / 3, 1.0 / 3, 1.0);
    const double dEq = std::cbrt(6 * disc.volume() / M_PI);
    EngineSettings settings = coulombLaw();
    // eps_t 1: sticking keeps the slip, so the landing is decided by the
    // normal impulses and the friction cap, and the two runs differ by
    // rounding alone (with eps_t 0 the stick-slip switches amplify that
    // rounding to about 1e-5 d_eq in the resting place)
    settings.pair.tangentialRestitution = settings.wall.tangentialRestitution = 1.0;
    settings.gravity = Vec3(0, 0, -9.81);
    settings.periodicShifts = lattice.shifts();
    for (const double tilt : {40.0, -40.0}) {
        SCOPED_TRACE("tilt " + std::to_string(tilt));
        const Quat q(Eigen::AngleAxisd(tilt * M_PI / 180, Vec3::UnitX()));
        const Vec3 interiorCentre(2e-3, 2e-3, 1.2e-3), offset(0, 1.95e-3, 0); // across: y = 0.05 mm
        double largest[2] = {0, 0};
        Vec3 rest[2];
        for (int across = 0; across < 2; ++across) {
            ParticleSystem ps;
            ps.types.emplace_back(disc, 2500);
            Vec3 x = interiorCentre - (across ? offset : Vec3::Zero());
            ps.add(0, 1, x, q, Vec3::Zero(), Vec3::Zero());
            DemEngine engine(floor, settings);
            PeriodicImages images(lattice, Vec3::Zero(), Vec3(L, L, H));
            for (int step = 0; step < 2000; ++step)
                largest[across] = std::max(largest[across],
                                           stepPeriodic(engine, images, ps, dt, 2).maxOverlapOverDeq);
            rest[across] = ps.position[0] + (across ? offset : Vec3::Zero());
            EXPECT_LT(ps.velocity[0].norm(), 1e-3) << "at rest";
        }
        EXPECT_LT(largest[0], 0.02);                      // the interior landing
        EXPECT_LT(std::abs(largest[1] - largest[0]), 1e-3) << largest[1] << " against " << largest[0];
        // lying on the floor at the same height and place: the two runs
        // differ by the rounding of the shifted coordinates, amplified where
        // a decision switches on it (a speculative contact's gap against the
        // substep's travel: 8e-6 d_eq at 40 degrees, 5e-9 at -40)
        const Vec3 d = periodicDifference(lattice, rest[1], rest[0]);
        EXPECT_LT(d.norm() / dEq, 2e-5) << d.transpose() / dEq;
        std::cout << "  tilt " << tilt << ": largest overlap " << largest[1] << " (interior " << largest[0]
                  << "), resting place differs by " << d.norm() / dEq << " d_eq\n";
    }
}

// 200 spheres of two sizes in a triply periodic box, no gravity, random
// velocities, elastic frictionless contacts: momentum and kinetic energy are
// kept to 1e-12 over 1e4 steps, and no two particles overlap by more than
// the contact tolerance (1e-2 d_eq) through the periodicity (an exact check
// of every pair at the end). Spheres: frictionless contacts never spin them,
// so the energy is the translational one; a spinning triaxial body's energy
// drifts with the free-rotation integrator, not with the contacts.
TEST(PeriodicImages, ElasticGasKeepsMomentumAndEnergy) {
    const double r = 0.001, L = 0.0256; // 5 % solids
    const PeriodicLattice lattice = periodicBox(L, {0, 1, 2});
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(r, r, r, 1, 1), 2500);
    ps.types.emplace_back(Superellipsoid(1.25 * r, 1.25 * r, 1.25 * r, 1, 1), 2500);
    std::mt19937 rng(5);
    std::normal_distribution<double> n(0, 0.05);
    const int sites = 6;
    for (int k = 0; k < 200; ++k) {
        const Vec3 x = (Vec3(k % sites, (k / sites) % sites, k / (sites * sites)) + Vec3::Constant(0.5)) * (L / sites);
        ps.add(k % 2, k, x, randomOrientation(rng), Vec3(n(rng), n(rng), n(rng)));
    }
    EngineSettings settings;
    settings.pair.model = "frictionless";
    settings.pair.restitution = 1.0;
    DemEngine engine({}, settings);
    PeriodicImages images(lattice, Vec3::Zero(), Vec3::Constant(L));
    const auto momentum = [&] {
        Vec3 p = Vec3::Zero();
        for (std::size_t i = 0; i < ps.size(); ++i) p += ps.types[ps.type[i]].mass * ps.velocity[i];
        return p;
    };
    const auto energy = [&] {
        double e = 0;
        for (std::size_t i = 0; i < ps.size(); ++i) {
            const ParticleType& t = ps.types[ps.type[i]];
            const Vec3 w = ps.orientation[i].conjugate() * ps.angularVelocity[i];
            e += 0.5 * t.mass * ps.velocity[i].squaredNorm() + 0.5 * w.dot(t.principalInertia.cwiseProduct(w));
        }
        return e;
    };
    const Vec3 p0 = momentum();
    const double e0 = energy(), pScale = ps.types[0].mass * 0.05 * 200;
    long contacts = 0;
    double worstOverlap = 0;
    for (int step = 0; step < 10000; ++step) {
        const StepStatistics s = stepPeriodic(engine, images, ps, 1e-4, 2);
        contacts += s.pairContacts;
        worstOverlap = std::max(worstOverlap, s.maxOverlapOverDeq);
    }
    EXPECT_LT((momentum() - p0).norm() / pScale, 1e-12);
    EXPECT_NEAR(energy() / e0, 1.0, 1e-12);
    EXPECT_GT(contacts, 1000); // a gas that collides
    EXPECT_LT(worstOverlap, 1e-2);
    // every pair, through the periodicity, by the exact test
    double deepest = 0;
    for (std::size_t i = 0; i < ps.size(); ++i)
        for (std::size_t j = i + 1; j < ps.size(); ++j) {
            const Vec3 d = periodicDifference(lattice, ps.position[j], ps.position[i]);
            const ContactResult c =
                detectPairContact(ps.types[ps.type[i]].shape, Pose{ps.position[i], ps.orientation[i]},
                                  ps.types[ps.type[j]].shape, Pose{ps.position[i] + d, ps.orientation[j]});
            if (c.contact) deepest = std::max(deepest, c.depth / (2 * r));
        }
    EXPECT_LT(deepest, 1e-2);
}
