#pragma once
// Impulse-based collision response with full inertia tensors
// ([Superellipsoid-OpenFOAM], sec. 4.1-4.6; friction via eqs. (87)-(88) or Coulomb).
//
// CONVENTIONS
//   contactPoint  world point where the impulse acts (the collision-frame
//                 origin of [Superellipsoid-OpenFOAM], sec. 4.1; for walls the deepest point
//                 of the particle, i.e. the support point along the normal).
//   normal        unit, from body 1 towards body 2. Particle-wall: from the
//                 particle towards (into) the wall; the wall is "body 2".
//   impulse       acts on body 2 (the wall) at contactPoint; body 1 (the
//                 particle) receives -impulse. Approaching means the relative
//                 contact velocity u = v_2P - v_1P has u.n < 0; otherwise
//                 nothing is applied (regime Separating).
//   Arms r_i = contactPoint - x_i (the paper's r*_i = -r_i).
//
// The impulse law itself (all models) lives in collision/ContactImpulseLaw.hpp
// and is shared with the DEM sequential-impulse solver; here it is called with
// u_free = u (before) and the normal target u'_n = -eps_n u_n.
// CollisionRegime and schwagerTangentialRestitution are declared there too.
//
// FORMULATION. Every model is one impulse J at the contact point:
//   dv_2 = J/m_2, dw_2 = I_2^-1 (r_2 x J), dv_1 = -J/m_1, dw_1 = -I_1^-1 (r_1 x J)
// with the world inertia tensors I_i = R_i diag(I'_i) R_i^T. The change of the
// relative contact velocity is du = K J with the symmetric positive definite
// compliance K = (1/m_1 + 1/m_2) 1 - [r_1]x I_1^-1 [r_1]x - [r_2]x I_2^-1 [r_2]x
// (walls: 1/m_2 = 0, I_2^-1 = 0). For ANY J this conserves linear momentum
// ([Superellipsoid-OpenFOAM], eq. (63)) and each body's angular momentum about the contact
// point I_i w_i + (x_i - p) x m_i v_i (eq. (70), all three components).
// The models only differ in how J is chosen:
//   frictionless  J = j n, j = -(1 + eps_n) u_n / (n.K n).
//   paper         u' = -eps_n u_n n + eps_t u_t  (eqs. (65), (67), (75), (77))
//                 J = K^-1 (u' - u); identical to solving the 12x12 system of
//                 eqs. (71)-(72) or the 6x6 system (81).
//   schwager      paper with eps_t = max(0, 1 - mu (1+eps_n) alpha^-1 g_n/g_t)
//                 (eq. (87)), alpha^-1 = (t.K t)/(n.K n), t = u_t/|u_t|.
//                 For spheres (n.K t = 0) this is eq. (88): 1/alpha =
//                 1 + m_eff (r_1^2/I_1 + r_2^2/I_2), = 7/2 for equal spheres
//                 and for a sphere on a wall.
//   coulomb       sticking candidate J_s = K^-1 (u' - u) with the "paper"
//                 target (eps_t; eps_t = 0 is full stick). Accepted if
//                 J_s.n >= 0, |J_s,t| <= mu J_s.n and it does not add energy.
//                 Otherwise sliding: J = j (n - mu s) with j fixed by the
//                 normal restitution u'_n = -eps_n u_n, and the unit tangent s
//                 chosen so that friction opposes the MEAN slip velocity
//                 (u_t + u'_t)/2: by a secant-accelerated fixed point, and
//                 if that fails by a bracketed 1-D search over the direction
//                 angle taking the most dissipative of several solutions
//                 (ContactImpulseLaw.hpp). If no such solution exists at mu
//                 (strong normal-tangential coupling: full-mu friction would
//                 reverse the mean slip, or impulsive jam n.K (n - mu s) <= 0), the
//                 contact slides with the largest mu' < mu that admits one
//                 (regime ReducedSliding; mu' = 0: FrictionlessFallback).
//
// ENERGY. The kinetic energy change is dE = J.(u + u')/2. Frictionless:
// dE = -(1 - eps_n^2) u_n^2 / (2 n.K n) <= 0, zero for eps_n = 1. Coulomb
// sliding: dE = J_n (1 - eps_n) u_n / 2 - mu J_n |mean slip| <= 0. So
// "frictionless" and "coulomb" never increase the kinetic energy for
// eps_n in [0, 1], eps_t in [-1, 1]. "paper" and "schwager" can for
// non-spheres (the normal-tangential coupling n.K t != 0 lets a prescribed
// tangential restitution feed energy in); they are offered for fidelity to
// [Superellipsoid-OpenFOAM].
//
// THE TWO TRAPS OF [Superellipsoid-OpenFOAM] (what we chose):
// (1) Its frictionless systems (eqs. (73)-(74), (86)) impose psi_x'' = w_x''
//     (unchanged normal component of the angular velocity) and keep only the
//     y and z rows of eq. (70). A normal impulse changes the spin angular
//     momentum by r x (j n), which is perpendicular to n, so what is
//     conserved is n.(I w), not n.w; the two agree only when the collision-
//     frame inertia has I''_xy = I''_xz = 0. We never solve those reduced
//     systems: the single-impulse formulation above satisfies eq. (70) in
//     all components with the full inertia tensors.
// (2) It calls eps_t = 1 "frictionless" (sec. 5.3, Table 2). Keeping the
//     relative tangential contact velocity of a non-sphere needs a
//     tangential impulse (K couples normal and tangential directions when
//     the arms are not parallel to n), so eps_t = 1 is frictional and may
//     even add energy. Model "frictionless" has a truly zero tangential
//     impulse; use it wherever the paper means frictionless (its
//     eps_t = 1 cases, Kodam's frictionless wall). "paper" with eps_t = 1
//     reproduces the paper's literal equations.
#include "collision/CollisionParameters.hpp"
#include "collision/ContactImpulseLaw.hpp"
#include "geometry/Types.hpp"
#include "kinematics/RigidBodyState.hpp"

namespace sef {

struct CollisionResult {
    CollisionRegime regime = CollisionRegime::separating;
    Vec3 impulse = Vec3::Zero();  // on body 2 (wall) at the contact point; body 1 gets -impulse
    Vec3 velocityChange1 = Vec3::Zero();
    Vec3 angularVelocityChange1 = Vec3::Zero();
    Vec3 velocityChange2 = Vec3::Zero();          // zero for walls
    Vec3 angularVelocityChange2 = Vec3::Zero();   // zero for walls
    Vec3 relativeContactVelocityBefore = Vec3::Zero();  // u = v_2P - v_1P
    Vec3 relativeContactVelocityAfter = Vec3::Zero();
    double tangentialRestitution = 0.0;  // eps_t used (schwager: from eq. (87))
    double kineticEnergyBefore = 0.0;    // both bodies (wall: the particle only)
    double kineticEnergyAfter = 0.0;
};

// Particle-particle. Throws std::invalid_argument (CollisionParameterError
// for parameters) on invalid states, non-unit normal (|n| off by > 1e-6) or
// non-finite contact point.
CollisionResult resolvePairCollision(const RigidBodyState& body1, const RigidBodyState& body2,
                                     const Vec3& contactPoint, const Vec3& normal,
                                     const CollisionParameters& parameters);

// Particle-wall; the wall has infinite mass and moves with wallVelocity
// (translation only). normalTowardsWall: unit, from the particle into the wall.
CollisionResult resolveWallCollision(const RigidBodyState& particle, const Vec3& contactPoint,
                                     const Vec3& normalTowardsWall,
                                     const CollisionParameters& parameters,
                                     const Vec3& wallVelocity = Vec3::Zero());

// Add the velocity changes of a result to the bodies.
void applyCollision(const CollisionResult& result, RigidBodyState& body1, RigidBodyState& body2);
void applyWallCollision(const CollisionResult& result, RigidBodyState& particle);

// The compliance K (du = K J) of a contact; for a wall pass nullptr as body2.
Mat3 contactCompliance(const RigidBodyState& body1, const RigidBodyState* body2,
                       const Vec3& contactPoint);

} // namespace sef
