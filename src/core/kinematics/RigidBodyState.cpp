#include "kinematics/RigidBodyState.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace sef {

Mat3 RigidBodyState::worldInertia() const {
    const Mat3 R = rotation();
    return R * principalInertia.asDiagonal() * R.transpose();
}

Mat3 RigidBodyState::worldInverseInertia() const { return worldInverseInertia(rotation()); }

Mat3 RigidBodyState::worldInverseInertia(const Mat3& R) const {
    // Six entries, written out: symmetric by construction and without the
    // general 3x3 products (called for every body and substep by the DEM).
    const Mat3 scaled = R * principalInertia.cwiseInverse().asDiagonal();
    Mat3 inverse;
    for (int r = 0; r < 3; ++r)
        for (int c = r; c < 3; ++c) inverse(r, c) = inverse(c, r) = scaled.row(r).dot(R.row(c));
    return inverse;
}

Vec3 RigidBodyState::angularMomentumAbout(const Vec3& point) const {
    return angularMomentum() + (position - point).cross(mass * velocity);
}

Vec3 RigidBodyState::velocityAt(const Vec3& xWorld) const {
    return velocity + angularVelocity.cross(xWorld - position);
}

double RigidBodyState::rotationalKineticEnergy() const {
    // In the body frame the inertia is diagonal: E = 1/2 sum I_i w'_i^2.
    const Vec3 wBody = angularVelocityBody();
    return 0.5 * wBody.dot(principalInertia.cwiseProduct(wBody));
}

namespace {
void fail(const char* name, const std::string& field, const std::string& why) {
    throw std::invalid_argument(std::string(name) + "." + field + ": " + why);
}
} // namespace

void validateRigidBodyState(const RigidBodyState& s, const char* name) {
    if (!(std::isfinite(s.mass) && s.mass > 0.0)) fail(name, "mass", "must be positive and finite");
    for (int i = 0; i < 3; ++i)
        if (!(std::isfinite(s.principalInertia[i]) && s.principalInertia[i] > 0.0))
            fail(name, "principalInertia", "components must be positive and finite");
    if (!isFinite(s.position)) fail(name, "position", "must be finite");
    if (!isFinite(s.velocity)) fail(name, "velocity", "must be finite");
    if (!isFinite(s.angularVelocity)) fail(name, "angularVelocity", "must be finite");
    const double qn = s.orientation.coeffs().norm();
    if (!std::isfinite(qn) || std::abs(qn - 1.0) > 1e-6)
        fail(name, "orientation", "quaternion must be unit (norm " + std::to_string(qn) + ")");
}

} // namespace sef
