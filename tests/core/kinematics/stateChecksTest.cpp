// Orientation tensors and particle states read from files: what is
// accepted, repaired and refused (kinematics/StateChecks.hpp).
#include "kinematics/StateChecks.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace sef;

namespace {

Mat3 someRotation() {
    return Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized())).toRotationMatrix();
}

// Each component rounded to `digits` significant digits, as a file keeps it
Mat3 rounded(const Mat3& m, int digits) {
    Mat3 r;
    for (int i = 0; i < 9; ++i) {
        const double x = m.data()[i];
        if (x == 0) { r.data()[i] = 0; continue; }
        const double scale = std::pow(10.0, digits - 1 - std::floor(std::log10(std::abs(x))));
        r.data()[i] = std::round(x * scale) / scale;
    }
    return r;
}

} // namespace

TEST(StateChecks, RotationWrittenWithSixDigitsIsAcceptedSilently) {
    const Mat3 R = someRotation();
    const RotationReading r = readRotation(rounded(R, 6));
    EXPECT_EQ(r.status, RotationReading::Status::rotation);
    EXPECT_LT(r.deviation, kRotationRoundOff);
    // the nearest rotation is the written one to the writing's round-off
    EXPECT_LT((r.rotation.toRotationMatrix() - R).cwiseAbs().maxCoeff(), 1e-5);
    EXPECT_NEAR(r.rotation.norm(), 1.0, 1e-15);
}

TEST(StateChecks, RotationTypedWithThreeDigitsIsRepairedToTheNearestRotation) {
    const Mat3 R = someRotation();
    const RotationReading r = readRotation(rounded(R, 3));
    EXPECT_EQ(r.status, RotationReading::Status::repaired);
    EXPECT_GT(r.deviation, kRotationRoundOff);
    const Mat3 Q = r.rotation.toRotationMatrix();
    EXPECT_LT((Q.transpose() * Q - Mat3::Identity()).cwiseAbs().maxCoeff(), 1e-14);
    EXPECT_LT((Q - R).cwiseAbs().maxCoeff(), 5e-3);
}

TEST(StateChecks, ZeroScaledShearedReflectedAndNonFiniteTensorsAreRefused) {
    const Mat3 R = someRotation();
    Mat3 sheared = Mat3::Identity();
    sheared(0, 1) = 0.3;
    Mat3 nan = R;
    nan(1, 2) = std::numeric_limits<double>::quiet_NaN();
    for (const Mat3& bad : {Mat3(Mat3::Zero()), Mat3(2 * R), sheared, Mat3(-R), nan,
                            Mat3(1e300 * R)}) {
        const RotationReading r = readRotation(bad);
        EXPECT_EQ(r.status, RotationReading::Status::invalid) << bad;
        EXPECT_NE(r.problem.find("not a rotation"), std::string::npos) << r.problem;
    }
}

TEST(StateChecks, StatesBeyondLightSpeedOrNonFiniteAreNamed) {
    const Vec3 x(0.1, 0.2, 0.3), zero = Vec3::Zero();
    const Quat q(Eigen::AngleAxisd(0.4, Vec3::UnitZ()));
    EXPECT_EQ(particleStateProblem(x, q, Vec3(3, 0, -1e3), Vec3(0, 1e3, 0), 0.01), "");
    // just below the limit is accepted, just above refused
    EXPECT_EQ(particleStateProblem(x, q, Vec3(0.99 * kSpeedLimit, 0, 0), zero, 0.01), "");
    EXPECT_NE(particleStateProblem(x, q, Vec3(1.01 * kSpeedLimit, 0, 0), zero, 0.01)
                  .find("velocity"), std::string::npos);
    // 1e300 m/s: refused without overflowing |v|^2 (the run traps overflow)
    EXPECT_NE(particleStateProblem(x, q, Vec3(1e300, 1e300, 0), zero, 0.01).find("velocity"),
              std::string::npos);
    EXPECT_NE(particleStateProblem(x, q, zero, Vec3(0, 0, 1.01 * kSpeedLimit / 0.01), 0.01)
                  .find("angular velocity"), std::string::npos);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    EXPECT_NE(particleStateProblem(Vec3(nan, 0, 0), q, zero, zero, 0.01).find("position"),
              std::string::npos);
    EXPECT_NE(particleStateProblem(x, Quat(2, 0, 0, 0), zero, zero, 0.01).find("orientation"),
              std::string::npos);
    EXPECT_NE(particleStateProblem(x, Quat(nan, 0, 0, 0), zero, zero, 0.01).find("orientation"),
              std::string::npos);
}
