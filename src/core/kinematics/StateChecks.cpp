#include "kinematics/StateChecks.hpp"

#include <Eigen/SVD>

#include <cmath>
#include <limits>
#include <sstream>

namespace sef {

namespace {

bool allFinite(const Mat3& m) {
    for (int i = 0; i < 9; ++i) {
        if (!std::isfinite(m.data()[i])) return false;
    }
    return true;
}

bool allFinite(const Vec3& v) {
    return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z());
}

// |v| without overflow (OpenFOAM traps it): huge components read as infinite
double magnitude(const Vec3& v) {
    const double largest = v.cwiseAbs().maxCoeff();
    return largest > 1e150 ? std::numeric_limits<double>::infinity() : v.norm();
}

} // namespace

RotationReading readRotation(const Mat3& tensor) {
    RotationReading r;
    // (huge components would overflow R^T R)
    if (!allFinite(tensor) || tensor.cwiseAbs().maxCoeff() > 1e3) {
        r.problem = "not a rotation (non-finite or huge components)";
        return r;
    }
    r.deviation = (tensor.transpose() * tensor - Mat3::Identity()).cwiseAbs().maxCoeff();
    const double det = tensor.determinant();
    if (r.deviation > kRotationRepairable || det <= 0) {
        std::ostringstream msg;
        msg << "not a rotation: R^T R differs from the identity by " << r.deviation
            << " (at most " << kRotationRepairable << " is repaired), det R = " << det;
        r.problem = msg.str();
        return r;
    }
    // The nearest rotation (polar decomposition): U V^T of R's SVD
    const Eigen::JacobiSVD<Mat3> svd(tensor, Eigen::ComputeFullU | Eigen::ComputeFullV);
    const Mat3 nearest = svd.matrixU() * svd.matrixV().transpose();
    r.rotation = Quat(nearest).normalized();
    r.status = r.deviation <= kRotationRoundOff ? RotationReading::Status::rotation
                                                : RotationReading::Status::repaired;
    return r;
}

std::string particleStateProblem(const Vec3& position, const Quat& orientation,
                                 const Vec3& velocity, const Vec3& angularVelocity,
                                 double boundingRadius) {
    std::ostringstream msg;
    if (!allFinite(position)) {
        msg << "position is not finite";
    } else if (!orientation.coeffs().allFinite() ||
               orientation.coeffs().cwiseAbs().maxCoeff() > 2 ||
               std::abs(orientation.norm() - 1.0) > 1e-6) {
        msg << "orientation is not a unit quaternion";
    } else if (!allFinite(velocity) || magnitude(velocity) > kSpeedLimit) {
        msg << "velocity " << magnitude(velocity)
            << " m/s is not finite or above the speed of light";
    } else if (!allFinite(angularVelocity) ||
               magnitude(angularVelocity) > kSpeedLimit / boundingRadius) {
        msg << "angular velocity " << magnitude(angularVelocity)
            << " rad/s moves the surface faster than light or is not finite";
    }
    return msg.str();
}

} // namespace sef
