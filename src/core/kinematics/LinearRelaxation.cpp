#include "kinematics/LinearRelaxation.hpp"

#include <Eigen/Eigenvalues>

#include <cmath>
#include <stdexcept>

namespace sef {

Vec3 FluidDrag::fluidRotationRateAt(const Mat3& R) const {
    if (!turnsWithBody) return fluidRotationRate;
    const Mat3 e = R.transpose() * strainRate * R;
    return halfVorticity + R * strainCoupling.cwiseProduct(Vec3(e(1, 2), e(0, 2), e(0, 1)));
}

RelaxationPropagator coaxialRelaxationPropagator(const Mat3& Q, const Vec3& massPrincipal, const Vec3& dragPrincipal,
                                                 const Vec3& u, const Vec3& f, double tau) {
    if (!isFinite(massPrincipal) || !(massPrincipal.minCoeff() > 0.0))
        throw std::invalid_argument("relaxationPropagator: mass must be finite and positive");
    if (!isFinite(dragPrincipal) || !(dragPrincipal.minCoeff() >= 0.0) || !isFinite(u) || !isFinite(f) ||
        !isFinite(Q))
        throw std::invalid_argument("relaxationPropagator: resistance must be finite and >= 0, fluid velocity and "
                                    "force finite");
    if (!std::isfinite(tau) || tau < 0.0) throw std::invalid_argument("relaxationPropagator: tau must be >= 0");
    Vec3 decay, phiOverMass;
    for (int k = 0; k < 3; ++k) {
        const double lambda = dragPrincipal[k] / massPrincipal[k], x = lambda * tau;
        decay[k] = std::exp(-x);
        phiOverMass[k] = (x > 1e-300 ? -std::expm1(-x) / lambda : tau) / massPrincipal[k];
    }
    RelaxationPropagator p;
    p.transition = Q * decay.asDiagonal() * Q.transpose();
    p.response = Q * phiOverMass.asDiagonal() * Q.transpose();
    p.offset = Q * ((Vec3::Ones() - decay).cwiseProduct(Q.transpose() * u) + phiOverMass.cwiseProduct(Q.transpose() * f));
    return p;
}

RelaxationPropagator relaxationPropagator(const Mat3& Q, const Vec3& massPrincipal, const Mat3& D,
                                          const Vec3& u, const Vec3& f, double tau) {
    if (!isFinite(massPrincipal) || !(massPrincipal.minCoeff() > 0.0))
        throw std::invalid_argument("relaxationPropagator: mass must be finite and positive");
    if (!isFinite(D) || !isFinite(u) || !isFinite(f) || !isFinite(Q))
        throw std::invalid_argument("relaxationPropagator: resistance, fluid velocity and force must be finite");
    if (!std::isfinite(tau) || tau < 0.0) throw std::invalid_argument("relaxationPropagator: tau must be >= 0");
    const double scale = D.cwiseAbs().maxCoeff();
    if ((D - D.transpose()).cwiseAbs().maxCoeff() > 1e-12 * scale)
        throw std::invalid_argument("relaxationPropagator: resistance must be symmetric");

    // M^-1/2 and M^1/2 from the principal axes.
    const Vec3 rootMass = massPrincipal.cwiseSqrt();
    const Mat3 invRoot = Q * rootMass.cwiseInverse().asDiagonal() * Q.transpose();
    const Mat3 root = Q * rootMass.asDiagonal() * Q.transpose();

    RelaxationPropagator p;
    if (scale == 0.0) { // no drag: a plain kick, v += tau M^-1 f
        p.offset = tau * (Q * (Q.transpose() * f).cwiseQuotient(massPrincipal));
        p.response = tau * (Q * massPrincipal.cwiseInverse().asDiagonal() * Q.transpose());
        return p;
    }
    const Mat3 S = invRoot * (0.5 * (D + D.transpose())) * invRoot;
    // The iterative solver, not Eigen's closed form (computeDirect): for a
    // nearly isotropic S (a sphere's drag with round-off off the diagonal)
    // the closed form can divide 0 by 0 while it extracts an eigenvector,
    // which kills an OpenFOAM run under FOAM_SIGFPE. For 3 x 3 it costs
    // about the same.
    Eigen::SelfAdjointEigenSolver<Mat3> eig(S);
    const Mat3& V = eig.eigenvectors();
    Vec3 decay, phi;
    for (int k = 0; k < 3; ++k) {
        const double lambda = std::max(eig.eigenvalues()[k], 0.0); // PSD: round-off below 0
        const double x = lambda * tau;
        decay[k] = std::exp(-x);
        phi[k] = x > 1e-300 ? -std::expm1(-x) / lambda : tau;
    }
    const Mat3 left = invRoot * V;       // M^-1/2 V
    const Mat3 right = V.transpose();    // V^T
    p.transition = left * decay.asDiagonal() * right * root;
    const Vec3 oneMinus = (Vec3::Ones() - decay);
    p.offset = left * (oneMinus.asDiagonal() * (right * (root * u)) + phi.asDiagonal() * (right * (invRoot * f)));
    p.response = left * phi.asDiagonal() * right * invRoot;
    return p;
}

} // namespace sef
