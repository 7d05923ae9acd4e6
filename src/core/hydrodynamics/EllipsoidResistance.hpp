#pragma once
// Exact Stokes resistance of a triaxial ellipsoid (half-axes a, b, c along
// body x, y, z; any order), in the normalisation of [Superellipsoid-OpenFOAM] (see
// ResistanceTensors.hpp; lengths scaled by the smallest half-axis).
//
// Translation: Oberbeck (1876), Edwards (1892); in the form of Gallily &
// Cohen, J. Colloid Interface Sci. 68 (1979) 338:
//   F_i = 16 pi mu a b c / (chi0 + a_i^2 alpha_i) (u_i - v_i)
// Rotation and strain torque: Jeffery, Proc. R. Soc. Lond. A 102 (1922) 161:
//   T_x = 16 pi mu a b c / (3 (b^2 beta0 + c^2 gamma0))
//         [ (b^2 - c^2) f' + (b^2 + c^2)(xi' - omega_x) ]   (cyclic in x, y, z)
// with Jeffery's integrals (Delta = sqrt((a^2+l)(b^2+l)(c^2+l)))
//   alpha0 = abc int_0^inf dl / ((a^2+l) Delta),  beta0, gamma0 likewise,
//   chi0   = abc int_0^inf dl / Delta,
// evaluated with Carlson's symmetric integrals:
//   alpha0 = (2/3) abc R_D(b^2, c^2, a^2),  chi0 = 2 abc R_F(a^2, b^2, c^2).
#include "hydrodynamics/ResistanceTensors.hpp"

namespace sef {

struct JefferyIntegrals {
    double alpha0, beta0, gamma0, chi0;
};

// Throws std::invalid_argument unless a, b, c are finite and > 0.
JefferyIntegrals jefferyIntegrals(double a, double b, double c);

// Exact K, Omega, Pi of the ellipsoid (a, b, c). Throws like jefferyIntegrals.
ResistanceTensors ellipsoidResistance(double a, double b, double c);

} // namespace sef
