#pragma once
// Range checks of derived quantities in log space (the representable range
// of Superellipsoid.hpp), shared by the shape and the mass properties.
#include "geometry/Superellipsoid.hpp"

#include <cmath>
#include <cstdio>
#include <string>

namespace sef::detail {

inline bool representable(double logValue) {
    return logValue >= Superellipsoid::logRepresentableMin
           && logValue <= Superellipsoid::logRepresentableMax;
}

// exp(logValue) printed as "4.19e-360" without computing it (it may not be
// a double at all).
inline std::string formatLogValue(double logValue) {
    const double log10Value = logValue / std::log(10.0);
    double exponent = std::floor(log10Value);
    double mantissa = std::pow(10.0, log10Value - exponent);
    if (mantissa >= 9.995) { // would print as "10"
        mantissa /= 10.0;
        exponent += 1.0;
    }
    char text[48];
    std::snprintf(text, sizeof text, "%.3ge%+.0f", mantissa, exponent);
    return text;
}

// "outside the representable range [1.5e-154, 1.3e154] = [sqrt(DBL_MIN), sqrt(DBL_MAX)]"
inline std::string representableRangeText() {
    return "outside the representable range [" + formatLogValue(Superellipsoid::logRepresentableMin)
           + ", " + formatLogValue(Superellipsoid::logRepresentableMax)
           + "] = [sqrt(DBL_MIN), sqrt(DBL_MAX)]";
}

} // namespace sef::detail
