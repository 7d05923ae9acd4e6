// Euler's equations and the splitting integrator for rigid-body rotation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "kinematics/OrientationUpdate.hpp"
#include "kinematics/RigidBodyIntegrator.hpp"

using namespace sef;

namespace {
constexpr double kPiIntegrator = 3.14159265358979323846;
} // namespace

TEST(EulerEquations, HandComputedCase) {
    // [Superellipsoid-OpenFOAM], eqs. (14)-(16) with I = (1,2,3), w' = (1,2,3), T' = (1,1,1):
    // dw_x = (1 + 2*3*(2-3))/1, dw_y = (1 + 3*1*(3-1))/2, dw_z = (1 + 1*2*(1-2))/3
    const Vec3 a = eulerAngularAcceleration(Vec3(1, 2, 3), Vec3(1, 2, 3), Vec3(1, 1, 1));
    EXPECT_NEAR(a.x(), -5.0, 1e-15);
    EXPECT_NEAR(a.y(), 3.5, 1e-15);
    EXPECT_NEAR(a.z(), -1.0 / 3.0, 1e-15);
}

TEST(RigidBodyIntegrator, ConstantTorqueAboutPrincipalAxisIsExact) {
    // Spin about body z with torque along z: w(t) = w0 + T t / I,
    // angle(t) = w0 t + T t^2 / (2 I). Kick-rotate-kick turns by the mean
    // angular velocity of each step, so this is exact up to round-off.
    RigidBodyState s;
    s.principalInertia = Vec3(1.0, 2.0, 4.0);
    s.angularVelocity = Vec3(0, 0, 0.5);
    const double T = 0.8, dt = 0.01;
    const int n = 100;
    for (int i = 0; i < n; ++i) advanceRotation(s, Vec3(0, 0, T), dt);
    const double t = n * dt;
    EXPECT_NEAR(s.angularVelocity.z(), 0.5 + T * t / 4.0, 1e-14);
    EXPECT_NEAR(s.angularVelocity.head<2>().norm(), 0.0, 1e-14);
    const double angle = 0.5 * t + T * t * t / 8.0;
    EXPECT_NEAR(rotationVectorFromQuaternion(s.orientation).z(), angle, 1e-13);
}

TEST(RigidBodyIntegrator, ConstantForceTranslationIsExact) {
    RigidBodyState s;
    s.mass = 3.0;
    s.position = Vec3(1, 2, 3);
    s.velocity = Vec3(-1, 0.5, 2);
    const Vec3 F(0.3, -9.81 * 3.0, 1.2);
    for (int i = 0; i < 50; ++i) advanceRigidBody(s, F, Vec3::Zero(), 0.02);
    const double t = 1.0;
    const Vec3 x = Vec3(1, 2, 3) + Vec3(-1, 0.5, 2) * t + 0.5 * F / 3.0 * t * t;
    EXPECT_LT((s.position - x).norm(), 1e-13);
    EXPECT_LT((s.velocity - (Vec3(-1, 0.5, 2) + F / 3.0 * t)).norm(), 1e-13);
}

namespace {
// Run the free rotation with the integrator from w'(0) = w0Body. Returns
// state after n steps; records diagnostics.
struct TopRun {
    double maxRelEnergyErrorFirst1000 = 0.0;
    double maxRelEnergyError = 0.0;
    double maxRelMomentumError = 0.0;  // |L_world(t) - L_world(0)| / |L|
    double maxRelMomentumNormError = 0.0;
    int signChangesOfSpinAxis = 0;     // sign changes of w'_k along the spin axis
    double minSpinAxisShare = 1.0;     // min |L'_k| / |L|
};

TopRun runTop(const Vec3& inertia, const Vec3& w0Body, int spinAxis, int steps) {
    RigidBodyState s;
    s.principalInertia = inertia;
    s.orientation = quaternionFromRotationVector(Vec3(0.3, -0.2, 0.9)); // generic
    s.angularVelocity = s.orientation * w0Body;
    const double E0 = s.rotationalKineticEnergy();
    const Vec3 L0 = s.angularMomentum();
    const double period = 2.0 * kPiIntegrator / w0Body.norm();
    const double dt = period / 100.0;
    TopRun r;
    double lastSign = w0Body[spinAxis] > 0 ? 1.0 : -1.0;
    for (int i = 1; i <= steps; ++i) {
        advanceRotation(s, Vec3::Zero(), dt);
        const double dE = std::abs(s.rotationalKineticEnergy() - E0) / E0;
        r.maxRelEnergyError = std::max(r.maxRelEnergyError, dE);
        if (i <= 1000) r.maxRelEnergyErrorFirst1000 = r.maxRelEnergyError;
        const Vec3 L = s.angularMomentum();
        r.maxRelMomentumError = std::max(r.maxRelMomentumError, (L - L0).norm() / L0.norm());
        r.maxRelMomentumNormError =
            std::max(r.maxRelMomentumNormError, std::abs(L.norm() - L0.norm()) / L0.norm());
        const Vec3 Lbody = s.orientation.conjugate() * L;
        r.minSpinAxisShare = std::min(r.minSpinAxisShare, std::abs(Lbody[spinAxis]) / L.norm());
        const double sign = Lbody[spinAxis] > 0 ? 1.0 : -1.0;
        if (sign != lastSign) ++r.signChangesOfSpinAxis;
        lastSign = sign;
    }
    return r;
}
} // namespace

TEST(RigidBodyIntegrator, AsymmetricTopIntermediateAxisFlipsOthersStay) {
    // I = (1, 2, 3): body y is the intermediate axis. Spin at |w| = 1 near
    // each axis with a 1e-3 perturbation; dt = period/100, 1e5 steps.
    const Vec3 inertia(1.0, 2.0, 3.0);
    const int steps = 100000;
    for (int axis = 0; axis < 3; ++axis) {
        Vec3 w0 = Vec3::Constant(1e-3);
        w0[axis] = 1.0;
        const TopRun r = runTop(inertia, w0, axis, steps);
        SCOPED_TRACE("spin axis " + std::to_string(axis));
        // Every sub-step is an exact rotation: L_world changes by round-off only
        // (~1e-16 per sub-step, random walk over 5e5 sub-steps ~ 1e-13).
        EXPECT_LT(r.maxRelMomentumNormError, 1e-10);
        EXPECT_LT(r.maxRelMomentumError, 1e-10);
        // Symplectic, reversible: bounded O(dt^2) energy error, no drift.
        EXPECT_LT(r.maxRelEnergyError, 1e-3);
        EXPECT_LE(r.maxRelEnergyError, 2.0 * r.maxRelEnergyErrorFirst1000);
        std::printf("[ measured ] axis %d: max |dL|/|L| = %.2e, max |d|L||/|L| = %.2e, "
                    "max dE/E = %.2e (first 1e3 steps %.2e), flips = %d, min share = %.3f\n",
                    axis, r.maxRelMomentumError, r.maxRelMomentumNormError,
                    r.maxRelEnergyError, r.maxRelEnergyErrorFirst1000,
                    r.signChangesOfSpinAxis, r.minSpinAxisShare);
        if (axis == 1) {
            // Unstable axis: the spin component along it reverses repeatedly.
            EXPECT_GE(r.signChangesOfSpinAxis, 10);
            EXPECT_LT(r.minSpinAxisShare, 0.1);
        } else {
            // Stable axes: the spin stays close to the axis, never reverses.
            EXPECT_EQ(r.signChangesOfSpinAxis, 0);
            EXPECT_GT(r.minSpinAxisShare, 0.99);
        }
    }
}

TEST(RigidBodyIntegrator, SecondOrderConvergence) {
    // Error at t = 2 against a 16x finer reference; halving dt must divide
    // the error by ~4 (second order). Allow [3, 5].
    const Vec3 inertia(1.0, 2.0, 3.5);
    auto run = [&](int n) {
        RigidBodyState s;
        s.principalInertia = inertia;
        s.angularVelocity = Vec3(0.7, 1.1, -0.4);
        const double dt = 2.0 / n;
        for (int i = 0; i < n; ++i) advanceRotation(s, Vec3(0.1, -0.2, 0.3), dt);
        return s;
    };
    const RigidBodyState ref = run(3200);
    auto err = [&](const RigidBodyState& s) {
        return (s.angularVelocity - ref.angularVelocity).norm() +
               (s.orientation.coeffs() - ref.orientation.coeffs()).norm();
    };
    const double e1 = err(run(50)), e2 = err(run(100));
    EXPECT_GT(e1 / e2, 3.0);
    EXPECT_LT(e1 / e2, 5.0);
}

TEST(RigidBodyIntegrator, MatchesEulerEquationsOverOneSmallStep) {
    // (w'(dt) - w'(-dt)) / 2dt of the integrator approximates eqs. (14)-(16).
    RigidBodyState s;
    s.principalInertia = Vec3(1.0, 2.0, 3.0);
    s.orientation = quaternionFromRotationVector(Vec3(0.1, 0.2, 0.3));
    const Vec3 wBody(0.5, -1.0, 1.5), Tworld(0.2, 0.1, -0.3);
    s.angularVelocity = s.orientation * wBody;
    const double h = 1e-4;
    RigidBodyState fwd = s, bwd = s;
    advanceRotation(fwd, Tworld, h);
    advanceRotation(bwd, Tworld, -h);
    const Vec3 rate = (fwd.angularVelocityBody() - bwd.angularVelocityBody()) / (2 * h);
    const Vec3 expected =
        eulerAngularAcceleration(s.principalInertia, wBody, s.orientation.conjugate() * Tworld);
    // second-order scheme, symmetric difference: O(h^2) ~ 1e-8
    EXPECT_LT((rate - expected).norm(), 1e-7);
}

TEST(RigidBodyIntegrator, BatchedRotationsMatchOneByOneBitForBit) {
    // advanceRotations interleaves the bodies' operations; each body must
    // come out exactly as from advanceRotation, whatever the batch size and
    // its neighbours (tiny angles take the series of cosSinc, large ones
    // libm; with and without torque).
    std::vector<RigidBodyState> bodies(7);
    std::vector<Vec3> torques(7);
    for (std::size_t k = 0; k < bodies.size(); ++k) {
        RigidBodyState& s = bodies[k];
        const double f = 1.0 + 0.37 * static_cast<double>(k);
        s.principalInertia = Vec3(1.0 * f, 2.3 / f, 0.7 + 0.1 * f);
        s.orientation = quaternionFromRotationVector(Vec3(0.3 * f, -0.2, 0.9 / f));
        s.angularVelocity = (k % 2 == 0 ? 1e-4 : 3.0) * Vec3(f, -0.5, 1.0 / f);
        torques[k] = k % 3 == 0 ? Vec3::Zero() : Vec3(0.2, -0.1 * f, 0.05);
    }
    const double dt = 0.013;
    for (int count = 1; count <= kRotationLanes; ++count) {
        for (std::size_t first = 0; first + static_cast<std::size_t>(count) <= bodies.size(); ++first) {
            std::vector<RigidBodyState> batched(bodies), single(bodies);
            std::vector<RigidBodyState*> states;
            std::vector<const Vec3*> torquePointers;
            for (int b = 0; b < count; ++b) {
                states.push_back(&batched[first + static_cast<std::size_t>(b)]);
                torquePointers.push_back(&torques[first + static_cast<std::size_t>(b)]);
                advanceRotation(single[first + static_cast<std::size_t>(b)], torques[first + static_cast<std::size_t>(b)], dt);
            }
            advanceRotations(states.data(), torquePointers.data(), count, dt);
            for (std::size_t k = 0; k < bodies.size(); ++k) {
                EXPECT_EQ(batched[k].orientation.coeffs(), single[k].orientation.coeffs()) << count << " " << k;
                EXPECT_EQ(batched[k].angularVelocity, single[k].angularVelocity) << count << " " << k;
            }
            // and it did turn the bodies of the batch
            EXPECT_NE(batched[first].orientation.coeffs(), bodies[first].orientation.coeffs());
        }
    }
    RigidBodyState* none[1] = {&bodies[0]};
    const Vec3* noTorque[1] = {&torques[0]};
    EXPECT_THROW(advanceRotations(none, noTorque, 0, dt), std::invalid_argument);
    EXPECT_THROW(advanceRotations(none, noTorque, kRotationLanes + 1, dt), std::invalid_argument);
}
