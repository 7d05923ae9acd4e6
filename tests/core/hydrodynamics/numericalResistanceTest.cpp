// Boundary-integral solver against the exact tensors (default resolution)
// and the file cache.
#include "hydrodynamics/BoundaryIntegralResistance.hpp"
#include "hydrodynamics/EllipsoidResistance.hpp"
#include "hydrodynamics/Gmres.hpp"
#include "hydrodynamics/ResistanceCache.hpp"
#include "hydrodynamics/SurfaceQuadrature.hpp"

#include <gtest/gtest.h>
#include <Eigen/LU>
#include <cmath>
#include <cstdlib>
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

TEST(SurfaceQuadrature, VolumeByDivergenceTheoremAndMirrorOrder) {
    // (1/3) int x.n dS = V and int n dS = 0 check weights and outward normals,
    // including the graded rule of diamond shapes (eps > 1). Measured relative
    // errors at n = 8: 3e-11 (ellipsoid), 4e-7 (eps 0.3), 4e-7 (eps 1.8).
    for (const Superellipsoid& sh : {Superellipsoid(3.0, 2.0, 1.0, 1.0, 1.0),
                                     Superellipsoid(1.0, 1.0, 1.0, 0.3, 0.3),
                                     Superellipsoid(2.0, 1.0, 1.0, 1.8, 1.8)}) {
        const SurfaceQuadrature q = buildSurfaceQuadrature(sh, 8);
        double v = 0.0;
        Vec3 nSum = Vec3::Zero();
        for (size_t j = 0; j < q.nodes.size(); ++j) {
            v += q.weights[j] * q.nodes[j].dot(q.normals[j]) / 3.0;
            nSum += q.weights[j] * q.normals[j];
            EXPECT_NEAR(q.normals[j].norm(), 1.0, 1e-12);
        }
        EXPECT_NEAR(v, sh.volume(), 1e-5 * sh.volume()) << sh.eps1();
        EXPECT_LT(nSum.norm(), 1e-12);
        // Mirror order used by the solver's parity reduction.
        ASSERT_EQ(static_cast<int>(q.nodes.size()), 8 * q.octantSize);
        const int o = 5, l = q.octantSize / 2;
        EXPECT_EQ(q.nodes[o * q.octantSize + l], octantSign(o).cwiseProduct(q.nodes[l]));
    }
}

TEST(NumericalResistance, SphereDefaultResolution) {
    // Acceptance: K = 6, Omega = 8, Pi = 0 within 0.5%.
    const ResistanceTensors r = solveResistance(Superellipsoid(0.3, 0.3, 0.3, 1, 1),
                                                ResistanceSolverOptions::defaultResolution);
    expectClose(r.K, Vec3::Constant(6.0), 0.005, 6.0, "K");
    expectClose(r.Omega, Vec3::Constant(8.0), 0.005, 8.0, "Omega");
    expectClose(r.Pi, Vec3::Zero(), 0.005, 8.0, "Pi");
}

static void expectEllipsoid(double a, double b, double c, int resolution, double relTol) {
    // Pi relative to Omega of the same axis (Pi is a difference of nearly
    // equal parts for near-spheroids); also checks the Pi signs.
    const ResistanceTensors exact = ellipsoidResistance(a, b, c);
    const ResistanceTensors r = solveResistance(Superellipsoid(a, b, c, 1, 1), resolution);
    for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(r.K[k], exact.K[k], relTol * exact.K[k]) << a << b << c << " K " << k;
        EXPECT_NEAR(r.Omega[k], exact.Omega[k], relTol * exact.Omega[k]) << a << b << c << " O " << k;
        EXPECT_NEAR(r.Pi[k], exact.Pi[k], relTol * exact.Omega[k]) << a << b << c << " Pi " << k;
        if (std::abs(exact.Pi[k]) > 1e-9 * exact.Omega[k]) {
            EXPECT_EQ(r.Pi[k] > 0, exact.Pi[k] > 0) << k;
        }
    }
}

TEST(Gmres, MatchesLuOnNonsymmetricSystem) {
    // A well-conditioned nonsymmetric system (identity plus a small random
    // part, as for second-kind equations): GMRES with restarts must reach
    // the LU solution; a singular system must report non-convergence.
    const int n = 120;
    std::srand(7);
    const Eigen::MatrixXd A =
        Eigen::MatrixXd::Identity(n, n) + 0.3 / std::sqrt(n) * Eigen::MatrixXd::Random(n, n);
    const Eigen::VectorXd b = Eigen::VectorXd::Random(n);
    Eigen::VectorXd x;
    const GmresResult g = gmres(A, b, x, 1e-12, 200, 10);
    EXPECT_TRUE(g.converged);
    EXPECT_LT((x - A.partialPivLu().solve(b)).norm(), 1e-9 * x.norm());
    Eigen::MatrixXd singular = A;
    singular.row(0).setZero();
    Eigen::VectorXd y;
    Eigen::VectorXd b1 = b;
    b1[0] = 1.0;
    EXPECT_FALSE(gmres(singular, b1, y, 1e-12, 100, 20).converged);
}

TEST(NumericalResistance, AspectFiveEllipsoidsAtDefaultResolution) {
    // Acceptance: within 1% of the exact tensors at the default resolution
    // for a/c, b/c up to 5 (the hardest: flat 5:5:1 and 5:3:1 with rim
    // curvature radius c^2/a = c/5). Measured: < 1e-9 (see doc).
    expectEllipsoid(5.0, 5.0, 1.0, ResistanceSolverOptions::defaultResolution, 0.01);
    // 5:3:1 at a lower resolution to keep the test fast (measured 6e-9 at
    // n = 12), with the same tolerance.
    expectEllipsoid(5.0, 3.0, 1.0, 12, 0.01);
}

TEST(NumericalResistance, EllipsoidsConvergeSpectrally) {
    // The Nystrom rule is spectrally accurate on smooth surfaces: measured
    // errors at n = 6 are 1e-5 (5:1:1) to 1e-7 (3:2:1); 1e-4 leaves margin
    // while still failing for any O(h^2) (first-kind / low-order) scheme.
    expectEllipsoid(3.0, 2.0, 1.0, 6, 1e-4);
    expectEllipsoid(5.0, 1.0, 1.0, 6, 1e-4);
    expectEllipsoid(2.0, 2.0, 1.0, 6, 1e-4);
}

// Blocky (eps 0.2) and diamond (eps 1.8) cubes: no exact solution. Checks:
// (i) convergence - resolutions 6 and 8 agree to 0.2% (measured 8e-4 and
// 2e-4; the acceptance asks 2% between default and finest); (ii) cubic
// symmetry K_x = K_y = K_z; (iii) the inclusion bounds of Stokes drag
// (a body containing another has the larger resistance; Hill & Power 1956):
// between the inscribed and circumscribed spheres.
static void expectCubeConverges(double eps, double rIn, double rOut) {
    const Superellipsoid shape(1.0, 1.0, 1.0, eps, eps);
    const ResistanceTensors c = solveResistance(shape, 6), f = solveResistance(shape, 8);
    for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(c.K[k], f.K[k], 2e-3 * f.K[k]) << eps << " K " << k;
        EXPECT_NEAR(c.Omega[k], f.Omega[k], 2e-3 * f.Omega[k]) << eps << " Omega " << k;
        EXPECT_NEAR(f.Pi[k], 0.0, 1e-8 * f.Omega[k]) << eps << " Pi " << k;
        EXPECT_NEAR(f.K[k], f.K[0], 1e-9 * f.K[0]);
        EXPECT_NEAR(f.Omega[k], f.Omega[0], 1e-9 * f.Omega[0]);
        EXPECT_GT(f.K[k], 6.0 * rIn);
        EXPECT_LT(f.K[k], 6.0 * rOut);
        EXPECT_GT(f.Omega[k], 8.0 * rIn * rIn * rIn);
        EXPECT_LT(f.Omega[k], 8.0 * rOut * rOut * rOut);
    }
}

TEST(NumericalResistance, BlockyCubeConverges) {
    // eps = 0.2: inscribed sphere radius 1, corner at t (1,1,1) with
    // 3 t^10 = 1 ([Superellipsoid-OpenFOAM], eq. 3).
    expectCubeConverges(0.2, 1.0, std::sqrt(3.0) * std::pow(3.0, -0.1));
}

TEST(NumericalResistance, DiamondConverges) {
    // eps = 1.8: circumscribed radius 1 (vertices), inscribed radius
    // sqrt(3) t with 3 t^(2/1.8) = 1 (closest point along (1,1,1)).
    expectCubeConverges(1.8, std::sqrt(3.0) * std::pow(3.0, -0.9), 1.0);
}

TEST(NumericalResistance, ErrorEstimateFromTwoResolutions) {
    // computeResistance: the estimate is |result - result at round(0.75 n)|,
    // nonzero for a non-ellipsoid and smaller than 2% of the value.
    ResistanceSolverOptions opt;
    opt.resolution = 8;
    const NumericalResistance r = computeResistance(Superellipsoid(2.0, 1.0, 1.0, 0.5, 1.5), opt);
    const ResistanceTensors c = solveResistance(Superellipsoid(2.0, 1.0, 1.0, 0.5, 1.5), 6);
    EXPECT_EQ(r.resolution, 8);
    EXPECT_GT(r.nodes, 0);
    for (int k = 0; k < 3; ++k) {
        EXPECT_DOUBLE_EQ(r.errorEstimate.K[k], std::abs(r.tensors.K[k] - c.K[k]));
        EXPECT_GT(r.errorEstimate.K[k], 0.0);
        EXPECT_LT(r.errorEstimate.K[k], 0.02 * r.tensors.K[k]);
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
