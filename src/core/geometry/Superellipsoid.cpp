#include "geometry/Superellipsoid.hpp"

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

} // namespace

Superellipsoid::Superellipsoid(double a, double b, double c, double eps1, double eps2)
    : a_(a), b_(b), c_(c), eps1_(eps1), eps2_(eps2) {
    requirePositiveLength("a", a);
    requirePositiveLength("b", b);
    requirePositiveLength("c", c);
    requireConvexSquareness("eps1", eps1);
    requireConvexSquareness("eps2", eps2);
    boundingRadius_ = computeBoundingRadius();
}

Superellipsoid Superellipsoid::fromExponents(double a, double b, double c, double n1, double n2) {
    // n = 2/eps; convex for n >= 1.
    auto check = [](const char* name, double n) {
        if (!std::isfinite(n) || n < 1.0) {
            std::ostringstream msg;
            msg << "blockiness exponent must be finite and >= 1 (convex shapes), got " << n;
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
