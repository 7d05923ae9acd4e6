#include "kinematics/RigidBodyIntegrator.hpp"

#include <cmath>
#include <stdexcept>

#include "kinematics/OrientationUpdate.hpp"

namespace sef {

Vec3 eulerAngularAcceleration(const Vec3& I, const Vec3& w, const Vec3& T) {
    // [Superellipsoid-OpenFOAM], eqs. (14)-(16): T_x = I_x dw_x/dt - w_y w_z (I_y - I_z), cyclic.
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

// The five rotations of the splitting for N bodies, interleaved: each
// body's rotations form one chain of dependent operations (~200 cycles), so
// one body at a time left the core waiting; N bodies' chains overlap. The
// same operations in the same order per body, so the bits do not depend on
// the batching. (N fixed: the loops unroll and q, L stay in registers.)
template <int N>
void freeRotationSteps(Quat* q, Vec3* L, const Vec3* I, double dt) {
    const double h = 0.5 * dt;
    Vec3 inverseI[N]; // no division on the chain of the five rotations
    for (int b = 0; b < N; ++b) inverseI[b] = I[b].cwiseInverse();
    for (int b = 0; b < N; ++b) rotateAboutBodyAxis<0>(q[b], L[b], inverseI[b], h);
    for (int b = 0; b < N; ++b) rotateAboutBodyAxis<1>(q[b], L[b], inverseI[b], h);
    for (int b = 0; b < N; ++b) rotateAboutBodyAxis<2>(q[b], L[b], inverseI[b], dt);
    for (int b = 0; b < N; ++b) rotateAboutBodyAxis<1>(q[b], L[b], inverseI[b], h);
    for (int b = 0; b < N; ++b) rotateAboutBodyAxis<0>(q[b], L[b], inverseI[b], h);
    for (int b = 0; b < N; ++b) q[b].normalize();
}

// advanceRotation of N bodies (half kick, free rotation, half kick).
// Work with the body-frame angular momentum L' = diag(I) w' so that only
// quaternion rotations (no inertia-matrix products) touch L: fewer round-off
// operations per step.
template <int N>
void advanceRotationsOf(RigidBodyState* const* states, const Vec3* const* torquesWorld, double dt) {
    Quat q[N];
    Vec3 I[N], L[N], halfKick[N];
    for (int b = 0; b < N; ++b) {
        const RigidBodyState& s = *states[b];
        q[b] = s.orientation;
        I[b] = s.principalInertia;
        halfKick[b] = 0.5 * dt * *torquesWorld[b];
        L[b] = I[b].cwiseProduct(q[b].conjugate() * s.angularVelocity);
    }
    for (int b = 0; b < N; ++b)
        if (!halfKick[b].isZero(0.0)) L[b] += q[b].conjugate() * halfKick[b];
    freeRotationSteps<N>(q, L, I, dt);
    for (int b = 0; b < N; ++b) {
        if (!halfKick[b].isZero(0.0)) L[b] += q[b].conjugate() * halfKick[b];
        states[b]->orientation = q[b];
        states[b]->angularVelocity = q[b] * L[b].cwiseQuotient(I[b]);
    }
}

} // namespace

void freeRotationStep(Quat& q, Vec3& L, const Vec3& I, double dt) {
    freeRotationSteps<1>(&q, &L, &I, dt);
}

void advanceRotations(RigidBodyState* const* states, const Vec3* const* torquesWorld, int count,
                      double dt) {
    static_assert(kRotationLanes == 4, "one case per batch size");
    switch (count) {
    case 1: advanceRotationsOf<1>(states, torquesWorld, dt); break;
    case 2: advanceRotationsOf<2>(states, torquesWorld, dt); break;
    case 3: advanceRotationsOf<3>(states, torquesWorld, dt); break;
    case 4: advanceRotationsOf<4>(states, torquesWorld, dt); break;
    default: throw std::invalid_argument("advanceRotations: 1 to kRotationLanes bodies at a time");
    }
}

void advanceRotation(RigidBodyState& s, const Vec3& torqueWorld, double dt) {
    RigidBodyState* states[1] = {&s};
    const Vec3* torques[1] = {&torqueWorld};
    advanceRotationsOf<1>(states, torques, dt);
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
