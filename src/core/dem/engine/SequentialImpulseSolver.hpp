#pragma once
// Sequential impulses (projected Gauss-Seidel on the contact impulses) for
// many simultaneous contacts, velocity level only:
//   - every contact keeps its ACCUMULATED impulse J (warm-started from the
//     previous substep for resting contacts); a sweep recomputes the total J
//     from the contact's free velocity by its impulse law
//     (collision/ContactImpulseLaw.hpp, shared with the isolated-collision
//     module) and applies the difference, so the projection (J_n >= 0,
//     friction cone) acts on the accumulated impulse and an impulse that
//     turned out too large is taken back in later sweeps;
//   - sweeps stop when no contact velocity changed by more than `tolerance`
//     in a sweep, or after maxSweeps; after the first sweep a contact is
//     revisited only if one of its bodies changed since its last visit (or
//     its own update was inexact: sliding friction, rolling);
//   - and they stop when they cannot get there within the cap
//     (stagnationWindow W > 0): the largest contact-velocity change of the
//     last W sweeps against that of the W sweeps before gives the rate of
//     convergence; no progress, or a rate at which the tolerance would be
//     reached only after maxSweeps, ends the solve. In a settled frictional
//     bed a few contacts keep trading impulse at 10-30 times the tolerance,
//     shrinking by 0.2 % per sweep, for as long as sweeps run (measured: every
//     substep of a creeping 1000-particle bed hit the cap of 50, after a fast
//     fall over the first 15 sweeps); a solve converging within the cap runs
//     as before.
// Positions are not touched (overlap removal is a separate position pass
// that never feeds velocity).
//
// Coulomb friction. A contact on its own (neither body touches anything
// else in the substep) takes the shared impulse law, so a binary collision
// is exactly the isolated-collision answer. Inside a cluster the coupled law
// is not a contraction under Gauss-Seidel (its stick/slide switch and the
// mean-slip direction jump with u_free; measured: body velocities kept
// changing by 3 g h per sweep in a settled bed, for 3000 sweeps), so there a
// visit does the normal row, then the 2x2 tangential block projected onto
// the disc |J_t| <= mu J_n (projected Gauss-Seidel on a convex problem,
// which converges). Both meet u'_n = target; sticking gives the same impulse;
// sliding friction opposes the final slip (K_tt-weighted) instead of the
// mean slip, the same direction when K does not couple normal and tangent
// (spheres).
//
// Rolling resistance (law rollingFriction mu_r > 0). Frictionless contact
// forces cannot stop a convex body rocking on a curved face: the contact
// point rolls, its normal velocity stays zero, nothing dissipates (doc/dem.md:
// a frictionless diamond bed kept 1.2e-6 of its drop energy as rocking for
// 4.7 s, whatever dt, sweeps or eps_n). Each such contact therefore also has
// an angular row: the angular impulse L (on body 2, tangent to the contact
// plane) that stops the relative angular velocity perpendicular to n,
// limited to |L| <= mu_r R_eff J_n with the contact's current normal impulse
// J_n (a constant directional torque mu_r R_eff F_n; Ai et al., Powder
// Technol. 206 (2011) 269, model A). R_eff = r_1 r_2 / (r_1 + r_2) of the
// contact arms (wall: r_1). Not warm-started: the limit follows J_n.
//
// Twisting resistance (law twistingFriction mu_t > 0). A contact point
// transmits no torque about its normal, so a body spinning about it (a
// block lying on a floor, an ellipsoid on its flattest side) spins for
// ever; a real contact patch resists with Coulomb friction spread over its
// area. The same contact then has a scalar angular row about n that stops
// the relative spin, limited to |L_n| <= mu_t R_eff J_n, as the rolling row
// (the rows of a flat-face contact share it likewise).
#include "collision/CollisionParameters.hpp"
#include "collision/ContactImpulseLaw.hpp"
#include "geometry/Types.hpp"

#include <vector>

namespace sef::dem {

// inverseMass 0 (and inverseInertia 0): immovable, a held particle. Its
// contacts then get a wall's answer through their point and normal; like a
// wall it does not join contacts into a cluster, and no contact may have
// two such bodies (its K would be 0).
struct SolverBody {
    Vec3 velocity = Vec3::Zero();
    Vec3 angularVelocity = Vec3::Zero();
    double inverseMass = 0.0;
    Mat3 inverseInertia = Mat3::Zero(); // world frame
    bool immovable() const { return inverseMass == 0.0; }
};

struct SolverContact {
    int i = -1, j = -1;                 // j < 0: wall (infinite mass)
    // j < 0: the wall's velocity at the contact point, across the normal,
    // and its angular velocity (dem/walls/WallMotion.hpp); zero for a wall at rest.
    Vec3 wallVelocity = Vec3::Zero();
    Vec3 wallAngularVelocity = Vec3::Zero();
    Vec3 arm1 = Vec3::Zero(), arm2 = Vec3::Zero(); // contact point - centre
    ContactFrame frame;                 // normal, K, (K^-1), n.K n, target (sef::ContactFrame)
    Vec3 armCrossNormal1 = Vec3::Zero(), armCrossNormal2 = Vec3::Zero(); // r x n
    Vec3 angular1 = Vec3::Zero(), angular2 = Vec3::Zero(); // I^-1 (r x n)
    const CollisionParameters* law = nullptr;
    Vec3 impulse = Vec3::Zero();        // accumulated, on body 2 (body 1 gets -impulse)
    double normalMass = 0.0;            // (no tangential impulse) 1 / (n.K n): a visit multiplies (a divide costs 5 % of a sweep)
    // Coulomb contacts inside a cluster (set by solveSequentialImpulses):
    // tangential target eps_t u_t (fixed at the start of the substep, like
    // the normal target; set by the caller, zero for resting contacts),
    // K n, and (when it first slides) a tangent basis and the inverse of K
    // restricted to it.
    Vec3 targetTangentialVelocity = Vec3::Zero();
    bool clusterFriction = false;
    bool tangentsReady = false;         // tangent1/2 and tangentialInverse set (on first slide)
    Vec3 tangent1 = Vec3::Zero(), tangent2 = Vec3::Zero();
    Eigen::Matrix2d tangentialInverse = Eigen::Matrix2d::Zero();
    Vec3 complianceNormal = Vec3::Zero(); // K n
    // Rolling resistance (set by setUpContact when the law has mu_r > 0):
    // R_eff, mu_r R_eff, the contact-plane basis, the inverse of
    // (I_1^-1 + I_2^-1) restricted to it, the angular velocity change of
    // each body per unit angular impulse along each tangent (I^-1 t, so a
    // visit applies its 2-D impulse without a 3x3 product), and the
    // accumulated angular impulse in the tangent basis.
    double rollingRadius = 0.0;
    double rollingLimit = 0.0;          // mu_r R_eff (per unit normal impulse); 0: no rolling row
    // Rows of one contact (a flat-face contact and its rim points, in a
    // row, the contact's own first) share one rolling row, on the first:
    // there rollingGroup = the number of rows that follow it in the group,
    // and they have rollingGroup = -1 and no rolling row of their own. Its
    // bound is the sum of the rows' mu_r R_eff J_n, i.e. the contact's
    // normal impulse however the rows split it (model A). Five rows with a
    // rolling row each had five copies of one constraint (the same bodies,
    // normal and plane), each clamped to its share: in a settled cube bed
    // they were half the sweeps' work. Set by the caller; 0 by setUpContact.
    int rollingGroup = 0;
    Vec3 rollingTangent1 = Vec3::Zero(), rollingTangent2 = Vec3::Zero();
    Eigen::Matrix2d rollingInverse = Eigen::Matrix2d::Zero();
    Vec3 rollingResponse1[2] = {Vec3::Zero(), Vec3::Zero()}; // I_1^-1 t_1, I_1^-1 t_2
    Vec3 rollingResponse2[2] = {Vec3::Zero(), Vec3::Zero()}; // I_2^-1 t_1, I_2^-1 t_2
    Eigen::Vector2d rollingImpulse = Eigen::Vector2d::Zero(); // on body 2 (body 1 gets -), in (t_1, t_2)
    // Twisting resistance (law twistingFriction mu_t > 0): mu_t R_eff, the
    // inverse of n.(I_1^-1 + I_2^-1) n, I^-1 n of each body, and the
    // accumulated angular impulse about n on body 2. The group of the
    // rolling row above (rollingGroup) serves it too.
    double twistLimit = 0.0;            // 0: no twisting row
    double twistInverse = 0.0;
    Vec3 twistResponse1 = Vec3::Zero(), twistResponse2 = Vec3::Zero();
    double twistImpulse = 0.0;
    bool hasAngularRows() const { return rollingLimit > 0.0 || twistLimit > 0.0; }
};

struct SolverResult {
    int sweeps = 0;
    long updates = 0;       // contact evaluations that changed an impulse
    bool converged = true;  // false: stopped at maxSweeps or stagnated
    bool stagnated = false; // stopped for lack of progress (stagnationWindow)
};

// Relative velocity u = v_2P - v_1P at the contact (wall: its velocity
// there - v_1P).
inline Vec3 relativeContactVelocity(const std::vector<SolverBody>& bodies, const SolverContact& c);

// Fills arms, compliance (K^-1 when `needInverse`), angular terms and the
// normal compliance from the bodies, the contact point and the normal.
// With `knownK` (and `knownInverse` when needed) the compliance is taken
// from there instead of computed: the caller vouches that it is still K for
// these arms and inertias to its tolerance (an approximate K only changes
// the rate of convergence: the sweeps meet the contact's law with the true
// velocities).
void setUpContact(SolverContact& c, const std::vector<SolverBody>& bodies,
                  const std::vector<Vec3>& centres, const Vec3& point, const Vec3& normal,
                  bool needInverse, const Mat3* knownK = nullptr, const Mat3* knownInverse = nullptr);

// Groups each flat-face contact's rim points with it for the rolling row
// (SolverContact::rollingGroup): rows flagged in `rimPoint` join the row
// before them when they have its bodies and normal.
void shareRollingRows(std::vector<SolverContact>& contacts, const std::vector<char>& rimPoint);

// Adds the impulse dJ (on body 2) to the body velocities.
inline void applyImpulse(std::vector<SolverBody>& bodies, const SolverContact& c, const Vec3& dJ);

SolverResult solveSequentialImpulses(std::vector<SolverBody>& bodies,
                                     std::vector<SolverContact>& contacts, int maxSweeps,
                                     double tolerance, int stagnationWindow = 0);

// The solver's per-call scratch, kept by a caller that solves every substep
// (the overload above keeps one per thread).
struct SolverScratch {
    std::vector<double> sweepChange;
    std::vector<long> bodyStamp, lastVisit;
    std::vector<char> revisitSelf;
    std::vector<int> degree;
};
SolverResult solveSequentialImpulses(std::vector<SolverBody>& bodies,
                                     std::vector<SolverContact>& contacts, int maxSweeps,
                                     double tolerance, int stagnationWindow, SolverScratch& scratch);

// Inline: called several times per contact visit in every sweep. Forced
// (GCC/Clang): as calls, their arguments and results go through memory,
// which lengthens the chain of dependent operations from visit to visit.
#if defined(__GNUC__)
#define SEF_ALWAYS_INLINE [[gnu::always_inline]] inline
#else
#define SEF_ALWAYS_INLINE inline
#endif

// A v, evaluated inline (Eigen's fixed-size 3x3 product is an out-of-line
// call at -O2).
SEF_ALWAYS_INLINE Vec3 multiply(const Mat3& A, const Vec3& v) {
    return Vec3(A(0, 0) * v.x() + A(0, 1) * v.y() + A(0, 2) * v.z(),
                A(1, 0) * v.x() + A(1, 1) * v.y() + A(1, 2) * v.z(),
                A(2, 0) * v.x() + A(2, 1) * v.y() + A(2, 2) * v.z());
}

SEF_ALWAYS_INLINE Vec3 relativeContactVelocity(const std::vector<SolverBody>& bodies,
                                               const SolverContact& c) {
    const SolverBody& b1 = bodies[static_cast<std::size_t>(c.i)];
    Vec3 u = -(b1.velocity + b1.angularVelocity.cross(c.arm1));
    if (c.j >= 0) {
        const SolverBody& b2 = bodies[static_cast<std::size_t>(c.j)];
        u += b2.velocity + b2.angularVelocity.cross(c.arm2);
    } else {
        u += c.wallVelocity;
    }
    return u;
}

SEF_ALWAYS_INLINE void applyImpulse(std::vector<SolverBody>& bodies, const SolverContact& c,
                                    const Vec3& dJ) {
    SolverBody& b1 = bodies[static_cast<std::size_t>(c.i)];
    b1.velocity -= b1.inverseMass * dJ;
    b1.angularVelocity -= multiply(b1.inverseInertia, c.arm1.cross(dJ));
    if (c.j >= 0) {
        SolverBody& b2 = bodies[static_cast<std::size_t>(c.j)];
        b2.velocity += b2.inverseMass * dJ;
        b2.angularVelocity += multiply(b2.inverseInertia, c.arm2.cross(dJ));
    }
}

} // namespace sef::dem
