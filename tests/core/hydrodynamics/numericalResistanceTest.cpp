// Boundary-integral solver against the exact tensors (default resolution)
// and the file cache.
#include "hydrodynamics/BoundaryIntegralResistance.hpp"
#include "hydrodynamics/EllipsoidResistance.hpp"
#include "hydrodynamics/ResistanceCache.hpp"
#include "hydrodynamics/SurfaceQuadrature.hpp"

#include <gtest/gtest.h>
#include <cmath>
#include <filesystem>

using namespace sef;

namespace {

void expectClose(const Vec3& got, const Vec3& want, double relTol, double scale, const char* what) {
    for (int k = 0; k < 3; ++k)
        EXPECT_NEAR(got[k], want[k], relTol * scale) << what << "[" << k << "]";
}

} // namespace

TEST(SurfaceQuadrature, AreaOfSphereAndBlockyShape) {
    // Sphere area 4 pi; the cube limit (eps -> 0) is approached by eps = 0.2:
    // its area lies between the inscribed sphere's and the cube's (24).
    const SurfaceQuadrature s = buildSurfaceQuadrature(Superellipsoid(1, 1, 1, 1, 1), 6);
    double area = 0.0;
    for (double w : s.weights) area += w;
    EXPECT_NEAR(area, 4.0 * M_PI, 1e-8);
    const SurfaceQuadrature b = buildSurfaceQuadrature(Superellipsoid(1, 1, 1, 0.2, 0.2), 12);
    double areaB = 0.0;
    for (double w : b.weights) areaB += w;
    EXPECT_GT(areaB, 4.0 * M_PI);
    EXPECT_LT(areaB, 24.0);
    EXPECT_THROW(buildSurfaceQuadrature(Superellipsoid(1, 1, 1, 1, 1), 1), std::invalid_argument);
}

TEST(NumericalResistance, SphereDefaultResolution) {
    // Acceptance: K = 6, Omega = 8, Pi = 0 within 0.5%.
    const ResistanceTensors r = solveResistance(Superellipsoid(0.3, 0.3, 0.3, 1, 1),
                                                ResistanceSolverOptions::defaultResolution);
    expectClose(r.K, Vec3::Constant(6.0), 0.005, 6.0, "K");
    expectClose(r.Omega, Vec3::Constant(8.0), 0.005, 8.0, "Omega");
    expectClose(r.Pi, Vec3::Zero(), 0.005, 8.0, "Pi");
}

TEST(NumericalResistance, TriaxialEllipsoidAgainstJeffery) {
    // Acceptance: within 1% of the exact tensors at default resolution. The
    // Pi tolerance is relative to Omega of the same axis (Pi is a difference
    // of nearly equal parts for near-spheroids). Also checks the Pi signs.
    const double a = 3.0, b = 2.0, c = 1.0;
    const ResistanceTensors exact = ellipsoidResistance(a, b, c);
    const ResistanceTensors r =
        solveResistance(Superellipsoid(a, b, c, 1, 1), ResistanceSolverOptions::defaultResolution);
    for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(r.K[k], exact.K[k], 0.01 * exact.K[k]) << k;
        EXPECT_NEAR(r.Omega[k], exact.Omega[k], 0.01 * exact.Omega[k]) << k;
        EXPECT_NEAR(r.Pi[k], exact.Pi[k], 0.01 * exact.Omega[k]) << k;
        EXPECT_EQ(r.Pi[k] > 0, exact.Pi[k] > 0) << k;
    }
}

TEST(NumericalResistance, OblateSpheroidAgainstJeffery) {
    const ResistanceTensors exact = ellipsoidResistance(2.0, 2.0, 1.0);
    const ResistanceTensors r = solveResistance(Superellipsoid(2.0, 2.0, 1.0, 1, 1), 6);
    for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(r.K[k], exact.K[k], 0.01 * exact.K[k]) << k;
        EXPECT_NEAR(r.Omega[k], exact.Omega[k], 0.01 * exact.Omega[k]) << k;
        EXPECT_NEAR(r.Pi[k], exact.Pi[k], 0.01 * exact.Omega[k]) << k;
    }
}

TEST(ResistanceCache, RoundTripAndKey) {
    const auto dir = std::filesystem::temp_directory_path() / "sef-hydro-cache-test";
    std::filesystem::remove_all(dir);
    const Superellipsoid shape(1.5, 1.0, 1.0, 0.8, 1.0);
    ResistanceSolverOptions opt;
    opt.resolution = 4;
    bool hit = true;
    const NumericalResistance first = cachedResistance(shape, opt, dir.string(), &hit);
    EXPECT_FALSE(hit);
    // Same ratios, other size: same entry (tensors are dimensionless).
    const NumericalResistance second =
        cachedResistance(Superellipsoid(3.0, 2.0, 2.0, 0.8, 1.0), opt, dir.string(), &hit);
    EXPECT_TRUE(hit);
    EXPECT_EQ(first.tensors.K, second.tensors.K);
    EXPECT_EQ(first.tensors.Pi, second.tensors.Pi);
    EXPECT_EQ(first.errorEstimate.Omega, second.errorEstimate.Omega);
    // Another resolution is another key.
    opt.resolution = 3;
    EXPECT_FALSE(loadCachedResistance(shape, opt, dir.string()).has_value());
    std::filesystem::remove_all(dir);
}
