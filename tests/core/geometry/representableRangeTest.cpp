// Extreme but finite shape parameters and densities: every derived
// quantity must stay in the representable range
// [sqrt(DBL_MIN), sqrt(DBL_MAX)] (Superellipsoid.hpp), or the input is
// refused with a ShapeError / ParameterError naming the parameter. This
// executable traps overflow, invalid and division by zero, so a check that
// overflowed would kill it.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <functional>
#include <string>

#include "geometry/Superellipsoid.hpp"

using sef::ParameterError;
using sef::ShapeError;
using sef::Superellipsoid;
using sef::Vec3;

namespace {

const double pi = 3.14159265358979323846;
const double rangeMax = std::sqrt(DBL_MAX), rangeMin = std::sqrt(DBL_MIN);
const std::string rangeText =
    "outside the representable range [1.49e-154, 1.34e+154] = [sqrt(DBL_MIN), sqrt(DBL_MAX)]";

// The parameter and message of the ShapeError thrown by make ("none" if none).
std::pair<std::string, std::string> shapeErrorOf(const std::function<void()>& make) {
    try {
        make();
    } catch (const ShapeError& e) {
        return {e.parameter(), e.what()};
    }
    return {"none", ""};
}

std::pair<std::string, std::string> densityErrorOf(const Superellipsoid& s, double rho) {
    try {
        s.requireDensity(rho);
    } catch (const ParameterError& e) {
        return {e.parameter(), e.what()};
    }
    return {"none", ""};
}

bool finiteNormal(double x) { return std::isnormal(x) && x > 0.0; }

// Sphere radius whose moment per unit density Ixx / rho = 8 pi r^5 / 15 is J.
double sphereRadiusForMoment(double J) { return std::pow(15.0 * J / (8.0 * pi), 0.2); }

} // namespace

TEST(RepresentableRange, LogBoundsAreHalfTheLogOfTheDoubleRange) {
    EXPECT_DOUBLE_EQ(Superellipsoid::logRepresentableMax, 0.5 * std::log(DBL_MAX));
    EXPECT_DOUBLE_EQ(Superellipsoid::logRepresentableMin, 0.5 * std::log(DBL_MIN));
}

TEST(RepresentableRange, HugeHalfAxesNameTheLargestAxis) {
    // Half-axes 1e120 would overflow the volume (SIGFPE).
    const auto [name, what] = shapeErrorOf([] { Superellipsoid(1e120, 1e120, 1e120, 1, 1); });
    EXPECT_EQ(name, "a");
    EXPECT_EQ(what, "a: half-axes (a, b, c) = (1e+120, 1e+120, 1e+120) give a volume 4.19e+360, "
                        + rangeText);
    EXPECT_EQ(shapeErrorOf([] { Superellipsoid(1e120, 3e120, 2e120, 1, 1); }).first, "b");
    EXPECT_EQ(shapeErrorOf([] { Superellipsoid(1, 1, 1e300, 1, 1); }).first, "c");
}

TEST(RepresentableRange, TinyHalfAxesNameTheSmallestAxis) {
    // Sizes 1e-120 would give volume 0 and rc 0.
    const auto [name, what] = shapeErrorOf([] { Superellipsoid(1e-120, 1e-120, 1e-120, 1, 1); });
    EXPECT_EQ(name, "a");
    EXPECT_EQ(what, "a: half-axes (a, b, c) = (1e-120, 1e-120, 1e-120) give a volume 4.19e-360, "
                        + rangeText);
    EXPECT_EQ(shapeErrorOf([] { Superellipsoid(3e-120, 1e-120, 2e-120, 1, 1); }).first, "b");
    EXPECT_EQ(shapeErrorOf([] { Superellipsoid(1, 1, DBL_MIN / 4, 1, 1); }).first, "c"); // subnormal axis
}

TEST(RepresentableRange, SecondMomentsBindBeforeTheVolume) {
    // r = 1e40: volume 4e120 is fine, Ixx / density = 8 pi r^5 / 15 ~ 1.7e200 is not.
    const auto [name, what] = shapeErrorOf([] { Superellipsoid(1e40, 1e40, 1e40, 1, 1); });
    EXPECT_EQ(name, "a");
    EXPECT_NE(what.find("give a second moment of volume (Ixx / density) 1.68e+200"), std::string::npos)
        << what;
    EXPECT_EQ(shapeErrorOf([] { Superellipsoid(1e-40, 1e-40, 1e-40, 1, 1); }).first, "a");
    // A needle: the volume is fine, the moments about the short axes are not.
    EXPECT_EQ(shapeErrorOf([] { Superellipsoid(1e-20, 1e-20, 1e100, 1, 1); }).first, "c");
}

TEST(RepresentableRange, CurvatureOfAFlatDiskNamesTheThinAxis) {
    // Volume and moments of a 1e-120 thin unit disk are representable, the
    // curvature of its rim (1 / a^2 = 1e240) is not.
    const auto [name, what] = shapeErrorOf([] { Superellipsoid(1e-120, 1, 1, 1, 1); });
    EXPECT_EQ(name, "a");
    EXPECT_EQ(what, "a: half-axes (a, b, c) = (1e-120, 1, 1) give a largest curvature "
                    "max(a, b, c) / min(a, b, c)^2 of 1e+240, " + rangeText);
    EXPECT_EQ(shapeErrorOf([] { Superellipsoid(1, 1e-80, 1, 1, 1); }).first, "b");
}

TEST(RepresentableRange, ThinDiskJustInsideStillWorks) {
    // Curvature at half the bound: the implicit function, its derivatives,
    // the curvature, support and mass properties stay finite (under traps).
    const double a = 1.0 / std::sqrt(0.5 * rangeMax);
    for (const double e : {1.0, 0.5, 1.5}) {
        const Superellipsoid s(a, 1, 1, e, e);
        for (const Vec3& d : {Vec3(1, 0, 0), Vec3(1, 1, 1), Vec3(0, 0, 1), Vec3(0.3, -0.7, 0.2)}) {
            const Vec3 x = s.radialSurfacePoint(d);
            const sef::ImplicitDerivatives D = s.evaluate(x);
            EXPECT_TRUE(std::isfinite(D.value) && sef::isFinite(D.gradient) && sef::isFinite(D.hessian))
                << e << " " << d.transpose();
            for (const sef::Mat3& T : s.thirdDerivatives(x)) EXPECT_TRUE(sef::isFinite(T)) << e;
            const sef::SurfaceCurvature k = s.curvature(x);
            EXPECT_TRUE(std::isfinite(k.mean) && std::isfinite(k.gaussian)) << e << " " << d.transpose();
            EXPECT_TRUE(sef::isFinite(s.supportPoint(d)));
        }
        const Vec3 I = s.principalInertia(1000.0);
        EXPECT_TRUE(finiteNormal(s.volume()) && finiteNormal(I.minCoeff()));
    }
    EXPECT_EQ(shapeErrorOf([&] { Superellipsoid(0.5 * a, 1, 1, 1, 1); }).first, "a");
}

TEST(RepresentableRange, BoundingRadiusIsChecked) {
    const auto [name, what] = shapeErrorOf([] { Superellipsoid(1e155, 1e-200, 1e-200, 1, 1); });
    EXPECT_EQ(name, "a");
    EXPECT_NE(what.find("give a bounding radius 1e+155"), std::string::npos) << what;
}

TEST(RepresentableRange, ValidExtremesNearTheBoundsStillWork) {
    // Spheres whose moments per unit density are half the upper bound /
    // twice the lower bound: constructed, every derived quantity finite and normal, the
    // implicit function and support finite; 20 % larger / smaller radii
    // (factor 2.5 / 0.33 in r^5) are refused.
    const double rHi = sphereRadiusForMoment(0.5 * rangeMax);
    const double rLo = sphereRadiusForMoment(2.0 * rangeMin);
    for (const double r : {rHi, rLo}) {
        const Superellipsoid s(r, r, r, 1, 1);
        const Vec3 I = s.principalInertia(1.0);
        EXPECT_TRUE(finiteNormal(s.volume()) && finiteNormal(s.boundingRadius())
                    && finiteNormal(s.equivalentDiameter()))
            << r;
        for (int k = 0; k < 3; ++k) {
            EXPECT_TRUE(finiteNormal(I[k]) && finiteNormal(1.0 / I[k])) << r;
            EXPECT_NEAR(I[k], 8.0 * pi / 15.0 * std::pow(r, 5), 1e-12 * I[k]) << r;
        }
        const Vec3 x(0.6 * r, 0.0, 0.8 * r); // on the surface
        EXPECT_NEAR(s.implicitFunction(x), 0.0, 1e-12);
        EXPECT_TRUE(sef::isFinite(s.gradient(x)) && sef::isFinite(s.supportPoint(Vec3(1, 2, 3))));
    }
    EXPECT_EQ(shapeErrorOf([&] { Superellipsoid(1.2 * rHi, 1.2 * rHi, 1.2 * rHi, 1, 1); }).first, "a");
    EXPECT_EQ(shapeErrorOf([&] { Superellipsoid(0.8 * rLo, 0.8 * rLo, 0.8 * rLo, 1, 1); }).first, "a");
}

TEST(RepresentableRange, TinySquarenessNamesEpsAndItsExponentForm) {
    const auto [name, what] = shapeErrorOf([] { Superellipsoid(1, 1, 1, 1e-160, 1); });
    EXPECT_EQ(name, "eps1");
    EXPECT_EQ(what, "eps1: squareness exponent eps1 = 1e-160 gives the exponent 2/eps1 = 2e+160, "
                        + rangeText);
    EXPECT_EQ(shapeErrorOf([] { Superellipsoid(1, 1, 1, 1, 4.9e-324); }).first, "eps2");
    EXPECT_EQ(shapeErrorOf([] { Superellipsoid::fromExponents(1, 1, 1, 2, 1e200); }).first, "n2");
    // Just inside: n = 2e150; volume and inertia stay finite and normal.
    const Superellipsoid s(1, 2, 3, 1e-150, 1e-150);
    EXPECT_TRUE(finiteNormal(s.volume()));
    EXPECT_NEAR(s.volume(), 8.0 * 6.0, 1e-9 * 48.0); // the box 2a x 2b x 2c
    const Vec3 I = s.principalInertia(1.0);
    EXPECT_TRUE(finiteNormal(I.x()) && finiteNormal(I.y()) && finiteNormal(I.z()));
}

TEST(RepresentableRange, LogMassPropertiesMatchTheDirectOnes) {
    for (const double e1 : {0.1, 0.7, 1.0, 2.0})
        for (const double e2 : {0.1, 1.0, 1.6}) {
            const Superellipsoid s(0.3, 0.2, 0.1, e1, e2);
            EXPECT_NEAR(std::exp(s.logVolume()), s.volume(), 1e-13 * s.volume());
            const Vec3 I = s.principalInertia(1.0), logJ = s.logSecondMoments();
            for (int k = 0; k < 3; ++k) EXPECT_NEAR(std::exp(logJ[k]), I[k], 1e-12 * I[k]);
        }
}

TEST(DensityRange, NonPhysicalDensitiesNameDensity) {
    const Superellipsoid s(0.005, 0.005, 0.005, 1, 1);
    // Density 1e-300 would give null velocities in collide.
    const auto [name, what] = densityErrorOf(s, 1e-300);
    EXPECT_EQ(name, "density");
    EXPECT_EQ(what, "density: density 1e-300 gives a mass 5.24e-307 (volume 5.24e-7), " + rangeText);
    EXPECT_EQ(densityErrorOf(s, NAN).second, "density: must be finite and > 0, got nan");
    EXPECT_EQ(densityErrorOf(s, INFINITY).second, "density: must be finite and > 0, got inf");
    EXPECT_EQ(densityErrorOf(s, -1000.0).second, "density: must be finite and > 0, got -1000");
    EXPECT_EQ(densityErrorOf(s, 0.0).first, "density");
    EXPECT_EQ(densityErrorOf(s, 1e300).first, "density");
    EXPECT_THROW(s.principalInertia(1e-300), ParameterError);
}

TEST(DensityRange, ValidExtremesNearTheBoundsStillWork) {
    // The smallest moment binds below (r < 1: int x^2 dV < V), the mass above.
    const Superellipsoid s(0.005, 0.004, 0.003, 0.5, 1.5);
    const double logJmin = s.logSecondMoments().minCoeff(), logV = s.logVolume();
    const double rhoLo = 2.0 * std::exp(Superellipsoid::logRepresentableMin - logJmin);
    const double rhoHi = 0.5 * std::exp(Superellipsoid::logRepresentableMax - logV);
    for (const double rho : {rhoLo, rhoHi}) {
        EXPECT_EQ(densityErrorOf(s, rho).first, "none") << rho;
        const Vec3 I = s.principalInertia(rho);
        const double m = rho * s.volume();
        EXPECT_TRUE(finiteNormal(m) && finiteNormal(1.0 / m)) << rho;
        for (int k = 0; k < 3; ++k) EXPECT_TRUE(finiteNormal(I[k]) && finiteNormal(1.0 / I[k])) << rho;
    }
    EXPECT_NE(densityErrorOf(s, 0.25 * rhoLo).second.find("a moment of inertia"), std::string::npos);
    EXPECT_NE(densityErrorOf(s, 4.0 * rhoHi).second.find("a mass"), std::string::npos);
}
