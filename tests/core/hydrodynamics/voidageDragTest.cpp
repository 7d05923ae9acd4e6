// Hindered drag (hydrodynamics/VoidageDrag.hpp, FluidForces.hpp) against
// independent references: Di Felice's suspension against Richardson-Zaki,
// Beetstra's Stokes limit against Carman-Kozeny, Tenneti's total force and
// Rong's Stokes limit against Ergun, the laws' written formulas; the eps = 1
// and Re = 0 limits, finiteness under the FP traps; the hook in fluidForces.
#include "HydrodynamicTestSupport.hpp"
#include "hydrodynamics/EllipsoidResistance.hpp"
#include "hydrodynamics/FluidForces.hpp"
#include "hydrodynamics/VoidageDrag.hpp"

#include <Eigen/Eigenvalues>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>

using namespace sef;

namespace {

constexpr double kGravityVoidage = 9.81;
constexpr VoidageModel kLaws[] = {VoidageModel::diFelice, VoidageModel::rong, VoidageModel::beetstra,
                                  VoidageModel::tenneti, VoidageModel::gidaspow};

using sef::test::hydrodynamicShape;

// Root of g(x) = 0 on [lo, hi] (0 < lo < hi) by bisection in log x (g changes sign once).
double bisectLog(const std::function<double(double)>& g, double lo, double hi) {
    for (int k = 0; k < 300; ++k) {
        const double mid = std::sqrt(lo * hi);
        ((g(lo) < 0.0) == (g(mid) < 0.0) ? lo : hi) = mid;
    }
    return std::sqrt(lo * hi);
}

double schillerNaumann(double Re) { return 1.0 + 0.15 * std::pow(Re, 0.687); }

// The laws' formulas as written in the papers (no rearrangement), for
// moderate arguments only.
double beetstraAsWritten(double phi, double Re) {
    const double e = 1.0 - phi;
    return 10.0 * phi / (e * e) + e * e * (1.0 + 1.5 * std::sqrt(phi)) +
           0.413 * Re / (24.0 * e * e) * (1.0 / e + 3.0 * phi * e + 8.4 * std::pow(Re, -0.343)) /
               (1.0 + std::pow(10.0, 3.0 * phi) * std::pow(Re, -(1.0 + 4.0 * phi) / 2.0));
}

double tennetiAsWritten(double phi, double Re) {
    const double e = 1.0 - phi;
    return schillerNaumann(Re) / std::pow(e, 3) + 5.81 * phi / std::pow(e, 3) + 0.48 * std::cbrt(phi) / std::pow(e, 4) +
           std::pow(phi, 3) * Re * (0.95 + 0.61 * std::pow(phi, 3) / (e * e));
}

// Ergun's pressure drop -dp/dx = 150 mu U phi^2/(eps^3 d^2) + 1.75 rho U^2 phi/(eps^3 d)
// as the total force per particle, -dp/dx V_p / phi (V_p = pi d^3/6: the bed's
// pressure drop shared by phi / V_p particles per volume), over 3 pi mu d U:
//   F_Ergun = 150 phi/(18 eps^3) + 1.75 Re_s/(18 eps^3).
double ergunTotalForce(double phi, double Res) {
    const double e3 = std::pow(1.0 - phi, 3);
    return 150.0 * phi / (18.0 * e3) + 1.75 * Res / (18.0 * e3);
}

// U / u_t of a homogeneous suspension of spheres at fluid fraction eps with
// the Schiller-Naumann single-particle law and Di Felice's voidage law. Model
// A force balance on a particle (magnitudes, upward): drag + V (-grad p) =
// rho_p V g with -grad p = (eps rho_f + phi rho_p) g (the bed's weight), so
// the drag is rho_p V g - (eps rho_f + phi rho_p) V g = eps (rho_p - rho_f) V g,
// eps times the buoyant weight W_b. Terminal velocity: f(Re_t) 3 pi mu d u_t = W_b.
struct Suspension {
    double d, rhoP, rhoF = 1000.0, mu = 1e-3;
    double buoyantWeight() const { return (rhoP - rhoF) * M_PI * d * d * d / 6.0 * kGravityVoidage; }
    double drag(double eps, double w) const { // g 3 pi mu d w, Re_s = eps Re
        const double Res = eps * rhoF * w * d / mu;
        const ShapeFactors sphere{d, 1.0};
        return dragCorrectionFactor(DragCorrectionModel::schillerNaumann, Res, sphere) *
               voidageFactor(VoidageModel::diFelice, eps, Res) * 3.0 * M_PI * mu * d * w;
    }
    double terminal() const {
        return bisectLog([&](double u) { return drag(1.0, u) - buoyantWeight(); }, 1e-12, 1e3);
    }
    double slip(double eps) const {
        return bisectLog([&](double w) { return drag(eps, w) - eps * buoyantWeight(); }, 1e-12, 1e3);
    }
};

} // namespace

TEST(VoidageDrag, DiFeliceReproducesRichardsonZakiInStokesFlow) {
    // Glass beads of 2 um in water: Re_t ~ 7e-6 (R-Z n = 4.65 for Re_t < 0.2).
    // Di Felice in Stokes flow: f -> 1 and chi -> 3.7, so the balance
    // f(Re_s) 3 pi mu d U eps^-chi = eps W_b gives U/u_t = eps^(chi + 1),
    // n = 4.7: off R-Z by |3.7 + 1 - 4.65| = 0.05. What is left of the Re
    // dependence: Schiller-Naumann's 0.15 Re_t^0.687 ~ 4e-5 over |ln eps| >= 0.1
    // (<= 4e-4 in n) and chi's exp term ~ exp(-(1.5 + 5)^2/2) ~ 1e-9: the
    // tolerance 0.05 + 1e-3.
    const Suspension beads{2e-6, 2500.0};
    const double ut = beads.terminal();
    EXPECT_LT(beads.rhoF * ut * beads.d / beads.mu, 1e-5);
    for (double eps : {0.4, 0.5, 0.6, 0.7, 0.8, 0.9}) {
        const double U = eps * beads.slip(eps);
        const double n = std::log(U / ut) / std::log(eps);
        EXPECT_NEAR(n, 4.7, 1e-3) << "eps " << eps;  // Di Felice's own n (the solve is right)
        EXPECT_NEAR(n, 4.65, 0.051) << "eps " << eps; // Richardson-Zaki
    }
}

TEST(VoidageDrag, DiFeliceReproducesRichardsonZakiInNewtonsRegime) {
    // Steel balls of 5 cm in water: Re_t ~ 1.6e5 (R-Z n = 2.39 for Re_t > 500).
    // With Re_s > 1000 Schiller-Naumann is f = 0.44 Re/24, drag ~ U^2, so the
    // balance gives U^2 eps^-(chi + 1) = u_t^2, n = (chi(Re_s) + 1)/2 exactly,
    // between (chi(1e4) + 1)/2 = 2.3357 (Re_s >= 1e4 asserted below) and
    // 3.7/2 + 1/2 = 2.35: off R-Z by at most 2.39 - 2.3357 = 0.054.
    const Suspension balls{0.05, 7800.0};
    const double ut = balls.terminal();
    EXPECT_GT(balls.rhoF * ut * balls.d / balls.mu, 1e5);
    const double chiAt1e4 = 3.7 - 0.65 * std::exp(-0.5 * std::pow(1.5 - 4.0, 2));
    const double nLow = 0.5 * (chiAt1e4 + 1.0);
    for (double eps : {0.4, 0.5, 0.6, 0.7, 0.8, 0.9}) {
        const double w = balls.slip(eps), Res = eps * balls.rhoF * w * balls.d / balls.mu;
        EXPECT_GT(Res, 1e4);
        const double n = std::log(eps * w / ut) / std::log(eps);
        EXPECT_NEAR(n, 0.5 * (diFeliceExponent(Res) + 1.0), 1e-9) << "eps " << eps;
        EXPECT_GE(n, nLow - 1e-9);
        EXPECT_LE(n, 2.35 + 1e-9);
        EXPECT_NEAR(n, 2.39, 2.39 - nLow + 1e-9) << "eps " << eps; // Richardson-Zaki
    }
}

TEST(VoidageDrag, BeetstraStokesLimitAgainstCarmanKozeny) {
    // Carman-Kozeny -dp/dx = 180 mu U phi^2/(eps^3 d^2) per particle: F_total =
    // 10 phi/eps^3 over 3 pi mu d U, the drag eps F_total = 10 phi/eps^2, and
    // g = eps * that = 10 phi/eps on D_st w. Beetstra adds eps^2 (1 + 1.5
    // sqrt phi) to CK's term: relative eps^4 (1 + 1.5 sqrt phi)/(10 phi),
    // falling with phi: 14.6 % at phi 0.3, 9.6 % at 0.35, 0.9 % at 0.6 (the
    // bounds 15 % and 10 %; van der Hoef et al. 2005 found their Stokes data
    // near CK for dense beds).
    for (double phi = 0.3; phi <= 0.6 + 1e-12; phi += 0.05) {
        const double eps = 1.0 - phi, ck = 10.0 * phi / eps;
        const double dev = voidageFactor(VoidageModel::beetstra, eps, 0.0) / ck - 1.0;
        EXPECT_GT(dev, 0.0) << phi;
        EXPECT_LT(dev, phi < 0.34 ? 0.15 : 0.10) << phi;
        // the formula itself at Re = 0 (Beetstra's eps F_B for a Stokes sphere)
        EXPECT_NEAR(voidageFactor(VoidageModel::beetstra, eps, 0.0),
                    eps * (10.0 * phi / (eps * eps) + eps * eps * (1.0 + 1.5 * std::sqrt(phi))), 1e-13 * ck);
    }
}

TEST(VoidageDrag, BeetstraIsolatedLimitAgainstSchillerNaumann) {
    // F_B(0, Re) = 1 + 0.413 Re/24 (1 + 8.4 Re^-0.343)/(1 + Re^-1/2) against
    // the standard drag curve (Schiller-Naumann, itself within ~5 % of it up
    // to Re 1000). Measured: -6.0 % at Re 1, -7.3 % at 5, -5.8 % at 10, -2.2 %
    // at 20, +6.4 % at 50; bound 8 % for Re 1-30. Above, F_B(0, Re) departs
    // (+16 % at 100, +69 % at 1000: Beetstra fitted phi >= 0.1); this is why
    // voidageFactor takes F_B(phi)/F_B(0) on top of the single-particle law.
    for (double Re : {1.0, 2.0, 5.0, 10.0, 20.0, 30.0})
        EXPECT_NEAR(beetstraDrag(0.0, Re) / schillerNaumann(Re), 1.0, 0.08) << Re;
    EXPECT_NEAR(beetstraDrag(0.0, 1000.0) / schillerNaumann(1000.0), 1.686, 0.01);
}

TEST(VoidageDrag, TennetiTotalForceAgainstErgun) {
    // Over phi 0.3-0.5, Re_s 1-100 Tenneti's total force lies above Ergun's at
    // low Re (+29 % at phi 0.3, Re 1) and below at high Re (-37.3 % at phi
    // 0.3, Re 100, the largest; -31.6 % at phi 0.4, where Ergun's packed beds
    // begin). Ergun is an empirical fit with about +-25 % scatter, and its
    // inertial 1.75 is known to be high for random arrays at moderate Re.
    // Bound: the measured 37.3 % plus 0.7 %.
    double worst = 0.0;
    for (double phi : {0.3, 0.35, 0.4, 0.45, 0.5})
        for (double Res : {1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0}) {
            const double dev = tennetiTotalForce(phi, Res) / ergunTotalForce(phi, Res) - 1.0;
            EXPECT_LT(std::abs(dev), 0.38) << "phi " << phi << " Re_s " << Res;
            worst = std::max(worst, std::abs(dev));
        }
    EXPECT_GT(worst, 0.37); // the bound is tight: the measured maximum is 0.373
    // the isolated limit is Schiller-Naumann
    for (double Re : {0.0, 0.5, 30.0, 300.0})
        EXPECT_NEAR(tennetiTotalForce(0.0, Re), schillerNaumann(Re), 1e-13 * schillerNaumann(Re));
}

TEST(VoidageDrag, RongStokesLimitAgainstErgunsViscousTerm) {
    // Rong's LB packings at Re_s -> 0 against Ergun's viscous term (Blake-
    // Kozeny, 150): g = eps^2 F_Ergun = 150 phi/(18 eps). Measured -4.2 % to
    // -6.0 % for eps 0.4-0.6 (Rong below Ergun); bound 7 %. (Against
    // Carman-Kozeny's 180 it is -20 % to -22 %.)
    for (double eps : {0.4, 0.45, 0.5, 0.55, 0.6}) {
        const double ergun = 150.0 * (1.0 - eps) / (18.0 * eps);
        EXPECT_NEAR(voidageFactor(VoidageModel::rong, eps, 0.0) / ergun, 1.0, 0.07) << eps;
        EXPECT_NEAR(rongExponent(eps, 0.0), 2.65 * (eps + 1.0), 1e-15);
    }
}

TEST(VoidageDrag, FactorsAreTheWrittenFormulas) {
    // The rearranged, scaled forms against the papers' formulas where those
    // are safe to evaluate: agreement to rounding (1e-12 relative).
    for (double phi : {0.0, 0.1, 0.3, 0.6})
        for (double Res : {0.01, 0.5, 1.0, 30.0, 800.0}) {
            EXPECT_NEAR(beetstraDrag(phi, Res) / beetstraAsWritten(phi, Res), 1.0, 1e-12) << phi << " " << Res;
            EXPECT_NEAR(tennetiTotalForce(phi, Res) / tennetiAsWritten(phi, Res), 1.0, 1e-12) << phi << " " << Res;
            const double eps = 1.0 - phi, bump = std::exp(-0.5 * std::pow(1.5 - std::log10(Res), 2));
            const double chiD = 3.7 - 0.65 * bump, chiR = 2.65 * (eps + 1.0) - (5.3 - 3.5 * eps) * eps * eps * bump;
            EXPECT_NEAR(diFeliceExponent(Res), chiD, 1e-14);
            EXPECT_NEAR(rongExponent(eps, Res), chiR, 1e-14);
            EXPECT_NEAR(voidageFactor(VoidageModel::diFelice, eps, Res) / std::pow(eps, 1.0 - chiD), 1.0, 1e-12);
            EXPECT_NEAR(voidageFactor(VoidageModel::rong, eps, Res) / std::pow(eps, 1.0 - chiR), 1.0, 1e-12);
            EXPECT_NEAR(voidageFactor(VoidageModel::beetstra, eps, Res) /
                            (eps * beetstraAsWritten(phi, Res) / beetstraAsWritten(0.0, Res)), 1.0, 1e-12);
            EXPECT_NEAR(voidageFactor(VoidageModel::tenneti, eps, Res) /
                            (eps * eps * tennetiAsWritten(phi, Res) / schillerNaumann(Res)), 1.0, 1e-12);
        }
}

TEST(VoidageDrag, LimitsAndFinitenessUnderTraps) {
    const double reynolds[] = {0.0, 1e-300, 1e-12, 1e-3, 1.0, 1e3, 1e6, 1e300};
    for (VoidageModel m : kLaws) {
        const char* name = voidageModelName(m);
        // dilute: exactly the single-particle law
        for (double Re : reynolds) EXPECT_EQ(voidageFactor(m, 1.0, Re), 1.0) << name << " Re " << Re;
        EXPECT_EQ(voidageFactor(VoidageModel::none, 0.3, 10.0), 1.0);
        for (double eps : {1e-3, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0}) {
            // Re -> 0 continuously (the Re terms are <= ~1e-7 relative at 1e-12)
            const double stokes = voidageFactor(m, eps, 0.0);
            EXPECT_NEAR(voidageFactor(m, eps, 1e-12) / stokes, 1.0, 1e-6) << name << " eps " << eps;
            for (double Re : reynolds) {
                const double h = voidageFactor(m, eps, Re);
                EXPECT_TRUE(std::isfinite(h) && h > 0.0) << name << " eps " << eps << " Re " << Re;
                // hindered: more drag than the isolated particle's (eps < 1)
                if (eps < 1.0 && Re <= 1e3) {
                    EXPECT_GT(h, 1.0) << name << " eps " << eps << " Re " << Re;
                }
            }
        }
        // below the floor: the floor's value, finite
        for (double eps : {1e-300, std::numeric_limits<double>::denorm_min()})
            for (double Re : reynolds)
                EXPECT_EQ(voidageFactor(m, eps, Re), voidageFactor(m, voidageMinimumFluidFraction, Re)) << name;
        for (double eps : {0.0, -0.1, 1.5, std::nan(""), std::numeric_limits<double>::infinity()})
            EXPECT_THROW(voidageFactor(m, eps, 1.0), std::invalid_argument) << name << " eps " << eps;
        for (double Re : {-1.0, std::nan(""), std::numeric_limits<double>::infinity()})
            EXPECT_THROW(voidageFactor(m, 0.5, Re), std::invalid_argument) << name << " Re " << Re;
    }
    EXPECT_THROW(beetstraDrag(1.0, 1.0), std::invalid_argument);
    EXPECT_THROW(tennetiTotalForce(-0.1, 1.0), std::invalid_argument);
    EXPECT_THROW(rongExponent(0.0, 1.0), std::invalid_argument);
    EXPECT_THROW(diFeliceExponent(-1.0), std::invalid_argument);
}

namespace {

// The fluid-force cases below: a 2:1:1 ellipsoid, tilted, in water
// flowing past it.
HydrodynamicShape tiltedEllipsoid() { return hydrodynamicShape(Superellipsoid(2e-3, 1e-3, 1e-3, 1.0, 1.0)); }
Quat tilt() { return Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, 0.5).normalized())); }
FluidState water() {
    FluidState fluid;
    fluid.density = 998.0;
    fluid.dynamicViscosity = 1e-3;
    fluid.velocity = Vec3(0.05, 0.02, -0.03);
    return fluid;
}

} // namespace

TEST(VoidageDrag, FluidForcesIgnoresTheFractionWithoutAVoidageLaw) {
    const HydrodynamicShape p = tiltedEllipsoid();
    const Quat q = tilt();
    FluidState fluid = water();
    fluid.velocityGradient << 0, 1, 0, 0, 0, 0, 0.5, 0, 0;
    fluid.acceleration = Vec3(0.3, 0, 0);
    FluidForceModel model;
    model.dragCorrection = DragCorrectionModel::hoelzerSommerfeld;
    const double m = 2500.0 * p.shape.volume();
    const Vec3 v(0.01, 0, 0), g(0, 0, -kGravityVoidage);
    const ParticleFluidForces dilute = fluidForces(p, m, q, v, fluid, g, model);
    fluid.fluidFraction = 0.5;
    const ParticleFluidForces ignored = fluidForces(p, m, q, v, fluid, g, model);
    EXPECT_EQ(ignored.drag.translation, dilute.drag.translation);
    EXPECT_EQ(ignored.drag.rotation, dilute.drag.rotation);
    EXPECT_EQ(ignored.drag.fluidVelocity, dilute.drag.fluidVelocity);
    EXPECT_EQ(ignored.drag.fluidRotationRate, dilute.drag.fluidRotationRate);
    EXPECT_EQ(ignored.force, dilute.force);
    EXPECT_EQ(ignored.coupledForce, dilute.coupledForce);
    EXPECT_EQ(ignored.massRatio, dilute.massRatio);
    EXPECT_EQ(ignored.reynolds, dilute.reynolds);
    EXPECT_EQ(ignored.dragFactor, dilute.dragFactor);
    EXPECT_EQ(ignored.voidageFactor, 1.0);
    // and the factor is the single-particle law's at the interstitial Re
    const Vec3 slip = fluid.velocity - v;
    const Mat3 R = q.toRotationMatrix();
    const double dEq = p.factors.equivalentDiameter;
    const Mat3 stokes = M_PI * 1e-3 * 1e-3 * R * p.tensors.K.asDiagonal() * R.transpose();
    const double crosswise = 0.25 * M_PI * dEq * dEq / projectedArea(p.shape, R.transpose() * slip);
    const double ratio = (stokes * slip).dot(slip.normalized()) / (3.0 * M_PI * 1e-3 * dEq * slip.norm());
    EXPECT_NEAR(dilute.dragFactor / dragCorrectionFactor(model.dragCorrection, dilute.reynolds, p.factors, crosswise,
                                                         ratio), 1.0, 1e-12);
}

TEST(VoidageDrag, FluidForcesDiFeliceKeepsTheShapesAnisotropy) {
    // A 2:1:1 ellipsoid, tilted, Hoelzer-Sommerfeld, at eps 0.5: the drag
    // tensor is the dilute one at the superficial slip eps w (so at Re_s,
    // same direction: same crosswise sphericity and force ratio) times
    // eps^(1 - chi(Re_s)). Halving the velocity is exact in binary, so the
    // dilute call's f is the dense call's to the bit; 1e-12 covers chi's
    // evaluation order.
    const HydrodynamicShape p = tiltedEllipsoid();
    const Quat q = tilt();
    FluidState fluid = water();
    FluidForceModel model;
    model.dragCorrection = DragCorrectionModel::hoelzerSommerfeld;
    const double m = 2500.0 * p.shape.volume(), eps = 0.5;
    const Vec3 g(0, 0, -kGravityVoidage);
    const ParticleFluidForces interstitial = fluidForces(p, m, q, Vec3::Zero(), fluid, g, model);

    FluidForceModel dense = model;
    dense.voidage = VoidageModel::diFelice;
    fluid.fluidFraction = eps;
    const ParticleFluidForces hindered = fluidForces(p, m, q, Vec3::Zero(), fluid, g, dense);

    FluidState superficial = fluid;
    superficial.fluidFraction = 1.0;
    superficial.velocity = eps * fluid.velocity;
    const ParticleFluidForces single = fluidForces(p, m, q, Vec3::Zero(), superficial, g, model);

    const double Re = interstitial.reynolds, Res = eps * Re;
    EXPECT_GT(Res, 50.0); // inertial: f well above 1
    EXPECT_EQ(hindered.reynolds, Re);  // the interstitial Re is reported
    EXPECT_EQ(single.reynolds, Res);
    const double chi = 3.7 - 0.65 * std::exp(-0.5 * std::pow(1.5 - std::log10(Res), 2));
    const double h = std::pow(eps, 1.0 - chi);
    EXPECT_NEAR(hindered.voidageFactor / h, 1.0, 1e-12);
    EXPECT_NEAR(hindered.dragFactor / (single.dragFactor * h), 1.0, 1e-12);
    const Mat3 want = h * single.drag.translation;
    EXPECT_LT((hindered.drag.translation - want).norm(), 1e-12 * want.norm());
    // not isotropic: the tensor keeps the shape's principal resistances,
    // K's ratios (broadside over end-on), not a scalar's; the step takes it
    // times the added-mass ratios m / (m + m_a,i) (FluidForces.hpp)
    const Vec3 eig = Eigen::SelfAdjointEigenSolver<Mat3>(hindered.drag.translation).eigenvalues();
    const Vec3 ratio = (m / (m + fluid.density * p.shape.volume() * p.addedMass.translation.array())).matrix();
    const Vec3 K = p.tensors.K.cwiseProduct(ratio);
    EXPECT_NEAR(eig.maxCoeff() / eig.minCoeff(), K.maxCoeff() / K.minCoeff(), 1e-12 * K.maxCoeff() / K.minCoeff());
    EXPECT_GT(K.maxCoeff() / K.minCoeff(), 1.02); // (the tensor's own: 1.15)
    // more drag than the dilute particle's at the same slip
    EXPECT_GT(hindered.dragFactor, 2.0 * interstitial.dragFactor);

    for (double bad : {0.0, 1.5, std::nan("")}) {
        fluid.fluidFraction = bad;
        EXPECT_THROW(fluidForces(p, m, q, Vec3::Zero(), fluid, g, dense), std::invalid_argument) << bad;
    }
}

TEST(VoidageDrag, GidaspowIsErgunInDenseBedsAndWenYuInDilute) {
    // Ergun (1952): -dp/dx = 150 mu U phi^2 / (eps^3 d^2) + 1.75 rho U^2 phi / (eps^3 d),
    // U = eps |w| the superficial velocity. Per particle the total force is
    // -dp/dx V_p / phi, and the drag without the particle's -V grad p share
    // is eps times it; over 3 pi mu d |w|:
    //   eps^2 [150 phi / (18 eps^3) + 1.75 Re_s / (18 eps^3)].
    // A sphere with the Schiller-Naumann law gets f_SN(Re_s) h: Ergun's
    // value to round-off for eps < 0.8, Wen & Yu's f_SN eps^-2.65 above.
    for (double eps : {0.36, 0.45, 0.6, 0.79})
        for (double Res : {0.0, 0.1, 1.0, 10.0, 100.0, 1000.0}) {
            const double phi = 1.0 - eps;
            const double ergun = eps * eps * (150.0 * phi + 1.75 * Res) / (18.0 * eps * eps * eps);
            const double fSN = 1.0 + 0.15 * std::pow(Res, 0.687);
            EXPECT_NEAR(fSN * voidageFactor(VoidageModel::gidaspow, eps, Res) / ergun, 1.0, 1e-12) << eps << " " << Res;
        }
    for (double eps : {0.8, 0.9, 0.99})
        for (double Res : {0.0, 1.0, 100.0})
            EXPECT_NEAR(voidageFactor(VoidageModel::gidaspow, eps, Res) / std::pow(eps, -2.65), 1.0, 1e-12);
}

TEST(VoidageDrag, ModelNames) {
    for (VoidageModel m : {VoidageModel::none, VoidageModel::diFelice, VoidageModel::rong, VoidageModel::beetstra,
                           VoidageModel::tenneti, VoidageModel::gidaspow})
        EXPECT_EQ(voidageModelFromName(voidageModelName(m)), m);
    try {
        voidageModelFromName("ergun");
        ADD_FAILURE() << "no exception";
    } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("'ergun'"), std::string::npos) << what;
        for (const char* valid : {"none", "diFelice", "rong", "beetstra", "tenneti", "gidaspow"})
            EXPECT_NE(what.find(valid), std::string::npos) << what;
    }
}
