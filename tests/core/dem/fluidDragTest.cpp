// Fluid drag in the DEM step (ParticleSystem::fluidDrag, integrated exactly
// in the half kicks): Stokes settling of a sphere (velocity exact at every
// step, also for steps 100 times the response time), a prolate spheroid
// (aspect ratio 3) at 45 degrees against the closed-form Oberbeck
// resistances (terminal velocity, sideways drift angle, no rotation), the
// rotational relaxation of a sphere, a stiff rotational drag without
// overshoot, the Jeffery orbit period in simple shear, momentum bookkeeping
// of the drag impulses with collisions, and bad input.
#include "dem/engine/DemEngine.hpp"
#include "hydrodynamics/EllipsoidResistance.hpp"
#include "hydrodynamics/ResistanceTensors.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace sef::dem {
namespace {

constexpr double kMu = 1e-3, kRhoFluid = 1000.0, kG = 9.81;

// Drag of a particle of `type` in a quiescent fluid or a given flow, from the
// paper's normalised tensors: D = pi mu c R K R^T, R_rot = pi mu c^3 R Omega R^T.
FluidDrag stokesDrag(const ParticleType& type, const Quat& q, const Vec3& u = Vec3::Zero(),
                     const Mat3& gradU = Mat3::Zero()) {
    const Superellipsoid& s = type.shape;
    const double c = s.halfAxes().minCoeff();
    const ResistanceTensors r = ellipsoidResistance(s.a(), s.b(), s.c());
    const Mat3 R = q.toRotationMatrix();
    FluidDrag d;
    d.translation = M_PI * kMu * c * R * r.K.asDiagonal() * R.transpose();
    d.fluidVelocity = u;
    d.rotation = M_PI * kMu * c * c * c * R * r.Omega.asDiagonal() * R.transpose();
    d.fluidRotationRate = R * torqueFreeRotationRate(r, R.transpose() * gradU * R);
    return d;
}

Vec3 buoyancy(const ParticleType& type) { return Vec3(0, 0, kRhoFluid * type.shape.volume() * kG); }

EngineSettings fluidSettings() {
    EngineSettings s;
    s.gravity = Vec3(0, 0, -kG);
    return s;
}

TEST(FluidDrag, StokesSphereVelocityIsExactForAnyStep) {
    const double r = 5e-5, rho = 2500.0;
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(r, r, r, 1.0, 1.0), rho);
    const ParticleType& type = ps.types[0];
    const double D = 6.0 * M_PI * kMu * r;
    const double tauP = type.mass / D;                               // response time
    const double vStokes = 2.0 / 9.0 * (rho - kRhoFluid) * kG * r * r / kMu; // Stokes' law
    for (double stepOverTau : {0.1, 1.0, 100.0}) {
        ps.add(0, 1, Vec3::Zero(), Quat::Identity());
        ps.fluidDrag.assign(1, stokesDrag(type, Quat::Identity()));
        ps.externalForce[0] = buoyancy(type);
        DemEngine engine({}, fluidSettings());
        const double dt = stepOverTau * tauP;
        double previous = 0.0;
        for (int n = 1; n <= 30; ++n) {
            engine.step(ps, dt);
            const double want = -vStokes * (1.0 - std::exp(-n * dt / tauP));
            EXPECT_NEAR(ps.velocity[0].z(), want, 1e-12 * vStokes) << stepOverTau << " step " << n;
            EXPECT_LE(ps.velocity[0].z(), previous + 1e-15 * vStokes); // monotone: no overshoot
            EXPECT_GE(ps.velocity[0].z(), -vStokes * (1.0 + 1e-12));
            previous = ps.velocity[0].z();
        }
        ps.remove(0);
    }
}

// Oberbeck's closed-form resistances of a prolate spheroid (semi-axes a > b = c,
// e = sqrt(1 - b^2/a^2), L = ln((1 + e)/(1 - e))): along the axis
// 16 pi mu a e^3 / ((1 + e^2) L - 2 e), across 32 pi mu a e^3 / (2 e + (3 e^2 - 1) L)
// (Happel & Brenner 1965, sec. 5-11).
TEST(FluidDrag, ProlateSpheroidAt45DegreesDriftsAtTheExactAngleWithoutTurning) {
    const double c = 4e-5, a = 3.0 * c, rho = 2500.0;
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(a, c, c, 1.0, 1.0), rho);
    const ParticleType& type = ps.types[0];
    const double e = std::sqrt(1.0 - c * c / (a * a)), L = std::log((1.0 + e) / (1.0 - e));
    const double axial = 16.0 * M_PI * kMu * a * e * e * e / ((1.0 + e * e) * L - 2.0 * e);
    const double across = 32.0 * M_PI * kMu * a * e * e * e / (2.0 * e + (3.0 * e * e - 1.0) * L);
    const Vec3 weight(0, 0, -(rho - kRhoFluid) * type.shape.volume() * kG);
    for (double angle : {0.0, M_PI / 4, M_PI / 2}) { // axis from vertical: edgewise, 45 degrees, broadside
        const Quat q(Eigen::AngleAxisd(M_PI / 2 - angle, Vec3::UnitY())); // body x axis tilted from vertical
        const Vec3 axis = q * Vec3::UnitX();
        ps.add(0, 7, Vec3::Zero(), q);
        ps.fluidDrag.assign(1, stokesDrag(type, q));
        ps.externalForce[0] = buoyancy(type);
        DemEngine engine({}, fluidSettings());
        const double tauP = type.mass / across;
        for (int n = 0; n < 50; ++n) engine.step(ps, tauP); // 50 response times
        // exact: v = F_par / axial + F_perp / across
        const Vec3 par = weight.dot(axis) * axis;
        const Vec3 want = par / axial + (weight - par) / across;
        EXPECT_LT((ps.velocity[0] - want).norm(), 1e-9 * want.norm()) << angle;
        if (angle == M_PI / 4) {
            // drift angle from vertical (toward the axis, which falls faster
            // along itself): tan = (1/axial - 1/across) / (1/axial + 1/across);
            // the core's tensors (Carlson integrals) agree with the closed
            // form to about 1e-9
            const double tanWant = (1.0 / axial - 1.0 / across) / (1.0 / axial + 1.0 / across);
            EXPECT_NEAR(std::fabs(ps.velocity[0].x() / ps.velocity[0].z()), tanWant, 1e-8 * tanWant);
        }
        EXPECT_EQ(ps.orientation[0].coeffs(), q.coeffs()); // Stokes flow exerts no torque on it
        EXPECT_EQ(ps.angularVelocity[0], Vec3::Zero());
        ps.remove(0);
    }
}

TEST(FluidDrag, SphereSpinRelaxesExactlyToTheFlowRotation) {
    const double r = 1e-4;
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(r, r, r, 1.0, 1.0), 2500.0);
    const ParticleType& type = ps.types[0];
    Mat3 gradU = Mat3::Zero();
    gradU(0, 1) = 50.0; // simple shear: rotation rate -25 about z
    ps.add(0, 1, Vec3::Zero(), Quat::Identity(), Vec3::Zero(), Vec3(3.0, 0.0, 10.0));
    ps.fluidDrag.assign(1, stokesDrag(type, Quat::Identity(), Vec3::Zero(), gradU));
    EngineSettings s; // no gravity
    DemEngine engine({}, s);
    const double tauR = type.principalInertia.x() / (8.0 * M_PI * kMu * r * r * r);
    const Vec3 target(0, 0, -25.0), start(3.0, 0.0, 10.0);
    for (int n = 1; n <= 10; ++n) {
        engine.step(ps, 0.5 * tauR);
        const Vec3 want = target + (start - target) * std::exp(-0.5 * n);
        EXPECT_LT((ps.angularVelocity[0] - want).norm(), 1e-12 * want.norm()) << n;
    }
}

TEST(FluidDrag, StiffRotationalDragOfAnAsymmetricBodyDoesNotOvershoot) {
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(3e-4, 2e-4, 1e-4, 0.5, 0.8), 2500.0);
    const ParticleType& type = ps.types[0];
    const Quat q = Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
    ps.add(0, 1, Vec3::Zero(), q, Vec3::Zero(), Vec3(40.0, -30.0, 20.0));
    FluidDrag d;
    const Mat3 R = q.toRotationMatrix();
    const Mat3 I = R * type.principalInertia.asDiagonal() * R.transpose();
    const double dt = 1e-3;
    d.rotation = 100.0 / dt * I * Vec3(1.0, 1.5, 0.7).asDiagonal(); // response times near dt/100 (not symmetric yet)
    d.rotation = 0.5 * (d.rotation + d.rotation.transpose()).eval();
    d.fluidRotationRate = Vec3(0.0, 0.0, 2.0);
    ps.fluidDrag.assign(1, d);
    DemEngine engine({}, EngineSettings{});
    double gap = (ps.angularVelocity[0] - d.fluidRotationRate).norm();
    for (int n = 0; n < 20; ++n) {
        engine.step(ps, dt);
        const double now = (ps.angularVelocity[0] - d.fluidRotationRate).norm();
        EXPECT_LE(now, gap + 1e-12);
        gap = now;
        ps.fluidDrag[0].rotation = d.rotation; // held in the world frame
    }
    // relaxed to the flow rate (the gyroscopic coupling left at the step's
    // order: |w|^2 dt^2 ~ 4e-6 of |w|)
    EXPECT_LT(gap, 1e-4 * d.fluidRotationRate.norm());
}

TEST(FluidDrag, JefferyOrbitPeriodOfAProlateSpheroidInShear) {
    // Aspect ratio 3, small and light: the rotational response time is 1e-3
    // of the shear time, so the spin follows the torque-free rate (Jeffery
    // 1922): period 2 pi (r + 1/r) / gamma. The drag is re-evaluated every
    // step at the new orientation, as the cloud does.
    const double c = 1e-5, r = 3.0, gamma = 10.0;
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(r * c, c, c, 1.0, 1.0), 10.0);
    Mat3 gradU = Mat3::Zero();
    gradU(0, 1) = gamma; // u = (gamma y, 0, 0)
    ps.add(0, 1, Vec3::Zero(), Quat::Identity());
    ps.fluidDrag.assign(1, FluidDrag{});
    DemEngine engine({}, EngineSettings{});
    const double dt = 2e-3 / gamma, period = 2.0 * M_PI * (r + 1.0 / r) / gamma;
    double t = 0.0, lastY = 0.0, crossings[3];
    int found = 0;
    while (found < 3 && t < 3.0 * period) {
        ps.fluidDrag[0] = stokesDrag(ps.types[0], ps.orientation[0], Vec3::Zero(), gradU);
        engine.step(ps, dt);
        t += dt;
        const double y = (ps.orientation[0] * Vec3::UnitX()).y();
        if (lastY != 0.0 && (y > 0) != (lastY > 0)) crossings[found++] = t - dt * y / (y - lastY);
        lastY = y;
    }
    ASSERT_EQ(found, 3);
    EXPECT_NEAR((crossings[2] - crossings[0]) / period, 1.0, 2e-3);
}

TEST(FluidDrag, DragImpulsesCloseTheMomentumBalanceWithCollisions) {
    // Two spheres in a fluid streaming at them from both sides collide head
    // on; no walls. Over each step sum m dv = sum (m g + F) h + sum J_drag
    // to round-off: the pair impulses cancel, and J_drag is exactly what the
    // fluid must receive back.
    const double r = 1e-3;
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(r, r, r, 1.0, 1.0), 2500.0);
    ps.add(0, 1, Vec3(-1.05 * r, 0, 0), Quat::Identity(), Vec3(0.5, 0, 0));
    ps.add(0, 2, Vec3(1.05 * r, 0, 0), Quat::Identity(), Vec3(-0.4, 0.1, 0));
    ps.fluidDrag = {stokesDrag(ps.types[0], Quat::Identity(), Vec3(0.3, 0, 0)),
                    stokesDrag(ps.types[0], Quat::Identity(), Vec3(-0.3, 0, 0.1))};
    ps.externalForce[1] = Vec3(0, 1e-5, 0);
    DemEngine engine({}, fluidSettings());
    const double dt = 1e-4;
    long contacts = 0;
    for (int n = 0; n < 40; ++n) {
        Vec3 before = Vec3::Zero(), applied = Vec3::Zero();
        for (std::size_t i = 0; i < 2; ++i) {
            before += ps.types[0].mass * ps.velocity[i];
            applied += dt * (ps.types[0].mass * Vec3(0, 0, -kG) + ps.externalForce[i]);
        }
        contacts += engine.step(ps, dt, 4).contacts;
        Vec3 after = Vec3::Zero(), drag = Vec3::Zero();
        for (std::size_t i = 0; i < 2; ++i) {
            after += ps.types[0].mass * ps.velocity[i];
            drag += ps.dragImpulse[i];
        }
        EXPECT_LT((after - before - applied - drag).norm(), 1e-15 * before.norm()) << n;
    }
    EXPECT_GT(contacts, 0); // they did collide
}

TEST(FluidDrag, BadInputNamesTheParticleAndChangesNothing) {
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(1e-3, 1e-3, 1e-3, 1.0, 1.0), 2500.0);
    ps.add(0, 41, Vec3::Zero(), Quat::Identity(), Vec3(1, 0, 0));
    ps.add(0, 42, Vec3(0.01, 0, 0), Quat::Identity());
    DemEngine engine({}, fluidSettings());
    ps.fluidDrag.resize(1); // one entry for two particles
    EXPECT_THROW(engine.step(ps, 1e-4), std::invalid_argument);
    ps.fluidDrag.resize(2);
    ps.fluidDrag[1].translation(0, 1) = 1.0; // not symmetric
    try {
        engine.step(ps, 1e-4);
        FAIL() << "no exception";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("id 42"), std::string::npos) << e.what();
    }
    EXPECT_EQ(ps.velocity[0], Vec3(1, 0, 0));
    EXPECT_EQ(ps.position[1], Vec3(0.01, 0, 0));
}

} // namespace
} // namespace sef::dem
