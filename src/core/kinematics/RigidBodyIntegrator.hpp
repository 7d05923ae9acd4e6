#pragma once
// Time integration of rigid-body rotation (and translation).
//
// Free rotation uses the symmetric splitting of the rigid-body Hamiltonian
// H = sum_k L'_k^2 / (2 I_k) into its three axis terms (the NO_SQUISH idea
// of Dullweber, Leimkuhler & McLachlan, 1997): each term is an exact
// rotation about one body axis, composed as x(h/2) y(h/2) z(h) y(h/2) x(h/2).
// Why: every sub-step is an exact rotation, so the world angular momentum
// R(q) L' is conserved to round-off, the map is symplectic and
// time-reversible, so the energy error stays bounded (O(h^2), no drift),
// and the quaternion is only ever multiplied by unit quaternions.
// A torque is applied as a half kick of the world angular momentum before
// and after the free rotation (Strang splitting, second order).
#include "geometry/Types.hpp"
#include "kinematics/RigidBodyState.hpp"

namespace sef {

// Euler's equations in the body frame with a body-frame torque
// ([Superellipsoid-OpenFOAM], eqs. (14)-(16)), solved for dw'/dt.
Vec3 eulerAngularAcceleration(const Vec3& principalInertia, const Vec3& omegaBody,
                              const Vec3& torqueBody);

// One symmetric splitting step of torque-free rotation: advances q and the
// BODY-frame angular momentum L' = diag(I) w' over dt.
void freeRotationStep(Quat& q, Vec3& angularMomentumBody, const Vec3& principalInertia,
                      double dt);

// Rotation over dt with a constant world-frame torque (half kick, free
// rotation, half kick); updates orientation and angularVelocity (world).
void advanceRotation(RigidBodyState& state, const Vec3& torqueWorld, double dt);

// advanceRotation for `count` bodies at once (count <= kRotationLanes),
// bit for bit the same per body: their chains of dependent operations
// overlap (a settled bed of 1000 blocks spent 8 % of its time rotating its
// bodies one at a time).
constexpr int kRotationLanes = 4;
void advanceRotations(RigidBodyState* const* states, const Vec3* const* torquesWorld, int count,
                      double dt);

// Translation (kick-drift-kick with a constant world force; exact for a
// constant force) and rotation (advanceRotation) over dt.
void advanceRigidBody(RigidBodyState& state, const Vec3& forceWorld, const Vec3& torqueWorld,
                      double dt);

} // namespace sef
