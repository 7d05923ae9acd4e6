#pragma once
// The outlines of the caps of a contact patch (contact/ContactPatch.hpp):
// each cap's extreme points along the ring of tangent directions, found by
// cap searches (contact/CapSearch.hpp) warm-started from earlier answers,
// and what those answers prove about how far a deeper cap of the same body
// can reach. Shared by the stages of the patch (ContactPatch*.cpp).
#include "contact/CapSearch.hpp"
#include "contact/ContactPatchPolygon.hpp"

#include <array>

namespace sef::contactPatch {

// log tan(theta) of each ring direction's answer (the CapSearch warm start).
using RingGuesses = std::array<double, kPatchRing>;

// A cap's ring of guesses kept at `offset` in a PatchGuess (NaN: none).
RingGuesses loadRing(const PatchGuess& g, int offset);
void storeRing(PatchGuess& g, int offset, const RingGuesses& ring);

// How far each ring direction's cap may reach (CapReach; extent in frame
// coordinates, ring_k . q).
using RingReach = std::array<CapReach, kPatchRing>;

// How far a cap search's answer (log tan(theta)) moves when the cap's drop
// goes from `from` to `to`: by the face power law D ~ theta^e, e = 2 / (2 - eps).
double guessShift(const PosedBody& body, double from, double to);

// A cap {x in body : up.x >= level} to outline (topHeight: the drop from
// the body's top point, at topPoint, to the level), with where its ring
// searches start: `startFrom` (answers of a cap of the same body for the
// drop `startHeight`: the overlap cap for the deeper zone cap, or the last
// substep's cap of the pair) or nowhere (nullptr).
struct CapSpec {
    const PosedBody* body;
    Vec3 up;
    double level, topHeight;
    Vec3 topPoint;
    const RingGuesses* startFrom = nullptr;
    double startHeight = 0.0;
};

// What capOutlines returns per cap: the ring of extreme points,
// counter-clockwise in the frame, where each search ended (the next
// search's start) and what each answer proves about the cap's reach.
struct CapOutline {
    Outline outline;
    RingGuesses guesses;
    RingReach reach;
};

// Outlines `count` (1 or 2) caps at once: their 8 ring searches each run in
// lockstep (CapSearch::runAll), so the support points of up to 16 searches
// are evaluated together. Each direction starts from its answer in
// `startFrom` moved by the face power law D ~ theta^e (log tan(theta)
// grows by log(ratio) / e, e = 2 / (2 - eps)).
void capOutlines(const CapSpec* caps, int count, const PatchFrame& frame, CapOutline* out);

// Half-planes {q : ring_k . q <= bound_k} (frame coordinates) that contain
// the outline of the same body's cap of drop `deeper` (>= the cap's own),
// from the cap's reach bounds: along ring_k the cap of drop D_k reaches at
// most extent_k (CapSearch), and by convexity a cap of drop Z lies in the
// image of the cap of drop D <= Z scaled by Z / D about the top point
// (T + (D/Z)(x - T) is in the body for x in it, at drop D/Z times that of
// x). False if an answer has no bound (interpolated when its search ran
// out of steps).
bool deeperCapBounds(const RingReach& drops, const Vec2& top, double deeper,
                     std::array<double, kPatchRing>& bound);

// Tighter bounds of the same deeper cap (wall patches): for any direction
// m = up + tau t the support point p_m bounds every point x of the cap
// {x : up.x >= h(up) - deeper} by
//     t.x <= t.p_m + (deeper - D_m) / tau,   D_m = h(up) - up.p_m
// (Lagrange duality, as CapSearch's lateral bracket). tau: where the
// shallower cap's search along t ended (its guess, log tan theta), moved to
// the deeper drop by the face's power law as capOutlines moves guesses. One
// support call per direction (in lanes); on a flat face much tighter than
// the linear scaling of deeperCapBounds, which grows with deeper / drop.
void tightenDeeperCapBounds(const PosedBody& body, const Vec3& up, const Vec3& topPoint, const PatchFrame& frame,
                            const RingGuesses& guesses, double drop, double deeper,
                            std::array<double, kPatchRing>& bound);

} // namespace sef::contactPatch
