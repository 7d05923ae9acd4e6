// Held particles (ParticleType::held): never moved, at rest, immovable in
// contacts. A free particle bouncing off a held one gets the answer of a
// wall through the same contact point and normal (centric: -e times its
// normal velocity; oblique, spinning, frictional: the wall run's state);
// held-held and held-wall overlaps are skipped without NaN; gravity, force
// and drag leave a held particle in place with the drag impulse D u dt; a
// bed settles on a held layer without falling through.
#include "DemTestSupport.hpp"
#include "contact/PairContact.hpp"
#include "dem/engine/DemEngine.hpp"
#include "dem/step/Subcycling.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <utility>

namespace sef::dem {
namespace {

const Vec3 kGravity(0, 0, -9.81);

EngineSettings contactLaw(const char* model, double restitution, const Vec3& g = Vec3::Zero()) {
    EngineSettings s;
    s.pair.model = s.wall.model = model;
    s.pair.restitution = s.wall.restitution = restitution;
    s.pair.tangentialRestitution = s.wall.tangentialRestitution = 0.3;
    s.pair.friction = s.wall.friction = 0.4;
    s.gravity = g;
    return s;
}

// One large square face in the plane through `point` with outward normal
// `outward` (the domain is on the other side): the tangent plane of a
// contact as a wall.
std::vector<WallFace> planeWall(const Vec3& point, const Vec3& outward) {
    const Vec3 t1 = outward.unitOrthogonal(), t2 = outward.cross(t1);
    const double L = 0.1;
    return {WallFace{{point - L * t1 - L * t2, point + L * t1 - L * t2, point + L * t1 + L * t2,
                      point - L * t1 + L * t2},
                     outward, 0}};
}

// Particle i of ps is exactly as it was in `before` (bit for bit) and at rest.
void expectUnmoved(const ParticleSystem& ps, const ParticleSystem& before, std::size_t i) {
    EXPECT_EQ(ps.position[i], before.position[i]) << "id " << ps.id[i];
    EXPECT_EQ(ps.orientation[i].coeffs(), before.orientation[i].coeffs()) << "id " << ps.id[i];
    EXPECT_EQ(ps.velocity[i], Vec3::Zero()) << "id " << ps.id[i];
    EXPECT_EQ(ps.angularVelocity[i], Vec3::Zero()) << "id " << ps.id[i];
}

// Centric, frictionless: a sphere thrown down onto a held sphere of another
// size leaves with e times its approach speed, as off the tangent plane at
// the contact point; the held sphere (given a velocity and a force, which
// the step ignores) does not move. One contact, solved in one visit: round
// off only (1e-12 of the speed, as DemEngine.HeadOnSpheresMatchTextbookResult).
TEST(HeldParticles, SphereBouncesOffAHeldSphereAsOffAWall) {
    const double r = 0.005, R = 0.008, v = 1.5, e = 0.6;
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(R, R, R, 1, 1), 2500.0);
    ps.types.back().held = true;
    ps.types.emplace_back(Superellipsoid(r, r, r, 1, 1), 1000.0);
    ps.add(0, 1, Vec3::Zero(), Quat::Identity(), Vec3(0.3, 0, 1), Vec3(5, 0, 0));
    ps.externalForce[0] = Vec3(0, 0, 100.0);
    ps.add(1, 2, Vec3(0, 0, R + r + 2e-4), Quat::Identity(), Vec3(0, 0, -v));
    const ParticleSystem start = ps;
    const double dt = 1e-5;
    const int steps = 60; // contact after ~13 steps, then free flight
    DemEngine engine({}, contactLaw("frictionless", e));
    long contacts = 0;
    for (int k = 0; k < steps; ++k) {
        const StepStatistics st = engine.step(ps, dt);
        contacts += st.pairContacts;
        const double free = 0.5 * ps.types[1].mass * ps.velocity[1].squaredNorm();
        EXPECT_NEAR(st.kineticEnergy, free, 1e-12 * free); // the held sphere has none
    }
    EXPECT_GT(contacts, 0);
    EXPECT_NEAR(ps.velocity[1].z(), e * v, 1e-12 * v);
    EXPECT_LT(ps.velocity[1].head<2>().norm() + r * ps.angularVelocity[1].norm(), 1e-12 * v);
    expectUnmoved(ps, start, 0);

    // the same throw against the tangent plane z = R at the contact point
    // (pair contacts are not speculative: nor is this wall's)
    ParticleSystem alone;
    alone.types = start.types;
    alone.add(1, 2, start.position[1], Quat::Identity(), start.velocity[1]);
    EngineSettings wallLaw = contactLaw("frictionless", e);
    wallLaw.speculativeWallContacts = false;
    DemEngine wall(planeWall(Vec3(0, 0, R), Vec3(0, 0, -1)), wallLaw);
    long wallContacts = 0;
    for (int k = 0; k < steps; ++k) wallContacts += wall.step(alone, dt).wallContacts;
    EXPECT_EQ(wallContacts, contacts);
    EXPECT_LT((alone.velocity[0] - ps.velocity[1]).norm(), 1e-12 * v);
    EXPECT_LT((alone.position[0] - ps.position[1]).norm(), 1e-12 * r);
}

// Oblique, eccentric, frictional (paper's law; coulomb sticking and
// sliding), with spin: a free ellipsoid hits a held, tilted
// superellipsoid. The wall run has the tangent plane of the contact
// (through the held body's surface point, normal the common normal) and the
// same start; the wall narrow phase finds the same normal and depth and the
// pair's surface point of the free body (measured: to 1e-16). The contact
// points differ: the pair's is the midpoint of its two surface points,
// which the Newton answer leaves apart across the normal by its tolerance
// (measured 2.4e-9 of a here), and by delta/2 along the normal (no effect
// on r x n). The response to an arm changed by dr is O(|dr| / a) of the
// speed scale |v| + a |w| (measured 1-4.3 times it): asserted at 20 times
// (5e-8 here). The same body not held, its own mass and inertia in the
// contact, misses by 0.2.
TEST(HeldParticles, ObliqueFrictionalImpactIsTheWallImpact) {
    const std::pair<const char*, double> laws[] = {{"frictional", 0.4}, {"coulomb", 0.4}, {"coulomb", 0.05}};
    for (const auto& [model, friction] : laws) {
        ParticleSystem ps;
        ps.types.emplace_back(Superellipsoid(0.005, 0.004, 0.0035, 0.8, 0.7), 2500.0);
        ps.types.back().held = true;
        ps.types.emplace_back(Superellipsoid(0.004, 0.0025, 0.002, 1.0, 1.0), 1500.0);
        ps.add(0, 1, Vec3(0.001, -0.002, 0.0), Quat(Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized())));
        ps.add(1, 2, Vec3(0.003, 0.001, 0.005), Quat(Eigen::AngleAxisd(1.1, Vec3(-2, 1, 0.5).normalized())),
               Vec3(-0.4, 0.25, -1.2), Vec3(30, -50, 80));
        // overlap delta along the common normal (a translation along it
        // keeps the normal and changes the depth by itself)
        const double delta = 1e-9 * 0.002;
        const auto query = [&] {
            return detectPairContact(ps.types[0].shape, Pose{ps.position[0], ps.orientation[0]},
                                     ps.types[1].shape, Pose{ps.position[1], ps.orientation[1]});
        };
        ContactResult c;
        for (int k = 0; k < 3; ++k) {
            c = query();
            ASSERT_TRUE(c.contact && c.depth > 0.0) << model;
            ps.position[1] += (c.depth - delta) * c.normal;
        }
        c = query(); // what the engine finds
        ASSERT_TRUE(c.contact) << model;
        ASSERT_NEAR(c.depth, delta, 1e-3 * delta) << model;
        ASSERT_LT(c.normal.dot(ps.velocity[1] + ps.angularVelocity[1].cross(c.point - ps.position[1])), 0.0)
            << "approaching";
        const ParticleSystem start = ps;

        const double dt = 2e-6;
        EngineSettings law = contactLaw(model, 0.5);
        law.pair.friction = law.wall.friction = friction;
        DemEngine engine({}, law);
        const StepStatistics st = engine.step(ps, dt);
        ASSERT_EQ(st.pairContacts, 1) << model;
        expectUnmoved(ps, start, 0);

        ParticleSystem alone;
        alone.types = start.types;
        alone.add(1, 2, start.position[1], start.orientation[1], start.velocity[1], start.angularVelocity[1]);
        DemEngine wall(planeWall(c.surfacePoint1, -c.normal), law);
        ASSERT_EQ(wall.step(alone, dt).wallContacts, 1) << model;

        const double a = 0.004, scale = start.velocity[1].norm() + a * start.angularVelocity[1].norm();
        const Vec3 offset = c.point - c.surfacePoint2; // pair point - wall point
        const double across = (offset - offset.dot(c.normal) * c.normal).norm();
        const double tolerance = 20.0 * std::max(across / a, 1e-12);
        EXPECT_LT(tolerance, 1e-7); // (the narrow phase's tolerance is 1e-8 of a half-axis at most)
        // the impact changed the state by O(scale): the comparison is not empty
        const double change = (ps.velocity[1] - start.velocity[1]).norm() +
                              a * (ps.angularVelocity[1] - start.angularVelocity[1]).norm();
        EXPECT_GT(change, 0.1 * scale) << model;
        EXPECT_LT((alone.velocity[0] - ps.velocity[1]).norm(), tolerance * scale) << model << friction;
        EXPECT_LT(a * (alone.angularVelocity[0] - ps.angularVelocity[1]).norm(), tolerance * scale)
            << model << friction;
        // (the drift with these velocities over dt)
        EXPECT_LT((alone.position[0] - ps.position[1]).norm(), tolerance * scale * dt) << model << friction;
        EXPECT_LT((alone.orientation[0].coeffs() - ps.orientation[1].coeffs()).norm(), tolerance * scale / a * dt)
            << model << friction;
        // separating after the impact
        const Vec3 arm = c.point - start.position[1];
        EXPECT_GT(c.normal.dot(ps.velocity[1] + ps.angularVelocity[1].cross(arm)), 0.0) << model;
    }
}

// Held particles overlapping each other (two even concentric), one with
// its centre beyond the floor and one through a side wall, under gravity,
// force, torque and drag, with several substeps: no contact among them or
// with the walls, no push-back, nothing moves, nothing is NaN (the test
// runs with floating-point traps). Then a free particle jammed deep between
// two of them and the floor: pushed out, without NaN either.
TEST(HeldParticles, HeldOverlapsAmongThemselvesAndWithWallsAreSkipped) {
    for (bool jammed : {false, true})
        for (bool onePartner : {false, true}) {
            ParticleSystem ps;
            ps.types.emplace_back(Superellipsoid(0.005, 0.005, 0.005, 1.0, 1.0), 2500.0);
            ps.types.back().held = true;
            ps.types.emplace_back(Superellipsoid(0.006, 0.004, 0.003, 0.3, 0.4), 2500.0); // blocky: rim points
            ps.types.back().held = true;
            ps.types.emplace_back(Superellipsoid(0.003, 0.003, 0.003, 1.0, 1.0), 1000.0);
            const Quat q(Eigen::AngleAxisd(0.3, Vec3(1, 1, 0).normalized()));
            ps.add(0, 1, Vec3(0.02, 0.02, 0.004), Quat::Identity());
            ps.add(0, 2, Vec3(0.02, 0.02, 0.004), Quat::Identity()); // concentric
            ps.add(1, 3, Vec3(0.026, 0.02, 0.004), q);                // deep into both
            ps.add(1, 4, Vec3(0.01, 0.01, -0.001), q);                // centre below the floor
            ps.add(0, 5, Vec3(0.002, 0.03, 0.01), Quat::Identity());  // through the side wall x = 0
            ps.add(0, 6, Vec3(0.031, 0.02, 0.004), Quat::Identity()); // into 3
            if (jammed) ps.add(2, 7, Vec3(0.0285, 0.0245, 0.0025), Quat::Identity()); // into 3, 6 and the floor
            for (std::size_t i = 0; i < ps.size(); ++i) {
                ps.externalForce[i] = Vec3(0.01, -0.02, 0.5);
                ps.externalTorque[i] = Vec3(1e-5, 0, -2e-5);
            }
            ps.fluidDrag.assign(ps.size(), FluidDrag{});
            for (FluidDrag& d : ps.fluidDrag) {
                d.translation = 1e-3 * Mat3::Identity();
                d.fluidVelocity = Vec3(0.1, 0, 0.2);
                d.rotation = 1e-9 * Mat3::Identity();
                d.fluidRotationRate = Vec3(0, 0, 5);
            }
            const ParticleSystem start = ps;
            EngineSettings s = contactLaw("coulomb", 0.5, kGravity);
            s.onePartnerPerStep = onePartner;
            DemEngine engine(test::boxWalls(Vec3::Zero(), Vec3(0.05, 0.05, 0.05)), s);
            StepStatistics st;
            long pushed = 0, contacts = 0;
            for (int k = 0; k < 200; ++k) {
                ASSERT_NO_THROW(st = engine.step(ps, 1e-4, 3)) << "step " << k;
                pushed += st.pushedBack;
                contacts += st.contacts;
                if (!jammed) {
                    EXPECT_EQ(st.kineticEnergy, 0.0);
                    EXPECT_EQ(st.maxOverlapOverDeq, 0.0);
                }
            }
            const std::size_t held = jammed ? ps.size() - 1 : ps.size();
            for (std::size_t i = 0; i < held; ++i) expectUnmoved(ps, start, i);
            EXPECT_EQ(pushed, 0);
            if (!jammed) {
                EXPECT_EQ(contacts, 0);
                continue;
            }
            const std::size_t f = held;
            EXPECT_GT(contacts, 0);
            EXPECT_TRUE(isFinite(ps.position[f]) && isFinite(ps.velocity[f]) && isFinite(ps.angularVelocity[f]));
            EXPECT_NE(ps.position[f], start.position[f]); // pushed out of the jam
            EXPECT_GT(ps.position[f].z(), 0.0);
        }
}

// A held ellipsoid under gravity, an external force and torque, a given
// start velocity and a fluid drag (anisotropic D, flow u, rotational drag
// towards w_f): after a subcycled step it is where it was, at rest, and the
// drag impulse is what a body at rest receives over dt, D u dt and
// R w_f dt (kinematics/LinearRelaxation.hpp, eq. (1) with v = 0): the sum
// of 2 n half kicks of (h/2) D u, a few roundings (1e-14).
TEST(HeldParticles, HeldParticleStaysAndTakesTheDragOfABodyAtRest) {
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(0.003, 0.002, 0.0015, 0.9, 1.0), 2500.0);
    ps.types.back().held = true;
    const Quat q(Eigen::AngleAxisd(0.7, Vec3(1, -2, 0.5).normalized()));
    ps.add(0, 4, Vec3(0.01, 0.02, 0.03), q, Vec3(1, -2, 3), Vec3(40, 0, -10));
    ps.externalForce[0] = Vec3(0.2, -0.1, 3.0);
    ps.externalTorque[0] = Vec3(1e-4, 2e-4, -3e-4);
    FluidDrag d;
    d.translation << 2e-3, 3e-4, -1e-4, 3e-4, 1.5e-3, 2e-4, -1e-4, 2e-4, 1e-3;
    d.fluidVelocity = Vec3(0.3, -0.1, 0.25);
    d.rotation << 4e-9, 1e-9, 0, 1e-9, 3e-9, -5e-10, 0, -5e-10, 2e-9;
    d.fluidRotationRate = Vec3(-3, 7, 2);
    ps.fluidDrag.assign(1, d);
    const ParticleSystem start = ps;
    DemEngine engine({}, contactLaw("coulomb", 0.5, kGravity));
    const double dt = 1e-3;
    for (int n : {1, 3, 7}) {
        const StepStatistics st = engine.step(ps, dt, n);
        EXPECT_EQ(ps.position[0], start.position[0]) << n;
        EXPECT_EQ(ps.orientation[0].coeffs(), start.orientation[0].coeffs()) << n;
        EXPECT_EQ(ps.velocity[0], Vec3::Zero()) << n;
        EXPECT_EQ(ps.angularVelocity[0], Vec3::Zero()) << n;
        EXPECT_EQ(st.kineticEnergy, 0.0);
        const Vec3 impulse = dt * (d.translation * d.fluidVelocity);
        const Vec3 angular = dt * (d.rotation * d.fluidRotationRate);
        EXPECT_LT((ps.dragImpulse[0] - impulse).norm(), 1e-14 * impulse.norm()) << n;
        EXPECT_LT((ps.dragAngularImpulse[0] - angular).norm(), 1e-14 * angular.norm()) << n;
    }
    // automatic subcycling: a held particle does not travel, whatever its
    // given velocity and force
    ps.velocity[0] = Vec3(100, 0, 0);
    ps.externalForce[0] = Vec3(0, 0, 1e6);
    const SubcycleChoice choice = automaticSubcycles(ps, dt, kGravity);
    EXPECT_EQ(choice.subcycles, 1);
    EXPECT_EQ(choice.largestTravel, 0.0);
}

// A bed: 18 free spheres dropped into a box whose floor is covered by a
// 4 x 4 layer of held spheres of the same radius R (square lattice of
// spacing 2R: its holes pass a sphere of radius (sqrt 2 - 1) R only). They
// come to rest on the layer: no free centre below that of a sphere in a
// hollow of four, (1 + sqrt 2) R (the lowest place there is; measured
// 2.4142 R), none ever below 2R during the fall, no push-back, the kinetic
// energy a tiny fraction of the drop (asserted 1e-5 as
// DemEngine.BoxOfFiftyParticlesSettlesQuietly; measured 2e-7), the held
// layer bit for bit where it was. A restart continues exactly.
TEST(HeldParticles, BedSettlesOnAHeldLayer) {
    const double R = 0.005, L = 8 * R;
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(R, R, R, 1, 1), 2500.0);
    ps.types.back().held = true;
    ps.types.emplace_back(Superellipsoid(R, R, R, 1, 1), 2500.0);
    int id = 0;
    for (int j = 0; j < 4; ++j)
        for (int i = 0; i < 4; ++i) ps.add(0, id++, Vec3((2 * i + 1) * R, (2 * j + 1) * R, R), Quat::Identity());
    const std::size_t held = ps.size();
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> jitter(-0.15 * R, 0.15 * R);
    for (int k = 0; k < 2; ++k) // 2.5 R apart: no overlap at the start
        for (int j = 0; j < 3; ++j)
            for (int i = 0; i < 3; ++i)
                ps.add(1, id++,
                       Vec3(1.5 * R + 2.5 * R * i + jitter(rng), 1.5 * R + 2.5 * R * j + jitter(rng),
                            5 * R + 2.5 * R * k),
                       Quat::Identity(), Vec3(jitter(rng), jitter(rng), 0) / R * 0.1);
    const ParticleSystem start = ps;
    EngineSettings s = contactLaw("coulomb", 0.3, kGravity);
    s.pair.friction = s.wall.friction = 0.5;
    s.pair.tangentialRestitution = s.wall.tangentialRestitution = 0.0;
    const auto walls = test::boxWalls(Vec3::Zero(), Vec3(L, L, 0.1));
    DemEngine engine(walls, s);
    double potential0 = 0;
    for (std::size_t i = held; i < ps.size(); ++i) potential0 += ps.types[1].mass * 9.81 * ps.position[i].z();
    const double dt = 5e-5;
    StepStatistics st;
    long pushed = 0;
    for (int k = 0; k < 12000; ++k) { // 0.6 s: a fall of 0.05 m takes 0.1 s
        st = engine.step(ps, dt);
        pushed += st.pushedBack;
        for (std::size_t i = held; i < ps.size(); ++i) ASSERT_GT(ps.position[i].z(), 2 * R) << "id " << ps.id[i];
    }
    double potential = 0;
    for (std::size_t i = held; i < ps.size(); ++i) {
        EXPECT_GT(ps.position[i].z(), (1 + std::sqrt(2.0) - 0.01) * R) << "id " << ps.id[i];
        EXPECT_TRUE(engine.walls().contains(ps.position[i])) << "id " << ps.id[i];
        potential += ps.types[1].mass * 9.81 * ps.position[i].z();
    }
    for (std::size_t i = 0; i < held; ++i) expectUnmoved(ps, start, i);
    const double drop = potential0 - potential;
    ASSERT_GT(drop, 0.0);
    EXPECT_LT(st.kineticEnergy, 1e-5 * drop) << "KE " << st.kineticEnergy << " drop " << drop;
    EXPECT_EQ(pushed, 0);
    EXPECT_LT(st.maxOverlapOverDeq, 0.01);
    EXPECT_GE(st.pairContacts, 18); // resting on the layer and each other
    // the saved state (warm starts of contacts with held particles) restarts exactly
    const test::RestartRuns runs = test::runWithRestart(engine, walls, s, ps, dt, 200);
    test::expectRestartExact(runs);
    for (std::size_t i = 0; i < held; ++i) expectUnmoved(runs.restarted, start, i);
}

} // namespace
} // namespace sef::dem
