#pragma once
// Extreme point, in one tangent direction, of the cap of a body above a
// plane: the search behind the patch outlines (ContactPatchCaps.cpp).
//
// The search is a state machine that asks for one support point at a time
// (request / receive) instead of calling the support map itself, so that
// the ring searches of a patch, which are independent, run in lockstep and
// their support points are evaluated together (PosedBody::supportLanes: the
// pow chains of a blocky shape overlap). Each search sees exactly
// the sequence of evaluations it would see alone: the answers do not depend
// on what runs beside it.
#include "contact/PosedBody.hpp"

#include <limits>

namespace sef {

// Relative tolerance on the cap-boundary drop D (log D within it). The cap
// width grows like D^(1/p) on a flat face (p = 2/eps, 0.5 % width error
// at eps = 0.2) and like D^(1/2) on a smooth cap (2.5 %, where the patch
// centre is the support point anyway).
constexpr double kDropTolerance = 0.05;

// Relative width, along t, of the interval known to hold the cap's extreme
// point at which the search stops and interpolates (see below): the same
// lateral accuracy as the drop tolerance gives on an eps = 0.2 face.
constexpr double kLateralTolerance = 2e-3;

// What an answer proves about the cap's reach: the cap of drop `drop` lies
// in {x : t.x <= extent} (world t.x). drop = -1: the answer is at the
// silhouette (extent: the whole body's); NaN: no bound.
struct CapReach {
    double drop = std::numeric_limits<double>::quiet_NaN();
    double extent = std::numeric_limits<double>::quiet_NaN();
};

// Extreme point in the tangent direction t of the cap {x in body : up.x >= level}
// (up unit, t unit and perpendicular to up; topHeight = h(up) - level > 0):
// the support point of m(theta) = cos(theta) up + sin(theta) t whose drop
// below the top, D(theta) = h(up) - up.x(theta), equals topHeight (D grows
// monotonically with theta). D ~ theta^e with e = 2 / (2 - eps) in [1, 2]
// on a face, so log D is nearly linear in log theta: a secant in (log theta,
// log D), safeguarded by bisection inside the bracket, takes 3-5 support
// calls. Tolerance: D within kDropTolerance of topHeight (in log).
//
// Where the level crosses a rounded edge or an inclined flat face, D jumps
// by a factor of several within a tiny theta range and the root search in
// theta crawls (a quarter of the support calls of a random blocky pair
// query went to searches of 8-40 calls). The answer is bracketed laterally
// instead: every evaluated direction m = up + tau t proves
// t.x <= t.p_m + (topHeight - D_m) / tau for every cap point x (Lagrange
// duality: m.x <= m.p_m and up.x >= level), and the point interpolated
// between the bracket ends at the cap level is a body point (convexity)
// on the cap boundary. Once that interval is narrower than
// kLateralTolerance of the cap's reach the interpolated point is returned.
// On an inclined flat face both bracket ends lie on the face, the two
// bounds meet, and the search stops at once.
//
// Warm start: xGuess (log tan(theta)) is a first guess if
// finite; guess() is where the answer was found (NaN if at the
// silhouette). The deeper zone cap of the same body along the same
// direction (the same drop function D, a larger target) starts from it.
class CapSearch {
public:
    CapSearch(const PosedBody& body, const Vec3& up, const Vec3& t, double level, double topHeight,
              const Vec3& topPoint, double xGuess);
    CapSearch() = default; // a done search (fixed-size arrays of searches, no allocation)

    bool done() const { return phase_ == Phase::done; }
    // World direction whose support point the search needs next.
    Vec3 request() const { return phase_ == Phase::silhouette ? t_ : Vec3(up_ + tau_ * t_); }
    // The body's support point along request().
    void receive(const Vec3& p);

    // After done(): the cap's extreme point, the warm start for the next
    // search of this cap and what the answer proves about the cap's reach.
    const Vec3& answer() const { return answer_; }
    double guess() const { return xGuess_; }
    const CapReach& reach() const { return reach_; }

    // Runs the searches to the end in lockstep, their support points
    // evaluated together (at most SupportKernel::kMaxLanes at a time).
    static void runAll(CapSearch* searches, int count);

private:
    enum class Phase { step, silhouette, done };

    void receiveStep(const Vec3& p);
    void receiveSilhouette(const Vec3& pHi);
    void advance(double next); // safeguards `next`, moves x there
    Vec3 interpolated() const; // point at the cap level between the bracket ends
    void finish(const Vec3& p, double xGuess, CapReach reach);
    void giveUp();

    const PosedBody* body_ = nullptr;
    Vec3 up_ = Vec3::Zero(), t_ = Vec3::Zero();
    double topHeight_ = 0.0, top_ = 0.0, topExtent_ = 0.0;
    Phase phase_ = Phase::done;
    int step_ = 0; // support calls of the root search so far
    double x_ = 0.0, tau_ = 0.0, f_ = 0.0, xPrev_ = 0.0, fPrev_ = 0.0;
    double lo_ = 0.0, fLo_ = 0.0, hi_ = 0.0, fHi_ = 0.0;
    Vec3 pLo_ = Vec3::Zero(), pHi_ = Vec3::Zero(); // support points at the bracket ends
    double upper_ = 0.0;  // bound on the cap's extent along t
    int side_ = 0;        // which end was kept last: Illinois halving of a stale end
    double pendingNext_ = 0.0;
    Vec3 answer_ = Vec3::Zero();
    double xGuess_ = std::numeric_limits<double>::quiet_NaN();
    CapReach reach_;
};

} // namespace sef
