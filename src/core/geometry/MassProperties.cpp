// Principal moments of inertia of a uniform superellipsoid, paper 001
// eqs. (17)-(20) (after Jaklic et al.). With
//   X = int x^2 dV / a^2 = 1/2 abc eps1 eps2 B(3 eps2/2, eps2/2) B(eps1/2, 2 eps1 + 1)
//   Z = int z^2 dV / c^2 = 2 abc eps1 eps2 B(eps2/2, eps2/2 + 1) B(3 eps1/2, eps1 + 1)
// (int y^2 dV = b^2 X by the x-y symmetry of the cross-section):
//   Ixx = rho (b^2 X + c^2 Z), Iyy = rho (a^2 X + c^2 Z), Izz = rho (a^2 + b^2) X.
// Checked against a tanh-sinh quadrature of the second moments in
// tests/core/geometry/massPropertiesTest.cpp (agreement to 1e-9 and better).
#include "geometry/SpecialFunctions.hpp"
#include "geometry/Superellipsoid.hpp"

#include <cmath>
#include <sstream>

namespace sef {

Vec3 Superellipsoid::principalInertia(double density) const {
    if (!std::isfinite(density) || density <= 0.0) {
        std::ostringstream msg;
        msg << "principalInertia: density must be finite and > 0, got " << density;
        throw std::invalid_argument(msg.str());
    }
    const double e1 = eps1_, e2 = eps2_, abc = a_ * b_ * c_;
    const double X = 0.5 * abc * e1 * e2 * betaFunction(1.5 * e2, 0.5 * e2)
                     * betaFunction(0.5 * e1, 2.0 * e1 + 1.0);
    const double Z = 2.0 * abc * e1 * e2 * betaFunction(0.5 * e2, 0.5 * e2 + 1.0)
                     * betaFunction(1.5 * e1, e1 + 1.0);
    const double a2 = a_ * a_, b2 = b_ * b_, c2 = c_ * c_;
    return density * Vec3(b2 * X + c2 * Z, a2 * X + c2 * Z, (a2 + b2) * X);
}

} // namespace sef
