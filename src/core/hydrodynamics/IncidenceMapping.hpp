#pragma once
// Mapping a superellipsoid onto the incidence correlation of
// IncidenceCorrelation.hpp (Zastawny et al. 2012: prolate spheroids of
// aspect ratio 1.25 and 2.5).
//
// Rule, with the half-axes sorted hi >= mid >= lo (any body axes):
//   eps1, eps2   both within incidenceEpsTolerance (0.1) of 1, else
//                std::invalid_argument: the correlation is for ellipsoids;
//                eps = 0.9 or 1.1 already changes the volume by about 10 %
//                (6 % with one eps), about the accuracy of such correlations
//                (Hoelzer-Sommerfeld: 14 % mean deviation, DragCorrection.hpp),
//                so blockier or pinched shapes are refused, not approximated.
//   sphere       hi / lo <= 1 + 1e-9: standard sphere drag, C_L = C_T = 0.
//   prolate-like the two smaller half-axes are the closer pair
//                (mid / lo <= hi / mid) and mid / lo <= 1 + incidenceAxisTolerance:
//                symmetry axis along the largest half-axis, aspect ratio
//                hi / sqrt(mid lo) (> 1).
//   oblate-like  otherwise, with hi / mid <= 1 + incidenceAxisTolerance:
//                axis along the smallest half-axis, aspect ratio
//                lo / sqrt(hi mid) (< 1).
//   otherwise    triaxial (e.g. 3 : 2 : 1): std::invalid_argument.
// The sqrt of the near-equal pair keeps the volume of the spheroid.
//
// Coefficients of a mapped shape (incidenceCoefficients below):
//   sphere                 {sphereDragCoefficient(Re), 0, 0}
//   prolate, 1 < r <= 2.5  linear in ln r between the nodes r = 1 (sphere),
//                          1.25 and 2.5 (the correlated shapes), each
//                          coefficient at the same Re and alpha. All three
//                          use d_eq for Re and the reference area, so the
//                          blend is between like quantities. Continuous in r;
//                          exact at the nodes. Between the sphere and 1.25 it
//                          is an assumption, not data (ln r: symmetric under
//                          r -> 1/r, the natural distance from the sphere).
//                          Not monotone in r where the fit is weak: at low Re
//                          the 1.25 fit lies below the sphere's drag (22.9 vs
//                          27.6 at Re = 1), the fit's error, not physics.
//   prolate, r > 2.5       std::invalid_argument: beyond the data (2.5 within
//                          a relative 1e-3 counts as 2.5: half-axes
//                          typed with a few digits).
//   oblate                 std::invalid_argument: no oblate coefficients could
//                          be verified (Sanjeevi et al. 2018's 0.4 spheroid
//                          was not found), and none are guessed.
#include "geometry/Superellipsoid.hpp"
#include "hydrodynamics/IncidenceCorrelation.hpp"

namespace sef {

constexpr double incidenceEpsTolerance = 0.1;
constexpr double incidenceAxisTolerance = 0.1;

struct IncidenceMapping {
    IncidenceClass shapeClass = IncidenceClass::sphere;
    double aspectRatio = 1.0; // polar / equatorial half-axis
    int axis = 0;             // body axis of symmetry: 0 x', 1 y', 2 z' (0 for a sphere)
};

// The rule above; throws std::invalid_argument naming the reason.
IncidenceMapping incidenceMapping(const Superellipsoid& shape);

// Coefficients of a mapped shape at Re and alpha (as incidenceCoefficients of
// IncidenceCorrelation.hpp, including its Re extension). Pure function of
// (class, aspect ratio, Re, alpha); mapping.axis is not used.
IncidenceCoefficients incidenceCoefficients(const IncidenceMapping& mapping, double reynolds, double alpha);

} // namespace sef
