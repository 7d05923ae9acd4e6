#include "hydrodynamics/Gmres.hpp"

#include <cmath>
#include <vector>

namespace sef {

GmresResult gmres(const Eigen::MatrixXd& A, const Eigen::VectorXd& b, Eigen::VectorXd& x,
                  double tolerance, int maxIterations, int restart) {
    const Eigen::Index n = b.size();
    if (x.size() != n) x = Eigen::VectorXd::Zero(n);
    GmresResult out;
    const double bNorm = b.norm();
    if (bNorm == 0.0) {
        x.setZero();
        out.converged = true;
        return out;
    }
    const int m = std::max(1, restart);
    Eigen::MatrixXd V(n, m + 1);
    Eigen::MatrixXd H = Eigen::MatrixXd::Zero(m + 1, m);
    std::vector<double> cs(m), sn(m);
    Eigen::VectorXd g(m + 1);
    while (out.iterations < maxIterations) {
        const Eigen::VectorXd r = b - A * x;
        double beta = r.norm();
        out.relativeResidual = beta / bNorm;
        if (out.relativeResidual <= tolerance) {
            out.converged = true;
            return out;
        }
        V.col(0) = r / beta;
        g.setZero();
        g[0] = beta;
        H.setZero();
        int k = 0;
        for (; k < m && out.iterations < maxIterations; ++k) {
            ++out.iterations;
            Eigen::VectorXd w = A * V.col(k);
            for (int i = 0; i <= k; ++i) {
                H(i, k) = V.col(i).dot(w);
                w -= H(i, k) * V.col(i);
            }
            H(k + 1, k) = w.norm();
            if (H(k + 1, k) > 0.0) V.col(k + 1) = w / H(k + 1, k);
            // Apply the previous rotations, then a new one zeroing H(k+1, k).
            for (int i = 0; i < k; ++i) {
                const double t = cs[i] * H(i, k) + sn[i] * H(i + 1, k);
                H(i + 1, k) = -sn[i] * H(i, k) + cs[i] * H(i + 1, k);
                H(i, k) = t;
            }
            const double d = std::hypot(H(k, k), H(k + 1, k));
            cs[k] = H(k, k) / d;
            sn[k] = H(k + 1, k) / d;
            H(k, k) = d;
            H(k + 1, k) = 0.0;
            g[k + 1] = -sn[k] * g[k];
            g[k] = cs[k] * g[k];
            out.relativeResidual = std::abs(g[k + 1]) / bNorm;
            if (out.relativeResidual <= tolerance) {
                ++k;
                break;
            }
        }
        // x += V_k y with H_k y = g_k (upper triangular).
        const Eigen::VectorXd y =
            H.topLeftCorner(k, k).triangularView<Eigen::Upper>().solve(g.head(k));
        x += V.leftCols(k) * y;
        if (out.relativeResidual <= tolerance) {
            // Confirm with the true residual (the recursion can drift).
            out.relativeResidual = (b - A * x).norm() / bNorm;
            out.converged = out.relativeResidual <= 10.0 * tolerance;
            if (out.converged) return out;
        }
    }
    return out;
}

} // namespace sef
