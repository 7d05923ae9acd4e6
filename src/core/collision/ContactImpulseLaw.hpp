#pragma once
// THE impulse law of one contact: used by the isolated-collision module
// (collision/ImpulseResolution.hpp, target = -eps_n u_n) and inside the sweeps
// of the sequential-impulse solver (dem/engine/SequentialImpulseSolver.hpp).
//
// It maps the contact's FREE relative velocity u_free (u = v_2P - v_1P
// without the contact's own impulse) to the TOTAL impulse J on body 2 (body 1
// receives -J), given the compliance K (du = K J) and a fixed normal target
// u'_n = targetNormalVelocity:
//   - isolated collision: u_free = u before, target = -eps_n u_n; this gives
//     exactly [Superellipsoid-OpenFOAM], eqs. (65)/(67) (see ImpulseResolution.hpp);
//   - sequential impulses: the solver applies J - J_old. For a single contact
//     the first sweep gives the isolated-collision answer and later sweeps
//     change nothing. The target is fixed at the start of the substep (eps_n
//     times the approach speed for an impact, 0 for a resting contact), not
//     eps_n times the current velocity: re-applying restitution in every sweep
//     would make a stack bounce.
// Complementarity: an impulse only if u_free,n < target; then u'_n = target
// and J_n >= 0 (frictionless, coulomb).
//
// Models (collision/CollisionParameters.hpp):
//   frictionless  J = j n, j = (target - u_free,n) / n.K n.
//   paper         J = K^-1 (u' - u_free), u' = target n + eps_t u_free,t
//                 ([Superellipsoid-OpenFOAM], eqs. (65), (67)).
//   schwager      paper with eps_t from [Superellipsoid-OpenFOAM], eq. (87), generalised:
//                 1/alpha = (t.K t)/(n.K n) (= eq. (88) for spheres).
//   coulomb       sticking J_s = K^-1 (target n + eps_t u_free,t - u_free),
//                 accepted if J_s,n >= 0, |J_s,t| <= mu J_s,n and it does not
//                 add energy. Otherwise sliding J = j (n - mu s), j from
//                 u'_n = target, s the unit tangent along the MEAN slip
//                 (u + u')/2 so that friction dissipates. s is found
//                   1. cheaply: fixed-point iteration s <- mean slip(s),
//                      accelerated by secant steps on the slip angle (exact in
//                      one step when K does not couple normal and tangential
//                      directions, e.g. spheres; a few steps otherwise);
//                   2. if that does not converge, jams (n.K(n - mu s) <= 0),
//                      gives J_n < 0 or adds energy: robustly, by a 64-sample
//                      search over the direction angle with bisection, the
//                      most dissipative solution (regime Sliding);
//                   3. if there is none at mu (strong coupling: full-mu
//                      friction would reverse the mean slip, or jam): the
//                      largest mu' < mu that admits one, by bisection
//                      (ReducedSliding; mu' = 0: FrictionlessFallback).
//                 Never adds energy: dE = J.(u + u')/2 <= 0 is checked.
//
// Energy of an impulse J on a contact moving with u: dE = J.(u + K J / 2).
#include "collision/CollisionParameters.hpp"
#include "geometry/Types.hpp"

#include <string>

namespace sef {

enum class CollisionRegime {
    separating,           // u_free,n >= target: no impulse
    frictionless,         // normal impulse only (model frictionless, or coulomb with mu = 0)
    restitution,          // paper / schwager: prescribed eps_n, eps_t
    sticking,             // coulomb: sticking impulse inside the cone
    sliding,              // coulomb: |J_t| = mu J_n
    reducedSliding,       // coulomb: sliding with the largest admissible mu' < mu
    frictionlessFallback  // coulomb: not even that (mu' = 0)
};

std::string collisionRegimeName(CollisionRegime regime);

struct ContactFrame {
    Vec3 normal = Vec3::UnitZ();               // unit, body 1 -> body 2 (wall: into the wall)
    Mat3 compliance = Mat3::Zero();            // K (du = K J); not needed by "frictionless"
    Mat3 inverseCompliance = Mat3::Zero();     // K^-1, valid if hasInverse
    double normalCompliance = 0.0;             // n.K n > 0
    double targetNormalVelocity = 0.0;         // u'_n after the impulse
    bool hasInverse = false;                   // false: solves with K.ldlt() per call
};

// Frame from K (symmetric positive definite) and the unit normal; the
// inverse is computed once here when `withInverse` (sweeps evaluate the law
// many times per frame).
ContactFrame makeContactFrame(const Mat3& compliance, const Vec3& normal,
                              double targetNormalVelocity, bool withInverse);

struct ImpulseLawResult {
    Vec3 impulse = Vec3::Zero();  // total, on body 2; body 1 gets -impulse
    CollisionRegime regime = CollisionRegime::separating;
    double tangentialRestitution = 0.0;  // eps_t used (schwager: from eq. (87))
};

ImpulseLawResult contactImpulse(const CollisionParameters& law, const ContactFrame& frame,
                                const Vec3& uFree);

// Generalised Schwager eps_t ([Superellipsoid-OpenFOAM], eq. (87)) for relative contact
// velocity u, unit normal n, compliance K: g_n = -u.n, g_t = |u_t|,
// 1/alpha = (t.K t)/(n.K n). g_t = 0 gives 0.
double schwagerTangentialRestitution(const Mat3& K, const Vec3& u, const Vec3& n,
                                     double restitution, double friction);

} // namespace sef
