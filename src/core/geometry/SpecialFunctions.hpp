#pragma once
// Special functions used by the mass properties ([Superellipsoid-OpenFOAM], eq. 20).
#include <cmath>

namespace sef {

// Beta function B(x, y) = Gamma(x) Gamma(y) / Gamma(x + y), via log-gamma so
// that small arguments (eps -> 0.1) do not overflow. [Superellipsoid-OpenFOAM], eq. (20).
inline double logBeta(double x, double y) {
    return std::lgamma(x) + std::lgamma(y) - std::lgamma(x + y);
}

inline double betaFunction(double x, double y) { return std::exp(logBeta(x, y)); }

} // namespace sef
