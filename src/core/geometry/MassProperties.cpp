// Principal moments of inertia of a uniform superellipsoid, [Superellipsoid-OpenFOAM]
// eqs. (17)-(20) (after Jaklic et al.). With
//   X = int x^2 dV / a^2 = 1/2 abc eps1 eps2 B(3 eps2/2, eps2/2) B(eps1/2, 2 eps1 + 1)
//   Z = int z^2 dV / c^2 = 2 abc eps1 eps2 B(eps2/2, eps2/2 + 1) B(3 eps1/2, eps1 + 1)
// (int y^2 dV = b^2 X by the x-y symmetry of the cross-section):
//   Ixx = rho (b^2 X + c^2 Z), Iyy = rho (a^2 X + c^2 Z), Izz = rho (a^2 + b^2) X.
// Checked against a tanh-sinh quadrature of the second moments in
// tests/core/geometry/massPropertiesTest.cpp (agreement to 1e-9 and better).
#include "geometry/RepresentableRange.hpp"
#include "geometry/SpecialFunctions.hpp"
#include "geometry/Superellipsoid.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace sef {

namespace {

// log(exp(x) + exp(y)) without forming either exponential.
double logAdd(double x, double y) {
    const double hi = std::max(x, y), lo = std::min(x, y);
    return hi + std::log1p(std::exp(lo - hi)); // exp of <= 0: at worst a harmless underflow
}

} // namespace

double Superellipsoid::logVolume() const {
    return std::log(2.0) + std::log(a_) + std::log(b_) + std::log(c_) + std::log(eps1_)
           + std::log(eps2_) + logBeta(0.5 * eps1_ + 1.0, eps1_) + logBeta(0.5 * eps2_, 0.5 * eps2_);
}

Vec3 Superellipsoid::logSecondMoments() const {
    const double e1 = eps1_, e2 = eps2_;
    const double logCommon = std::log(a_) + std::log(b_) + std::log(c_) + std::log(e1) + std::log(e2);
    const double logX = std::log(0.5) + logCommon + logBeta(1.5 * e2, 0.5 * e2)
                        + logBeta(0.5 * e1, 2.0 * e1 + 1.0);
    const double logZ = std::log(2.0) + logCommon + logBeta(0.5 * e2, 0.5 * e2 + 1.0)
                        + logBeta(1.5 * e1, e1 + 1.0);
    const double la2 = 2.0 * std::log(a_), lb2 = 2.0 * std::log(b_), lc2 = 2.0 * std::log(c_);
    return {logAdd(lb2 + logX, lc2 + logZ), logAdd(la2 + logX, lc2 + logZ), logAdd(la2, lb2) + logX};
}

void Superellipsoid::requireDensity(double density) const {
    if (!std::isfinite(density) || density <= 0.0) {
        std::ostringstream msg;
        msg << "must be finite and > 0, got " << density;
        throw ParameterError("density", msg.str());
    }
    const double logRho = std::log(density);
    auto require = [&](const char* quantity, double logValue) {
        if (detail::representable(logValue)) return;
        std::ostringstream msg;
        msg << "density " << density << " gives " << quantity << " "
            << detail::formatLogValue(logValue) << " (volume " << detail::formatLogValue(logVolume())
            << "), " << detail::representableRangeText();
        throw ParameterError("density", msg.str());
    };
    require("a mass", logRho + logVolume());
    const Vec3 logJ = logSecondMoments();
    require("a moment of inertia Ixx", logRho + logJ.x());
    require("a moment of inertia Iyy", logRho + logJ.y());
    require("a moment of inertia Izz", logRho + logJ.z());
}

Vec3 Superellipsoid::principalInertia(double density) const {
    requireDensity(density);
    const double e1 = eps1_, e2 = eps2_, abc = a_ * b_ * c_;
    const double X = 0.5 * abc * e1 * e2 * betaFunction(1.5 * e2, 0.5 * e2)
                     * betaFunction(0.5 * e1, 2.0 * e1 + 1.0);
    const double Z = 2.0 * abc * e1 * e2 * betaFunction(0.5 * e2, 0.5 * e2 + 1.0)
                     * betaFunction(1.5 * e1, e1 + 1.0);
    const double a2 = a_ * a_, b2 = b_ * b_, c2 = c_ * c_;
    return density * Vec3(b2 * X + c2 * Z, a2 * X + c2 * Z, (a2 + b2) * X);
}

} // namespace sef
