// The DEM step against analytic solutions and conservation laws.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <algorithm>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>

#include "DemTestSupport.hpp"
#include "contact/PairContact.hpp"
#include "dem/engine/DemEngine.hpp"

using namespace sef;
using namespace sef::dem;

namespace {

const Vec3 gravity(0, 0, -9.81);

EngineSettings frictionless(double restitution, const Vec3& g = gravity) {
    EngineSettings s;
    s.pair.model = s.wall.model = "frictionless";
    s.pair.restitution = s.wall.restitution = restitution;
    s.gravity = g;
    return s;
}

using dem::test::oneType;
using dem::test::randomOrientation;

// Apex heights of the bounces of particle 0 (centre height above floorZ).
std::vector<double> bounceApexes(DemEngine& engine, ParticleSystem& ps, double dt, int steps,
                                 int wanted) {
    std::vector<double> apex;
    double previousVz = ps.velocity[0].z();
    bool rising = false;
    for (int k = 0; k < steps && static_cast<int>(apex.size()) < wanted; ++k) {
        const double zBefore = ps.position[0].z();
        engine.step(ps, dt);
        const double vz = ps.velocity[0].z();
        if (previousVz <= 0.0 && vz > 0.0) rising = true;
        if (rising && vz <= 0.0) {
            // parabola through the last step: apex from the kinematics
            apex.push_back(zBefore + 0.5 * previousVz * previousVz / 9.81);
            rising = false;
        }
        previousVz = vz;
    }
    return apex;
}

} // namespace

TEST(DemEngine, FreeFallIsExactToRoundOff) {
    // No contacts: kick-drift-kick integrates a constant acceleration exactly.
    ParticleSystem ps = oneType(Superellipsoid(0.004, 0.003, 0.002, 0.5, 0.8));
    const Vec3 x0(0.1, -0.2, 0.3), v0(0.5, -0.25, 2.0), w0(3.0, -1.0, 7.0);
    ps.add(0, 1, x0, Quat(Eigen::AngleAxisd(0.3, Vec3(1, 2, 3).normalized())), v0, w0);
    const Vec3 force(1e-4, 0, 2e-4);
    ps.externalForce[0] = force;
    DemEngine engine({}, frictionless(0.5));
    const double E0 = ps.types[0].mass * 0.0 + 0.0; // unused
    (void)E0;
    const double dt = 1e-4;
    const int steps = 2000;
    StepStatistics last;
    const double rotationalEnergy0 = [&] {
        const Vec3 wb = ps.orientation[0].conjugate() * w0;
        return 0.5 * wb.dot(ps.types[0].principalInertia.cwiseProduct(wb));
    }();
    for (int k = 0; k < steps; ++k) last = engine.step(ps, dt);
    const double t = dt * steps;
    const Vec3 a = gravity + force / ps.types[0].mass;
    const Vec3 x = x0 + v0 * t + 0.5 * a * t * t;
    const Vec3 v = v0 + a * t;
    // round-off: ~steps * 1e-16 relative to the travelled scale (~1 m)
    EXPECT_LT((ps.position[0] - x).norm(), 1e-12);
    EXPECT_LT((ps.velocity[0] - v).norm(), 1e-12);
    // torque-free rotation: the rotational energy is kept (bounded splitting
    // error, O(dt^2) relative; here ~1e-6, asserted at 1e-4)
    const double translational = 0.5 * ps.types[0].mass * v.squaredNorm();
    EXPECT_NEAR(last.kineticEnergy - translational, rotationalEnergy0, 1e-4 * rotationalEnergy0);
    EXPECT_EQ(last.contacts, 0);
    EXPECT_EQ(last.candidatePairs, 0);
}

TEST(DemEngine, SphereBounceHeightsFollowRestitutionSquared) {
    // Drop from a gap h0 onto the floor: each apex gap is eps_n^2 times the
    // previous (energy of the normal velocity scales by eps_n^2). The floor is
    // split into 3x3 coplanar faces and the sphere lands on a vertex shared by
    // four of them: it must still receive ONE impulse.
    const double r = 0.005, eps = 0.5, h0 = 0.05, dt = 1e-5;
    ParticleSystem ps = oneType(Superellipsoid(r, r, r, 1, 1));
    ps.add(0, 3, Vec3(0.1 / 3, 0.1 / 3, r + h0), Quat::Identity());
    DemEngine engine(test::boxWalls(Vec3(0, 0, 0), Vec3(0.1, 0.1, 0.2), 3), frictionless(eps));
    const std::vector<double> apex = bounceApexes(engine, ps, dt, 400000, 2);
    ASSERT_EQ(apex.size(), 2u);
    // Contact is seen up to one step late (penetration <= v dt, removed by
    // overlap removal; velocity error <= g dt): apex error <= ~2 (1 + eps) v dt.
    const double v = std::sqrt(2 * 9.81 * h0);
    const double tolerance = 3.0 * (1 + eps) * v * dt;
    EXPECT_NEAR(apex[0] - r, eps * eps * h0, tolerance);
    EXPECT_NEAR(apex[1] - r, eps * eps * eps * eps * h0, tolerance);
    EXPECT_LT(std::abs(ps.position[0].x() - 0.1 / 3), 1e-12); // no sideways kick
}

TEST(DemEngine, FloorOfManyFacesActsLikeOneFace) {
    // A tilted ellipsoid dropped onto the point where four quads of a 4 x 4
    // floor meet, sliding across their shared edges: the engine skips the
    // queries of coplanar faces once one of them has the face contact
    // (WallSet::interiorFace). The motion must be that on a one-face floor,
    // with one wall contact while it touches: the floors differ only in
    // round-off (faces of the same plane), so 1e-9 m of 0.25 m travel.
    const Superellipsoid shape(0.006, 0.004, 0.003, 0.7, 0.9);
    const Quat q = Quat(Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized()));
    auto run = [&](int k, long& maxWallContacts, long& touching) {
        ParticleSystem ps = oneType(shape);
        ps.add(0, 5, Vec3(0.05, 0.05, 0.008), q, Vec3(0.3, 0.2, -0.1), Vec3(2, -1, 1));
        EngineSettings s = frictionless(0.2);
        s.pair.model = s.wall.model = "coulomb";
        s.wall.friction = 0.2;
        DemEngine engine(test::boxWalls(Vec3(0, 0, 0), Vec3(0.1, 0.1, 0.2), k), s);
        maxWallContacts = touching = 0;
        for (int step = 0; step < 15000; ++step) {
            const StepStatistics st = engine.step(ps, 1e-5);
            maxWallContacts = std::max(maxWallContacts, st.wallContacts);
            touching += st.wallContacts > 0;
        }
        return ps;
    };
    long maxOne = 0, touchingOne = 0, maxMany = 0, touchingMany = 0;
    const ParticleSystem one = run(1, maxOne, touchingOne);
    const ParticleSystem many = run(4, maxMany, touchingMany);
    EXPECT_GT(touchingMany, 10000); // it slides and comes to rest on the floor
    EXPECT_EQ(maxMany, 1);
    EXPECT_EQ(touchingMany, touchingOne);
    EXPECT_LT(std::abs(many.position[0].x() - 0.05), 0.04); // stays on the split floor
    EXPECT_GT((many.position[0] - Vec3(0.05, 0.05, 0.0)).head<2>().norm(), 0.005); // crossed edges
    EXPECT_LT((many.position[0] - one.position[0]).norm(), 1e-9);
    EXPECT_LT((many.velocity[0] - one.velocity[0]).norm(), 1e-7);
}

TEST(DemEngine, CornerOfThreeWallsReversesVelocity) {
    // Frictionless, eps_n = 1: a sphere flying into a box corner bounces off
    // three walls; each reverses its own component: v -> -v exactly.
    const double r = 0.01;
    ParticleSystem ps = oneType(Superellipsoid(r, r, r, 1, 1));
    const Vec3 v0(-1.0, -0.7, -0.4);
    ps.add(0, 1, Vec3(r + 1e-3, r + 0.7e-3, r + 0.4e-3), Quat::Identity(), v0);
    DemEngine engine(test::boxWalls(Vec3(0, 0, 0), Vec3(1, 1, 1)), frictionless(1.0, Vec3::Zero()));
    for (int k = 0; k < 400; ++k) engine.step(ps, 1e-5);
    EXPECT_LT((ps.velocity[0] + v0).norm(), 1e-12);
    EXPECT_LT(ps.angularVelocity[0].norm(), 1e-9);
}

TEST(DemEngine, PairCollisionConservesMomentumAndDoesNotGainEnergy) {
    std::mt19937 rng(11);
    for (const char* model : {"frictionless", "coulomb"}) {
        for (int trial = 0; trial < 5; ++trial) {
            ParticleSystem ps;
            ps.types.emplace_back(Superellipsoid(0.006, 0.004, 0.003, 0.6, 0.9), 1200.0);
            ps.types.emplace_back(Superellipsoid(0.005, 0.005, 0.004, 1.0, 1.0), 2500.0);
            ps.add(0, 10, Vec3(-0.012, 0.0015 * trial, 0), randomOrientation(rng), Vec3(1.0, 0, 0),
                   Vec3(0, 10, 0));
            ps.add(1, 20, Vec3(0.012, 0, 0.001), randomOrientation(rng), Vec3(-0.5, 0.1, 0));
            EngineSettings s = frictionless(0.7, Vec3::Zero());
            s.pair.model = model;
            s.pair.friction = 0.3;
            s.pair.tangentialRestitution = 0.0;
            DemEngine engine({}, s);
            auto momentum = [&] {
                return Vec3(ps.types[0].mass * ps.velocity[0] + ps.types[1].mass * ps.velocity[1]);
            };
            const Vec3 p0 = momentum();
            double e0 = engine.step(ps, 1e-5).kineticEnergy;
            long contacts = 0;
            double e = e0;
            for (int k = 0; k < 3000; ++k) {
                const StepStatistics st = engine.step(ps, 1e-5);
                contacts += st.contacts + st.speculativeContacts; // (touching, or met at a gap)
                // free rotation by the splitting integrator keeps the energy
                // only to O((w dt)^2) ~ 1e-8 relative (bounded, oscillating)
                EXPECT_LE(st.kineticEnergy, e + 1e-7 * e0) << model << " step " << k;
                e = st.kineticEnergy;
            }
            EXPECT_GT(contacts, 0) << model;
            EXPECT_LT(e, e0) << model; // eps_n = 0.7 dissipates
            // impulses act equal and opposite: momentum kept to round-off
            EXPECT_LT((momentum() - p0).norm(), 1e-13 * p0.norm()) << model;
        }
    }
}

TEST(DemEngine, HeadOnSpheresMatchTextbookResult) {
    // 1D: equal spheres, eps_n: v1' = (1-e)/2 v1 + (1+e)/2 v2 (and swapped).
    const double r = 0.005, e = 0.6;
    ParticleSystem ps = oneType(Superellipsoid(r, r, r, 1, 1));
    ps.add(0, 1, Vec3(-0.02, 0, 0), Quat::Identity(), Vec3(2, 0, 0));
    ps.add(0, 2, Vec3(0.02, 0, 0), Quat::Identity(), Vec3(-1, 0, 0));
    for (bool onePartner : {false, true}) {
        ParticleSystem p = ps;
        EngineSettings s = frictionless(e, Vec3::Zero());
        s.onePartnerPerStep = onePartner;
        DemEngine engine({}, s);
        for (int k = 0; k < 3000; ++k) engine.step(p, 1e-5);
        EXPECT_NEAR(p.velocity[0].x(), (1 - e) / 2 * 2 + (1 + e) / 2 * -1, 1e-12);
        EXPECT_NEAR(p.velocity[1].x(), (1 + e) / 2 * 2 + (1 - e) / 2 * -1, 1e-12);
        EXPECT_LT(p.velocity[0].tail<2>().norm() + p.angularVelocity[0].norm(), 1e-12);
    }
}

TEST(DemEngine, OnePartnerOptionGivesSameAnswerForSinglePair) {
    std::mt19937 rng(5);
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(0.006, 0.003, 0.003, 0.4, 0.7), 1000.0);
    ps.add(0, 1, Vec3(0, 0, 0.02), randomOrientation(rng), Vec3(0.1, 0, -0.5), Vec3(3, 1, 0));
    ps.add(0, 2, Vec3(0.002, 0.001, 0.004), randomOrientation(rng), Vec3(0, 0, 0.2));
    auto run = [&](bool onePartner) {
        ParticleSystem p = ps;
        EngineSettings s = frictionless(0.5);
        s.pair.model = s.wall.model = "coulomb";
        s.pair.friction = s.wall.friction = 0.4;
        s.pair.tangentialRestitution = s.wall.tangentialRestitution = 0.0;
        s.onePartnerPerStep = onePartner;
        DemEngine engine(test::boxWalls(Vec3(-0.05, -0.05, -0.0), Vec3(0.05, 0.05, 0.1)), s);
        long contacts = 0;
        for (int k = 0; k < 1500; ++k) {
            const StepStatistics st = engine.step(p, 1e-5);
            contacts += st.pairContacts + st.speculativePairContacts; // (touching, or met at a gap)
        }
        EXPECT_GT(contacts, 0);
        return p;
    };
    const ParticleSystem a = run(false), b = run(true);
    for (int i = 0; i < 2; ++i) {
        EXPECT_LT((a.position[i] - b.position[i]).norm(), 1e-14);
        EXPECT_LT((a.velocity[i] - b.velocity[i]).norm(), 1e-12);
        EXPECT_LT((a.angularVelocity[i] - b.angularVelocity[i]).norm(), 1e-9);
    }
}

namespace {
// ~50 mixed particles on a lattice above the floor of a box, random orientations.
ParticleSystem latticeOfParticles(int nx, int ny, int nz, double spacing, const Vec3& corner) {
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(0.004, 0.004, 0.004, 1.0, 1.0), 1000.0);
    ps.types.emplace_back(Superellipsoid(0.0055, 0.0035, 0.003, 1.0, 1.0), 1000.0);
    // smooth shapes only: blocky pairs hit a GJK/EPA fallback defect of the
    // contact module (wrong normal, depth ~ d_eq; reported, see the note)
    ps.types.emplace_back(Superellipsoid(0.0045, 0.0035, 0.003, 1.0, 1.0), 1000.0);
    std::mt19937 rng(42);
    std::uniform_real_distribution<double> jitter(-0.1, 0.1);
    int id = 0;
    for (int k = 0; k < nz; ++k)
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i) {
                const Vec3 x = corner + spacing * Vec3(i + 0.5 + jitter(rng), j + 0.5 + jitter(rng), k + 0.5);
                ps.add(id % 3, 1000 + id, x, randomOrientation(rng), Vec3(jitter(rng), jitter(rng), 0));
                ++id;
            }
    return ps;
}
} // namespace

TEST(DemEngine, BoxOfFiftyParticlesSettlesQuietly) {
    const double L = 0.048, H = 0.12, spacing = 0.012;
    ParticleSystem ps = latticeOfParticles(4, 4, 3, spacing, Vec3(0, 0, 0.03));
    ASSERT_EQ(ps.size(), 48u);
    EngineSettings s;
    s.pair.model = s.wall.model = "coulomb";
    s.pair.restitution = s.wall.restitution = 0.3;
    s.pair.friction = s.wall.friction = 0.5;
    s.pair.tangentialRestitution = s.wall.tangentialRestitution = 0.0;
    s.gravity = gravity;
    DemEngine engine(test::boxWalls(Vec3(0, 0, 0), Vec3(L, L, H), 2), s);
    double potential0 = 0;
    for (std::size_t i = 0; i < ps.size(); ++i)
        potential0 += ps.types[ps.type[i]].mass * 9.81 * ps.position[i].z();
    const double dt = 5e-5;
    StepStatistics st;
    long pushed = 0;
    double maxOverlapLate = 0;
    // 0.8 s: the fall of ~0.05 m takes 0.1 s, the bed is at its floor (~7e-8
    // of the drop) between 0.4 and 1.1 s depending on the seed (chaotic;
    // measured for seeds 1-4 with and without the sweeps' stagnation stop)
    const int steps = 16000;
    for (int k = 0; k < steps; ++k) {
        st = engine.step(ps, dt);
        pushed += st.pushedBack;
        if (k >= steps - 200) maxOverlapLate = std::max(maxOverlapLate, st.maxOverlapOverDeq);
    }
    double potential = 0;
    for (std::size_t i = 0; i < ps.size(); ++i) {
        EXPECT_TRUE(engine.walls().contains(ps.position[i])) << "particle id " << ps.id[i] << " lost";
        potential += ps.types[ps.type[i]].mass * 9.81 * ps.position[i].z();
    }
    const double drop = potential0 - potential;
    ASSERT_GT(drop, 0.0);
    // Quiet: from ~0.5 of the drop during the fall to ~1e-7 after 0.8 s
    // (measured 8e-8 with accumulated impulses, resting contacts at eps_n = 0
    // and the accumulated overlap projection; 1.1e-5 before). Asserted at
    // 1e-5 (the settling is chaotic): a bed that keeps hopping or is pumped
    // by overlap removal fails.
    EXPECT_LT(st.kineticEnergy, 1e-5 * drop) << "KE " << st.kineticEnergy << " drop " << drop;
    EXPECT_EQ(pushed, 0);
    // Penetrations stay small: gravity loads ~ 3 layers, g dt^2 per step.
    EXPECT_LT(maxOverlapLate, 0.01);
    EXPECT_GT(st.contacts, 48); // it is a bed, not a gas
    RecordProperty("kineticEnergyOverDrop", std::to_string(st.kineticEnergy / drop));
    RecordProperty("maxOverlapOverDeq", std::to_string(maxOverlapLate));
    std::cout << "[ settled  ] KE/drop " << st.kineticEnergy / drop << "  maxOverlap/deq "
              << maxOverlapLate << "  contacts " << st.contacts << "  sweeps " << st.sweeps
              << "  pushedBack(total) " << pushed << "\n";
}

TEST(DemEngine, SubcyclingEqualsSmallSteps) {
    const double dt = 1e-4;
    ParticleSystem ps = latticeOfParticles(3, 3, 2, 0.0105, Vec3(0.0, 0.0, 0.0));
    EngineSettings s = frictionless(0.4);
    DemEngine a(test::boxWalls(Vec3(0, 0, 0), Vec3(0.0315, 0.0315, 0.1)), s);
    DemEngine b(test::boxWalls(Vec3(0, 0, 0), Vec3(0.0315, 0.0315, 0.1)), s);
    ParticleSystem pa = ps, pb = ps;
    long contacts = 0;
    for (int k = 0; k < 300; ++k) {
        contacts += a.step(pa, dt, 10).contacts;
        for (int m = 0; m < 10; ++m) b.step(pb, dt / 10);
    }
    EXPECT_GT(contacts, 0);
    for (std::size_t i = 0; i < ps.size(); ++i) {
        EXPECT_EQ(pa.position[i], pb.position[i]) << i;
        EXPECT_EQ(pa.velocity[i], pb.velocity[i]) << i;
        EXPECT_EQ(pa.angularVelocity[i], pb.angularVelocity[i]) << i;
        EXPECT_EQ(pa.orientation[i].coeffs(), pb.orientation[i].coeffs()) << i;
    }
}

TEST(DemEngine, TunnellingParticleIsPushedBackAndCounted) {
    const double r = 0.005;
    ParticleSystem ps = oneType(Superellipsoid(r, r, r, 1, 1));
    ps.add(0, 77, Vec3(0.05, 0.05, 0.02), Quat::Identity(), Vec3(0, 0, -400)); // 4 cm per step
    // (without contacts before penetration, which would meet it at the floor:
    // push-back is the safety net behind them)
    EngineSettings settings = frictionless(0.5);
    settings.speculativeWallContacts = false;
    DemEngine engine(test::boxWalls(Vec3(0, 0, 0), Vec3(0.1, 0.1, 0.1)), settings);
    const StepStatistics st = engine.step(ps, 1e-4);
    EXPECT_EQ(st.pushedBack, 1);
    EXPECT_EQ(st.pushedBackIds, std::vector<std::int64_t>{77}); // named in the solvers' logs
    EXPECT_TRUE(engine.walls().contains(ps.position[0]));
    EXPECT_NEAR(ps.position[0].z(), r, 1e-12); // touching the floor from inside
    EXPECT_GE(ps.velocity[0].z(), 0.0);        // no longer moving out
}

TEST(DemEngine, NanGuardNamesTheParticle) {
    ParticleSystem ps = oneType(Superellipsoid(0.005, 0.005, 0.005, 1, 1));
    ps.add(0, 5, Vec3(0.02, 0.02, 0.02), Quat::Identity());
    ps.add(0, 42, Vec3(0.05, 0.05, 0.05), Quat::Identity());
    DemEngine engine(test::boxWalls(Vec3(0, 0, 0), Vec3(0.1, 0.1, 0.1)), frictionless(0.5));
    ps.externalForce[1] = Vec3(0, NAN, 0);
    const ParticleSystem before = ps;
    try {
        engine.step(ps, 1e-5);
        ADD_FAILURE() << "no exception";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("particle id 42"), std::string::npos) << e.what();
    }
    EXPECT_EQ(ps.position[0], before.position[0]); // state untouched
    ps.externalForce[1] = Vec3::Zero();
    ps.angularVelocity[0] = Vec3(INFINITY, 0, 0);
    try {
        engine.step(ps, 1e-5);
        ADD_FAILURE() << "no exception";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("particle id 5"), std::string::npos) << e.what();
    }
    EXPECT_THROW(engine.step(ps, 0.0), std::invalid_argument);
    EXPECT_THROW(engine.step(ps, 1e-5, 0), std::invalid_argument);
}

TEST(DemEngine, RejectsBadContactLawNamingTheEntry) {
    EngineSettings s;
    s.pair.model = "sticky";
    EXPECT_THROW(DemEngine({}, s), std::invalid_argument);
    s = EngineSettings{};
    s.wall.restitution = 1.5;
    try {
        DemEngine engine({}, s);
        ADD_FAILURE() << "no exception";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("restitution"), std::string::npos) << e.what();
    }
}

TEST(DemEngine, SavedStateMakesARestartExact) {
    // A new engine that reads the state of the first continues bit for bit;
    // without it the warm starts differ (results agree only to the solver
    // tolerance), which the second half checks is actually the case here.
    ParticleSystem ps = latticeOfParticles(3, 3, 2, 0.0105, Vec3(0.0, 0.0, 0.0));
    EngineSettings s;
    s.pair.model = s.wall.model = "coulomb";
    s.pair.restitution = s.wall.restitution = 0.4;
    s.pair.friction = s.wall.friction = 0.4;
    s.pair.tangentialRestitution = s.wall.tangentialRestitution = 0.0;
    s.gravity = gravity;
    const auto walls = test::boxWalls(Vec3(0, 0, 0), Vec3(0.0315, 0.0315, 0.1));
    DemEngine continuous(walls, s);
    for (int k = 0; k < 800; ++k) continuous.step(ps, 1e-4, 10); // 0.08 s: a bed has formed
    const test::RestartRuns runs = test::runWithRestart(continuous, walls, s, ps, 1e-5, 300);
    EXPECT_GT(test::expectRestartExact(runs), 0.0);
    std::stringstream garbage("not a state at all, clearly");
    DemEngine fresh(walls, s);
    EXPECT_THROW(fresh.readState(garbage), std::runtime_error);
}

// A decomposed run writes the contact memory of all its processors into one
// state (DemEngine::writeState with the others' states), which every
// processor of another decomposition reads: here two engines (two
// processors' particles and contacts, apart), and each engine's particles
// restarted from the file of the other's processor continue bit for bit
// (the entries of the other particles are never found and die). A contact
// known to both is kept once: a state merged with itself is itself.
TEST(DemEngine, OneStateOfSeveralEnginesRestartsEachExactly) {
    EngineSettings s;
    s.pair.model = s.wall.model = "coulomb";
    s.pair.restitution = s.wall.restitution = 0.4;
    s.pair.friction = s.wall.friction = 0.4;
    s.gravity = gravity;
    const Vec3 shift(0.05, 0.0, 0.0);
    ParticleSystem a = latticeOfParticles(3, 3, 2, 0.0105, Vec3::Zero());
    ParticleSystem b = latticeOfParticles(3, 3, 2, 0.0105, shift);
    for (std::size_t i = 0; i < b.size(); ++i) b.id[i] += 100;
    const auto wallsA = test::boxWalls(Vec3::Zero(), Vec3(0.0315, 0.0315, 0.1));
    const auto wallsB = test::boxWalls(shift, shift + Vec3(0.0315, 0.0315, 0.1));
    DemEngine engineA(wallsA, s), engineB(wallsB, s);
    for (int k = 0; k < 800; ++k) { // 0.08 s: beds have formed
        engineA.step(a, 1e-4, 10);
        engineB.step(b, 1e-4, 10);
    }
    std::stringstream stateA, stateB, mergedA, mergedB, twice;
    engineA.writeState(stateA);
    engineB.writeState(stateB);
    engineA.writeState(mergedA, {stateB.str()});
    engineB.writeState(mergedB, {stateA.str()});
    engineA.writeState(twice, {stateA.str()});
    EXPECT_EQ(twice.str(), stateA.str());
    EXPECT_GT(mergedA.str().size(), stateA.str().size());
    const std::string fromB = mergedB.str(), fromA = mergedA.str();
    EXPECT_GT(test::expectRestartExact(test::runWithRestart(engineA, wallsA, s, a, 1e-5, 300, &fromB)), 0.0);
    EXPECT_GT(test::expectRestartExact(test::runWithRestart(engineB, wallsB, s, b, 1e-5, 300, &fromA)), 0.0);
}

// Large systems are processed in spatial order (EngineSettings::
// spatialSortThreshold). The permutation must be invisible: particles keep
// their index and id, and with independent contacts (separate spheres
// bouncing on the floor, placed in shuffled order) the result is the same to
// the last bit with and without sorting.
namespace {
// 64 sites, one per 6 mm cell of an 8 x 8 floor grid, listed in shuffled
// order, at random heights: particles there never touch each other.
std::vector<Vec3> shuffledSites(unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<int> cells(64);
    for (int k = 0; k < 64; ++k) cells[k] = k;
    std::shuffle(cells.begin(), cells.end(), rng);
    std::uniform_real_distribution<double> height(0.003, 0.02);
    std::vector<Vec3> sites;
    for (const int c : cells) sites.emplace_back(0.006 * (c % 8) + 0.003, 0.006 * (c / 8) + 0.003, height(rng));
    return sites;
}
} // namespace

TEST(DemEngine, SpatialOrderIsInvisible) {
    auto makeSystem = [] {
        ParticleSystem ps;
        ps.types.emplace_back(Superellipsoid(0.002, 0.002, 0.002, 1.0, 1.0), 1000.0);
        const std::vector<Vec3> sites = shuffledSites(5);
        for (int k = 0; k < 64; ++k)
            ps.add(0, 1000 + k, sites[static_cast<std::size_t>(k)], Quat::Identity(), Vec3(0.0, 0.0, -0.1 * (k % 3)));
        return ps;
    };
    ParticleSystem sorted = makeSystem(), unsorted = makeSystem();
    EngineSettings s;
    s.gravity = gravity;
    s.pair.restitution = s.wall.restitution = 0.5;
    EngineSettings never = s, always = s;
    never.spatialSortThreshold = 0;
    always.spatialSortThreshold = 1;
    DemEngine a(test::boxWalls(Vec3::Zero(), Vec3(0.048, 0.048, 0.05)), always);
    DemEngine b(test::boxWalls(Vec3::Zero(), Vec3(0.048, 0.048, 0.05)), never);
    long contacts = 0;
    for (int step = 0; step < 6000; ++step) { // 0.06 s: every sphere has bounced
        contacts += a.step(sorted, 1e-5).wallContacts;
        b.step(unsorted, 1e-5);
    }
    EXPECT_GT(contacts, 64);
    for (std::size_t i = 0; i < sorted.size(); ++i) {
        EXPECT_EQ(sorted.id[i], unsorted.id[i]);
        EXPECT_EQ(sorted.position[i], unsorted.position[i]) << "particle " << i;
        EXPECT_EQ(sorted.velocity[i], unsorted.velocity[i]) << "particle " << i;
    }
}

// reorderParticles leaves a sorted system in the engine's order: the
// particles move through the arrays with all their data (id, type, state,
// external force), and the motion of each id is the same to the last bit as
// without it (independent contacts, as above; a force that differs per id
// tells whether it moved with its particle).
TEST(DemEngine, ReorderedParticlesMoveWithAllTheirData) {
    auto makeSystem = [] {
        ParticleSystem ps;
        ps.types.emplace_back(Superellipsoid(0.002, 0.002, 0.002, 1.0, 1.0), 1000.0);
        ps.types.emplace_back(Superellipsoid(0.002, 0.0015, 0.001, 0.5, 0.8), 2500.0);
        const std::vector<Vec3> sites = shuffledSites(11);
        for (int k = 0; k < 64; ++k) {
            ps.add(k % 2, 500 + 3 * k, sites[static_cast<std::size_t>(k)],
                   Quat(Eigen::AngleAxisd(0.1 * k, Vec3(1.0, 2.0, 3.0).normalized())),
                   Vec3(0.0, 0.0, -0.1 * (k % 3)), Vec3(0.0, 0.0, 2.0 * (k % 5)));
            ps.externalForce.back() = Vec3(1e-6 * (k % 7) - 3e-6, 0.0, 1e-6 * (k % 4));
        }
        return ps;
    };
    ParticleSystem moved = makeSystem(), kept = makeSystem();
    EngineSettings s;
    s.gravity = gravity;
    s.pair.restitution = s.wall.restitution = 0.5;
    s.spatialSortThreshold = 1;
    EngineSettings reorder = s;
    reorder.reorderParticles = true;
    DemEngine a(test::boxWalls(Vec3::Zero(), Vec3(0.048, 0.048, 0.05)), reorder);
    DemEngine b(test::boxWalls(Vec3::Zero(), Vec3(0.048, 0.048, 0.05)), s);
    for (int step = 0; step < 3000; ++step) {
        a.step(moved, 1e-5);
        b.step(kept, 1e-5);
    }
    std::map<std::int64_t, std::size_t> indexOf;
    for (std::size_t i = 0; i < kept.size(); ++i) indexOf[kept.id[i]] = i;
    ASSERT_EQ(moved.size(), kept.size());
    int relocated = 0;
    for (std::size_t k = 0; k < moved.size(); ++k) {
        ASSERT_EQ(indexOf.count(moved.id[k]), 1u);
        const std::size_t i = indexOf[moved.id[k]];
        relocated += i != k;
        EXPECT_EQ(moved.type[k], kept.type[i]);
        EXPECT_EQ(moved.externalForce[k], kept.externalForce[i]);
        EXPECT_EQ(moved.position[k], kept.position[i]) << "id " << moved.id[k];
        EXPECT_EQ(moved.velocity[k], kept.velocity[i]) << "id " << moved.id[k];
        EXPECT_EQ(moved.orientation[k].coeffs(), kept.orientation[i].coeffs()) << "id " << moved.id[k];
        EXPECT_EQ(moved.angularVelocity[k], kept.angularVelocity[i]) << "id " << moved.id[k];
    }
    EXPECT_GT(relocated, 32); // shuffled: most particles changed place
}

// A non-finite state or external force stops the step with the particle's
// id, and the system keeps its state from before the call (also when the
// system is processed in spatial order and left in it, reorderParticles).
TEST(DemEngine, NonFiniteInputNamesTheParticleAndChangesNothing) {
    for (const bool sorted : {false, true}) {
        ParticleSystem ps;
        ps.types.emplace_back(Superellipsoid(0.002, 0.002, 0.002, 1.0, 1.0), 1000.0);
        const std::vector<Vec3> sites = shuffledSites(7);
        for (int k = 0; k < 64; ++k) ps.add(0, 100 + k, sites[static_cast<std::size_t>(k)], Quat::Identity());
        EngineSettings s;
        s.gravity = gravity;
        s.spatialSortThreshold = sorted ? 1 : 0;
        s.reorderParticles = sorted;
        DemEngine engine(test::boxWalls(Vec3::Zero(), Vec3(0.048, 0.048, 0.05)), s);
        for (int step = 0; step < 10; ++step) engine.step(ps, 1e-5);
        for (const bool inForce : {false, true}) {
            ParticleSystem bad = ps;
            const std::size_t i = 17;
            (inForce ? bad.externalForce[i] : bad.velocity[i]).y() = std::numeric_limits<double>::quiet_NaN();
            const ParticleSystem before = bad;
            try {
                engine.step(bad, 1e-5);
                ADD_FAILURE() << "no exception";
            } catch (const std::runtime_error& e) {
                EXPECT_NE(std::string(e.what()).find("id " + std::to_string(bad.id[i])), std::string::npos)
                    << e.what();
            }
            for (std::size_t k = 0; k < bad.size(); ++k) {
                EXPECT_EQ(bad.id[k], before.id[k]);
                EXPECT_EQ(bad.position[k], before.position[k]);
                if (k != i) {
                    EXPECT_EQ(bad.velocity[k], before.velocity[k]);
                }
            }
        }
    }
}

TEST(DemEngine, NearlyTouchingPairsAreAnsweredByTheirSeparatingAxis) {
    // Pairs nearly touching (a gap of 1e-3 of the bounding radius, their
    // bounding spheres overlapping), B closing the gap along the line of
    // centres in 10 steps (each step moves it by far more than the reuse
    // tolerance of 1e-5): in every step the engine's contact
    // decision is the exact query's at that step's positions (never a
    // contact before the bodies touch, always one once they do), and while
    // they are apart the separating axis of the last answer, turned with A,
    // answers nearly every step without the exact query. (With a
    // margin of 1e-2 r_min every one of these steps would query the pair
    // afresh.)
    std::mt19937 rng(41);
    PairContactOptions exact;
    exact.boundingVolumeRejection = false;
    const double dt = 1e-5;
    const int closingSteps = 20; // B moves by twice the gap along the centre line in this many steps
    int pairs = 0, apartSteps = 0, apartQueriedAfresh = 0;
    for (const double eps : {0.2, 0.5, 1.0}) {
        const Superellipsoid shape(0.004, 0.003, 0.002, eps, eps);
        for (int trial = 0; trial < 6; ++trial) {
            const Quat qA = randomOrientation(rng), qB = randomOrientation(rng);
            std::normal_distribution<double> g(0.0, 1.0);
            const Vec3 u = Vec3(g(rng), g(rng), g(rng)).normalized();
            // centre distance along u at which the exact gap is 1e-3 r (bisection)
            const double gap = 1e-3 * shape.boundingRadius();
            double lo = 0.0, hi = 2.0 * shape.boundingRadius();
            for (int it = 0; it < 100; ++it) {
                const double mid = 0.5 * (lo + hi);
                const ContactResult c =
                    detectPairContact(shape, Pose{Vec3::Zero(), qA}, shape, Pose{mid * u, qB}, nullptr, exact);
                (c.depth < -gap ? hi : lo) = mid;
            }
            ParticleSystem ps = oneType(shape);
            ps.add(0, 1, Vec3::Zero(), qA, Vec3::Zero(), Vec3::Zero());
            ps.add(0, 2, hi * u, qB, -(2.0 * gap / (closingSteps * dt)) * u, Vec3::Zero());
            // (the shortcut is the subject: contacts before touching ask a
            // pair closing within two steps for its gap at every step)
            EngineSettings settings = frictionless(0.5, Vec3::Zero());
            settings.speculativePairContacts = false;
            DemEngine engine({}, settings);
            ++pairs;
            for (int k = 1; k <= 2 * closingSteps; ++k) {
                // the exact decision at the positions the step starts from
                const ContactResult now = detectPairContact(shape, Pose{ps.position[0], ps.orientation[0]}, shape,
                                                            Pose{ps.position[1], ps.orientation[1]}, nullptr, exact);
                const StepStatistics s = engine.step(ps, dt);
                ASSERT_EQ(s.pairContacts > 0, now.contact && now.depth > 0.0)
                    << "eps " << eps << " trial " << trial << " step " << k << " exact depth " << now.depth;
                if (s.pairContacts > 0) break; // touching: the rest is the collision's
                if (k > 1) { // (the first step has no reference)
                    ++apartSteps;
                    apartQueriedAfresh += static_cast<int>(s.candidatePairs - s.reusedPairs);
                }
            }
        }
    }
    EXPECT_EQ(pairs, 18);
    EXPECT_GT(apartSteps, 18 * (closingSteps / 2 - 2));
    EXPECT_LE(apartQueriedAfresh, apartSteps / 10);
}

// A contact law's tangentialRestitution left unset is the model's own: 0
// for coulomb (sticking stops the slip), 1 for frictional. With 1, a core
// coulomb law kept a sliding body's slip: it never felt friction. Here a
// sphere launched sliding on a coulomb floor (mu 0.3) ends rolling at 5/7
// of its launch speed, the analytic answer for Coulomb friction (impulse
// and angular impulse balance about the contact point), after sliding for
// t = 2 v0 / (7 mu g).
TEST(DemEngine, UnsetTangentialRestitutionIsTheModelsOwn) {
    EngineSettings s;
    s.pair.model = "coulomb";
    s.wall.model = "frictional";
    s.pair.friction = 0.3;
    const DemEngine engine({}, s);
    EXPECT_EQ(engine.settings().pair.tangentialRestitution, 0.0);
    EXPECT_EQ(engine.settings().wall.tangentialRestitution, 1.0);

    const double r = 0.005, v0 = 0.5, mu = 0.3;
    ParticleSystem ps = oneType(Superellipsoid(r, r, r, 1, 1));
    ps.add(0, 0, Vec3(0.02, 0.05, r), Quat::Identity(), Vec3(v0, 0, 0));
    EngineSettings floor;
    floor.pair.model = floor.wall.model = "coulomb";
    floor.pair.friction = floor.wall.friction = mu;
    floor.pair.restitution = floor.wall.restitution = 0.5;
    floor.gravity = gravity;
    DemEngine sliding(dem::test::boxWalls(Vec3::Zero(), Vec3(0.1, 0.1, 0.1)), floor);
    const double slide = 2 * v0 / (7 * mu * 9.81); // 0.049 s
    for (int k = 0; k < std::lround(2 * slide / 1e-5); ++k) sliding.step(ps, 1e-5);
    EXPECT_NEAR(ps.velocity[0].x(), 5.0 / 7.0 * v0, 1e-2 * v0);
    EXPECT_NEAR(ps.angularVelocity[0].y() * r, ps.velocity[0].x(), 1e-2 * v0); // rolling
}
