#pragma once
// Exact integration of a velocity relaxing linearly toward a fluid velocity,
//   M dv/dt = f + D (u - v),                                         (1)
// over a time tau with M (mass or inertia) and D (resistance) symmetric,
// M positive definite, D positive semi-definite, and f, u constant. This is
// the Stokes drag of [Superellipsoid-OpenFOAM] eq. (5) with the rotated translation tensor
// (eq. 6), and the rotational part of eq. (21), T = Omega_w (omega_f - omega),
// with omega_f the torque-free rotation rate of the local flow.
//
// Why exact: the particle response time m/|D| of small particles is far
// below the fluid time step (e.g. 1/100 of it). An explicit drag kick
// overshoots and oscillates there; OpenFOAM's scalar implicit Sp trick does
// not fit a tensor. With constant coefficients over the step (1) has the
// closed-form solution
//   v(tau) = E v0 + c,   E = exp(-M^-1 D tau),
//   c = (I - E) u + Phi f,   Phi = int_0^tau exp(-M^-1 D s) ds M^-1,
// computed through the symmetric S = M^-1/2 D M^-1/2 = V diag(lambda) V^T:
//   E = M^-1/2 V diag(exp(-lambda tau)) V^T M^1/2,
//   Phi = M^-1/2 V diag(phi) V^T M^-1/2,  phi = (1 - exp(-lambda tau)) / lambda
// (phi = tau for lambda = 0: no drag is a plain kick). Every eigenvalue of E
// lies in (0, 1]: the velocity approaches its terminal value monotonically
// along each mode, whatever tau is, without overshoot.
#include "geometry/Types.hpp"

namespace sef {

// v(tau) = transition v0 + offset.
struct RelaxationPropagator {
    Mat3 transition = Mat3::Identity();
    Vec3 offset = Vec3::Zero();
    // Phi of the solution below: a further constant force df moves the
    // offset by response df (no new decomposition needed).
    Mat3 response = Mat3::Zero();

    Vec3 apply(const Vec3& v) const { return transition * v + offset; }
};

// Linear fluid resistance of one particle over a step (world frame, held
// constant over the step): drag F = translation (fluidVelocity - v), [Superellipsoid-OpenFOAM]
// eqs. (5)-(6) with the rotated tensor pi mu c R K R^T; torque
// T = rotation (fluidRotationRate - omega), eq. (21) written as
// pi mu c^3 R Omega R^T times the torque-free rotation rate
// (hydrodynamics/ResistanceTensors.hpp: torqueFreeRotationRate). The step
// integrates both exactly (kinematics/LinearRelaxation.hpp), so a response
// time far below the step is stable and does not overshoot. Both tensors
// symmetric positive semi-definite; zero: no drag.
struct FluidDrag {
    Mat3 translation = Mat3::Zero();     // [kg/s]
    Vec3 fluidVelocity = Vec3::Zero();   // [m/s]
    Mat3 rotation = Mat3::Zero();        // [kg m^2/s]
    Vec3 fluidRotationRate = Vec3::Zero(); // [rad/s]

    // How the drag turns with the body, for particles whose resistance is
    // not isotropic (turnsWithBody). The tensors above are then those at
    // the step's starting orientation only; the step re-evaluates them at
    // each substep's midpoint orientation (from the diagonals below), so that the
    // orientation dynamics is second order in the step: with the strain
    // torque held over the step, a Jeffery orbit drifts first order toward
    // the shear plane. Body frame, principal axes:
    //   translation = R diag(translationBody) R^T, rotation likewise,
    //   fluidRotationRate = halfVorticity + R (strainCoupling o e'(R)),
    //   e'(R) = (E'_yz, E'_xz, E'_xy) of E' = R^T strainRate R
    // (hydrodynamics/ResistanceTensors.hpp: torqueFreeRotationRate, with
    // strainCoupling = Omega^-1 Pi; the half vorticity is a world vector
    // that does not depend on the orientation).
    bool turnsWithBody = false;
    Vec3 translationBody = Vec3::Zero();    // [kg/s]
    Vec3 rotationBody = Vec3::Zero();       // [kg m^2/s]
    Vec3 strainCoupling = Vec3::Zero();     // [-]
    Vec3 halfVorticity = Vec3::Zero();      // [rad/s], world
    Mat3 strainRate = Mat3::Zero();         // [1/s], world, symmetric

    // The torque-free rotation rate at the orientation R (body -> world):
    // the stored one when the drag does not turn with the body.
    Vec3 fluidRotationRateAt(const Mat3& R) const;
};

// Solution operator of (1) over tau >= 0. The mass matrix is given by its
// principal axes: M = Q diag(massPrincipal) Q^T (Q orthogonal; Q = I and
// massPrincipal = (m, m, m) for translation, the body rotation and the
// principal moments for rotation). Throws std::invalid_argument for a
// non-positive or non-finite mass, a non-finite or non-symmetric D, or
// tau < 0.
RelaxationPropagator relaxationPropagator(const Mat3& Q, const Vec3& massPrincipal, const Mat3& D,
                                          const Vec3& u, const Vec3& f, double tau);

// The same when D shares the principal axes of M, D = Q diag(dragPrincipal)
// Q^T (a drag that turns with the body: both diagonal in its frame). Then
// S = Q diag(d / m) Q^T is already decomposed:
//   E = Q diag(exp(-d tau / m)) Q^T,  Phi = Q diag(phi / m) Q^T,
// without the eigen-solver (the solvers build these at every substep).
// Throws like relaxationPropagator, also for a negative dragPrincipal.
RelaxationPropagator coaxialRelaxationPropagator(const Mat3& Q, const Vec3& massPrincipal, const Vec3& dragPrincipal,
                                                 const Vec3& u, const Vec3& f, double tau);

} // namespace sef
