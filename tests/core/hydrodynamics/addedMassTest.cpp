// Added mass and added moment of inertia (hydrodynamics/AddedMass.hpp):
// the sphere, prolate spheroids against the closed forms of their integrals
// and Lamb's table, and through fluidForces and the DEM step: an ellipsoid
// accelerated from rest with the drag off reaches the velocity of its exact
// added mass along and across its axis, and a spin decays with the added
// moment of inertia.
#include "dem/engine/DemEngine.hpp"
#include "hydrodynamics/AddedMass.hpp"
#include "hydrodynamics/FluidForces.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace sef;

namespace {

// Prolate spheroid (a > b = c) in closed form, eccentricity e:
//   alpha0 = 2 (1 - e^2) / e^3 (L/2 - e),  beta0 = 1/e^2 - (1 - e^2) L / (2 e^3),
//   L = ln((1 + e)/(1 - e)) (Lamb 1932, art. 114),
// and Lamb's coefficient of the added inertia about an equatorial axis
// relative to the displaced fluid's own, rho V (a^2 + b^2)/5 (art. 373):
//   k' = e^4 (beta0 - alpha0) / ((2 - e^2) (2 e^2 - (2 - e^2)(beta0 - alpha0))).
struct ProlateClosedForm {
    double along, across, inertia; // m_a / (rho V) along and across, I_a / (rho V) across [m^2]
};
ProlateClosedForm prolateClosedForm(double a, double b) {
    const double e = std::sqrt(1.0 - b * b / (a * a)), L = std::log((1.0 + e) / (1.0 - e));
    const double alpha0 = 2.0 * (1.0 - e * e) / (e * e * e) * (0.5 * L - e);
    const double beta0 = 1.0 / (e * e) - (1.0 - e * e) * L / (2.0 * e * e * e);
    const double k = std::pow(e, 4) * (beta0 - alpha0) /
                     ((2.0 - e * e) * (2.0 * e * e - (2.0 - e * e) * (beta0 - alpha0)));
    return {alpha0 / (2.0 - alpha0), beta0 / (2.0 - beta0), k * (a * a + b * b) / 5.0};
}

TEST(AddedMass, SphereAndCubeKeepCaOneHalfExactly) {
    for (const Superellipsoid& s : {Superellipsoid(1e-3, 1e-3, 1e-3, 1.0, 1.0), Superellipsoid(1e-3, 1e-3, 1e-3, 0.2, 0.2)}) {
        const AddedMassCoefficients c = addedMassCoefficients(s);
        EXPECT_EQ(c.translation, Vec3::Constant(0.5));
        EXPECT_EQ(c.rotation, Vec3::Zero());
    }
}

TEST(AddedMass, ProlateSpheroidsMatchTheClosedForms) {
    // (not nearer the sphere: the closed forms cancel digits as e -> 0)
    for (double ratio : {1.1, 2.0, 3.0, 10.0}) {
        const double b = 1e-3, a = ratio * b;
        const ProlateClosedForm want = prolateClosedForm(a, b);
        // any body axis may carry the long half-axis: here z
        const AddedMassCoefficients c = ellipsoidAddedMass(b, b, a);
        EXPECT_NEAR(c.translation.z(), want.along, 1e-9 * want.along) << ratio;
        EXPECT_NEAR(c.translation.x(), want.across, 1e-9 * want.across) << ratio;
        EXPECT_NEAR(c.translation.y(), want.across, 1e-9 * want.across) << ratio;
        EXPECT_NEAR(c.rotation.x(), want.inertia, 1e-9 * want.inertia) << ratio;
        EXPECT_NEAR(c.rotation.y(), want.inertia, 1e-9 * want.inertia) << ratio;
        EXPECT_EQ(c.rotation.z(), 0.0); // about its own axis: none in potential flow
    }
    // Slender limit: nothing along the axis, a circular cylinder's rho_f V
    // across, and the inertia coefficient k' -> 1 (Lamb art. 373)
    const double b = 1e-6, a = 1e4 * b;
    const AddedMassCoefficients needle = ellipsoidAddedMass(a, b, b);
    EXPECT_LT(needle.translation.x(), 1e-6);
    EXPECT_NEAR(needle.translation.y(), 1.0, 1e-6);
    EXPECT_NEAR(needle.rotation.z() / ((a * a + b * b) / 5.0), 1.0, 1e-6);
}

TEST(AddedMass, TriaxialCoefficientsAreContinuousTowardTheSpheroid) {
    // b -> c: the added inertia about x (0/0 in the formula) tends to zero
    const double a = 3e-3, c = 1e-3;
    double previous = 1.0;
    for (double gap : {1e-1, 1e-2, 1e-3, 1e-4}) {
        const double now = ellipsoidAddedMass(a, c * (1.0 + gap), c).rotation.x() / (c * c);
        EXPECT_GT(now, 0.0);
        EXPECT_LT(now, previous);
        previous = now;
    }
    EXPECT_LT(previous, 1e-7);
    EXPECT_THROW(ellipsoidAddedMass(a, -c, c), std::invalid_argument);
}

constexpr double kG = 9.81;

// Drag off: (m + m_a) dv/dt = (m - rho_f V) g along a principal axis, so
// v(t) = (m - rho_f V) g t / (m + m_a), through fluidForces and the step.
TEST(AddedMass, EllipsoidAcceleratesWithItsAddedMassAlongAndAcrossItsAxis) {
    const Superellipsoid s(3e-3, 1e-3, 1e-3, 1.0, 1.0);
    const HydrodynamicShape hydro = makeHydrodynamicShape(s);
    const double rhoF = 1000.0, rhoP = 300.0; // light: rises, added mass dominates
    FluidState water;
    water.density = rhoF;
    water.dynamicViscosity = 1e-3;
    FluidForceModel model;
    model.drag = model.rotationalDrag = false;
    const ProlateClosedForm exact = prolateClosedForm(3e-3, 1e-3);
    for (bool along : {true, false}) {
        dem::ParticleSystem ps;
        ps.types.emplace_back(s, rhoP);
        const Quat q = along ? Quat(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitY())) : Quat::Identity(); // x' up or level
        ps.add(0, 1, Vec3::Zero(), q);
        dem::EngineSettings settings;
        settings.gravity = Vec3(0, 0, -kG);
        dem::DemEngine engine({}, settings);
        const double m = ps.types[0].mass, rhoV = rhoF * s.volume(), dt = 1e-3;
        for (int n = 0; n < 20; ++n) {
            const ParticleFluidForces f = fluidForces(hydro, m, ps.orientation[0], ps.velocity[0], water, settings.gravity, model);
            ps.externalForce[0] = f.force;
            engine.step(ps, dt);
        }
        const double ma = (along ? exact.along : exact.across) * rhoV;
        const double want = (rhoV - m) * kG * 20 * dt / (m + ma);
        EXPECT_NEAR(ps.velocity[0].z(), want, 1e-6 * want) << (along ? "along" : "across");
        EXPECT_LT(ps.velocity[0].head<2>().norm(), 1e-12 * want);
    }
}

// A spin about an equatorial axis decays as exp(-D t / (I + I_a)) in
// quiescent fluid (the step's drag propagator is exact).
TEST(AddedMass, SpinDecaysWithTheAddedMomentOfInertia) {
    const double b = 1e-4, a = 2.5 * b;
    const Superellipsoid s(a, b, b, 1.0, 1.0);
    const HydrodynamicShape hydro = makeHydrodynamicShape(s);
    FluidState water;
    water.density = 1000.0;
    water.dynamicViscosity = 1e-3;
    FluidForceModel model;
    model.buoyancy = model.pressureGradient = false;
    dem::ParticleSystem ps;
    ps.types.emplace_back(s, 1200.0);
    const Vec3 spin(0, 0, 5.0); // about body z, an equatorial axis
    ps.add(0, 1, Vec3::Zero(), Quat::Identity(), Vec3::Zero(), spin);
    ps.fluidDrag.resize(1);
    dem::DemEngine engine({}, dem::EngineSettings{});
    const double I = ps.types[0].principalInertia.z(), Ia = prolateClosedForm(a, b).inertia * 1000.0 * s.volume();
    const double D = M_PI * 1e-3 * b * b * b * hydro.tensors.Omega.z();
    const double dt = 0.2 * (I + Ia) / D;
    for (int n = 1; n <= 10; ++n) {
        const ParticleFluidForces f = fluidForces(hydro, ps.types[0].mass, ps.orientation[0], ps.velocity[0], water, Vec3::Zero(), model);
        ps.fluidDrag[0] = f.drag;
        ps.externalForce[0] = f.force;
        engine.step(ps, dt);
        const double want = spin.z() * std::exp(-D * n * dt / (I + Ia));
        EXPECT_NEAR(ps.angularVelocity[0].z(), want, 1e-9 * spin.z()) << n;
    }
    EXPECT_GT(Ia, 0.1 * I); // the added inertia is not negligible here
}

} // namespace
