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
//     in a sweep, or after maxSweeps; after the first sweep only contacts of
//     bodies whose velocity changed in the previous sweep are revisited.
// Positions are not touched (overlap removal is a separate position pass
// that never feeds velocity).
#include "collision/CollisionParameters.hpp"
#include "collision/ContactImpulseLaw.hpp"
#include "geometry/Types.hpp"

#include <vector>

namespace sef::dem {

struct SolverBody {
    Vec3 velocity = Vec3::Zero();
    Vec3 angularVelocity = Vec3::Zero();
    double inverseMass = 0.0;
    Mat3 inverseInertia = Mat3::Zero(); // world frame
};

struct SolverContact {
    int i = -1, j = -1;                 // j < 0: wall (infinite mass, at rest)
    Vec3 arm1 = Vec3::Zero(), arm2 = Vec3::Zero(); // contact point - centre
    ContactFrame frame;                 // normal, K, (K^-1), n.K n, target (sef::ContactFrame)
    Vec3 armCrossNormal1 = Vec3::Zero(), armCrossNormal2 = Vec3::Zero(); // r x n
    Vec3 angular1 = Vec3::Zero(), angular2 = Vec3::Zero(); // I^-1 (r x n)
    const CollisionParameters* law = nullptr;
    Vec3 impulse = Vec3::Zero();        // accumulated, on body 2 (body 1 gets -impulse)
};

struct SolverResult {
    int sweeps = 0;
    long updates = 0;       // contact evaluations that changed an impulse
    bool converged = true;  // false: stopped at maxSweeps
};

// Relative velocity u = v_2P - v_1P at the contact (wall: -v_1P).
Vec3 relativeContactVelocity(const std::vector<SolverBody>& bodies, const SolverContact& c);

// Fills arms, compliance (K^-1 when `needInverse`), angular terms and the
// normal compliance from the bodies, the contact point and the normal.
void setUpContact(SolverContact& c, const std::vector<SolverBody>& bodies,
                  const std::vector<Vec3>& centres, const Vec3& point, const Vec3& normal,
                  bool needInverse);

// Adds the impulse dJ (on body 2) to the body velocities.
void applyImpulse(std::vector<SolverBody>& bodies, const SolverContact& c, const Vec3& dJ);

SolverResult solveSequentialImpulses(std::vector<SolverBody>& bodies,
                                     std::vector<SolverContact>& contacts, int maxSweeps,
                                     double tolerance);

} // namespace sef::dem
