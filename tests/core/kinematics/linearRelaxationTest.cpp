// relaxationPropagator (kinematics/LinearRelaxation.hpp): the exact solution
// of M dv/dt = f + D (u - v) against the scalar closed form, an independent
// fine Runge-Kutta integration for tensors, the semigroup property, the
// stiff limit (terminal velocity, no overshoot) and bad input.
#include "kinematics/LinearRelaxation.hpp"

#include <Eigen/Eigenvalues>
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>

using namespace sef;

namespace {

Mat3 randomRotation(std::mt19937& rng) {
    std::normal_distribution<double> g(0.0, 1.0);
    return Quat(g(rng), g(rng), g(rng), g(rng)).normalized().toRotationMatrix();
}

// Symmetric positive definite with eigenvalues in [lo, hi].
Mat3 randomSpd(std::mt19937& rng, double lo, double hi) {
    std::uniform_real_distribution<double> e(lo, hi);
    const Mat3 R = randomRotation(rng);
    return R * Vec3(e(rng), e(rng), e(rng)).asDiagonal() * R.transpose();
}

// Classical RK4 of (1) with n steps: an independent reference.
Vec3 rk4(const Mat3& M, const Mat3& D, const Vec3& u, const Vec3& f, Vec3 v, double tau, int n) {
    const Mat3 Minv = M.inverse();
    auto rhs = [&](const Vec3& w) -> Vec3 { return Minv * (f + D * (u - w)); };
    const double h = tau / n;
    for (int k = 0; k < n; ++k) {
        const Vec3 k1 = rhs(v), k2 = rhs(v + 0.5 * h * k1), k3 = rhs(v + 0.5 * h * k2), k4 = rhs(v + h * k3);
        v += h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
    }
    return v;
}

} // namespace

TEST(LinearRelaxation, ScalarDragMatchesTheExponential) {
    const double m = 2e-6, d = 3e-4, tau = 5e-3; // response time m/d = 6.7e-3
    const Vec3 u(0.1, -0.2, 0.05), f(0, 0, -m * 9.81), v0(0.3, 0.0, -0.1);
    const RelaxationPropagator p = relaxationPropagator(Mat3::Identity(), Vec3::Constant(m), d * Mat3::Identity(), u, f, tau);
    const Vec3 terminal = u + f / d;
    const Vec3 want = terminal + (v0 - terminal) * std::exp(-d * tau / m);
    EXPECT_LT((p.apply(v0) - want).norm(), 1e-14 * want.norm());
}

// A sphere's drag, isotropic up to round-off: equal diagonal entries and
// equal off-diagonal ones 1e-17 of them (taken from a fluidized-bed run that
// stopped on a floating-point trap in the eigen-decomposition). The result
// is the scalar one; the tests run under OpenFOAM's traps.
TEST(LinearRelaxation, IsotropicDragWithRoundOffOffTheDiagonal) {
    const double a = 0x1.618fa43a40f6ep+0, e = -0x1.4b42b1775adbp-55, tau = 0.3;
    Mat3 D;
    D << a, e, e, e, a, e, e, e, a;
    const Vec3 u(0.1, -0.2, 0.05), f(0, 0, -9.81), v0(0.3, 0.0, -0.1);
    const RelaxationPropagator p = relaxationPropagator(Mat3::Identity(), Vec3::Ones(), D, u, f, tau);
    const Vec3 terminal = u + f / a;
    const Vec3 want = terminal + (v0 - terminal) * std::exp(-a * tau);
    EXPECT_LT((p.apply(v0) - want).norm(), 1e-14 * want.norm());
}

TEST(LinearRelaxation, TensorsMatchFineRungeKutta) {
    std::mt19937 rng(5);
    for (int k = 0; k < 20; ++k) {
        const Mat3 Q = randomRotation(rng);
        std::uniform_real_distribution<double> mass(0.5, 4.0);
        const Vec3 principal(mass(rng), mass(rng), mass(rng));
        const Mat3 M = Q * principal.asDiagonal() * Q.transpose();
        const Mat3 D = randomSpd(rng, 0.1, 3.0);
        const Vec3 u(0.3, -1.0, 0.7), f(0.2, 0.1, -2.0), v0(-0.5, 0.4, 1.0);
        const double tau = 0.8;
        const Vec3 exact = relaxationPropagator(Q, principal, D, u, f, tau).apply(v0);
        // RK4 with 2000 steps of h |M^-1 D| <= 0.003: error ~ h^4 ~ 1e-11
        EXPECT_LT((exact - rk4(M, D, u, f, v0, tau, 2000)).norm(), 1e-10) << k;
    }
}

TEST(LinearRelaxation, TwoHalvesEqualTheWhole) {
    std::mt19937 rng(9);
    const Mat3 Q = randomRotation(rng);
    const Vec3 principal(1.0, 2.0, 3.0);
    const Mat3 D = randomSpd(rng, 0.5, 5.0);
    const Vec3 u(1, 2, 3), f(-1, 0, 2), v0(0.1, 0.2, 0.3);
    const Vec3 whole = relaxationPropagator(Q, principal, D, u, f, 0.6).apply(v0);
    const RelaxationPropagator half = relaxationPropagator(Q, principal, D, u, f, 0.3);
    EXPECT_LT((half.apply(half.apply(v0)) - whole).norm(), 1e-14 * whole.norm());
}

TEST(LinearRelaxation, StiffDragLandsOnTheTerminalVelocityWithoutOvershoot) {
    // Response times 1e-4 of tau: one application gives the terminal velocity
    // u + D^-1 f; along every mode the approach is monotone (the transition's
    // eigenvalues, similar to exp(-lambda tau), lie in [0, 1]).
    std::mt19937 rng(13);
    const Mat3 Q = randomRotation(rng);
    const Vec3 principal(1e-6, 2e-6, 5e-6);
    const Mat3 D = randomSpd(rng, 1e-2, 5e-2);
    const Vec3 u(0.01, 0.0, -0.02), f(0, 0, -1e-5), v0(1.0, -1.0, 0.5);
    const RelaxationPropagator p = relaxationPropagator(Q, principal, D, u, f, 1.0);
    const Vec3 terminal = u + D.ldlt().solve(f);
    EXPECT_LT((p.apply(v0) - terminal).norm(), 1e-12 * terminal.norm());
    // The transition exp(-M^-1 D tau) is similar to the symmetric
    // S = M^1/2 T M^-1/2 = exp(-M^-1/2 D M^-1/2 tau): S symmetric (so the
    // eigenvalues are real) and its eigenvalues in [0, 1].
    const Mat3 rootM = Q * principal.cwiseSqrt().asDiagonal() * Q.transpose();
    const Mat3 rootMInv = Q * principal.cwiseSqrt().cwiseInverse().asDiagonal() * Q.transpose();
    const Mat3 S = rootM * p.transition * rootMInv;
    EXPECT_NEAR((S - S.transpose()).norm(), 0.0, 1e-14);
    const Vec3 ev = Eigen::SelfAdjointEigenSolver<Mat3>(0.5 * (S + S.transpose()), Eigen::EigenvaluesOnly).eigenvalues();
    for (int k = 0; k < 3; ++k) {
        EXPECT_GE(ev[k], 0.0);
        EXPECT_LE(ev[k], 1.0);
    }
    // response 1/100 of the step: approached from below, never passed
    const Mat3 Dm = 1e4 * Q * principal.asDiagonal() * Q.transpose();
    Vec3 v = Vec3::Zero();
    const Vec3 target = u + Dm.ldlt().solve(f);
    const RelaxationPropagator step = relaxationPropagator(Q, principal, Dm, u, f, 0.01);
    double previousGap = (v - target).norm();
    for (int k = 0; k < 50; ++k) {
        v = step.apply(v);
        const double gap = (v - target).norm();
        EXPECT_LE(gap, previousGap + 1e-15 * target.norm()); // round-off once there
        previousGap = gap;
    }
}

TEST(LinearRelaxation, NoDragIsAPlainKick) {
    const RelaxationPropagator p = relaxationPropagator(Mat3::Identity(), Vec3::Constant(2.0), Mat3::Zero(),
                                                        Vec3(5, 5, 5), Vec3(0, 0, -4), 0.5);
    EXPECT_EQ(p.apply(Vec3(1, 0, 0)), Vec3(1, 0, -1));
}

TEST(LinearRelaxation, BadInputIsRejected) {
    const Mat3 I = Mat3::Identity();
    EXPECT_THROW(relaxationPropagator(I, Vec3(1, 0, 1), I, Vec3::Zero(), Vec3::Zero(), 1.0), std::invalid_argument);
    Mat3 asym = I;
    asym(0, 1) = 0.5;
    EXPECT_THROW(relaxationPropagator(I, Vec3::Ones(), asym, Vec3::Zero(), Vec3::Zero(), 1.0), std::invalid_argument);
    EXPECT_THROW(relaxationPropagator(I, Vec3::Ones(), I, Vec3(NAN, 0, 0), Vec3::Zero(), 1.0), std::invalid_argument);
    EXPECT_THROW(relaxationPropagator(I, Vec3::Ones(), I, Vec3::Zero(), Vec3::Zero(), -1.0), std::invalid_argument);
}

TEST(LinearRelaxation, ResponseAddsAForceWithoutANewDecomposition) {
    // The step adds the gyroscopic torque of a turning drag to a propagator
    // built without it: offset + response f must be the propagator with f.
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> x(-1.0, 1.0);
    for (int trial = 0; trial < 20; ++trial) {
        const Mat3 Q = randomRotation(rng);
        const Vec3 mass(1.0 + x(rng) * 0.5, 2.0, 0.7);
        const Mat3 D = trial % 5 == 0 ? Mat3(Mat3::Zero()) : randomSpd(rng, 1e-3, 50.0); // also no drag
        const Vec3 u(x(rng), x(rng), x(rng)), f(x(rng), x(rng), x(rng));
        const double tau = 0.1;
        const RelaxationPropagator without = relaxationPropagator(Q, mass, D, u, Vec3::Zero(), tau);
        const RelaxationPropagator with = relaxationPropagator(Q, mass, D, u, f, tau);
        EXPECT_LT((without.offset + without.response * f - with.offset).norm(), 1e-14 * (1.0 + with.offset.norm()))
            << trial;
        EXPECT_EQ(without.response, with.response);
    }
}

TEST(LinearRelaxation, CoaxialPropagatorIsTheGeneralOne) {
    // Mass and drag diagonal in the same frame Q: the closed form without
    // the eigen-solver equals the general solution.
    std::mt19937 rng(12);
    std::uniform_real_distribution<double> x(-1.0, 1.0), pos(0.01, 40.0);
    for (int trial = 0; trial < 20; ++trial) {
        const Mat3 Q = randomRotation(rng);
        const Vec3 mass(pos(rng), pos(rng), pos(rng));
        const Vec3 drag = trial % 4 == 0 ? Vec3(0.0, pos(rng), pos(rng)) : Vec3(pos(rng), pos(rng), pos(rng));
        const Vec3 u(x(rng), x(rng), x(rng)), f(x(rng), x(rng), x(rng));
        const double tau = 0.3;
        const RelaxationPropagator general =
            relaxationPropagator(Q, mass, Q * drag.asDiagonal() * Q.transpose(), u, f, tau);
        const RelaxationPropagator coaxial = coaxialRelaxationPropagator(Q, mass, drag, u, f, tau);
        EXPECT_LT((general.transition - coaxial.transition).norm(), 1e-12) << trial;
        EXPECT_LT((general.offset - coaxial.offset).norm(), 1e-12 * (1.0 + general.offset.norm())) << trial;
        EXPECT_LT((general.response - coaxial.response).norm(), 1e-12 * (1.0 + general.response.norm())) << trial;
    }
    EXPECT_THROW(coaxialRelaxationPropagator(Mat3::Identity(), Vec3::Ones(), Vec3(-1, 1, 1), Vec3::Zero(),
                                             Vec3::Zero(), 1.0),
                 std::invalid_argument);
}
