#include "hydrodynamics/EllipsoidResistance.hpp"

#include "hydrodynamics/CarlsonElliptic.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace sef {

namespace {

void requireHalfAxes(double a, double b, double c) {
    for (double v : {a, b, c}) {
        if (!std::isfinite(v) || v <= 0.0) {
            std::ostringstream msg;
            msg << "ellipsoid half-axes must be finite and > 0, got (" << a << ", " << b << ", "
                << c << ")";
            throw std::invalid_argument(msg.str());
        }
    }
}

} // namespace

JefferyIntegrals jefferyIntegrals(double a, double b, double c) {
    requireHalfAxes(a, b, c);
    const double a2 = a * a, b2 = b * b, c2 = c * c, abc = a * b * c;
    return {2.0 / 3.0 * abc * carlsonRD(b2, c2, a2), 2.0 / 3.0 * abc * carlsonRD(c2, a2, b2),
            2.0 / 3.0 * abc * carlsonRD(a2, b2, c2), 2.0 * abc * carlsonRF(a2, b2, c2)};
}

ResistanceTensors ellipsoidResistance(double a, double b, double c) {
    const JefferyIntegrals J = jefferyIntegrals(a, b, c);
    const double lc = std::min({a, b, c}); // [Superellipsoid-OpenFOAM]: c = smallest half-axis
    const double a2 = a * a, b2 = b * b, c2 = c * c, abc = a * b * c;
    ResistanceTensors r;
    // Oberbeck/Edwards translation, F_i / (pi mu lc).
    const double k = 16.0 * abc / lc;
    r.K = {k / (J.chi0 + a2 * J.alpha0), k / (J.chi0 + b2 * J.beta0),
           k / (J.chi0 + c2 * J.gamma0)};
    // Jeffery (1922) torques, T_i / (pi mu lc^3).
    const double t = 16.0 * abc / (3.0 * lc * lc * lc);
    const double dx = b2 * J.beta0 + c2 * J.gamma0, dy = c2 * J.gamma0 + a2 * J.alpha0,
                 dz = a2 * J.alpha0 + b2 * J.beta0;
    r.Omega = {t * (b2 + c2) / dx, t * (c2 + a2) / dy, t * (a2 + b2) / dz};
    r.Pi = {t * (b2 - c2) / dx, t * (c2 - a2) / dy, t * (a2 - b2) / dz};
    return r;
}

} // namespace sef
