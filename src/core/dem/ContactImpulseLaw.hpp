#pragma once
// The impulse law of ONE contact inside the sequential-impulse solver
// (dem/SequentialImpulseSolver.hpp). It differs from collision/
// ImpulseResolution.hpp (which resolves an isolated collision from the
// velocity before it) in two ways that make it usable in sweeps over many
// simultaneous contacts:
//   - it maps the contact's FREE relative velocity u_free (the velocity the
//     contact would have without its own accumulated impulse) to the TOTAL
//     accumulated impulse J of the contact; the solver applies J - J_old.
//     For a single contact the first sweep therefore gives exactly the
//     isolated-collision answer, later sweeps change nothing;
//   - the normal target is a fixed number `targetNormalVelocity` >= 0
//     (eps_n times the approach speed at the start of the substep for an
//     impact, 0 for a resting contact), not eps_n times the current velocity:
//     re-applying restitution in every sweep would make a stack bounce.
// Complementarity: u'_n >= target, J_n >= 0, and J_n = 0 if u_free,n >= target.
//
// Models (same names as collision/CollisionParameters.hpp):
//   frictionless  J = j n, j = max(0, (target - u_free,n) / n.K n).
//   paper         J = K^-1 (u' - u_free), u' = target n + eps_t u_free,t.
//   schwager      paper with eps_t from paper 001, eq. (87) (generalised,
//                 collision/ImpulseResolution.hpp).
//   coulomb       sticking J_s = K^-1 (target n + eps_t u_free,t - u_free)
//                 if J_s,n >= 0, |J_s,t| <= mu J_s,n and it does not add
//                 energy; otherwise sliding J = j (n - mu s) with u'_n =
//                 target and s the direction of the MEAN slip (u + u')/2
//                 (as the collision module), found by a fixed-point
//                 iteration s <- m_t(s)/|m_t(s)| (exact in one step when K
//                 does not couple normal and tangential directions, e.g.
//                 spheres; a few steps otherwise) instead of the module's
//                 64-sample angle search with bisection. If that impulse would
//                 add energy or jams (n.K(n - mu s) <= 0) the contact takes
//                 the frictionless impulse (the module instead searches the
//                 largest admissible mu' < mu).
#include "collision/CollisionParameters.hpp"
#include "geometry/Types.hpp"

namespace sef::dem {

struct ContactFrame {
    Vec3 normal;                 // unit, body 1 -> body 2 (wall: into the wall)
    Mat3 compliance;             // K: du = K J
    Mat3 inverseCompliance;      // K^-1 (frictional models only)
    double normalCompliance;     // n.K n > 0
    double targetNormalVelocity; // >= 0
};

// Total impulse on body 2 (body 1 receives -J).
Vec3 contactImpulse(const CollisionParameters& law, const ContactFrame& frame, const Vec3& uFree);

} // namespace sef::dem
