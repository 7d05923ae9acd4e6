#pragma once
// State of one rigid body and the derived quantities every module needs.
// Conventions (DESIGN): x_world = R(q) x_body + position; q = [w,x,y,z] unit.
// Velocities are WORLD-frame vectors; the principal inertia is given in the
// body frame (principal axes = body axes).
#include "geometry/Pose.hpp"
#include "geometry/Types.hpp"

namespace sef {

struct RigidBodyState {
    Vec3 position = Vec3::Zero();
    Quat orientation = Quat::Identity();   // body -> world, unit
    Vec3 velocity = Vec3::Zero();          // of the centre of mass, world frame
    Vec3 angularVelocity = Vec3::Zero();   // world frame
    double mass = 1.0;
    Vec3 principalInertia = Vec3::Ones();  // (Ixx, Iyy, Izz) about body axes

    Pose pose() const { return Pose{position, orientation}; }
    Mat3 rotation() const { return orientation.toRotationMatrix(); }

    // I_world = R diag(I) R^T ([Superellipsoid-OpenFOAM], eq. (62) with R the body->frame map).
    Mat3 worldInertia() const;
    // I_world^-1 = R diag(1/I) R^T.
    Mat3 worldInverseInertia() const;
    // The same with the rotation matrix of the orientation already at hand.
    Mat3 worldInverseInertia(const Mat3& rotation) const;

    Vec3 angularVelocityBody() const { return orientation.conjugate() * angularVelocity; }

    Vec3 linearMomentum() const { return mass * velocity; }
    // Spin angular momentum about the centre of mass, world frame.
    Vec3 angularMomentum() const { return worldInertia() * angularVelocity; }
    // Angular momentum about a fixed world point p: I w + (x - p) x m v
    // ([Superellipsoid-OpenFOAM], eq. (70) with p the contact point).
    Vec3 angularMomentumAbout(const Vec3& point) const;

    // Velocity of the material point currently at xWorld: v + w x (x - x_c)
    // ([Superellipsoid-OpenFOAM], eq. (64); the paper's r* points the other way).
    Vec3 velocityAt(const Vec3& xWorld) const;

    double translationalKineticEnergy() const { return 0.5 * mass * velocity.squaredNorm(); }
    double rotationalKineticEnergy() const;
    double kineticEnergy() const { return translationalKineticEnergy() + rotationalKineticEnergy(); }
};

// Throws std::invalid_argument naming the field if the state is unusable:
// non-positive or non-finite mass/inertia, non-finite vectors, or a
// quaternion whose norm differs from 1 by more than 1e-6.
void validateRigidBodyState(const RigidBodyState& state, const char* name = "body");

} // namespace sef
