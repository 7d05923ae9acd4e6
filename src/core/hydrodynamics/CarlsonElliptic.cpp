#include "hydrodynamics/CarlsonElliptic.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace sef {

namespace {

void requireArguments(const char* name, double x, double y, double z) {
    const bool finite = std::isfinite(x) && std::isfinite(y) && std::isfinite(z);
    const int zeros = (x == 0.0) + (y == 0.0) + (z == 0.0);
    if (!finite || x < 0.0 || y < 0.0 || z < 0.0 || zeros > 1)
        throw std::invalid_argument(std::string(name)
                                    + ": arguments must be finite, >= 0, at most one zero");
}

} // namespace

// Carlson (1995), algorithm for R_F: duplicate until the arguments agree to
// the tolerance, then a fifth-order Taylor series in the deviations.
double carlsonRF(double x, double y, double z) {
    requireArguments("carlsonRF", x, y, z);
    for (int iter = 0; iter < 100; ++iter) {
        const double mu = (x + y + z) / 3.0;
        const double dx = 1.0 - x / mu, dy = 1.0 - y / mu, dz = 1.0 - z / mu;
        if (std::max({std::fabs(dx), std::fabs(dy), std::fabs(dz)}) < 1.0e-3) {
            const double e2 = dx * dy - dz * dz, e3 = dx * dy * dz;
            return (1.0 - e2 / 10.0 + e3 / 14.0 + e2 * e2 / 24.0 - 3.0 * e2 * e3 / 44.0)
                   / std::sqrt(mu);
        }
        const double sx = std::sqrt(x), sy = std::sqrt(y), sz = std::sqrt(z);
        const double lambda = sx * (sy + sz) + sy * sz;
        x = 0.25 * (x + lambda);
        y = 0.25 * (y + lambda);
        z = 0.25 * (z + lambda);
    }
    throw std::runtime_error("carlsonRF: no convergence");
}

// Carlson (1995), algorithm for R_D (the degenerate R_J with p = z).
double carlsonRD(double x, double y, double z) {
    requireArguments("carlsonRD", x, y, z);
    if (z == 0.0) throw std::invalid_argument("carlsonRD: z must be > 0");
    double sum = 0.0, factor = 1.0;
    for (int iter = 0; iter < 100; ++iter) {
        const double mu = (x + y + 3.0 * z) / 5.0;
        const double dx = 1.0 - x / mu, dy = 1.0 - y / mu, dz = 1.0 - z / mu;
        if (std::max({std::fabs(dx), std::fabs(dy), std::fabs(dz)}) < 1.0e-3) {
            const double ea = dx * dy, eb = dz * dz, ec = ea - eb, ed = ea - 6.0 * eb,
                         ee = ed + ec + ec;
            const double s = 1.0 + ed * (-3.0 / 14.0 + 9.0 / 88.0 * ed - 4.5 / 26.0 * dz * ee)
                             + dz * (ee / 6.0 + dz * (-9.0 / 22.0 * ec + dz * 3.0 / 26.0 * ea));
            return 3.0 * sum + factor * s / (mu * std::sqrt(mu));
        }
        const double sx = std::sqrt(x), sy = std::sqrt(y), sz = std::sqrt(z);
        const double lambda = sx * (sy + sz) + sy * sz;
        sum += factor / (sz * (z + lambda));
        factor *= 0.25;
        x = 0.25 * (x + lambda);
        y = 0.25 * (y + lambda);
        z = 0.25 * (z + lambda);
    }
    throw std::runtime_error("carlsonRD: no convergence");
}

} // namespace sef
