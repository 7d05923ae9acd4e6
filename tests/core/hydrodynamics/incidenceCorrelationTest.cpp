// Incidence correlation (hydrodynamics/IncidenceCorrelation.hpp,
// IncidenceMapping.hpp): Zastawny et al. (2012) prolate spheroids.
//  - transcription: the code against the forms evaluated independently
//    (Python, by hand) with the coefficients as restated in the sources;
//  - plausibility against independent simulation data (Sanjeevi's lattice
//    Boltzmann runs of the same 2.5 spheroid) and the exact Stokes drag;
//  - zeros of lift and torque at 0 and 90 deg, the Re extension, the sphere
//    limit and continuity of the mapping, signs of lift and torque, errors.
// No number printed in the paper itself could be read here (see the header),
// so no test claims one.
#include "hydrodynamics/EllipsoidResistance.hpp"
#include "hydrodynamics/IncidenceCorrelation.hpp"
#include "hydrodynamics/IncidenceMapping.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

using namespace sef;

namespace {

constexpr double kDeg = M_PI / 180.0;
constexpr IncidenceShape kShapes[] = {IncidenceShape::prolate1p25, IncidenceShape::prolate2p5};

void expectRelative(double actual, double expected, double tolerance) {
    EXPECT_NEAR(actual, expected, tolerance * std::fabs(expected)) << "expected " << expected;
}

IncidenceMapping prolate(double r) { return {IncidenceClass::prolate, r, 0}; }

} // namespace

// The code against C_D, C_L, C_T written out from the forms and coefficients
// of the sources (cited in IncidenceCorrelation.cpp), evaluated in Python
// (math.sin/cos/pow): guards against a mistyped coefficient or exponent.
TEST(IncidenceCorrelation, MatchesTheRestatedFormulas) {
    struct Case {
        IncidenceShape shape;
        double Re, degrees, cd, cl, ct;
    };
    const Case cases[] = {
        {IncidenceShape::prolate1p25, 1.0, 30.0, 22.8976324619207, 0.713152797461383, 0.225656524548018},
        {IncidenceShape::prolate1p25, 50.0, 60.0, 1.43238669349176, 0.108511233248417, 0.113517798976587},
        {IncidenceShape::prolate1p25, 300.0, 45.0, 0.629041597786202, 0.135272550141477, 0.0964162500617794},
        {IncidenceShape::prolate2p5, 1.0, 30.0, 22.4325, 2.7793284266015, 1.07569046818512},
        {IncidenceShape::prolate2p5, 50.0, 60.0, 1.71125516670806, 0.397212438700876, 0.453519013678179},
        {IncidenceShape::prolate2p5, 300.0, 45.0, 0.712032189405105, 0.377679911236199, 0.382082299169391},
    };
    for (const Case& c : cases) {
        const IncidenceCoefficients k = incidenceCoefficients(c.shape, c.Re, c.degrees * kDeg);
        expectRelative(k.drag, c.cd, 1e-12);
        expectRelative(k.lift, c.cl, 1e-12);
        expectRelative(k.torque, c.ct, 1e-12);
    }
}

// The 2.5 coefficients have one written source only, so check them against
// independent data: Sanjeevi's lattice-Boltzmann runs of a 2.5 prolate at
// Re = 300 (public repository SKPsanjeevi/lb3d, drag_tests/nonsph/prolate_2.5/
// 35kts_Re300/Re300ang{45,90}/Production/*.asc, force columns 3-5 at the last
// step, t = 35000, normalised as that repository's stddev_Re300.m does:
// pi R^2 and pi R^3 with R = 20.358 the volume-equivalent radius, v = 0.09).
// Our reading of those time series, not published numbers: a plausibility
// check with tolerances of the size two simulation methods differ by.
TEST(IncidenceCorrelation, ProlateTwoPointFiveAgreesWithIndependentSimulations) {
    const IncidenceCoefficients at90 = incidenceCoefficients(IncidenceShape::prolate2p5, 300.0, M_PI_2);
    const IncidenceCoefficients at45 = incidenceCoefficients(IncidenceShape::prolate2p5, 300.0, M_PI_4);
    const double area = 5.27328, areaLength = 107.354; // rho v^2 / 2 pi R^2 and pi R^3 (rho = 1)
    expectRelative(at90.drag, 5.39960 / area, 0.05);       // LB 1.024, fit 1.055
    expectRelative(at45.drag, 3.94525 / area, 0.08);       // LB 0.748, fit 0.712
    expectRelative(at45.lift, 1.92100 / area, 0.08);       // LB 0.364, fit 0.378
    expectRelative(at45.torque, 51.6832 / areaLength, 0.25); // LB 0.481, fit 0.382: the weakest
}

// At the bottom of the data (Re = 0.1) the fits lie 10-20 % below the exact
// Stokes drag of the same spheroids (EllipsoidResistance, C_D = 8 c K / (d Re)
// with c the smallest half-axis): a known limit of the correlation, pinned
// here so that it stays documented (header) rather than discovered.
TEST(IncidenceCorrelation, LowReynoldsDragWithinTwentyPercentOfStokes) {
    const double Re = incidenceReynoldsMin;
    for (IncidenceShape shape : kShapes) {
        const double r = incidenceAspectRatio(shape);
        const ResistanceTensors t = ellipsoidResistance(r, 1.0, 1.0);
        const double d = 2.0 * std::cbrt(r);
        const double axial = 8.0 * t.K[0] / (d * Re), broadside = 8.0 * t.K[1] / (d * Re);
        const double cd0 = incidenceCoefficients(shape, Re, 0.0).drag;
        const double cd90 = incidenceCoefficients(shape, Re, M_PI_2).drag;
        EXPECT_LT(cd0, axial);
        EXPECT_GT(cd0, 0.8 * axial);
        EXPECT_LT(cd90, broadside);
        EXPECT_GT(cd90, 0.8 * broadside);
    }
}

TEST(IncidenceCorrelation, LiftAndTorqueVanishAtZeroAndNinetyDegrees) {
    for (IncidenceShape shape : kShapes)
        for (double Re : {0.01, 0.1, 1.0, 30.0, 300.0, 1e4}) {
            for (double alpha : {0.0, M_PI_2}) {
                const IncidenceCoefficients k = incidenceCoefficients(shape, Re, alpha);
                EXPECT_EQ(k.lift, 0.0);
                EXPECT_EQ(k.torque, 0.0);
                EXPECT_GT(k.drag, 0.0);
            }
            // and are positive in between, with drag rising towards broadside
            double previousDrag = 0.0;
            for (int deg = 5; deg <= 85; deg += 10) {
                const IncidenceCoefficients k = incidenceCoefficients(shape, Re, deg * kDeg);
                EXPECT_GT(k.lift, 0.0);
                EXPECT_GT(k.torque, 0.0);
                EXPECT_GT(k.drag, previousDrag);
                previousDrag = k.drag;
            }
        }
}

TEST(IncidenceCorrelation, ReynoldsExtensionIsStokesBelowAndClampedAbove) {
    for (IncidenceShape shape : kShapes)
        for (double alpha : {0.0, 20 * kDeg, 70 * kDeg, M_PI_2}) {
            const IncidenceCoefficients low = incidenceCoefficients(shape, incidenceReynoldsMin, alpha);
            // C_D, C_L ~ 1/Re below the data: force linear in the slip
            for (double Re : {1e-6, 1e-3, 0.05}) {
                const IncidenceCoefficients k = incidenceCoefficients(shape, Re, alpha);
                expectRelative(k.drag * Re, low.drag * incidenceReynoldsMin, 1e-13);
                EXPECT_NEAR(k.lift * Re, low.lift * incidenceReynoldsMin, 1e-13 * low.drag * incidenceReynoldsMin);
                // the torque, inertial, falls with |w|^2: C_T held
                EXPECT_EQ(k.torque, low.torque);
            }
            // continuous at both ends
            const IncidenceCoefficients justBelow =
                incidenceCoefficients(shape, incidenceReynoldsMin * (1 - 1e-9), alpha);
            expectRelative(justBelow.drag, low.drag, 1e-8);
            const IncidenceCoefficients high = incidenceCoefficients(shape, incidenceReynoldsMax, alpha);
            const IncidenceCoefficients above = incidenceCoefficients(shape, 5000.0, alpha);
            EXPECT_EQ(above.drag, high.drag);
            EXPECT_EQ(above.lift, high.lift);
            EXPECT_EQ(above.torque, high.torque);
        }
}

TEST(IncidenceCorrelation, RejectsBadReynoldsAndAngle) {
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    for (double Re : {nan, inf, -inf, -1.0, 0.0}) {
        EXPECT_THROW(incidenceCoefficients(IncidenceShape::prolate2p5, Re, 0.3), std::invalid_argument);
        EXPECT_THROW(incidenceCoefficients(prolate(2.0), Re, 0.3), std::invalid_argument);
        EXPECT_THROW(incidenceCoefficients(IncidenceMapping{}, Re, 0.3), std::invalid_argument);
    }
    for (double alpha : {nan, inf, -1e-12, M_PI_2 + 1e-12, M_PI}) {
        EXPECT_THROW(incidenceCoefficients(IncidenceShape::prolate1p25, 10.0, alpha), std::invalid_argument);
        EXPECT_THROW(incidenceCoefficients(IncidenceMapping{}, 10.0, alpha), std::invalid_argument);
    }
}

TEST(IncidenceMapping, ClassifiesSuperellipsoids) {
    const IncidenceMapping sphere = incidenceMapping(Superellipsoid(1.3, 1.3, 1.3, 1.0, 1.0));
    EXPECT_EQ(sphere.shapeClass, IncidenceClass::sphere);

    // prolate with its long axis along body z: axis index follows the body
    const IncidenceMapping p = incidenceMapping(Superellipsoid(1.0, 1.0, 2.5, 1.0, 1.0));
    EXPECT_EQ(p.shapeClass, IncidenceClass::prolate);
    EXPECT_EQ(p.axis, 2);
    EXPECT_DOUBLE_EQ(p.aspectRatio, 2.5);

    // nearly axisymmetric: the equal-volume spheroid, r = hi / sqrt(mid lo)
    const IncidenceMapping q = incidenceMapping(Superellipsoid(1.05, 2.0, 0.98, 1.05, 0.95));
    EXPECT_EQ(q.shapeClass, IncidenceClass::prolate);
    EXPECT_EQ(q.axis, 1);
    EXPECT_DOUBLE_EQ(q.aspectRatio, 2.0 / std::sqrt(1.05 * 0.98));

    const IncidenceMapping o = incidenceMapping(Superellipsoid(2.5, 2.5, 1.0, 1.0, 1.0));
    EXPECT_EQ(o.shapeClass, IncidenceClass::oblate);
    EXPECT_EQ(o.axis, 2);
    EXPECT_DOUBLE_EQ(o.aspectRatio, 0.4);
    // classified, but refused: no oblate coefficients
    EXPECT_THROW(incidenceCoefficients(o, 100.0, 0.3), std::invalid_argument);

    // triaxial, blocky, pinched, too long
    EXPECT_THROW(incidenceMapping(Superellipsoid(3.0, 2.0, 1.0, 1.0, 1.0)), std::invalid_argument);
    EXPECT_THROW(incidenceMapping(Superellipsoid(2.5, 1.0, 1.0, 0.5, 1.0)), std::invalid_argument);
    EXPECT_THROW(incidenceMapping(Superellipsoid(2.5, 1.0, 1.0, 1.0, 1.2)), std::invalid_argument);
    EXPECT_THROW(incidenceCoefficients(incidenceMapping(Superellipsoid(3.0, 1.0, 1.0, 1.0, 1.0)), 10.0, 0.3),
                 std::invalid_argument);
    EXPECT_THROW(incidenceCoefficients(incidenceMapping(Superellipsoid(2.504, 1.0, 1.0, 1.0, 1.0)), 10.0, 0.3),
                 std::invalid_argument);
    // 2.5 typed with a few digits is 2.5 (also 2.50005)
    const IncidenceCoefficients typed = incidenceCoefficients(incidenceMapping(Superellipsoid(9.2102e-4, 3.684e-4, 3.684e-4, 1.0, 1.0)), 10.0,
                                                                0.3); // 2.50005
    EXPECT_DOUBLE_EQ(typed.drag, incidenceCoefficients(IncidenceShape::prolate2p5, 10.0, 0.3).drag);
}

// The acceptance prolate and the sphere reproduce the node values exactly.
TEST(IncidenceMapping, NodesAreTheCorrelationAndTheSphere) {
    const IncidenceMapping p = incidenceMapping(Superellipsoid(2.5, 1.0, 1.0, 1.0, 1.0));
    const IncidenceMapping s = incidenceMapping(Superellipsoid(0.7, 0.7, 0.7, 1.0, 1.0));
    for (double Re : {0.05, 1.0, 100.0, 300.0, 800.0})
        for (double alpha : {0.0, 0.4, M_PI_2}) {
            const IncidenceCoefficients a = incidenceCoefficients(p, Re, alpha);
            const IncidenceCoefficients b = incidenceCoefficients(IncidenceShape::prolate2p5, Re, alpha);
            EXPECT_DOUBLE_EQ(a.drag, b.drag);
            EXPECT_DOUBLE_EQ(a.lift, b.lift);
            EXPECT_DOUBLE_EQ(a.torque, b.torque);
            const IncidenceCoefficients c = incidenceCoefficients(s, Re, alpha);
            EXPECT_DOUBLE_EQ(c.drag, 24.0 / Re * (Re <= 1000 ? 1.0 + 0.15 * std::pow(Re, 0.687) : 0.44 * Re / 24));
            EXPECT_EQ(c.lift, 0.0);
            EXPECT_EQ(c.torque, 0.0);
        }
    // rounding in the half-axes: 2.5 (1 + 1e-12) is still the 2.5 node
    EXPECT_NO_THROW(incidenceCoefficients(prolate(2.5 * (1 + 1e-12)), 10.0, 0.3));
}

// Continuous in the aspect ratio: at the sphere, across the 1.25 node and at
// 2.5; small steps in r give small changes.
TEST(IncidenceMapping, InterpolationIsContinuousInAspectRatio) {
    for (double Re : {0.5, 20.0, 250.0})
        for (double alpha : {0.2, 0.8, 1.3}) {
            const IncidenceCoefficients sphere = incidenceCoefficients(IncidenceMapping{}, Re, alpha);
            const IncidenceCoefficients nearSphere = incidenceCoefficients(prolate(1.0 + 1e-9), Re, alpha);
            expectRelative(nearSphere.drag, sphere.drag, 1e-7);
            EXPECT_NEAR(nearSphere.lift, 0.0, 1e-7);
            EXPECT_NEAR(nearSphere.torque, 0.0, 1e-7);
            for (double node : {1.25, 2.5}) {
                const IncidenceCoefficients below = incidenceCoefficients(prolate(node * (1 - 1e-9)), Re, alpha);
                const IncidenceCoefficients at = incidenceCoefficients(prolate(node), Re, alpha);
                expectRelative(below.drag, at.drag, 1e-7);
                expectRelative(below.lift, at.lift, 1e-7);
                expectRelative(below.torque, at.torque, 1e-7);
            }
            // linear in ln r: the midpoint in ln r between 1.25 and 2.5 is the mean
            const IncidenceCoefficients mid = incidenceCoefficients(prolate(std::sqrt(1.25 * 2.5)), Re, alpha);
            const IncidenceCoefficients lo = incidenceCoefficients(IncidenceShape::prolate1p25, Re, alpha);
            const IncidenceCoefficients hi = incidenceCoefficients(IncidenceShape::prolate2p5, Re, alpha);
            expectRelative(mid.lift, 0.5 * (lo.lift + hi.lift), 1e-12);
        }
}

TEST(IncidenceDirections, AngleIsFoldedIntoZeroToNinetyDegrees) {
    const Vec3 w(0, 0, 2);
    EXPECT_NEAR(incidenceAngle(w, Vec3(0, 0, 1)), 0.0, 1e-15);
    EXPECT_NEAR(incidenceAngle(w, Vec3(0, 0, -1)), 0.0, 1e-15);
    EXPECT_NEAR(incidenceAngle(w, Vec3(3, 0, 0)), M_PI_2, 1e-15);
    EXPECT_NEAR(incidenceAngle(w, Vec3(1, 0, 1)), M_PI_4, 1e-15);
    EXPECT_NEAR(incidenceAngle(w, Vec3(1, 0, -1)), M_PI_4, 1e-15);
    EXPECT_THROW(incidenceAngle(Vec3::Zero(), w), std::invalid_argument);
    EXPECT_THROW(incidenceAngle(w, Vec3(std::nan(""), 0, 0)), std::invalid_argument);
}

// Lift normal to the slip in the plane of slip and axis, and on the side the
// exact Stokes force of the same spheroid puts it (EllipsoidResistance: the
// force normal to the slip of F = K w in the body frame).
TEST(IncidenceDirections, LiftIsOnTheSideOfTheStokesLateralForce) {
    struct Case {
        double a, b, c;
        int axis;
        IncidenceClass shapeClass;
    };
    const Case shapes[] = {{2.5, 1.0, 1.0, 0, IncidenceClass::prolate}, {1.0, 1.0, 0.4, 2, IncidenceClass::oblate}};
    for (const Case& s : shapes) {
        const Vec3 K = ellipsoidResistance(s.a, s.b, s.c).K;
        Vec3 axis = Vec3::Zero();
        axis[s.axis] = 1.0;
        for (double deg : {10.0, 40.0, 80.0, 130.0}) {
            // slip at deg from the axis, in the plane of the axis and body y or x
            Vec3 w = std::cos(deg * kDeg) * axis;
            w[s.axis == 0 ? 1 : 0] = std::sin(deg * kDeg);
            const Vec3 F = K.cwiseProduct(w);
            const Vec3 stokesLateral = F - F.dot(w) / w.squaredNorm() * w;
            const IncidenceDirections d = incidenceDirections(w, axis, s.shapeClass);
            EXPECT_NEAR(d.lift.dot(w), 0.0, 1e-14);
            EXPECT_NEAR(d.lift.dot(axis.cross(w)), 0.0, 1e-14);
            EXPECT_NEAR(d.lift.norm(), 1.0, 1e-14);
            EXPECT_NEAR(d.lift.dot(stokesLateral.normalized()), 1.0, 1e-12);
            // the axis is a line: -axis gives the same directions
            const IncidenceDirections flipped = incidenceDirections(w, -axis, s.shapeClass);
            EXPECT_NEAR((flipped.lift - d.lift).norm(), 0.0, 1e-14);
            EXPECT_NEAR((flipped.torque - d.torque).norm(), 0.0, 1e-14);
        }
    }
}

// A settling prolate turns its long axis normal to the slip, an oblate its
// flat face: a small rotation about the torque direction moves the angle
// between slip and symmetry axis towards 90 deg (prolate) or 0 (oblate).
TEST(IncidenceDirections, TorqueTurnsTheParticleBroadside) {
    const Vec3 w(0.3, -0.2, 1.0); // e.g. fluid upwards past a settling particle
    for (double deg : {5.0, 30.0, 60.0, 85.0, 120.0, 170.0}) {
        const Vec3 helper = Vec3(1, 0, 0) - Vec3(1, 0, 0).dot(w) / w.squaredNorm() * w;
        const Vec3 e = std::cos(deg * kDeg) * w.normalized() + std::sin(deg * kDeg) * helper.normalized();
        const double before = incidenceAngle(w, e);
        for (IncidenceClass shapeClass : {IncidenceClass::prolate, IncidenceClass::oblate}) {
            const Vec3 t = incidenceDirections(w, e, shapeClass).torque;
            const Vec3 turned = e + 1e-4 * t.cross(e);
            const double after = incidenceAngle(w, turned);
            if (shapeClass == IncidenceClass::prolate)
                EXPECT_GT(after, before);
            else
                EXPECT_LT(after, before);
        }
    }
    // no lift or torque direction for a sphere or with the axis along the slip
    const IncidenceDirections sphere = incidenceDirections(w, Vec3(1, 0, 0), IncidenceClass::sphere);
    EXPECT_EQ(sphere.lift.norm() + sphere.torque.norm(), 0.0);
    const IncidenceDirections aligned = incidenceDirections(w, -w, IncidenceClass::prolate);
    EXPECT_EQ(aligned.lift.norm() + aligned.torque.norm(), 0.0);
    EXPECT_NEAR((aligned.drag - w.normalized()).norm(), 0.0, 1e-15);
}
