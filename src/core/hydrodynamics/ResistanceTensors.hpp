#pragma once
// Hydrodynamic resistance tensors of a rigid orthotropic particle in Stokes
// flow, in the particle frame and in the normalisation of [Superellipsoid-OpenFOAM]:
//   F = pi mu c K (u - v)                                   [Superellipsoid-OpenFOAM], eq. (5)
//   T = pi mu c^3 [ Pi (f', g', h') + Omega (xi' - omega') ] [Superellipsoid-OpenFOAM], eq. (21)
// with c the SMALLEST half-axis (sphere of radius c: K = 6 I, Omega = 8 I,
// Pi = 0). The shapes are symmetric under the three coordinate reflections,
// so all three tensors are diagonal in the body frame; we store diagonals.
//
// Convention of Pi ([Superellipsoid-OpenFOAM], eqs. 22-23), body frame x' along a, y' along
// b, z' along c, velocity gradient L_ij = du_i/dx_j, E = (L + L^T)/2:
//   f' = E_yz drives the torque about x':  T_x = pi mu c^3 Pi_x f'
//   g' = E_xz drives the torque about y':  T_y = pi mu c^3 Pi_y g'
//   h' = E_xy drives the torque about z':  T_z = pi mu c^3 Pi_z h'
// and (xi', eta', chi') = half the vorticity (W_zy, W_xz, W_yx) with
// W = (L - L^T)/2. For an ellipsoid (Jeffery 1922)
//   Pi_x ~ (b^2 - c^2), Pi_y ~ (c^2 - a^2), Pi_z ~ (a^2 - b^2)
// so for a >= b >= c: Pi_x >= 0, Pi_y <= 0, Pi_z >= 0. The torque-free
// rotation rate is omega' = (xi', eta', chi') + Omega^-1 Pi (f', g', h'); for
// a spheroid with axis x' this is Jeffery's equation with
// lambda = Pi_z / Omega_z = (r^2 - 1)/(r^2 + 1).
#include "geometry/Types.hpp"

namespace sef {

struct ResistanceTensors {
    Vec3 K = Vec3::Constant(6.0);     // translation, diagonal
    Vec3 Omega = Vec3::Constant(8.0); // rotation, diagonal
    Vec3 Pi = Vec3::Zero();           // deformation (strain -> torque), diagonal
};

// Strain components (f', g', h') = (E_yz, E_xz, E_xy) of a velocity gradient
// L_ij = du_i/dx_j given in the body frame. [Superellipsoid-OpenFOAM], eq. (22).
inline Vec3 strainOffDiagonals(const Mat3& gradU) {
    return {0.5 * (gradU(2, 1) + gradU(1, 2)), 0.5 * (gradU(0, 2) + gradU(2, 0)),
            0.5 * (gradU(0, 1) + gradU(1, 0))};
}

// Half vorticity (xi', eta', chi') of a body-frame velocity gradient.
// [Superellipsoid-OpenFOAM], eq. (23).
inline Vec3 halfVorticity(const Mat3& gradU) {
    return {0.5 * (gradU(2, 1) - gradU(1, 2)), 0.5 * (gradU(0, 2) - gradU(2, 0)),
            0.5 * (gradU(1, 0) - gradU(0, 1))};
}

// Torque on the particle, body frame. [Superellipsoid-OpenFOAM], eq. (21).
inline Vec3 hydrodynamicTorque(const ResistanceTensors& r, double mu, double c,
                               const Mat3& gradUBody, const Vec3& omegaBody) {
    const Vec3 t = r.Pi.cwiseProduct(strainOffDiagonals(gradUBody))
                   + r.Omega.cwiseProduct(halfVorticity(gradUBody) - omegaBody);
    return M_PI * mu * c * c * c * t;
}

// Drag force on the particle, body frame. [Superellipsoid-OpenFOAM], eq. (5).
inline Vec3 dragForce(const ResistanceTensors& r, double mu, double c, const Vec3& slipBody) {
    return M_PI * mu * c * r.K.cwiseProduct(slipBody);
}

// Rotation rate at which the torque (21) vanishes (no particle inertia):
// omega' = (xi', eta', chi') + Omega^-1 Pi (f', g', h').
inline Vec3 torqueFreeRotationRate(const ResistanceTensors& r, const Mat3& gradUBody) {
    return halfVorticity(gradUBody)
           + r.Pi.cwiseQuotient(r.Omega).cwiseProduct(strainOffDiagonals(gradUBody));
}

} // namespace sef
