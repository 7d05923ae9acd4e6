#include "hydrodynamics/BoundaryIntegralResistance.hpp"

#include "hydrodynamics/SurfaceQuadrature.hpp"

#include <Eigen/LU>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

namespace sef {

namespace {

Mat3 cross(const Vec3& v) {
    Mat3 m;
    m << 0.0, -v.z(), v.y(), v.z(), 0.0, -v.x(), -v.y(), v.x(), 0.0;
    return m;
}

} // namespace

ResistanceTensors solveResistance(const Superellipsoid& shape, int resolution, int* nodeCount) {
    // Work in units of the smallest half-axis (paper 001 normalisation), mu = 1.
    const double lc = std::min({shape.a(), shape.b(), shape.c()});
    const Superellipsoid unit(shape.a() / lc, shape.b() / lc, shape.c() / lc, shape.eps1(),
                              shape.eps2());
    const SurfaceQuadrature quad = buildSurfaceQuadrature(unit, resolution);
    const int n = static_cast<int>(quad.nodes.size());
    if (nodeCount) *nodeCount = n;

    const double dl = -3.0 / (4.0 * M_PI); // double-layer prefactor -6/(8 pi)
    const double s8 = 1.0 / (8.0 * M_PI);
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(3 * n, 3 * n);
    for (int i = 0; i < n; ++i) {
        const Vec3& x = quad.nodes[i];
        const double rx = x.norm();
        const Mat3 Gx = (Mat3::Identity() / rx + x * x.transpose() / (rx * rx * rx)) * s8;
        const Mat3 Rx = -cross(x) * (s8 / (rx * rx * rx));
        Mat3 diag = Mat3::Zero();
        for (int j = 0; j < n; ++j) {
            const Vec3& y = quad.nodes[j];
            const double w = quad.weights[j];
            Mat3 blk = w * (Gx + Rx * cross(y));
            if (j != i) {
                const Vec3 r = x - y;
                const double r2 = r.squaredNorm();
                const Mat3 k = (dl * w * r.dot(quad.normals[j]) / (r2 * r2 * std::sqrt(r2)))
                               * (r * r.transpose());
                blk += k;
                diag -= k;
            }
            A.block<3, 3>(3 * i, 3 * j) = blk;
        }
        A.block<3, 3>(3 * i, 3 * i) += diag;
    }

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
        rhs.block<3, 9>(3 * i, 0) = v;
    }
    const Eigen::MatrixXd q = A.partialPivLu().solve(rhs);
    if (!q.allFinite()) throw std::runtime_error("resistance solver: dense solve failed");

    Eigen::Matrix<double, 3, 9> force = Eigen::Matrix<double, 3, 9>::Zero(),
                                torque = Eigen::Matrix<double, 3, 9>::Zero();
    for (int j = 0; j < n; ++j)
        for (int col = 0; col < 9; ++col) {
            const Vec3 F = quad.weights[j] * q.block<3, 1>(3 * j, col);
            force.col(col) += F;
            torque.col(col) += quad.nodes[j].cross(F);
        }
    ResistanceTensors r;
    for (int k = 0; k < 3; ++k) {
        r.K[k] = force(k, k) / M_PI;
        r.Omega[k] = torque(k, 3 + k) / M_PI;
        r.Pi[k] = -torque(k, 6 + k) / M_PI;
    }
    if (!(r.K.minCoeff() > 0.0) || !(r.Omega.minCoeff() > 0.0) || !r.Pi.allFinite())
        throw std::runtime_error("resistance solver: unphysical result (K or Omega <= 0) at "
                                 "resolution " + std::to_string(resolution));
    return r;
}

NumericalResistance computeResistance(const Superellipsoid& shape,
                                      const ResistanceSolverOptions& options) {
    const auto start = std::chrono::steady_clock::now();
    NumericalResistance out;
    out.resolution = options.resolution;
    out.tensors = solveResistance(shape, options.resolution, &out.nodes);
    out.errorEstimate.K.setZero();
    out.errorEstimate.Omega.setZero();
    out.errorEstimate.Pi.setZero();
    const int coarse = std::max(2, static_cast<int>(std::lround(0.75 * options.resolution)));
    if (options.estimateError && coarse < options.resolution) {
        const ResistanceTensors c = solveResistance(shape, coarse);
        out.errorEstimate.K = (out.tensors.K - c.K).cwiseAbs();
        out.errorEstimate.Omega = (out.tensors.Omega - c.Omega).cwiseAbs();
        out.errorEstimate.Pi = (out.tensors.Pi - c.Pi).cwiseAbs();
    }
    out.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
}

} // namespace sef
