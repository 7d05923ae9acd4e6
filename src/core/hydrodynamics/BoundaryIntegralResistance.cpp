#include "hydrodynamics/BoundaryIntegralResistance.hpp"

#include "hydrodynamics/Gmres.hpp"
#include "hydrodynamics/SurfaceQuadrature.hpp"

#include <Eigen/LU>

#include <algorithm>
#include <array>
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

// Right-hand sides (disturbance velocity on the surface, mu = 1), grouped by
// their parity under the reflections S = diag(s): U(S x) = chi(S) S U(x) with
// chi(S) = s_x^px s_y^py s_z^pz. Columns: 0-2 translation e_k; 3-5 rotation
// e_k x x; 6-8 minus the pure strains f' (E_yz), g' (E_xz), h' (E_xy) = 1.
struct ParityClass {
    Vec3 power;
    std::array<int, 2> columns; // -1: unused
};
constexpr int parityClassCount = 6;
const ParityClass parityClasses[parityClassCount] = {
    {Vec3(1, 0, 0), {0, -1}}, {Vec3(0, 1, 0), {1, -1}}, {Vec3(0, 0, 1), {2, -1}},
    {Vec3(0, 1, 1), {3, 6}},  {Vec3(1, 0, 1), {4, 7}},  {Vec3(1, 1, 0), {5, 8}}};

// Far below the discretisation error (ellipsoids at n = 12: ~1e-10).
constexpr double gmresTolerance = 1e-11;

Vec3 boundaryVelocity(int column, const Vec3& x) {
    if (column < 3) return Vec3::Unit(column);
    if (column < 6) return Vec3::Unit(column - 3).cross(x);
    if (column == 6) return -Vec3(0.0, x.z(), x.y());
    if (column == 7) return -Vec3(x.z(), 0.0, x.x());
    return -Vec3(x.y(), x.x(), 0.0);
}

double character(const ParityClass& c, const Vec3& sign) {
    double chi = 1.0;
    for (int k = 0; k < 3; ++k)
        if (c.power[k] != 0.0) chi *= sign[k];
    return chi;
}

// Nystrom matrix of the completed double-layer equation restricted to one
// parity class: unknowns q_l on the positive octant, q(S y_l) = chi(S) S q_l
// on the mirror images. Row i (target x_i, positive octant):
//   sum_j w_j K(x_i, y_j) (q_j - q_i)                      double layer, with
//        the singularity subtracted through  PV int K dS = I/2, so the
//        exterior limit  -q/2 + PV int K q dS  becomes  int K (q - q_i) dS
//   + G(x_i) F / (8 pi) + R(x_i) L / (8 pi)               completion
// with F = sum_j w_j q_j, L = sum_j w_j y_j x q_j (Power & Miranda 1987).
Eigen::MatrixXd assembleParityClass(const SurfaceQuadrature& quad, const ParityClass& pc) {
    const int m = quad.octantSize;
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(3 * m, 3 * m);
    double chi[8];
    for (int o = 0; o < 8; ++o) chi[o] = character(pc, octantSign(o));
    const double dl = -3.0 / (4.0 * M_PI); // double-layer prefactor -6/(8 pi)
    const double s8 = 1.0 / (8.0 * M_PI);
    for (int i = 0; i < m; ++i) {
        const Vec3& x = quad.nodes[i];
        const double rx = x.norm();
        // Stokeslet G = I/r + r r^T/r^3 and rotlet R L = L x r / r^3 at the centre.
        const Mat3 Gx = (Mat3::Identity() / rx + x * x.transpose() / (rx * rx * rx)) * s8;
        const Mat3 Rx = -cross(x) * (s8 / (rx * rx * rx));
        Mat3 diag = Mat3::Zero();
        for (int o = 0; o < 8; ++o) {
            const Vec3 sign = octantSign(o);
            for (int l = 0; l < m; ++l) {
                const int j = o * m + l;
                const Vec3& y = quad.nodes[j];
                const double w = quad.weights[j];
                Mat3 blk = w * (Gx + Rx * cross(y));
                if (j != i) {
                    // K = -(6/8 pi) (r.n) r r^T / r^5, r = x - y, n outward at y
                    // (Pozrikidis 1992, eq. 4.2.2 with T_ijk = -6 r_i r_j r_k / r^5).
                    const Vec3 r = x - y;
                    const double r2 = r.squaredNorm();
                    const Mat3 k = (dl * w * r.dot(quad.normals[j]) / (r2 * r2 * std::sqrt(r2)))
                                   * (r * r.transpose());
                    blk += k;
                    diag -= k;
                }
                A.block<3, 3>(3 * i, 3 * l) += chi[o] * (blk * sign.asDiagonal());
            }
        }
        A.block<3, 3>(3 * i, 3 * i) += diag;
    }
    return A;
}

} // namespace

ResistanceTensors solveResistance(const Superellipsoid& shape, int resolution, int* nodeCount) {
    // Work in units of the smallest half-axis ([Superellipsoid-OpenFOAM] normalisation), mu = 1.
    const double lc = std::min({shape.a(), shape.b(), shape.c()});
    const Superellipsoid unit(shape.a() / lc, shape.b() / lc, shape.c() / lc, shape.eps1(),
                              shape.eps2());
    const SurfaceQuadrature quad = buildSurfaceQuadrature(unit, resolution);
    const int n = static_cast<int>(quad.nodes.size());
    const int m = quad.octantSize;
    if (nodeCount) *nodeCount = n;

    Eigen::Matrix<double, 3, 9> force = Eigen::Matrix<double, 3, 9>::Zero(),
                                torque = Eigen::Matrix<double, 3, 9>::Zero();
    for (int c = 0; c < parityClassCount; ++c) {
        const ParityClass& pc = parityClasses[c];
        const int ncol = pc.columns[1] < 0 ? 1 : 2;
        Eigen::MatrixXd rhs(3 * m, ncol);
        for (int i = 0; i < m; ++i)
            for (int k = 0; k < ncol; ++k)
                rhs.block<3, 1>(3 * i, k) = boundaryVelocity(pc.columns[k], quad.nodes[i]);
        Eigen::MatrixXd A = assembleParityClass(quad, pc);
        // Block-Jacobi (left) preconditioning: the diagonal blocks carry the
        // subtracted -sum_j w_j K_ij, far from -I/2 at nodes crowded near
        // edges, which spreads the spectrum.
        for (int i = 0; i < m; ++i) {
            const Mat3 dInv = A.block<3, 3>(3 * i, 3 * i).inverse();
            A.middleRows<3>(3 * i) = dInv * A.middleRows<3>(3 * i);
            rhs.middleRows<3>(3 * i) = dInv * rhs.middleRows<3>(3 * i);
        }
        Eigen::MatrixXd q(3 * m, ncol);
        for (int k = 0; k < ncol; ++k) {
            // Second kind: GMRES converges in 25-50 iterations for smooth and
            // blocky shapes, 60-200 for diamonds (measured); LU only as the
            // fallback.
            Eigen::VectorXd x;
            const GmresResult g = gmres(A, rhs.col(k), x, gmresTolerance, 400, 200);
            q.col(k) = g.converged ? x : Eigen::VectorXd(A.partialPivLu().solve(rhs.col(k)));
        }
        if (!isFinite(q)) throw std::runtime_error("resistance solver: dense solve failed");
        // Force and torque on the fluid = strengths of the completion
        // stokeslet and rotlet (the double layer exerts none).
        for (int k = 0; k < ncol; ++k)
            for (int o = 0; o < 8; ++o) {
                const Vec3 sign = octantSign(o);
                const double chi = character(pc, sign);
                for (int l = 0; l < m; ++l) {
                    const Vec3 f =
                        (chi * quad.weights[l]) * sign.cwiseProduct(q.block<3, 1>(3 * l, k));
                    force.col(pc.columns[k]) += f;
                    torque.col(pc.columns[k]) += quad.nodes[o * m + l].cross(f);
                }
            }
    }
    ResistanceTensors r;
    for (int k = 0; k < 3; ++k) {
        r.K[k] = force(k, k) / M_PI;          // F_body = -pi c K v
        r.Omega[k] = torque(k, 3 + k) / M_PI; // T_body = -pi c^3 Omega omega
        r.Pi[k] = -torque(k, 6 + k) / M_PI;   // T_body = +pi c^3 Pi (f, g, h)
    }
    if (!(r.K.minCoeff() > 0.0) || !(r.Omega.minCoeff() > 0.0) || !isFinite(r.Pi))
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
