#pragma once
// Added mass and added moment of inertia of a superellipsoid, body frame,
// as multiples of the displaced fluid's mass rho_f V (translation, [-]) and
// of rho_f V (rotation, [m^2]).
//
// Ellipsoids (eps1 = eps2 = 1): exact potential-flow values (Lamb 1932,
// Hydrodynamics, 6th ed., arts. 114-115 and 373), with Jeffery's integrals
// alpha0, beta0, gamma0 (EllipsoidResistance.hpp; alpha0 + beta0 + gamma0 = 2):
//   translation along x:  alpha0 / (2 - alpha0)            (y, z likewise)
//   rotation about x:     (1/5) (b^2 - c^2)^2 (gamma0 - beta0)
//                         / (2 (b^2 - c^2) + (b^2 + c^2)(beta0 - gamma0))
//                                                          (cyclic)
// A sphere: 1/2 along every axis, no added inertia (set exactly, so that
// spheres keep C_a = 1/2 to the bit; so do cubes and other shapes with
// three equal half-axes, below).
//
// Other superellipsoids: the ellipsoid of the same half-axes, per unit of
// the shape's own volume (its coefficients times rho_f V of the
// superellipsoid). An approximation: potential flow around a cube gives
// about 0.6-0.7 of the displaced mass (its edges), against the sphere's
// 0.5 taken here; the directions and ratios between the axes follow the
// half-axes as for ellipsoids.
#include "geometry/Superellipsoid.hpp"

namespace sef {

struct AddedMassCoefficients {
    Vec3 translation = Vec3::Constant(0.5); // m_a,i / (rho_f V)
    Vec3 rotation = Vec3::Zero();           // I_a,i / (rho_f V) [m^2]
};

// Exact for an ellipsoid of half-axes a, b, c; throws std::invalid_argument
// unless they are finite and > 0.
AddedMassCoefficients ellipsoidAddedMass(double a, double b, double c);

// The rule above for any superellipsoid.
AddedMassCoefficients addedMassCoefficients(const Superellipsoid& shape);

} // namespace sef
