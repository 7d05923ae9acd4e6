// Quaternion orientation update: exponential map, [Superellipsoid-OpenFOAM] eq. (13).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "kinematics/OrientationUpdate.hpp"

using namespace sef;

namespace {
constexpr double pi = 3.14159265358979323846;
Quat randomUnitQuat(std::mt19937_64& rng) {
    std::normal_distribution<double> n(0.0, 1.0);
    Quat q(n(rng), n(rng), n(rng), n(rng));
    q.normalize();
    return q;
}
double quatDistance(const Quat& a, const Quat& b) {
    // q and -q are the same rotation
    return std::min((a.coeffs() - b.coeffs()).norm(), (a.coeffs() + b.coeffs()).norm());
}
} // namespace

TEST(OrientationUpdate, QuarterTurnAboutZMapsXToY) {
    const Quat q = quaternionFromRotationVector(Vec3(0, 0, 0.5 * pi));
    EXPECT_NEAR((q * Vec3::UnitX() - Vec3::UnitY()).norm(), 0.0, 1e-15);
    EXPECT_NEAR(q.w(), std::sqrt(0.5), 1e-15);
}

TEST(OrientationUpdate, RotationVectorRoundTrip) {
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int i = 0; i < 200; ++i) {
        Vec3 theta(u(rng), u(rng), u(rng));
        theta *= (i < 100 ? 1e-7 : 3.0) / std::max(theta.norm(), 1e-300) * std::abs(u(rng));
        const Vec3 back = rotationVectorFromQuaternion(quaternionFromRotationVector(theta));
        // round-off of sin/cos/atan2 at angles up to pi: a few ulp of pi
        EXPECT_NEAR((back - theta).norm(), 0.0, 1e-14);
    }
}

TEST(OrientationUpdate, ConstantOmegaManySmallStepsEqualOneBigStep) {
    // Exact exponential map: N steps of dt compose to one step of N dt.
    std::mt19937_64 rng(2);
    const Quat q0 = randomUnitQuat(rng);
    const Vec3 w(0.3, -1.7, 2.2);
    Quat q = q0;
    for (int i = 0; i < 1000; ++i) q = advanceOrientation(q, w, 1e-3);
    const Quat once = advanceOrientation(q0, w, 1.0);
    // 1000 quaternion products, each ~1e-16: accumulated round-off ~1e-13
    EXPECT_LT(quatDistance(q, once), 1e-12);
}

TEST(OrientationUpdate, WorldAndBodyFormsAgree) {
    std::mt19937_64 rng(3);
    for (int i = 0; i < 50; ++i) {
        const Quat q = randomUnitQuat(rng);
        const Vec3 wBody(0.4 * i, -1.0, 0.7);
        const Quat a = advanceOrientationBody(q, wBody, 0.05);
        const Quat b = advanceOrientation(q, q * wBody, 0.05);
        EXPECT_LT(quatDistance(a, b), 1e-14);
    }
}

TEST(OrientationUpdate, DerivativeMatchesPaperEquation13) {
    // Central difference of the exact flow vs the rate of [Superellipsoid-OpenFOAM], eq. (13).
    std::mt19937_64 rng(4);
    const Quat q = randomUnitQuat(rng);
    const Vec3 wBody(1.3, -0.4, 2.1);
    const double h = 1e-5;
    const Quat plus = advanceOrientationBody(q, wBody, h);
    const Quat minus = advanceOrientationBody(q, wBody, -h);
    const Eigen::Vector4d fd = (plus.coeffs() - minus.coeffs()) / (2 * h);
    const Eigen::Vector4d rate = quaternionRate(q, wBody).coeffs();
    // central difference error h^2 |q'''| ~ 1e-10, plus round-off 1e-16/h ~ 1e-11
    EXPECT_LT((fd - rate).norm(), 1e-9);
}

TEST(OrientationUpdate, StaysUnitOverManyLargeSteps) {
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> u(-50.0, 50.0);
    Quat q = randomUnitQuat(rng);
    for (int i = 0; i < 100000; ++i) q = advanceOrientation(q, Vec3(u(rng), u(rng), u(rng)), 0.1);
    EXPECT_NEAR(q.norm(), 1.0, 1e-14);
}

TEST(OrientationUpdate, ZeroOmegaKeepsOrientation) {
    std::mt19937_64 rng(6);
    const Quat q = randomUnitQuat(rng);
    // only the re-normalisation round-off (a few ulp)
    EXPECT_LT(quatDistance(advanceOrientation(q, Vec3::Zero(), 1.0), q), 1e-15);
}
