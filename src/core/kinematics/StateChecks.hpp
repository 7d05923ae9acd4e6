#pragma once
// Checks of a particle state read from outside (restart files, hand edits,
// particle lists): what a step can take without NaNs or overflow, and the
// rotation a stored orientation tensor stands for.
#include "geometry/Types.hpp"

#include <string>

namespace sef {

// A stored rotation tensor. OpenFOAM writes 6 significant digits by
// default, so R^T R is off by ~1e-6 in every ordinary restart: accepted
// silently up to kRotationRoundOff. Up to kRotationRepairable (a tensor
// typed by hand with 3-4 digits) it is replaced by the nearest rotation and
// the caller warns; beyond, or a reflection, or non-finite: invalid.
inline constexpr double kRotationRoundOff = 1e-5;
inline constexpr double kRotationRepairable = 1e-3;

struct RotationReading {
    enum class Status { rotation, repaired, invalid };
    Status status = Status::invalid;
    Quat rotation = Quat::Identity();   // unit; the nearest rotation
    double deviation = 0;               // max |(R^T R - I)_ij|
    std::string problem;                // invalid: what is wrong
};

RotationReading readRotation(const Mat3& tensor);

// The fastest a particle may move or spin (surface speed |w| R_bound):
// the speed of light. Far beyond anything physical, far below where
// kinetic energies and travel estimates overflow.
inline constexpr double kSpeedLimit = 299792458.0;

// Empty if a step can take this state; else what is wrong with it, naming
// the quantity (position, orientation, velocity, angular velocity).
// The quaternion must be unit to 1e-6 (it is renormalised by the caller).
std::string particleStateProblem(const Vec3& position, const Quat& orientation,
                                 const Vec3& velocity, const Vec3& angularVelocity,
                                 double boundingRadius);

} // namespace sef
