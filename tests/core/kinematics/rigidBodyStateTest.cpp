// Hand-computed small cases for the rigid-body state helpers.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "kinematics/OrientationUpdate.hpp"
#include "kinematics/RigidBodyState.hpp"

using namespace sef;

namespace {
constexpr double kPiState = 3.14159265358979323846;
RigidBodyState quarterTurnBody() {
    RigidBodyState s;
    s.mass = 2.0;
    s.principalInertia = Vec3(1.0, 2.0, 3.0);
    s.orientation = quaternionFromRotationVector(Vec3(0, 0, 0.5 * kPiState)); // body x -> world y
    return s;
}
} // namespace

TEST(RigidBodyState, WorldInertiaOfQuarterTurn) {
    // body x (I=1) lies along world y, body y (I=2) along world -x.
    const RigidBodyState s = quarterTurnBody();
    const Mat3 expected = Vec3(2.0, 1.0, 3.0).asDiagonal();
    EXPECT_LT((s.worldInertia() - expected).norm(), 1e-15);
    EXPECT_LT((s.worldInverseInertia() * s.worldInertia() - Mat3::Identity()).norm(), 1e-15);
}

TEST(RigidBodyState, KineticEnergyAndMomentaByHand) {
    RigidBodyState s = quarterTurnBody();
    s.velocity = Vec3(1.0, 0.0, -1.0);
    s.angularVelocity = Vec3(1.0, 0.0, 2.0); // world x = body -y (I=2)
    // E = 1/2 m v^2 + 1/2 (2*1^2 + 3*2^2) = 2 + 7
    EXPECT_NEAR(s.kineticEnergy(), 9.0, 1e-14);
    EXPECT_LT((s.angularMomentum() - Vec3(2.0, 0.0, 6.0)).norm(), 1e-14);
    s.position = Vec3(0.0, 1.0, 0.0);
    // about the origin: L + x cross m v = (2,0,6) + (0,1,0)x(2,0,-2) = (2,0,6)+(-2,0,-2)
    EXPECT_LT((s.angularMomentumAbout(Vec3::Zero()) - Vec3(0.0, 0.0, 4.0)).norm(), 1e-14);
    // velocity at x_c + (1,0,0): v + w x (1,0,0) = (1,0,-1) + (0,2,0)
    EXPECT_LT((s.velocityAt(s.position + Vec3::UnitX()) - Vec3(1.0, 2.0, -1.0)).norm(), 1e-15);
}

TEST(RigidBodyState, ValidationNamesTheField) {
    RigidBodyState s;
    EXPECT_NO_THROW(validateRigidBodyState(s));
    s.mass = 0.0;
    try {
        validateRigidBodyState(s, "particle");
        FAIL() << "expected a throw";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("particle.mass"), std::string::npos);
    }
    s.mass = 1.0;
    s.orientation = Quat(2.0, 0.0, 0.0, 0.0);
    EXPECT_THROW(validateRigidBodyState(s), std::invalid_argument);
    s.orientation = Quat::Identity();
    s.principalInertia.y() = -1.0;
    EXPECT_THROW(validateRigidBodyState(s), std::invalid_argument);
    s.principalInertia.y() = 1.0;
    s.velocity.x() = std::nan("");
    EXPECT_THROW(validateRigidBodyState(s), std::invalid_argument);
}
