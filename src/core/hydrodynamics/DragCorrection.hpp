#pragma once
// Finite-Reynolds-number corrections of the Stokes drag, as a
// factor f >= 1 on the translation resistance tensor: D = f pi mu c R K R^T.
// The particle Reynolds number is Re_p = rho_f |u - v| d_eq / mu with the
// volume-equivalent diameter d_eq.
//   stokes              f = 1: [Superellipsoid-OpenFOAM] eq. (5) as computed. Valid for
//                       Re_p << 1 (about 1 % error at Re_p = 0.1 for a sphere).
//   schillerNaumann     the volume-equivalent sphere's correction applied to
//                       the shape's own tensor: f = 1 + 0.15 Re^0.687 for
//                       Re <= 1000, f = 0.44 Re / 24 above (Schiller & Naumann
//                       1933; Clift, Grace & Weber 1978). For spheres, within
//                       about 5 % of the standard drag curve up to Re 1000;
//                       for other shapes it keeps the Stokes anisotropy and
//                       ignores the shape's own inertial drag.
//   hoelzerSommerfeld   a correlation made for non-spherical particles
//                       (Hoelzer & Sommerfeld 2008, Powder Technol. 184):
//                       C_D = 8/(Re sqrt(phi_perp)) + 16/(Re sqrt(phi))
//                           + 3/(sqrt(Re) phi^(3/4))
//                           + 0.42 10^(0.4 (-log10 phi)^0.2) / phi_perp
//                       with the sphericity phi and the crosswise sphericity
//                       phi_perp (volume-equivalent sphere's cross-section
//                       over the particle's projected area normal to the
//                       slip). f makes the drag's component along the slip
//                       C_D rho_f |w|^2 pi d_eq^2 / 8; the Stokes tensor gives
//                       its direction. Fitted to data for Re up to about
//                       1e5 (their mean deviation about 14 %).
//   zastawny            drag, lift and pitching torque against the angle of
//                       incidence from particle-resolved simulations of prolate
//                       spheroids (Zastawny et al. 2012; IncidenceCorrelation.hpp,
//                       mapped by IncidenceMapping.hpp, applied by
//                       IncidenceForces.hpp). Ellipsoid-like shapes only.
#include "geometry/Superellipsoid.hpp"

#include <string>

namespace sef {

enum class DragCorrectionModel { stokes, schillerNaumann, hoelzerSommerfeld, zastawny };

// From the dictionary name (stokes | schillerNaumann | hoelzerSommerfeld |
// zastawny);
// throws std::invalid_argument naming the bad name and the valid ones.
DragCorrectionModel dragCorrectionModelFromName(const std::string& name);
const char* dragCorrectionModelName(DragCorrectionModel model);

// Shape factors of the correlations, computed once per particle type.
struct ShapeFactors {
    double equivalentDiameter = 0; // d_eq = (6 V / pi)^(1/3)
    double sphericity = 1;         // phi = pi d_eq^2 / surface area
    // The shape's volume and principal moments of inertia per unit density,
    // kept because each costs Beta functions (lgamma) and the coupled step
    // needs them for every particle and step
    double volume = 0;                   // [m^3]
    Vec3 inertiaPerDensity = Vec3::Zero(); // [m^5]
};

// Surface area from the boundary-integral solver's surface quadrature
// (resolution 24: sphere and spheroids to about 1e-9 relative; a sphericity
// within 1e-9 of 1 is set to 1).
ShapeFactors shapeFactors(const Superellipsoid& shape);

// Area of the particle's shadow on a plane normal to directionBody (any
// length), from `outline` support points in that plane: the inscribed and
// the circumscribed (tangent) polygons combined so that their leading errors
// cancel (relative error O(outline^-4) for smooth outlines; 1e-7 for an
// ellipse at 128). Ellipsoids (eps1 = eps2 = 1) take the exact ellipse.
double projectedArea(const Superellipsoid& shape, const Vec3& directionBody, int outline = 128);

// Drag coefficient of the Hoelzer-Sommerfeld correlation (above).
double hoelzerSommerfeldDragCoefficient(double reynolds, double sphericity, double crosswiseSphericity);

// The factor f of the model at Reynolds number Re_p (at Re_p = 0 its limit). For
// hoelzerSommerfeld also: the crosswise sphericity along the slip and
// stokesForceRatio = |D_stokes w| / (3 pi mu d_eq |w|), the Stokes drag along
// the slip relative to the volume-equivalent sphere's.
double dragCorrectionFactor(DragCorrectionModel model, double reynolds, const ShapeFactors& factors,
                            double crosswiseSphericity = 1.0, double stokesForceRatio = 1.0);

} // namespace sef
