#include "hydrodynamics/IncidenceCorrelation.hpp"

#include "hydrodynamics/DragCorrection.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace sef {

namespace {

// Zastawny et al. (2012) fitting coefficients. Sources (facts only, no code
// taken):
//   [B] a Basilisk sandbox header, "Utility functions for spheroids"
//       (myspheroid.h), which restates the forms, both ellipsoids' a_i, b_i,
//       c_i, the range 0.1 <= Re <= 300 and the reference area and length;
//   [F] an independent Fortran point-particle channel code (subroutines
//       FLUID_FORCE_ELLIPSOID, STAT_PART_CHANNEL), "Fitting parameters taken
//       from Zastawny et al. (2012) for Ellipsoid 2 (a/b=1.25)".
// The 1.25 ellipsoid: [B] and [F] agree digit for digit (a, b and c).
// The 2.5 ellipsoid: [B] only; no second source was found, so these numbers
// carry one restatement's risk of a transcription error.
struct Coefficients {
    double a[9];  // a0 .. a8
    double b[10]; // b1 .. b10
    double c[10]; // c1 .. c10
};

constexpr Coefficients kProlate1p25 = {
    {1.95, 18.12, 1.023, 4.26, 0.384, 21.52, 0.99, 2.86, 0.26},
    {0.083, -0.21, 1.582, 0.851, 1.842, -0.802, -0.006, 0.874, 0.009, 0.57},
    {0.935, 0.146, -0.469, 0.145, 0.116, 0.748, 0.041, 0.221, 0.657, 0.044}};

constexpr Coefficients kProlate2p5 = {
    {2.0, 5.1, 0.48, 15.52, 1.05, 24.68, 0.98, 3.19, 0.21},
    {6.079, 0.898, 0.704, -0.028, 1.067, 0.0025, 0.818, 1.049, 0.0, 0.0},
    {2.078, 0.279, 0.372, 0.018, 0.98, 0.0, 0.0, 1.0, 0.0, 0.0}};

const Coefficients& coefficientsOf(IncidenceShape shape) {
    return shape == IncidenceShape::prolate1p25 ? kProlate1p25 : kProlate2p5;
}

// (k1/Re^k2 + k3/Re^k4) sin^(k5 + k6 Re^k7) cos^(k8 + k9 Re^k10), k = k1..k10:
// the common form of C_L and C_T.
double liftLike(const double* k, double Re, double s, double c) {
    const double amplitude = k[0] / std::pow(Re, k[1]) + k[2] / std::pow(Re, k[3]);
    return amplitude * std::pow(s, k[4] + k[5] * std::pow(Re, k[6])) * std::pow(c, k[7] + k[8] * std::pow(Re, k[9]));
}

IncidenceCoefficients fitted(const Coefficients& k, double Re, double alpha) {
    // cos(pi/2) is 6e-17, not 0; the exponents are > 0, so this only keeps
    // the 90-degree values exactly zero rather than 1e-17.
    const double s = alpha <= 0.0 ? 0.0 : std::sin(alpha);
    const double c = alpha >= M_PI_2 ? 0.0 : std::cos(alpha);
    const double* a = k.a;
    const double cd0 = a[1] / std::pow(Re, a[2]) + a[3] / std::pow(Re, a[4]);
    const double cd90 = a[5] / std::pow(Re, a[6]) + a[7] / std::pow(Re, a[8]);
    return {cd0 + (cd90 - cd0) * std::pow(s, a[0]), liftLike(k.b, Re, s, c), liftLike(k.c, Re, s, c)};
}

void checkReynolds(double Re, const char* where) {
    if (!std::isfinite(Re) || !(Re > 0.0))
        throw std::invalid_argument(std::string(where) + ": Reynolds number must be finite and > 0 (got " +
                                    std::to_string(Re) + ")");
}

Vec3 unitOrZero(const Vec3& v) {
    const double n = v.norm();
    return n > 1e-12 ? Vec3(v / n) : Vec3(Vec3::Zero());
}

void checkDirection(const Vec3& v, const char* name) {
    if (!isFinite(v) || v.squaredNorm() == 0.0)
        throw std::invalid_argument(std::string("incidence: ") + name + " must be finite and non-zero");
}

} // namespace

double incidenceAspectRatio(IncidenceShape shape) {
    return shape == IncidenceShape::prolate1p25 ? 1.25 : 2.5;
}

IncidenceCoefficients incidenceCoefficients(IncidenceShape shape, double Re, double alpha) {
    checkReynolds(Re, "incidenceCoefficients");
    if (!std::isfinite(alpha) || alpha < 0.0 || alpha > M_PI_2)
        throw std::invalid_argument("incidenceCoefficients: alpha must be in [0, pi/2] (got " +
                                    std::to_string(alpha) + ")");
    const Coefficients& k = coefficientsOf(shape);
    if (Re < incidenceReynoldsMin) {
        // Creeping-flow extension (header): C ~ 1/Re below the data.
        IncidenceCoefficients at = fitted(k, incidenceReynoldsMin, alpha);
        const double scale = incidenceReynoldsMin / Re;
        return {at.drag * scale, at.lift * scale, at.torque};
    }
    return fitted(k, std::min(Re, incidenceReynoldsMax), alpha);
}

double sphereDragCoefficient(double Re) {
    checkReynolds(Re, "sphereDragCoefficient");
    return 24.0 / Re * dragCorrectionFactor(DragCorrectionModel::schillerNaumann, Re, ShapeFactors{});
}

double incidenceAngle(const Vec3& slip, const Vec3& axis) {
    checkDirection(slip, "slip");
    checkDirection(axis, "axis");
    // atan2 of |cross| and |dot|: accurate near 0 and pi/2 alike, and folded
    // into [0, pi/2] by the absolute value of the dot product.
    return std::atan2(slip.cross(axis).norm(), std::fabs(slip.dot(axis)));
}

IncidenceDirections incidenceDirections(const Vec3& slip, const Vec3& axis, IncidenceClass shapeClass) {
    checkDirection(slip, "slip");
    checkDirection(axis, "axis");
    IncidenceDirections d;
    d.drag = slip.normalized();
    if (shapeClass == IncidenceClass::sphere) return d;
    Vec3 e = axis.normalized();
    if (e.dot(d.drag) < 0.0) e = -e; // the header's orientation: e.w >= 0
    const double sign = shapeClass == IncidenceClass::prolate ? 1.0 : -1.0;
    d.lift = -sign * unitOrZero(e - e.dot(d.drag) * d.drag);
    d.torque = sign * unitOrZero(d.drag.cross(e));
    return d;
}

} // namespace sef
