#include "hydrodynamics/BoundaryIntegralResistance.hpp"

#include "hydrodynamics/RegularizedStokeslet.hpp"
#include "hydrodynamics/SurfaceQuadrature.hpp"

#include <Eigen/LU>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

namespace sef {

ResistanceTensors solveResistance(const Superellipsoid& shape, int resolution, double blobFactor,
                                  int* nodeCount) {
    if (!(blobFactor > 0.0) || !std::isfinite(blobFactor))
        throw std::invalid_argument("resistance solver: blobFactor must be > 0, got "
                                    + std::to_string(blobFactor));
    // Work in units of the smallest half-axis (paper 001 normalisation).
    const double lc = std::min({shape.a(), shape.b(), shape.c()});
    const Superellipsoid unit(shape.a() / lc, shape.b() / lc, shape.c() / lc, shape.eps1(),
                              shape.eps2());
    const SurfaceQuadrature quad = buildSurfaceQuadrature(unit, resolution);
    const int n = static_cast<int>(quad.nodes.size());
    const double delta = blobFactor * quad.maxSpacing;
    if (nodeCount) *nodeCount = n;

    // Symmetric form: A = W^1/2 G W^1/2 / (8 pi), unknown y = W^-1/2 F.
    Eigen::VectorXd sw(n);
    for (int j = 0; j < n; ++j) sw[j] = std::sqrt(quad.weights[j]);
    Eigen::MatrixXd A(3 * n, 3 * n);
    for (int j = 0; j < n; ++j)
        for (int i = j; i < n; ++i) {
            const Mat3 g = regularizedStokeslet(quad.nodes[i] - quad.nodes[j], delta)
                           * (sw[i] * sw[j] / (8.0 * M_PI));
            A.block<3, 3>(3 * i, 3 * j) = g;
            A.block<3, 3>(3 * j, 3 * i) = g.transpose();
        }

    // Right sides: surface velocity of the disturbance flow (mu = 1).
    // Columns 0-2: translation e_k; 3-5: rotation e_k x x; 6-8: -E x for the
    // pure strains with f' (E_yz), g' (E_xz), h' (E_xy) = 1.
    Eigen::MatrixXd rhs(3 * n, 9);
    for (int i = 0; i < n; ++i) {
        const Vec3& x = quad.nodes[i];
        Eigen::Matrix<double, 3, 9> v;
        v.setZero();
        v.block<3, 3>(0, 0) = Mat3::Identity();
        for (int k = 0; k < 3; ++k) v.col(3 + k) = Vec3::Unit(k).cross(x);
        v.col(6) = -Vec3(0.0, x.z(), x.y());
        v.col(7) = -Vec3(x.z(), 0.0, x.x());
        v.col(8) = -Vec3(x.y(), x.x(), 0.0);
        rhs.block<3, 9>(3 * i, 0) = sw[i] * v;
    }

    // The kernel is symmetric but indefinite (see RegularizedStokeslet.hpp):
    // partial-pivot LU, not Cholesky.
    const Eigen::MatrixXd y = A.partialPivLu().solve(rhs);
    if (!y.allFinite()) throw std::runtime_error("resistance solver: dense solve failed");

    // Force and torque on the fluid; the particle feels the opposite.
    Eigen::Matrix<double, 3, 9> force = Eigen::Matrix<double, 3, 9>::Zero(),
                                torque = Eigen::Matrix<double, 3, 9>::Zero();
    for (int j = 0; j < n; ++j)
        for (int col = 0; col < 9; ++col) {
            const Vec3 F = sw[j] * y.block<3, 1>(3 * j, col);
            force.col(col) += F;
            torque.col(col) += quad.nodes[j].cross(F);
        }
    ResistanceTensors r;
    for (int k = 0; k < 3; ++k) {
        r.K[k] = force(k, k) / M_PI;          // F_body = -pi c K v
        r.Omega[k] = torque(k, 3 + k) / M_PI; // T_body = -pi c^3 Omega omega
        r.Pi[k] = -torque(k, 6 + k) / M_PI;   // T_body = +pi c^3 Pi (f, g, h)
    }
    // Resistance is dissipative: K, Omega > 0. A violation means the
    // (indefinite) system was near-singular - never return it silently.
    if (!(r.K.minCoeff() > 0.0) || !(r.Omega.minCoeff() > 0.0) || !r.Pi.allFinite())
        throw std::runtime_error(
            "resistance solver: unphysical result (K or Omega <= 0) at resolution "
            + std::to_string(resolution) + "; the system is near-singular for this shape");
    return r;
}

NumericalResistance computeResistance(const Superellipsoid& shape,
                                      const ResistanceSolverOptions& options) {
    const auto start = std::chrono::steady_clock::now();
    NumericalResistance out;
    out.resolution = options.resolution;
    out.tensors = solveResistance(shape, options.resolution, options.blobFactor, &out.nodes);
    out.errorEstimate.K.setZero();
    out.errorEstimate.Omega.setZero();
    out.errorEstimate.Pi.setZero();
    const int coarse = std::max(2, static_cast<int>(std::lround(0.75 * options.resolution)));
    if (options.estimateError && coarse < options.resolution) {
        const ResistanceTensors c = solveResistance(shape, coarse, options.blobFactor);
        out.errorEstimate.K = (out.tensors.K - c.K).cwiseAbs();
        out.errorEstimate.Omega = (out.tensors.Omega - c.Omega).cwiseAbs();
        out.errorEstimate.Pi = (out.tensors.Pi - c.Pi).cwiseAbs();
    }
    out.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
}

} // namespace sef
