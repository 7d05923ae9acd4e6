#include "hydrodynamics/AddedMass.hpp"

#include "hydrodynamics/EllipsoidResistance.hpp"

#include <algorithm>
#include <cmath>

namespace sef {

namespace {

// Lamb's added moment of inertia about the axis normal to the half-axes p,
// q (with their integrals ip, iq), per rho_f V. Zero for p = q (a body of
// revolution about that axis), where the formula is 0/0: its numerator
// vanishes as (p - q)^3, the denominator as (p - q).
double addedInertia(double p, double q, double ip, double iq) {
    const double p2 = p * p, q2 = q * q, d = p2 - q2;
    if (std::abs(d) <= 1e-12 * std::max(p2, q2)) return 0.0;
    return 0.2 * d * d * (iq - ip) / (2.0 * d + (p2 + q2) * (ip - iq));
}

} // namespace

AddedMassCoefficients ellipsoidAddedMass(double a, double b, double c) {
    const JefferyIntegrals J = jefferyIntegrals(a, b, c); // checks the half-axes
    AddedMassCoefficients out;
    if (a == b && b == c) return out; // the sphere: exactly 1/2, no added inertia
    out.translation = {J.alpha0 / (2.0 - J.alpha0), J.beta0 / (2.0 - J.beta0), J.gamma0 / (2.0 - J.gamma0)};
    out.rotation = {addedInertia(b, c, J.beta0, J.gamma0), addedInertia(c, a, J.gamma0, J.alpha0),
                    addedInertia(a, b, J.alpha0, J.beta0)};
    return out;
}

AddedMassCoefficients addedMassCoefficients(const Superellipsoid& shape) {
    const Vec3 h = shape.halfAxes();
    return ellipsoidAddedMass(h.x(), h.y(), h.z());
}

} // namespace sef
