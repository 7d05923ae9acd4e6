#include "geometry/Superellipsoid.hpp"

#include "geometry/RepresentableRange.hpp"
#include "geometry/SpecialFunctions.hpp"

#include <cmath>
#include <sstream>

namespace sef {

namespace {

void requirePositiveLength(const char* name, double value) {
    if (!std::isfinite(value) || value <= 0.0) {
        std::ostringstream msg;
        msg << "half-axis must be a finite length > 0, got " << value;
        throw ShapeError(name, msg.str());
    }
}

void requireConvexSquareness(const char* name, double value) {
    if (!std::isfinite(value) || value <= 0.0 || value > Superellipsoid::epsMax) {
        std::ostringstream msg;
        msg << "squareness exponent must satisfy 0 < " << name << " <= 2 (convex shapes), got "
            << value;
        throw ShapeError(name, msg.str());
    }
}

// n = 2/eps is a derived quantity too (the exponents of the implicit function).
void requireRepresentableExponent(const char* name, double eps) {
    const double logN = std::log(2.0) - std::log(eps);
    if (detail::representable(logN)) return;
    std::ostringstream msg;
    msg << "squareness exponent " << name << " = " << eps << " gives the exponent 2/" << name
        << " = " << detail::formatLogValue(logN) << ", " << detail::representableRangeText();
    throw ShapeError(name, msg.str());
}

// Name of the half-axis to blame for a derived quantity out of range that
// grows with the lengths (growing = true: the largest if too large, the
// smallest if too small) or shrinks with them (a curvature: the reverse).
const char* axisToBlame(const Vec3& axes, double logValue, bool growing) {
    static const char* names[] = {"a", "b", "c"};
    Eigen::Index i = 0;
    if ((logValue > Superellipsoid::logRepresentableMax) == growing)
        axes.maxCoeff(&i);
    else
        axes.minCoeff(&i);
    return names[i];
}

} // namespace

void Superellipsoid::requireRepresentable() const {
    requireRepresentableExponent("eps1", eps1_);
    requireRepresentableExponent("eps2", eps2_);
    const Vec3 axes = halfAxes();
    auto require = [&](const char* quantity, double logValue, bool growing = true) {
        if (detail::representable(logValue)) return;
        std::ostringstream msg;
        msg << "half-axes (a, b, c) = (" << a_ << ", " << b_ << ", " << c_ << ") give " << quantity
            << " " << detail::formatLogValue(logValue) << ", " << detail::representableRangeText();
        throw ShapeError(axisToBlame(axes, logValue, growing), msg.str());
    };
    require("a bounding radius", std::log(boundingRadius_));
    // The largest principal curvature of the ellipsoid with these half-axes
    // (at the tip of its longest axis): the scale of the curvature and of
    // the implicit function's Hessian in the contact search.
    require("a largest curvature max(a, b, c) / min(a, b, c)^2 of",
            std::log(axes.maxCoeff()) - 2.0 * std::log(axes.minCoeff()), false);
    require("a volume", logVolume());
    const Vec3 logJ = logSecondMoments();
    require("a second moment of volume (Ixx / density)", logJ.x());
    require("a second moment of volume (Iyy / density)", logJ.y());
    require("a second moment of volume (Izz / density)", logJ.z());
}

Superellipsoid::Superellipsoid(double a, double b, double c, double eps1, double eps2)
    : a_(a), b_(b), c_(c), eps1_(eps1), eps2_(eps2) {
    requirePositiveLength("a", a);
    requirePositiveLength("b", b);
    requirePositiveLength("c", c);
    requireConvexSquareness("eps1", eps1);
    requireConvexSquareness("eps2", eps2);
    boundingRadius_ = computeBoundingRadius(); // overflow-free for any finite axes
    requireRepresentable();
}

Superellipsoid Superellipsoid::fromExponents(double a, double b, double c, double n1, double n2) {
    // n = 2/eps; convex for n >= 1.
    auto check = [](const char* name, double n) {
        if (!std::isfinite(n) || n < 1.0) {
            std::ostringstream msg;
            msg << "blockiness exponent must be finite and >= 1 (convex shapes), got " << n;
            throw ShapeError(name, msg.str());
        }
        if (!detail::representable(std::log(n))) {
            std::ostringstream msg;
            msg << "blockiness exponent " << name << " = " << n << " is "
                << detail::representableRangeText();
            throw ShapeError(name, msg.str());
        }
    };
    check("n1", n1);
    check("n2", n2);
    return Superellipsoid(a, b, c, 2.0 / n1, 2.0 / n2);
}

double Superellipsoid::volume() const {
    return 2.0 * a_ * b_ * c_ * eps1_ * eps2_ * betaFunction(0.5 * eps1_ + 1.0, eps1_)
           * betaFunction(0.5 * eps2_, 0.5 * eps2_);
}

double Superellipsoid::equivalentDiameter() const {
    return std::cbrt(6.0 * volume() / M_PI);
}

std::string validateShape(double a, double b, double c, double eps1, double eps2) {
    try {
        Superellipsoid(a, b, c, eps1, eps2);
    } catch (const ShapeError& e) {
        return e.what();
    }
    return {};
}

} // namespace sef
