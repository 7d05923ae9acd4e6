#pragma once
// Regularized Stokeslet for on-surface evaluation of the single-layer
// potential (times 8 pi mu):
//   G_ij(r) = delta_ij s1(r/delta)/|r| + r_i r_j s2(r/delta)/|r|^3
// with the Gaussian-based smoothing functions of Tlupova & Beale, "Regularized
// single and double layer integrals in 3D Stokes flow", J. Comput. Phys. 386
// (2019) 568:
//   s1(p) = erf(p) - (2/(3 sqrt(pi))) (2p^2 - 5) p exp(-p^2)
//   s2(p) = erf(p) - (2/(3 sqrt(pi))) (4p^4 - 14p^2 + 3) p exp(-p^2)
// Both satisfy int_0^inf (s - 1) dp = 0 and int_0^inf p^2 (s - 1) dp = 0, so
// the regularisation error of the on-surface integral (tangent plane +
// curvature expansion) cancels through O(delta^4) on a smooth surface, and
// the integrand is smooth enough for Gauss-Legendre once delta exceeds about
// two node spacings.
// Caveat (measured): this kernel is not positive definite; the collocation
// matrix becomes indefinite and, for slender or flat bodies (aspect > ~3),
// near-singular. (A Gaussian-blob kernel is SPD but only O(delta) accurate.)
#include "geometry/Types.hpp"

namespace sef {

// Returns the 3x3 block G(r) for the separation r = x_target - x_source.
Mat3 regularizedStokeslet(const Vec3& r, double delta);

} // namespace sef
