#pragma once
// Restarted GMRES (Saad & Schultz, SIAM J. Sci. Stat. Comput. 7 (1986) 856)
// for dense systems A x = b: modified Gram-Schmidt Arnoldi, Givens rotations.
// Used for the second-kind boundary integral equations, whose spectra are
// clustered away from zero, so a few dozen iterations replace an O(n^3) LU.
#include <Eigen/Core>

namespace sef {

struct GmresResult {
    bool converged = false;
    int iterations = 0;
    double relativeResidual = 0.0; // |b - A x| / |b| (estimate from the recursion)
};

// Solves A x = b starting from x (resized and zeroed if its size is wrong).
// Stops when |b - A x| <= tolerance |b| or after maxIterations matrix-vector
// products; restart = Krylov dimension before restarting.
GmresResult gmres(const Eigen::MatrixXd& A, const Eigen::VectorXd& b, Eigen::VectorXd& x,
                  double tolerance, int maxIterations, int restart = 60);

} // namespace sef
