// Exact ellipsoid tensors: Carlson integrals against quadrature, the sphere
// limit, the prolate-spheroid closed forms of Chwang & Wu (J. Fluid Mech. 67
// (1975) 787) and the sign convention of Pi (Jeffery 1922).
#include "hydrodynamics/CarlsonElliptic.hpp"
#include "hydrodynamics/EllipsoidResistance.hpp"
#include "../support/Quadrature.hpp"

#include <gtest/gtest.h>
#include <cmath>

using namespace sef;

namespace {

// Jeffery's integral abc int_0^inf dl / ((s^2 + l) Delta) by tanh-sinh after
// l = t/(1-t) (algebraic end-point behaviour only).
double jefferyByQuadrature(double a, double b, double c, double s2) {
    auto f = [&](double t) {
        const double l = t / (1.0 - t), dl = 1.0 / ((1.0 - t) * (1.0 - t));
        const double D = std::sqrt((a * a + l) * (b * b + l) * (c * c + l));
        return dl / ((s2 + l) * D);
    };
    return a * b * c * sef::test::tanhSinh(f, 0.0, 1.0, 9);
}

} // namespace

TEST(CarlsonElliptic, KnownValues) {
    // R_F(x,x,x) = x^-1/2, R_D(x,x,x) = x^-3/2; R_F(0,1,2) = 1.31102877714605990523
    // (Carlson 1995, table of test values).
    EXPECT_NEAR(carlsonRF(4.0, 4.0, 4.0), 0.5, 1e-15);
    EXPECT_NEAR(carlsonRD(4.0, 4.0, 4.0), 0.125, 1e-15);
    EXPECT_NEAR(carlsonRF(0.0, 1.0, 2.0), 1.31102877714605990523, 1e-14);
    EXPECT_NEAR(carlsonRD(0.0, 2.0, 1.0), 1.79721035210338831, 1e-14);
    EXPECT_THROW(carlsonRF(-1.0, 1.0, 1.0), std::invalid_argument);
    EXPECT_THROW(carlsonRD(1.0, 1.0, 0.0), std::invalid_argument);
}

TEST(EllipsoidResistance, JefferyIntegralsMatchQuadrature) {
    const double a = 3.0, b = 1.7, c = 0.6;
    const JefferyIntegrals J = jefferyIntegrals(a, b, c);
    EXPECT_NEAR(J.alpha0, jefferyByQuadrature(a, b, c, a * a), 1e-9);
    EXPECT_NEAR(J.beta0, jefferyByQuadrature(a, b, c, b * b), 1e-9);
    EXPECT_NEAR(J.gamma0, jefferyByQuadrature(a, b, c, c * c), 1e-9);
    // alpha0 + beta0 + gamma0 = 2 (Jeffery 1922: d/dl of abc/Delta).
    EXPECT_NEAR(J.alpha0 + J.beta0 + J.gamma0, 2.0, 1e-13);
}

TEST(EllipsoidResistance, SphereLimit) {
    const ResistanceTensors r = ellipsoidResistance(2.5, 2.5, 2.5);
    for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(r.K[k], 6.0, 1e-13);
        EXPECT_NEAR(r.Omega[k], 8.0, 1e-13);
        EXPECT_NEAR(r.Pi[k], 0.0, 1e-13);
    }
    EXPECT_THROW(ellipsoidResistance(1.0, 0.0, 1.0), std::invalid_argument);
}

TEST(EllipsoidResistance, ProlateSpheroidClosedForms) {
    // Prolate spheroid, axis x, a = r b; e = sqrt(1 - 1/r^2), L = ln((1+e)/(1-e)).
    // Chwang & Wu (1975): axial drag 16 pi mu a e^3 / ((1+e^2) L - 2e),
    // transverse drag 32 pi mu a e^3 / (2e + (3e^2 - 1) L),
    // axial torque 32 pi mu a b^2 e^3 / (3 (2e - (1 - e^2) L)).
    for (double ratio : {1.5, 2.0, 4.0, 10.0}) {
        const double b = 0.7, a = ratio * b;
        const double e = std::sqrt(1.0 - 1.0 / (ratio * ratio));
        const double L = std::log((1.0 + e) / (1.0 - e));
        const ResistanceTensors r = ellipsoidResistance(a, b, b);
        const double kAxial = 16.0 * a * e * e * e / ((1.0 + e * e) * L - 2.0 * e) / b;
        const double kTrans = 32.0 * a * e * e * e / (2.0 * e + (3.0 * e * e - 1.0) * L) / b;
        const double oAxial = 32.0 * a * b * b * e * e * e / (3.0 * (2.0 * e - (1.0 - e * e) * L))
                              / (b * b * b);
        EXPECT_NEAR(r.K[0], kAxial, 1e-9 * kAxial) << ratio;
        EXPECT_NEAR(r.K[1], kTrans, 1e-9 * kTrans) << ratio;
        EXPECT_NEAR(r.K[2], kTrans, 1e-9 * kTrans) << ratio;
        EXPECT_NEAR(r.Omega[0], oAxial, 1e-9 * oAxial) << ratio;
        // Jeffery: Pi_z / Omega_z = (r^2 - 1)/(r^2 + 1), the shape factor lambda.
        EXPECT_NEAR(r.Pi[2] / r.Omega[2], (ratio * ratio - 1.0) / (ratio * ratio + 1.0), 1e-12);
        EXPECT_NEAR(r.Pi[1], -r.Pi[2], 1e-12 * r.Omega[2]);
        EXPECT_NEAR(r.Pi[0], 0.0, 1e-12);
    }
}

TEST(EllipsoidResistance, PiSignConventionTriaxial) {
    // a >= b >= c: Pi_x ~ b^2 - c^2 > 0, Pi_y ~ c^2 - a^2 < 0, Pi_z ~ a^2 - b^2 > 0.
    const ResistanceTensors r = ellipsoidResistance(3.0, 2.0, 1.0);
    EXPECT_GT(r.Pi[0], 0.0);
    EXPECT_LT(r.Pi[1], 0.0);
    EXPECT_GT(r.Pi[2], 0.0);
    // Normalised by the smallest half-axis, whatever its position.
    const ResistanceTensors s = ellipsoidResistance(1.0, 2.0, 3.0);
    EXPECT_NEAR(s.K[0], r.K[2], 1e-12);
    EXPECT_NEAR(s.Omega[2], r.Omega[0], 1e-12);
}
