// Rodrigues parameters ([Rodrigues-DEM], sec. 2) against quaternions.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "kinematics/OrientationUpdate.hpp"
#include "kinematics/Rodrigues.hpp"

using namespace sef;

TEST(Rodrigues, RotationMatrixMatchesQuaternion) {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> u(-1.5, 1.5);
    for (int i = 0; i < 100; ++i) {
        const Vec3 theta(u(rng), u(rng), u(rng));
        if (theta.norm() >= 3.1) continue;
        const Vec3 alpha = rodriguesFromRotationVector(theta);
        const Mat3 R = quaternionFromRotationVector(theta).toRotationMatrix();
        EXPECT_LT((rotationFromRodrigues(alpha) - R).norm(), 1e-13);
        EXPECT_LT((rodriguesFromQuaternion(quaternionFromRodrigues(alpha)) - alpha).norm(),
                  1e-12 * (1.0 + alpha.norm()));
    }
}

TEST(Rodrigues, CompositionMatchesQuaternionProduct) {
    // [Rodrigues-DEM], eq. (11): alpha_{1+2} is the rotation Q2 Q1.
    const Vec3 a1 = rodriguesFromRotationVector(Vec3(0.3, -0.5, 0.2));
    const Vec3 a2 = rodriguesFromRotationVector(Vec3(-0.1, 0.4, 0.9));
    const Mat3 expected = rotationFromRodrigues(a2) * rotationFromRodrigues(a1);
    EXPECT_LT((rotationFromRodrigues(composeRodrigues(a1, a2)) - expected).norm(), 1e-14);
}

TEST(Rodrigues, UpdateMatchesQuaternionUpdate) {
    Vec3 alpha = rodriguesFromRotationVector(Vec3(0.2, 0.1, -0.3));
    Quat q = quaternionFromRodrigues(alpha);
    const Vec3 w(0.5, -0.3, 0.8);
    for (int i = 0; i < 100; ++i) {
        alpha = advanceRodrigues(alpha, w, 0.01);
        q = advanceOrientation(q, w, 0.01);
    }
    EXPECT_LT((rotationFromRodrigues(alpha) - q.toRotationMatrix()).norm(), 1e-13);
}

TEST(Rodrigues, HalfTurnIsRejected) {
    EXPECT_THROW(rodriguesFromRotationVector(Vec3(3.2, 0, 0)), std::invalid_argument);
    EXPECT_THROW(rodriguesFromQuaternion(Quat(0, 1, 0, 0)), std::invalid_argument);
    // two quarter turns about x compose to a half-turn: 4 - a1.a2 = 0
    const Vec3 quarter = rodriguesFromRotationVector(Vec3(1.5707963267948966, 0, 0));
    EXPECT_THROW(composeRodrigues(quarter, quarter), std::invalid_argument);
}
