#pragma once
// Hindered drag: the drag of a particle among others, from the fluid volume
// fraction at its centre, as a factor on the single-particle law
// (DragCorrection.hpp). Notation:
//   eps   fluid volume fraction at the particle (0 < eps <= 1), phi = 1 - eps
//   w     interstitial slip u - v
//   Re    rho_f |w| d_eq / mu (FluidForces' reynolds), Re_s = eps Re the
//         superficial slip Reynolds number, the one all four laws use
//   D_st  pi mu c R K R^T, the Stokes tensor of [Superellipsoid-OpenFOAM] eqs. (5)-(6)
//   f     the single-particle correction, dragCorrectionFactor
// Dilute, F = f(Re) D_st w. With a voidage law F = g D_st w, g = f(Re_s) h,
// and h = voidageFactor(model, eps, Re_s):
//   none       g = f(Re): FluidForces does not call anything here.
//   diFelice   Di Felice 1994 (Int. J. Multiphase Flow 20:153): the drag in a
//              suspension is the single particle's at the superficial slip
//              eps w, times eps^-chi: f(Re_s) D_st (eps w) eps^-chi, so
//                h = eps^(1 - chi),
//                chi = 3.7 - 0.65 exp(-(1.5 - log10 Re_s)^2 / 2).
//              Fitted to sedimentation and fluidization data, eps about
//              0.4-1, Re_s up to about 1e4. Made to reproduce
//              Richardson-Zaki: U / u_t = eps^n with n = chi + 1 = 4.7 in
//              Stokes flow (R-Z 4.65) and (chi + 1)/2 = 2.34-2.35 in Newton's
//              regime at Re_s 1e4-1e5 (R-Z 2.39).
//   rong       Rong, Dong & Yu 2013 (Chem. Eng. Sci. 99:44), the same form
//              with the exponent fitted to lattice-Boltzmann flow through
//              random packings of spheres:
//                chi = 2.65 (eps + 1) - (5.3 - 3.5 eps) eps^2 exp(-(1.5 - log10 Re_s)^2 / 2).
//              Spheres; eps about 0.4-1 and Re_s about 0.01-1000 as recalled
//              from the paper (not re-checked here against the original).
//   beetstra   Beetstra, van der Hoef & Kuipers 2007 (AIChE J. 53:489),
//              lattice-Boltzmann arrays of spheres:
//                F_B(phi, Re_s) = 10 phi / eps^2 + eps^2 (1 + 1.5 sqrt(phi))
//                  + 0.413 Re_s / (24 eps^2) [1/eps + 3 phi eps + 8.4 Re_s^-0.343]
//                                          / [1 + 10^(3 phi) Re_s^(-(1 + 4 phi)/2)],
//              the drag without the mean-pressure-gradient part over
//              3 pi mu d U, U = eps |w|. Only the dense-over-isolated ratio is
//              taken, on top of the shape's own single-particle law, so that a
//              non-sphere keeps its orientation dependence:
//                h = eps F_B(phi, Re_s) / F_B(0, Re_s)
//              (a sphere with f = 1 at Re -> 0: exactly Beetstra's eps F_B).
//              Spheres, phi 0.1-0.6 (and 0), Re_s up to 1000. F_B(0, Re_s)
//              itself is not the isolated sphere's drag above Re_s ~ 30 (+16 %
//              over Schiller-Naumann at 100, +69 % at 1000; -6 to -7 % at 1-10):
//              with the ratio the dense drag at high Re is that much below
//              Beetstra's own eps F_B.
//   tenneti    Tenneti, Garg & Subramaniam 2011 (Int. J. Multiphase Flow
//              37:1072), particle-resolved DNS of fixed arrays of spheres:
//                F_T(phi, Re_s) = (1 + 0.15 Re_s^0.687) / eps^3 + 5.81 phi / eps^3
//                  + 0.48 phi^(1/3) / eps^4 + phi^3 Re_s (0.95 + 0.61 phi^3 / eps^2),
//              the TOTAL fluid force (mean pressure gradient included) over
//              3 pi mu d U. In a homogeneous bed F_total = F_drag + V_p (-grad p)
//              and n F_total = -grad p give F_drag = eps F_total, so
//                h = eps^2 F_T(phi, Re_s) / F_T(0, Re_s),  F_T(0, Re) = 1 + 0.15 Re^0.687.
//              Spheres, phi 0.1-0.5, Re_s 0.01-300.
//   gidaspow   Gidaspow 1994 (Multiphase Flow and Fluidization, Academic
//              Press), CFD-DEM's most used law: Ergun's equation below
//              eps = 0.8, Wen & Yu above. As a drag over the sphere's Stokes
//              drag at the interstitial slip,
//                Ergun:  (150 phi + 1.75 Re_s) / (18 eps)   (Ergun's pressure
//                        drop with the particles' -V grad p share taken out:
//                        the drag is eps times the total force)
//                Wen-Yu: f_SN(Re_s) eps^-2.65,
//              and h is that over the isolated sphere's Schiller-Naumann
//              f_SN(Re_s). The switch at eps = 0.8 is a jump (about 15 % at
//              low Re), as in the original law. Packed and fluidized beds of
//              spheres (Ergun: eps about 0.35-0.8, any Re).
// All five go to h = 1 at eps = 1 (exactly). Each h is the drag without the
// particle's share of the mean pressure gradient: the averaged equations'
// "model A" (Zhou et al. 2010, J. Fluid Mech. 661), where the particle also
// feels -V grad p (FluidForces' pressureFromField) and the fluid -eps grad p. At Re_s = 0 (no slip) the laws
// take their Stokes limits: chi without its exp term, F_B and F_T without
// their Re terms (which vanish; Beetstra's bracket is evaluated in a form
// that cannot overflow).
#include <string>

namespace sef {

enum class VoidageModel { none, diFelice, rong, beetstra, tenneti, gidaspow };

// From the dictionary name (none | diFelice | rong | beetstra | tenneti | gidaspow);
// throws std::invalid_argument naming the bad name and the valid ones.
VoidageModel voidageModelFromName(const std::string& name);
const char* voidageModelName(VoidageModel model);

// Below this fluid fraction the laws are evaluated at it: no law means
// anything there (random close packing is eps ~ 0.36), and h grows like
// eps^-2.7 (diFelice) or 1/eps^2 (tenneti), so without a floor it would
// overflow for eps near the smallest doubles. The cloud clips eps to its
// alphaMin before calling.
constexpr double voidageMinimumFluidFraction = 1e-6;

// The exponents chi above (superficialReynolds >= 0, fluidFraction in (0, 1]).
double diFeliceExponent(double superficialReynolds);
double rongExponent(double fluidFraction, double superficialReynolds);

// F_B and F_T above (solidFraction in [0, 1), superficialReynolds >= 0).
double beetstraDrag(double solidFraction, double superficialReynolds);
double tennetiTotalForce(double solidFraction, double superficialReynolds);

// h = g / f(Re_s): the factor on top of the single-particle law evaluated at
// Re_s, so the whole factor on D_st is
// dragCorrectionFactor(model, Re_s, ...) * voidageFactor(...). 1 for none.
// Finite for every fluidFraction in (0, 1] and every finite Re_s >= 0 (the
// Re-dependent ratios are evaluated scaled by max(1, Re_s)).
// All functions here throw std::invalid_argument for arguments outside their
// ranges (or not finite), naming the value.
double voidageFactor(VoidageModel model, double fluidFraction, double superficialReynolds);

} // namespace sef
