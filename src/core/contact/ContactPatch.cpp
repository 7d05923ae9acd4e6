#include "contact/ContactPatch.hpp"

#include "contact/ContactPatchCaps.hpp"
#include "contact/ContactPatchFlatSupport.hpp"
#include "contact/ContactPatchKept.hpp"
#include "contact/ContactPatchPolygon.hpp"
#include "contact/ContactPatchRim.hpp"

#include <algorithm>
#include <array>
#include <cmath>

// The stages of a patch, each in a file of its own: the plane's polygons
// (ContactPatchPolygon), the cap outlines (ContactPatchCaps), the points
// and rim tests (ContactPatchRim), the kept outlines and the patch from
// them (ContactPatchKept), flat faces (ContactPatchFlatSupport). Here: the
// patch of a pair and of a wall contact.
namespace sef {

using namespace contactPatch;

PatchPoints pairPatch(const PosedBody& body1, const PosedBody& body2, const Vec3& n,
                      const Vec3& p1, const Vec3& p2, PatchGuess* guess, KeptPatch* kept) {
    if (kept != nullptr) kept->valid = false;
    const double d = n.dot(p1 - p2);
    if (!(d > 0.0)) return {};
    bool flat1, flat2;
    flatSupportsAt(body1, n, p1, body2, -n, p2, flat1, flat2);
    if (!(flat1 || flat2)) return {};
    PatchFrame frame;
    frame.origin = 0.5 * (p1 + p2);
    alignedTangents(flat1 ? body1 : body2, n, frame.t1, frame.t2);
    // cap1 above the support plane of body 2 and cap2 below that of body 1.
    // The last patch's answers, moved to this depth like the zone's (below).
    // (slots: overlap and zone caps of body 1, then of body 2)
    const bool carried = guess != nullptr && guess->depth > 0.0f;
    const bool carriedZone = guess != nullptr && guess->zoneDepth > 0.0f;
    const RingGuesses last1 = carried ? loadRing(*guess, PatchGuess::kOverlap) : RingGuesses{};
    const RingGuesses last2 = carried ? loadRing(*guess, PatchGuess::kOverlap + kPatchRing) : RingGuesses{};
    const RingGuesses lastZone1 = carriedZone ? loadRing(*guess, PatchGuess::kZone) : RingGuesses{};
    const RingGuesses lastZone2 = carriedZone ? loadRing(*guess, PatchGuess::kZone + kPatchRing) : RingGuesses{};
    const double lastDepth = carried ? double(guess->depth) : 0.0;
    const CapSpec overlapCaps[2] = {{&body1, n, n.dot(p2), d, p1, carried ? &last1 : nullptr, lastDepth},
                                    {&body2, -n, -n.dot(p1), d, p2, carried ? &last2 : nullptr, lastDepth}};
    const PosedBody* flatA = flat1 ? &body1 : nullptr;
    const PosedBody* flatB = flat2 ? &body2 : nullptr;
    FlatWidths widths(frame, flatA, flatB);
    // The contact zone: the same with both caps deeper by the zone depth.
    const double zoneDepth = d + kRimZoneDepth * std::min(flat1 ? body1.smallestHalfAxis() : HUGE_VAL,
                                                         flat2 ? body2.smallestHalfAxis() : HUGE_VAL);
    // A zone point found by a CapSearch lies at most exp(kDropTolerance)
    // times the zone depth below the top.
    const double zoneBound = zoneDepth * std::exp(kDropTolerance) * (1.0 + 1e-9);
    CapOutline caps[2];
    if (flat1 != flat2) {
        // the curved cap first; the face's only where it is needed
        const int curved = flat1 ? 1 : 0;
        capOutlines(&overlapCaps[curved], 1, frame, &caps[curved]);
        PatchPoints points;
        if (curvedCapOnFace(caps[curved], overlapCaps[curved].topPoint, flat1 ? body1 : body2,
                            flat2 ? n.dot(p1) : n.dot(p2), n, frame, zoneBound, widths, points)) {
            if (guess != nullptr) {
                storeRing(*guess, PatchGuess::kOverlap + curved * static_cast<int>(kPatchRing), caps[curved].guesses);
                guess->depth = static_cast<float>(d);
            }
            return points;
        }
        capOutlines(&overlapCaps[1 - curved], 1, frame, &caps[1 - curved]);
    } else {
        capOutlines(overlapCaps, 2, frame, caps);
    }
    const Outline& cap1 = caps[0].outline;
    const Outline& cap2 = caps[1].outline;
    const RingGuesses& guess1 = caps[0].guesses;
    const RingGuesses& guess2 = caps[1].guesses;
    if (guess != nullptr) {
        storeRing(*guess, PatchGuess::kOverlap, guess1);
        storeRing(*guess, PatchGuess::kOverlap + kPatchRing, guess2);
        guess->depth = static_cast<float>(d);
    }
    // Both rings use the same tangent directions: both outlines run
    // counter-clockwise in the (t1, t2) frame.
    const Outline patch = intersect(cap1, cap2);
    std::array<double, kPatchRing> bound1, bound2;
    Vec2 c;
    if (centroid(patch, c) && deeperCapBounds(caps[0].reach, frame.project(p1), zoneBound, bound1) &&
        deeperCapBounds(caps[1].reach, frame.project(p2), zoneBound, bound2) &&
        noRimPossible(c, bound1, bound2, widths)) {
        if (kept != nullptr && flat1 && flat2) keepPatch(*kept, frame, body1, body2, caps, nullptr, &bound1, &bound2);
        return patchPoints(patch, Outline{}, frame, widths);
    }
    // The zone's searches start from the last zone's answers if there are
    // any (the zone is several times deeper than a light overlap, which the
    // power-law move from this overlap's answers bridges poorly), else from
    // this overlap's.
    const double lastZoneDepth = carriedZone ? double(guess->zoneDepth) : 0.0;
    const CapSpec zoneCaps[2] = {{&body1, n, n.dot(p1) - zoneDepth, zoneDepth, p1,
                                  carriedZone ? &lastZone1 : &guess1, carriedZone ? lastZoneDepth : d},
                                 {&body2, -n, -n.dot(p2) - zoneDepth, zoneDepth, p2,
                                  carriedZone ? &lastZone2 : &guess2, carriedZone ? lastZoneDepth : d}};
    CapOutline zones[2];
    capOutlines(zoneCaps, 2, frame, zones);
    const Outline& zone1 = zones[0].outline;
    const Outline& zone2 = zones[1].outline;
    if (guess != nullptr) {
        storeRing(*guess, PatchGuess::kZone, zones[0].guesses);
        storeRing(*guess, PatchGuess::kZone + kPatchRing, zones[1].guesses);
        guess->zoneDepth = static_cast<float>(zoneDepth);
    }
    const PatchPoints points = patchPoints(patch, intersect(zone1, zone2), frame, widths);
    if (kept != nullptr && flat1 && flat2 && points.found) keepPatch(*kept, frame, body1, body2, caps, zones, nullptr, nullptr);
    return points;
}

PatchPoints wallPatch(const PosedBody& body, const Vec3& n, const Vec3& deepest, double depth,
                      const std::vector<Vec3>* clipPoints,
                      const std::vector<Vec3>* clipOutwardNormals, PatchGuess* guess, KeptPatch* kept) {
    if (kept != nullptr) kept->valid = false;
    if (!(depth > 0.0) || !flatSupportAt(body, -n, deepest)) return {};
    PatchFrame frame;
    frame.origin = deepest + 0.5 * depth * n;
    alignedTangents(body, n, frame.t1, frame.t2);
    // The part of the particle below the plane: up = -n, level = -n.(wall point).
    const double level = -n.dot(deepest + depth * n);
    // (the wall's caps use the overlap and zone slots of the pair's body 1)
    const bool carried = guess != nullptr && guess->depth > 0.0f;
    const bool carriedZone = guess != nullptr && guess->zoneDepth > 0.0f;
    const RingGuesses last = carried ? loadRing(*guess, PatchGuess::kOverlap) : RingGuesses{};
    const RingGuesses lastZone = carriedZone ? loadRing(*guess, PatchGuess::kZone) : RingGuesses{};
    // The contact zone: the part within the zone depth above the plane too.
    // Its searches start from the last zone's answers, else from this
    // overlap's (then the two caps run one after the other).
    const double zoneDepth = depth + kRimZoneDepth * body.smallestHalfAxis();
    CapSpec caps[2] = {{&body, -n, level, depth, deepest, carried ? &last : nullptr,
                        carried ? double(guess->depth) : 0.0},
                       {&body, -n, level - (zoneDepth - depth), zoneDepth, deepest,
                        carriedZone ? &lastZone : nullptr, carriedZone ? double(guess->zoneDepth) : depth}};
    FlatWidths widths(frame, &body, nullptr);
    CapOutline outlines[2];
    if (carriedZone) {
        // the last substep needed the zone: both caps in lockstep
        capOutlines(caps, 2, frame, outlines);
    } else {
        capOutlines(caps, 1, frame, outlines);
        // The zone only where a rim point is possible (as pairPatch): its
        // bounds from the overlap cap's answers prove when none is. A
        // resting eps = 0.5 body's zone reaches about 0.18 half-widths, a
        // rim point needs 0.3: there the zone's 8 searches were half the
        // patch's cost. A zone point found by a CapSearch lies at most
        // exp(kDropTolerance) times the zone depth below the top.
        const double zoneBound = zoneDepth * std::exp(kDropTolerance) * (1.0 + 1e-9);
        std::array<double, kPatchRing> bound;
        Outline clipped = outlines[0].outline, noZone;
        cutByFloorEdges(frame, clipPoints, clipOutwardNormals, clipped, noZone);
        Vec2 c;
        if (!deeperCapBounds(outlines[0].reach, frame.project(deepest), zoneBound, bound)) bound.fill(HUGE_VAL);
        tightenDeeperCapBounds(body, -n, deepest, frame, outlines[0].guesses, depth, zoneBound, bound);
        if (centroid(clipped, c) && noRimPossible(c, bound, bound, widths)) {
            if (guess != nullptr) {
                storeRing(*guess, PatchGuess::kOverlap, outlines[0].guesses);
                guess->depth = static_cast<float>(depth);
                guess->zoneDepth = 0.0f; // (the next zone starts from the overlap's answers)
            }
            KeptPatch keptNow;
            if (kept != nullptr) keepWallPatch(keptNow, frame, body, deepest, outlines[0].outline, noZone, &bound);
            const PatchPoints points = patchPoints(clipped, Outline{}, frame, widths);
            if (kept != nullptr && points.found) *kept = keptNow;
            return points;
        }
        caps[1].startFrom = &outlines[0].guesses;
        capOutlines(caps + 1, 1, frame, outlines + 1);
    }
    Outline& patch = outlines[0].outline;
    Outline& zone = outlines[1].outline;
    KeptPatch keptNow;
    if (kept != nullptr) keepWallPatch(keptNow, frame, body, deepest, patch, zone);
    cutByFloorEdges(frame, clipPoints, clipOutwardNormals, patch, zone);
    const PatchPoints points = patchPoints(patch, zone, frame, widths);
    if (guess != nullptr) {
        storeRing(*guess, PatchGuess::kOverlap, outlines[0].guesses);
        storeRing(*guess, PatchGuess::kZone, outlines[1].guesses);
        guess->depth = static_cast<float>(depth);
        guess->zoneDepth = static_cast<float>(zoneDepth);
        // a zone without rim points: the next substep tries without it
        if (carriedZone && points.rimCount == 0) guess->zoneDepth = 0.0f;
    }
    if (kept != nullptr && points.found) *kept = keptNow;
    return points;
}

void placeOnWallPatch(ContactResult& r, const PatchPoints& patch) {
    for (int k = 0; k < patch.rimCount; ++k) r.rim[k] = r.point + patch.rim[k];
    r.rimCount = patch.rimCount;
    r.surfacePoint1 += patch.centroid;
    r.surfacePoint2 += patch.centroid;
    r.point = 0.5 * (r.surfacePoint1 + r.surfacePoint2);
    r.onFlatPatch = !patch.centroid.isZero(0.0);
}

} // namespace sef
