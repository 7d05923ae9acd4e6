#include "hydrodynamics/RegularizedStokeslet.hpp"

#include <cmath>

namespace sef {

Mat3 regularizedStokeslet(const Vec3& r, double delta) {
    const double dist = r.norm();
    const double p = dist / delta;
    const double c = 2.0 / (3.0 * std::sqrt(M_PI));
    double a, b; // s1/|r| and s2/|r|^3
    if (p < 1e-3) {
        // Taylor limits: s1 ~ 16 p/(3 sqrt(pi)), s2 ~ 32 p^3/(3 sqrt(pi)).
        a = 16.0 / (3.0 * std::sqrt(M_PI) * delta);
        b = 32.0 / (3.0 * std::sqrt(M_PI) * delta * delta * delta);
    } else {
        const double e = std::erf(p), g = p * std::exp(-p * p), p2 = p * p;
        a = (e - c * (2.0 * p2 - 5.0) * g) / dist;
        b = (e - c * ((4.0 * p2 - 14.0) * p2 + 3.0) * g) / (dist * dist * dist);
    }
    return a * Mat3::Identity() + b * r * r.transpose();
}

} // namespace sef
