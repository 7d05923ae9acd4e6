#pragma once
// Finite-Reynolds-number correction of the rotational drag, as a factor
// f_R >= 1 on the rotation resistance tensor: T = f_R pi mu c^3 R Omega R^T
// (omega_f - omega) ([Superellipsoid-OpenFOAM] eq. 21 times f_R). It depends on the spin
// Reynolds number
//   Re_R = rho_f |omega - omega_f| d_eq^2 / mu
// with omega_f the torque-free rotation rate of the flow (half the
// vorticity, plus the strain part for a non-sphere) and d_eq the
// volume-equivalent diameter.
//   stokes   f_R = 1: eq. (21) as computed, valid for Re_R << 1.
//   loth     f_R = 1 + 5 / (64 pi) Re_R^0.6: the torque on a sphere spinning
//            in fluid at rest (Loth 2008, AIAA J. 46(4) 801-809, eq. for
//            the spin torque; restated by Shi & Rzehak 2019, Chem. Eng. Sci.
//            208, 115145), a fit to the numerical torques of Dennis, Singh &
//            Ingham (1980, J. Fluid Mech. 101) and the measurements of
//            Sawatzki (1970), Re_R up to about 1000. Against the piecewise
//            fit of those data, C_R = 12.9 Re_R^-1/2 + 128.4 / Re_R for
//            32 < Re_R < 1000 and the Stokes 64 pi / Re_R below (C_R = T /
//            (rho_f / 2 (d / 2)^5 |omega|^2)), f_R lies 20 % above at Re_R =
//            32, 9 % above at 100 and 4 % below at 1000 (tested): the two
//            readings of the same data differ by that much.
//            For other shapes the sphere's factor is applied to the shape's
//            own tensor at its d_eq (the same rule as schillerNaumann for
//            translation); no correlation for non-spherical rotation at
//            finite Re was available.
// The factor is taken at the start of each fluid step and held over it, as
// the translational correction is.
#include <string>

namespace sef {

enum class RotationalDragModel { stokes, loth };

// From the dictionary name (stokes | loth); throws std::invalid_argument
// naming the bad name and the valid ones.
RotationalDragModel rotationalDragModelFromName(const std::string& name);
const char* rotationalDragModelName(RotationalDragModel model);

// f_R at spin Reynolds number Re_R >= 0 (finite; else std::invalid_argument).
double rotationalDragFactor(RotationalDragModel model, double spinReynolds);

} // namespace sef
