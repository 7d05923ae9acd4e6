#include "contact/ContactPatchCaps.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <new>
#include <type_traits>

namespace sef::contactPatch {

RingGuesses loadRing(const PatchGuess& g, int offset) {
    RingGuesses ring;
    for (std::size_t k = 0; k < kPatchRing; ++k) ring[k] = PatchGuess::decode(g.x[offset + k]);
    return ring;
}

void storeRing(PatchGuess& g, int offset, const RingGuesses& ring) {
    for (std::size_t k = 0; k < kPatchRing; ++k) g.x[offset + k] = PatchGuess::encode(ring[k]);
}

double guessShift(const PosedBody& body, double from, double to) {
    const double eps = std::min({body.shape.eps1(), body.shape.eps2(), 1.0});
    return std::log(to / from) * (2.0 - eps) / 2.0;
}

void capOutlines(const CapSpec* caps, int count, const PatchFrame& frame, CapOutline* out) {
    // The ring's directions (ringDirections) lie at 22.5 + k 45 deg from
    // the face axes, never along them: a
    // direction along a face axis has zero components that rounding noise
    // (1e-16, or a 1e-14 tilt of a fallback normal) makes tiny but non-zero,
    // and a flat face amplifies them (offset ~ component^(eps/(2-eps)),
    // (1e-14)^0.11 = 3 % of the face). Off-axis directions meet the rounded
    // corners, where the support map is well conditioned. Exact table (no
    // cos/sin rounding): mirror images and opposite directions stay exact.
    // Raw slots, each constructed when its search is set up: a
    // default-constructed array zeroed all 16 searches (4.5 kB) on every
    // call, a sixth of a blocky patch's time (perf).
    static_assert(std::is_trivially_destructible_v<CapSearch>, "slots are never destroyed");
    union Slots {
        Slots() {}
        CapSearch search[2 * kPatchRing];
    } slots;
    CapSearch* const searches = slots.search;
    std::size_t next = 0;
    for (int c = 0; c < count; ++c) {
        const CapSpec& cap = caps[c];
        const double shift = cap.startFrom != nullptr ? guessShift(*cap.body, cap.startHeight, cap.topHeight) : 0.0;
        for (std::size_t k = 0; k < kPatchRing; ++k) {
            const Vec3 t = ringTangent(frame, k);
            // Every direction starts from its own guess (never a neighbour's
            // answer): mirror-image directions then take mirror-image steps,
            // and a symmetric contact keeps an exactly symmetric outline.
            const double x = cap.startFrom != nullptr ? (*cap.startFrom)[k] + shift
                                                      : std::numeric_limits<double>::quiet_NaN();
            new (&searches[next++]) CapSearch(*cap.body, cap.up, t, cap.level, cap.topHeight, cap.topPoint, x);
        }
    }
    CapSearch::runAll(searches, static_cast<int>(next));
    for (int c = 0; c < count; ++c) {
        CapOutline& o = out[c];
        o.outline.clear();
        o.outline.reserve(kPatchRing);
        for (std::size_t k = 0; k < kPatchRing; ++k) {
            const CapSearch& search = searches[static_cast<std::size_t>(c) * kPatchRing + k];
            o.outline.push_back(frame.project(search.answer()));
            o.reach[k] = search.reach();
            o.reach[k].extent -= ringTangent(frame, k).dot(frame.origin); // frame coordinates
            o.guesses[k] = search.guess();
        }
    }
}

bool deeperCapBounds(const RingReach& drops, const Vec2& top, double deeper,
                     std::array<double, kPatchRing>& bound) {
    const auto& ring = ringDirections();
    for (std::size_t k = 0; k < kPatchRing; ++k) {
        if (std::isnan(drops[k].drop)) return false; // (tested first: a NaN in > traps under OpenFOAM)
        const double reach = std::max(drops[k].extent - ring[k].dot(top), 0.0);
        if (drops[k].drop == -1.0) {
            bound[k] = ring[k].dot(top) + reach; // at the silhouette
        } else if (drops[k].drop > 1e-6 * deeper) {
            bound[k] = ring[k].dot(top) + reach * std::max(1.0, deeper / drops[k].drop);
        } else {
            return false;
        }
    }
    return true;
}

void tightenDeeperCapBounds(const PosedBody& body, const Vec3& up, const Vec3& topPoint, const PatchFrame& frame,
                            const RingGuesses& guesses, double drop, double deeper,
                            std::array<double, kPatchRing>& bound) {
    const double shift = guessShift(body, drop, deeper);
    Vec3 directions[kPatchRing], points[kPatchRing], tangents[kPatchRing];
    double taus[kPatchRing];
    std::size_t which[kPatchRing];
    int lanes = 0;
    for (std::size_t k = 0; k < kPatchRing; ++k) {
        // (isfinite first: an ordered comparison with NaN traps under
        // OpenFOAM, as would an exp that overflows)
        if (!std::isfinite(guesses[k])) continue;
        const double x = guesses[k] + shift;
        if (!(x > -300.0 && x < 300.0)) continue;
        const double tau = std::exp(x);
        tangents[lanes] = ringTangent(frame, k);
        directions[lanes] = up + tau * tangents[lanes];
        taus[lanes] = tau;
        which[lanes++] = k;
    }
    body.support(directions, points, lanes);
    const double top = up.dot(topPoint);
    for (int i = 0; i < lanes; ++i) {
        const Vec3& t = tangents[i];
        const double b = t.dot(points[i] - frame.origin) + (deeper - (top - up.dot(points[i]))) / taus[i];
        if (std::isfinite(b)) bound[which[i]] = std::min(bound[which[i]], b);
    }
}

} // namespace sef::contactPatch
