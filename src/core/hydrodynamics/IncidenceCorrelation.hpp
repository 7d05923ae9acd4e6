#pragma once
// Finite-Reynolds drag, lift and pitching-torque coefficients of a prolate
// spheroid against its angle of incidence: the correlation of Zastawny,
// Mallouppas, Zhao & van Wachem (2012), "Derivation of drag and lift force
// and torque coefficients for non-spherical particles in flows", Int. J.
// Multiphase Flow 39, 227-239 (immersed-boundary simulations of a fixed
// particle in a uniform stream).
//
// Why this one: Sanjeevi, Kuipers & Padding (2018), which also covers the
// oblate spheroid of aspect ratio 0.4, and Ouchene et al. (2016) were the
// preferred candidates, but their coefficient tables could not be found in
// any source readable here; no number of theirs is used. Zastawny's forms and
// coefficients were found restated in two independent public codes (see the
// .cpp). The paper's own text was not available: its equation and table
// numbers are not quoted, for they could not be checked.
//
// Definitions (Zastawny's, as restated by both codes). Slip w = u_fluid - v,
// alpha the angle between w and the symmetry axis, folded into [0, pi/2]:
//   Re  = rho |w| d_eq / mu,  d_eq = (6 V / pi)^(1/3) (volume-equivalent)
//   C_D = F_D / (rho |w|^2 / 2 * pi d_eq^2 / 4)   force component along w
//   C_L = F_L / (rho |w|^2 / 2 * pi d_eq^2 / 4)   force component normal to
//                                                 w, in the plane of w and axis
//   C_T = T   / (rho |w|^2 / 2 * pi d_eq^3 / 8)   pitching torque about the
//                                                 centroid (reference length d_eq/2)
// Forms (a_i, b_i, c_i per shape, in the .cpp):
//   C_D = C_D,0 + (C_D,90 - C_D,0) sin^a0(alpha)
//   C_D,0 = a1/Re^a2 + a3/Re^a4,  C_D,90 = a5/Re^a6 + a7/Re^a8
//   C_L = (b1/Re^b2 + b3/Re^b4) sin(alpha)^(b5 + b6 Re^b7) cos(alpha)^(b8 + b9 Re^b10)
//   C_T = (c1/Re^c2 + c3/Re^c4) sin(alpha)^(c5 + c6 Re^c7) cos(alpha)^(c8 + c9 Re^c10)
// All exponents of sin and cos are positive, so C_L = C_T = 0 at 0 and 90 deg.
//
// Signs (C_L, C_T >= 0 are magnitudes; incidenceDirections gives the unit
// vectors). With the axis e oriented so that e.w >= 0 and
// e_perp = e - (e.w^) w^ (w^ = w / |w|):
//   lift   along -e_perp for a prolate: the force normal to the long axis
//          dominates, pushing the particle sideways away from where its
//          leading end points (the Stokes resistance tensor gives the same
//          direction; the Fortran code cited in the .cpp applies it so).
//          Along +e_perp for an oblate (axis = short axis: plate-like).
//   torque along +(w^ x e) for a prolate: turns e away from w, towards
//          broadside (long axis normal to the slip). Along -(w^ x e) for an
//          oblate: turns the short axis towards w, flat face normal to the
//          slip. Both are the known stable broadside settling orientations.
//
// Validity: prolate spheroids of aspect ratio 1.25 and 2.5 (the two
// ellipsoids of the paper; its disc and fibre are not included: their
// coefficients were not found), 0.1 <= Re <= 300.
// Known limit: at Re = 0.1 the fits lie 10-20 % below the exact Stokes drag
// of the same spheroids (12-18 % at 0 and 90 deg, both shapes; tested), so in the
// creeping range the correlation underestimates drag by about that much.
// Against independent lattice-Boltzmann data for the 2.5 spheroid at Re = 300
// (tested) drag and lift agree within 5 %, the pitching torque within 20 %.
// Outside that range in Re (the shape range is the mapping's, below):
//   Re < 0.1  Stokes extrapolation: C_D and C_L are their Re = 0.1 values
//             times 0.1 / Re, i.e. the force stays linear in |w| as in
//             creeping flow, and the angular dependence is frozen. The power
//             laws themselves are not Stokes-like there (a4 = 1.05 for the
//             2.5 ellipsoid: drag would grow faster than linearly in 1/Re).
//             C_T keeps its Re = 0.1 value: the pitching torque is an
//             inertial effect (a fore-aft symmetric body feels none in
//             Stokes flow), so it falls with |w|^2, faster than the drag.
//   Re > 300  clamped: the coefficients keep their Re = 300 values. In the
//             Newton regime coefficients vary slowly; the fitted power laws
//             would instead drift (C_D,90 -> 0, lift exponents growing).
//   Re <= 0, non-finite Re or alpha outside [0, pi/2]: std::invalid_argument.
#include "geometry/Types.hpp"

namespace sef {

// The shapes of the correlation with coefficients available here.
enum class IncidenceShape {
    prolate1p25, // ellipsoid of revolution, polar / equatorial half-axis 1.25
    prolate2p5   // the same, 2.5
};

// Range of the simulations behind the fits.
constexpr double incidenceReynoldsMin = 0.1;
constexpr double incidenceReynoldsMax = 300.0;

struct IncidenceCoefficients {
    double drag = 0.0;   // C_D
    double lift = 0.0;   // C_L >= 0 (direction: incidenceDirections)
    double torque = 0.0; // C_T >= 0 (direction: incidenceDirections)
};

// Aspect ratio (polar / equatorial half-axis) of each shape.
double incidenceAspectRatio(IncidenceShape shape);

// The coefficients at Re and alpha (radians, in [0, pi/2]), with the Re
// extension above. Throws std::invalid_argument for bad Re or alpha.
IncidenceCoefficients incidenceCoefficients(IncidenceShape shape, double reynolds, double alpha);

// Standard sphere drag, C_D = 24/Re (1 + 0.15 Re^0.687) for Re <= 1000 and
// 0.44 above (Schiller & Naumann, as DragCorrection.hpp): the aspect-ratio-1
// end of the interpolation in IncidenceMapping.hpp (C_L = C_T = 0 there).
double sphereDragCoefficient(double reynolds);

// Which side of the sphere the shape is on: it sets the signs above.
enum class IncidenceClass { sphere, prolate, oblate };

// Angle between the slip and the axis, folded into [0, pi/2] (the axis is a
// line: e and -e give the same angle). Both vectors finite and non-zero,
// else std::invalid_argument.
double incidenceAngle(const Vec3& slip, const Vec3& axis);

// Unit vectors of drag (w^), lift and torque, in the frame of the inputs.
// Lift and torque are zero vectors for a sphere and where their direction is
// undefined (axis parallel to w; there C_L = C_T = 0 anyway).
struct IncidenceDirections {
    Vec3 drag = Vec3::Zero();
    Vec3 lift = Vec3::Zero();
    Vec3 torque = Vec3::Zero();
};
IncidenceDirections incidenceDirections(const Vec3& slip, const Vec3& axis, IncidenceClass shapeClass);

} // namespace sef
