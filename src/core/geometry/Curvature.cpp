// Mean and Gaussian curvature of the implicit surface S = 0 ([Superquadric-LIGGGHTS],
// eqs. 38-39, written in the coordinate-free form of Goldman 2005):
//   mean     = (|g|^2 tr H - g^T H g) / (2 |g|^3)
//   gaussian = g^T adj(H) g / |g|^4
// Deviations from [Superquadric-LIGGGHTS]: (i) its K_mean carries the opposite sign
// (negative for a convex body with outward gradient); we return the positive
// value as the API asks. (ii) Its K_Gauss divides by F_Z^2 |g|^4, singular
// wherever F_Z = 0 and dimensionally inconsistent with the square root; the
// adjugate form is the standard, everywhere-defined expression of the same
// quantity, and we return the Gaussian curvature itself (1/R^2 for a sphere),
// not its square root. Both are invariant to the choice of implicit function
// (S and any monotone map of S give the same values on the surface).
#include "geometry/Superellipsoid.hpp"

#include <cmath>

namespace sef {

SurfaceCurvature Superellipsoid::curvature(const Vec3& x) const {
    const ImplicitDerivatives d = evaluate(x);
    const double gn = d.gradient.norm();
    if (gn == 0.0) return {0.0, 0.0}; // only at the centre, never on the surface
    // Scaled by |g| first (unit normal n, H/|g|) so that the large values
    // near edges cannot overflow in the products below.
    const Vec3 n = d.gradient / gn;
    const Mat3 H = d.hessian / gn;
    // Adjugate of the symmetric Hessian (cofactor matrix), no inversion.
    Mat3 adj;
    adj(0, 0) = H(1, 1) * H(2, 2) - H(1, 2) * H(2, 1);
    adj(1, 1) = H(0, 0) * H(2, 2) - H(0, 2) * H(2, 0);
    adj(2, 2) = H(0, 0) * H(1, 1) - H(0, 1) * H(1, 0);
    adj(0, 1) = adj(1, 0) = H(0, 2) * H(2, 1) - H(0, 1) * H(2, 2);
    adj(0, 2) = adj(2, 0) = H(0, 1) * H(1, 2) - H(0, 2) * H(1, 1);
    adj(1, 2) = adj(2, 1) = H(0, 2) * H(1, 0) - H(0, 0) * H(1, 2);
    const double mean = 0.5 * (H.trace() - n.dot(H * n));
    const double gaussian = n.dot(adj * n);
    return {mean, gaussian};
}

} // namespace sef
