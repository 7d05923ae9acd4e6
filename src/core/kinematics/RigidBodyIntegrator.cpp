#include "kinematics/RigidBodyIntegrator.hpp"

#include <cmath>

#include "kinematics/OrientationUpdate.hpp"

namespace sef {

Vec3 eulerAngularAcceleration(const Vec3& I, const Vec3& w, const Vec3& T) {
    // paper 001, eqs. (14)-(16): T_x = I_x dw_x/dt - w_y w_z (I_y - I_z), cyclic.
    return Vec3((T.x() + w.y() * w.z() * (I.y() - I.z())) / I.x(),
                (T.y() + w.z() * w.x() * (I.z() - I.x())) / I.y(),
                (T.z() + w.x() * w.y() * (I.x() - I.y())) / I.z());
}

namespace {

// Exact flow of H_k = L'_k^2 / (2 I_k): the body turns about its axis k by
// phi = (L'_k / I_k) t; body components of the fixed world vector L turn
// by -phi about the same axis.
// (k a template parameter: the five calls of a step inline with fixed
// component indices, the quaternion and L stay in registers; 9 % of a
// settled bed's time went into this chain before)
template <int k>
inline void rotateAboutBodyAxis(Quat& q, Vec3& L, const Vec3& inverseI, double t) {
    const double phi = L[k] * inverseI[k] * t;
    constexpr int i = (k + 1) % 3, j = (k + 2) % 3;
    // q <- q (x) (cos(phi/2), sin(phi/2) e_k), written out: e_k has one component
    const CosSinc half = cosSinc(0.5 * phi);
    const double c = half.cos, s = 0.5 * phi * half.sinc;
    const double w = q.w();
    const Vec3 v = q.vec();
    q.w() = c * w - s * v[k];
    q.vec() = c * v;
    q.vec()[k] += s * w;
    q.vec()[i] += s * v[j];
    q.vec()[j] -= s * v[i];
    // cos(phi), sin(phi) from the half angle (no second libm call)
    const double cosPhi = 1.0 - 2.0 * s * s, sinPhi = 2.0 * s * c;
    const double Li = L[i], Lj = L[j];
    L[i] = cosPhi * Li + sinPhi * Lj;
    L[j] = -sinPhi * Li + cosPhi * Lj;
}

} // namespace

void freeRotationStep(Quat& q, Vec3& L, const Vec3& I, double dt) {
    const double h = 0.5 * dt;
    const Vec3 inverseI = I.cwiseInverse(); // no division on the chain of the five rotations
    rotateAboutBodyAxis<0>(q, L, inverseI, h);
    rotateAboutBodyAxis<1>(q, L, inverseI, h);
    rotateAboutBodyAxis<2>(q, L, inverseI, dt);
    rotateAboutBodyAxis<1>(q, L, inverseI, h);
    rotateAboutBodyAxis<0>(q, L, inverseI, h);
    q.normalize();
}

void advanceRotation(RigidBodyState& s, const Vec3& torqueWorld, double dt) {
    // Work with the body-frame angular momentum L' = diag(I) w' so that only
    // quaternion rotations (no inertia-matrix products) touch L: fewer
    // round-off operations per step.
    const Vec3& I = s.principalInertia;
    const Vec3 halfKick = 0.5 * dt * torqueWorld;
    Vec3 Lbody = I.cwiseProduct(s.orientation.conjugate() * s.angularVelocity);
    if (!halfKick.isZero(0.0)) Lbody += s.orientation.conjugate() * halfKick;
    freeRotationStep(s.orientation, Lbody, I, dt);
    if (!halfKick.isZero(0.0)) Lbody += s.orientation.conjugate() * halfKick;
    s.angularVelocity = s.orientation * Lbody.cwiseQuotient(I);
}

void advanceRigidBody(RigidBodyState& s, const Vec3& forceWorld, const Vec3& torqueWorld,
                      double dt) {
    const Vec3 halfKick = (0.5 * dt / s.mass) * forceWorld;
    s.velocity += halfKick;
    s.position += dt * s.velocity;
    s.velocity += halfKick;
    advanceRotation(s, torqueWorld, dt);
}

} // namespace sef
