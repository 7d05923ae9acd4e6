#pragma once
// Carlson's symmetric elliptic integrals (B. C. Carlson, "Numerical
// computation of real or complex elliptic integrals", Numer. Algorithms 10
// (1995) 13-26), by the duplication theorem:
//   R_F(x,y,z) = 1/2 int_0^inf dt / sqrt((t+x)(t+y)(t+z))
//   R_D(x,y,z) = 3/2 int_0^inf dt / ((t+z) sqrt((t+x)(t+y)(t+z)))
// Arguments must be >= 0 with at most one zero (R_D: z > 0); otherwise
// std::invalid_argument. Relative accuracy ~1e-15.
namespace sef {

double carlsonRF(double x, double y, double z);
double carlsonRD(double x, double y, double z);

} // namespace sef
