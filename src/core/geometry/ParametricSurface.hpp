#pragma once
// Parametric form of the superellipsoid surface (Barr 1981; the surface of
// [Superellipsoid-OpenFOAM] eq. 3):
//   x = a sgn(cos eta cos w) |cos eta|^eps1 |cos w|^eps2
//   y = b sgn(cos eta sin w) |cos eta|^eps1 |sin w|^eps2
//   z = c sgn(sin eta)       |sin eta|^eps1
// with latitude eta in [-pi/2, pi/2] and longitude w in [-pi, pi).
// Used for sampling, rendering and surface meshes of the hydrodynamics solver.
#include "geometry/Superellipsoid.hpp"

#include <cmath>

namespace sef {

// sgn(t) |t|^p, the signed power of the parametric form.
inline double signedPower(double t, double p) {
    if (t == 0.0) return 0.0;
    return std::copysign(std::pow(std::fabs(t), p), t);
}

inline Vec3 surfacePoint(const Superellipsoid& s, double eta, double w) {
    const double ce = std::cos(eta), se = std::sin(eta);
    const double cw = std::cos(w), sw = std::sin(w);
    const double rho = signedPower(ce, s.eps1());
    return {s.a() * rho * signedPower(cw, s.eps2()), s.b() * rho * signedPower(sw, s.eps2()),
            s.c() * signedPower(se, s.eps1())};
}

} // namespace sef
