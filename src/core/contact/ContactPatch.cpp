#include "contact/ContactPatch.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace sef {

namespace {

using Vec2 = Eigen::Vector2d;
using Outline = std::vector<Vec2>;

// Relative tolerance on the cap-boundary drop D (log D within it). The cap
// width grows like D^(1/p) on a flat face (p = 2/eps, 0.5 % width error
// at eps = 0.2) and like D^(1/2) on a smooth cap (2.5 %, where the patch
// centre is the support point anyway).
constexpr double kDropTolerance = 0.05;

struct PatchFrame {
    Vec3 origin, t1, t2;
    Vec2 project(const Vec3& x) const {
        const Vec3 r = x - origin;
        return {t1.dot(r), t2.dot(r)};
    }
};

// t1 = the body axis most perpendicular to n, projected onto the contact
// plane (the lowest axis index wins ties, so the choice is deterministic):
// aligns the ring with the face edges of a face contact.
void alignedTangents(const PosedBody& body, const Vec3& n, Vec3& t1, Vec3& t2) {
    int best = 0;
    double bestDot = 2.0;
    for (int i = 0; i < 3; ++i) {
        const double c = std::fabs(n.dot(body.rotation.col(i)));
        if (c < bestDot) {
            bestDot = c;
            best = i;
        }
    }
    const Vec3 axis = body.rotation.col(best);
    const Vec3 inPlane = axis - n.dot(axis) * n;
    const double norm = inPlane.norm();
    if (!(norm > 1e-8)) { // cannot happen for an orthonormal frame; be safe
        tangentBasis(n, t1, t2);
        return;
    }
    t1 = inPlane / norm;
    t2 = n.cross(t1);
}

// What an answer of capExtreme proves about the cap's reach: the cap of
// drop `drop` lies in {x : t.x <= extent} (world t.x). drop = -1: the
// answer is at the silhouette (extent: the whole body's); NaN: no bound.
struct CapReach {
    double drop = std::numeric_limits<double>::quiet_NaN();
    double extent = std::numeric_limits<double>::quiet_NaN();
};

// Relative width, along t, of the interval known to hold the cap's extreme
// point at which capExtreme stops and interpolates (see below): the same
// lateral accuracy as the drop tolerance gives on an eps = 0.2 face.
constexpr double kLateralTolerance = 2e-3;

// Extreme point in the tangent direction t of the cap {x in body : up.x >= level}
// (up unit, t unit and perpendicular to up; topHeight = h(up) - level > 0):
// the support point of m(theta) = cos(theta) up + sin(theta) t whose drop
// below the top, D(theta) = h(up) - up.x(theta), equals topHeight (D grows
// monotonically with theta). D ~ theta^e with e = 2 / (2 - eps) in [1, 2]
// on a face, so log D is nearly linear in log theta: a secant in (log theta,
// log D), safeguarded by bisection inside the bracket, takes 3-5 support
// calls. Tolerance: D within 1e-3 of topHeight (lateral error <= 1e-3 of
// the cap width, since the width grows like D^(1/e)).
//
// Where the level crosses a rounded edge or an inclined flat face, D jumps
// by a factor of several within a tiny theta range and the root search in
// theta crawls (a quarter of the support calls of a random blocky pair
// query went to searches of 8-40 calls). The answer is bracketed laterally
// instead (issue 21): every evaluated direction m = up + tau t proves
// t.x <= t.p_m + (topHeight - D_m) / tau for every cap point x (Lagrange
// duality: m.x <= m.p_m and up.x >= level), and the point interpolated
// between the bracket ends at the cap level is a body point (convexity)
// on the cap boundary. Once that interval is narrower than
// kLateralTolerance of the cap's reach the interpolated point is returned.
// On an inclined flat face both bracket ends lie on the face, the two
// bounds meet, and the search stops at once.
//
// Warm start (issue 21): `x` (log tan(theta)) comes in as a first guess if
// finite, and goes out as where the answer was found (NaN if at the
// silhouette). The deeper zone cap of the same body along the same
// direction (the same drop function D, a larger target) starts from it:
// its first call then usually lands within the tolerance (a warm blocky pair query made ~150 support calls for its
// four outlines, half of its time).
Vec3 capExtreme(const PosedBody& body, const Vec3& up, const Vec3& t, double level,
                double topHeight, const Vec3& topPoint, double& xGuess, CapReach& reach) {
    const double top = level + topHeight;
    const double topExtent = t.dot(topPoint);
    // Bracket in x = log(tan(theta)); the upper end (the body's silhouette
    // along t, theta = 90 deg) is evaluated only if the iteration gets there.
    double hi = std::numeric_limits<double>::infinity(), fHi = std::numeric_limits<double>::quiet_NaN();
    double lo = -std::numeric_limits<double>::infinity(), fLo = lo;
    Vec3 pHi = topPoint, pLo = topPoint; // support points at the bracket ends
    double upper = std::numeric_limits<double>::infinity(); // bound on the cap's extent along t
    // The point at the cap level between the bracket ends (a body point).
    const auto interpolated = [&]() {
        const double dLo = top - up.dot(pLo), dHi = top - up.dot(pHi);
        const double w = dHi > dLo ? std::clamp((topHeight - dLo) / (dHi - dLo), 0.0, 1.0) : 0.5;
        return Vec3(pLo + w * (pHi - pLo));
    };
    // First guess: the caller's, else a face (e = 1) of the size of the
    // bounding radius.
    double x = std::isfinite(xGuess) ? std::min(xGuess, 30.0)
                                     : std::log(std::min(0.5, topHeight / body.shape.boundingRadius()));
    double xPrev = x, fPrev = std::numeric_limits<double>::quiet_NaN();
    int side = 0; // which end was kept last: Illinois halving of a stale end
    for (int k = 0; k < 40; ++k) {
        // direction up + tan(theta) t (the support map needs no unit vector)
        const double tau = std::exp(x);
        const Vec3 p = body.support(up + tau * t);
        const double drop = top - up.dot(p);
        const double f = drop > 0.0 ? std::log(drop / topHeight)
                                    : -std::numeric_limits<double>::infinity();
        if (std::fabs(f) <= kDropTolerance) {
            xGuess = x;
            reach.drop = drop;
            reach.extent = t.dot(p);
            return p;
        }
        if (x > -30.0) upper = std::min(upper, t.dot(p) + (topHeight - drop) / tau);
        if (f < 0.0) {
            lo = x, fLo = f, pLo = p;
            if (side == -1) fHi *= 0.5;
            side = -1;
        } else {
            hi = x, fHi = f, pHi = p;
            if (side == 1) fLo *= 0.5;
            side = 1;
        }
        if (std::isfinite(lo) && std::isfinite(hi)) {
            const Vec3 q = interpolated();
            const double lower = t.dot(q);
            if ((std::isfinite(upper) && upper - lower <= kLateralTolerance * (upper - topExtent)) ||
                hi - lo <= 1e-7) {
                xGuess = 0.5 * (lo + hi);
                reach.drop = topHeight;
                reach.extent = std::max(upper, lower);
                return q;
            }
        }
        // First step: the face power law D ~ theta^e, e = 2 / (2 - eps);
        // then the secant through the last two points; Illinois regula
        // falsi (or bisection) when that leaves the bracket.
        double next;
        if (k == 0 && std::isfinite(f)) {
            const double eps = std::min(body.shape.eps1(), body.shape.eps2());
            next = x - f * (2.0 - std::min(eps, 1.0)) / 2.0;
        } else {
            next = std::isfinite(f) && std::isfinite(fPrev) && f != fPrev
                       ? x - f * (x - xPrev) / (f - fPrev)
                       : lo;
        }
        if (!(next > lo && next < hi) && std::isnan(fHi)) {
            pHi = body.support(t);
            // the cap reaches the silhouette (drop <= topHeight, f <= 0);
            // tested before the log: a zero drop would be log(0), which
            // raises divide-by-zero (OpenFOAM traps it)
            const double dropHi = top - up.dot(pHi);
            if (!(dropHi > topHeight)) {
                xGuess = std::numeric_limits<double>::quiet_NaN();
                reach.drop = -1.0;
                reach.extent = t.dot(pHi);
                return pHi;
            }
            fHi = std::log(dropHi / topHeight);
            upper = std::min(upper, t.dot(pHi)); // the whole body's extent
        }
        if (!(next > lo && next < hi))
            next = std::isfinite(fLo) && std::isfinite(hi) ? hi - fHi * (hi - lo) / (fHi - fLo)
                   : (std::isfinite(hi) ? hi - 2.0 : x + 2.0);
        if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
        // Without an upper bracket a flat secant can jump arbitrarily far:
        // at most a factor e^2 in tan(theta) per step (tan(theta) = e^30 is
        // already the silhouette), so exp() never overflows (OpenFOAM traps
        // floating-point overflow).
        if (!std::isfinite(hi)) next = std::min({next, x + 2.0, 30.0});
        if (!std::isfinite(next)) break;
        xPrev = x;
        fPrev = f;
        x = next;
    }
    // The cap boundary lies between the bracket ends: interpolate by drop.
    xGuess = std::isfinite(lo) && std::isfinite(hi) ? 0.5 * (lo + hi) : x;
    reach = CapReach{};
    return interpolated();
}

// log tan(theta) of each ring direction's answer (capExtreme's warm start).
using RingGuesses = std::array<double, kPatchRing>;

// A cap's ring of guesses kept at `offset` in a PatchGuess (NaN: none).
RingGuesses loadRing(const PatchGuess& g, int offset) {
    RingGuesses ring;
    for (std::size_t k = 0; k < kPatchRing; ++k) ring[k] = PatchGuess::decode(g.x[offset + k]);
    return ring;
}

void storeRing(PatchGuess& g, int offset, const RingGuesses& ring) {
    for (std::size_t k = 0; k < kPatchRing; ++k) g.x[offset + k] = PatchGuess::encode(ring[k]);
}

// How far each ring direction's cap may reach (CapReach; extent in frame
// coordinates, ring_k . q).
using RingReach = std::array<CapReach, kPatchRing>;

// The ring's directions in the (t1, t2) frame, counter-clockwise.
const std::array<Vec2, kPatchRing>& ringDirections() {
    static const double c = 0.92387953251128674, s = 0.38268343236508978; // cos, sin(pi/8)
    static_assert(kPatchRing == 8, "ring table below has 8 directions");
    static const std::array<Vec2, 8> ring{Vec2(c, s),   Vec2(s, c),   Vec2(-s, c), Vec2(-c, s),
                                          Vec2(-c, -s), Vec2(-s, -c), Vec2(s, -c), Vec2(c, -s)};
    return ring;
}

// Ring of extreme points of a cap, counter-clockwise in the frame. With
// `startFrom` (answers of a cap of the same body for the drop
// `startHeight`: the overlap cap for the deeper zone cap, or the last
// substep's cap of the pair), each direction starts from its answer there
// moved by the face power law D ~ theta^e (log tan(theta) grows by
// log(ratio) / e, e = 2 / (2 - eps)). `guesses` returns this ring's answers.
Outline capOutline(const PosedBody& body, const Vec3& up, double level, double topHeight,
                   const Vec3& topPoint, const PatchFrame& frame, RingGuesses& guesses, RingReach& drops,
                   const RingGuesses* startFrom = nullptr, double startHeight = 0.0) {
    Outline out;
    out.reserve(kPatchRing);
    // Directions at 22.5 + k 45 deg from the face axes, never along them: a
    // direction along a face axis has zero components that rounding noise
    // (1e-16, or a 1e-14 tilt of a fallback normal) makes tiny but non-zero,
    // and a flat face amplifies them (offset ~ component^(eps/(2-eps)),
    // (1e-14)^0.11 = 3 % of the face). Off-axis directions meet the rounded
    // corners, where the support map is well conditioned. Exact table (no
    // cos/sin rounding): mirror images and opposite directions stay exact.
    const std::array<Vec2, kPatchRing>& ring = ringDirections();
    double shift = 0.0;
    if (startFrom != nullptr) {
        const double eps = std::min({body.shape.eps1(), body.shape.eps2(), 1.0});
        shift = std::log(topHeight / startHeight) * (2.0 - eps) / 2.0;
    }
    for (int k = 0; k < kPatchRing; ++k) {
        const Vec2& dir = ring[static_cast<std::size_t>(k)];
        const Vec3 t = dir.x() * frame.t1 + dir.y() * frame.t2;
        // Every direction starts from its own guess (never a neighbour's
        // answer): mirror-image directions then take mirror-image steps, and
        // a symmetric contact keeps an exactly symmetric outline.
        double x = startFrom != nullptr ? (*startFrom)[static_cast<std::size_t>(k)] + shift
                                            : std::numeric_limits<double>::quiet_NaN();
        CapReach& reach = drops[static_cast<std::size_t>(k)];
        out.push_back(frame.project(capExtreme(body, up, t, level, topHeight, topPoint, x, reach)));
        reach.extent -= t.dot(frame.origin); // to frame coordinates
        guesses[static_cast<std::size_t>(k)] = x;
    }
    return out;
}

// Keeps {q : normal . q <= offset} of a convex polygon (Sutherland-Hodgman).
Outline clip(const Outline& poly, const Vec2& normal, double offset) {
    Outline out;
    out.reserve(poly.size() + 1);
    const std::size_t m = poly.size();
    for (std::size_t i = 0; i < m; ++i) {
        const Vec2& p = poly[i];
        const Vec2& q = poly[(i + 1) % m];
        const double sp = normal.dot(p) - offset, sq = normal.dot(q) - offset;
        if (sp <= 0.0) out.push_back(p);
        if ((sp < 0.0 && sq > 0.0) || (sp > 0.0 && sq < 0.0))
            out.push_back(p + (sp / (sp - sq)) * (q - p));
    }
    return out;
}

// Intersection with a counter-clockwise convex polygon: clip by each edge.
Outline intersect(Outline poly, const Outline& convex) {
    const std::size_t m = convex.size();
    for (std::size_t i = 0; i < m && poly.size() >= 3; ++i) {
        const Vec2& a = convex[i];
        const Vec2 e = convex[(i + 1) % m] - a;
        if (!(e.squaredNorm() > 0.0)) continue; // repeated corner
        const Vec2 outward(e.y(), -e.x());
        poly = clip(poly, outward, outward.dot(a));
    }
    return poly;
}

// Area centroid; false for fewer than 3 vertices or zero area.
bool centroid(const Outline& poly, Vec2& c) {
    if (poly.size() < 3) return false;
    double area2 = 0.0;
    Vec2 sum = Vec2::Zero();
    const Vec2& o = poly[0]; // relative to a vertex: less cancellation
    for (std::size_t i = 1; i + 1 < poly.size(); ++i) {
        const Vec2 p = poly[i] - o, q = poly[i + 1] - o;
        const double w = p.x() * q.y() - p.y() * q.x();
        area2 += w;
        sum += w * (p + q);
    }
    if (!(area2 > 0.0) || !std::isfinite(area2)) return false;
    c = o + sum / (3.0 * area2);
    return isFinite(c);
}

Vec3 toOffset(const PatchFrame& frame, const Vec2& c) { return c.x() * frame.t1 + c.y() * frame.t2; }

// Distance from c (inside) along the unit direction u to the boundary of a
// counter-clockwise convex polygon.
double exitDistance(const Outline& poly, const Vec2& c, const Vec2& u) {
    double exit = std::numeric_limits<double>::infinity();
    const std::size_t m = poly.size();
    for (std::size_t i = 0; i < m; ++i) {
        const Vec2 e = poly[(i + 1) % m] - poly[i];
        const Vec2 outward(e.y(), -e.x());
        const double speed = outward.dot(u); // > 0: the ray leaves through this edge
        if (speed > 0.0) exit = std::min(exit, outward.dot(poly[i] - c) / speed);
    }
    return std::isfinite(exit) ? std::max(exit, 0.0) : 0.0;
}

// Half-width of a body along the unit world direction u (centre to its
// support plane).
double halfWidth(const PosedBody& body, const Vec3& u) { return u.dot(body.support(u) - body.position); }

// The smaller half-widths of the flat bodies along t1 and t2. A
// superellipsoid is centrally symmetric: its half-width along -u is that
// along u, so two support calls per body serve all four directions.
void flatHalfWidths(const PatchFrame& frame, const PosedBody* flatA, const PosedBody* flatB,
                    double widthAlong[2]) {
    widthAlong[0] = widthAlong[1] = HUGE_VAL;
    for (const PosedBody* body : {flatA, flatB})
        if (body != nullptr) {
            widthAlong[0] = std::min(widthAlong[0], halfWidth(*body, frame.t1));
            widthAlong[1] = std::min(widthAlong[1], halfWidth(*body, frame.t2));
        }
}

// Half-planes {q : ring_k . q <= bound_k} (frame coordinates) that contain
// the outline of the same body's cap of drop `deeper` (>= the cap's own),
// from the cap's reach bounds: along ring_k the cap of drop D_k reaches at
// most extent_k (capExtreme), and by convexity a cap of drop Z lies in the
// image of the cap of drop D <= Z scaled by Z / D about the top point
// (T + (D/Z)(x - T) is in the body for x in it, at drop D/Z times that of
// x). False if an answer has no bound (interpolated when its search ran
// out of steps).
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

// True when no rim point can pass the kRimMinimum test whatever the contact
// zone's outline: the zone lies within both bodies' half-plane bounds
// (deeperCapBounds), so from the centroid c (inside them) the exit distance
// along u is at most that of those half-planes. The zone outlines (a third
// of a blocky pair patch's support calls) are then not needed; the answer
// is the same (issue 21).
bool noRimPossible(const Vec2& c, const std::array<double, kPatchRing>& bound1,
                   const std::array<double, kPatchRing>& bound2, const double widthAlong[2]) {
    const auto& ring = ringDirections();
    for (std::size_t k = 0; k < kPatchRing; ++k)
        if (!(ring[k].dot(c) < bound1[k] && ring[k].dot(c) < bound2[k])) return false;
    for (const Vec2& u : {Vec2(1, 0), Vec2(-1, 0), Vec2(0, 1), Vec2(0, -1)}) {
        double exit = HUGE_VAL;
        for (std::size_t k = 0; k < kPatchRing; ++k) {
            const double speed = ring[k].dot(u);
            if (speed > 0.0)
                exit = std::min({exit, (bound1[k] - ring[k].dot(c)) / speed, (bound2[k] - ring[k].dot(c)) / speed});
        }
        // a margin against rounding in the comparison of patchPoints
        if (!(kRimFraction * exit * (1.0 + 1e-9) < kRimMinimum * widthAlong[u.x() != 0.0 ? 0 : 1])) return false;
    }
    return true;
}

// Centroid of the overlap patch and rim points in the contact zone (which
// contains the patch; see ContactPatch.hpp); a rim point along u is kept
// when it lies at least kRimMinimum times the half-width along u of the
// flat bodies (the smaller one) from the centroid.
PatchPoints patchPoints(const Outline& patch, const Outline& zone, const PatchFrame& frame,
                        const PosedBody* flatA, const PosedBody* flatB) {
    PatchPoints points;
    Vec2 c;
    if (!centroid(patch, c)) return points;
    points.found = true;
    points.centroid = toOffset(frame, c);
    if (zone.size() < 3) return points;
    double widthAlong[2];
    flatHalfWidths(frame, flatA, flatB, widthAlong);
    for (const Vec2& u : {Vec2(1, 0), Vec2(-1, 0), Vec2(0, 1), Vec2(0, -1)}) {
        const double reach = kRimFraction * exitDistance(zone, c, u);
        const double width = widthAlong[u.x() != 0.0 ? 0 : 1];
        if (reach >= kRimMinimum * width) points.rim[points.rimCount++] = toOffset(frame, c + reach * u);
    }
    return points;
}

} // namespace

bool hasFlatFaces(const Superellipsoid& shape) {
    return std::min(shape.eps1(), shape.eps2()) < kFlatFaceEps;
}

bool flatSupportAt(const PosedBody& body, const Vec3& direction) {
    if (!hasFlatFaces(body.shape)) return false;
    // On a curved part of the surface (radius of curvature rho) a tilt of
    // the direction by delta moves the support point by rho delta <= size
    // delta; on a flat face it moves by ~ size delta^(eps/(2-eps)), orders of
    // magnitude more. Only there is the support point ill-defined and the
    // patch centre needed; a rounded edge of a blocky shape (Kodam's
    // cylinder rim) keeps its exact deepest point.
    constexpr double delta = 1e-6, factor = 10.0;
    const Vec3 n = direction.normalized();
    const Vec3 t1 = n.unitOrthogonal(), t2 = n.cross(t1);
    const Vec3 p = body.support(n);
    const double size = body.shape.halfAxes().maxCoeff();
    for (const Vec3& t : {t1, Vec3(-t1), t2, Vec3(-t2)}) {
        if ((body.support(n + delta * t) - p).norm() > factor * size * delta) return true;
    }
    return false;
}

PatchPoints pairPatch(const PosedBody& body1, const PosedBody& body2, const Vec3& n,
                      const Vec3& p1, const Vec3& p2, PatchGuess* guess) {
    const double d = n.dot(p1 - p2);
    const bool flat1 = flatSupportAt(body1, n), flat2 = flatSupportAt(body2, -n);
    if (!(flat1 || flat2) || !(d > 0.0)) return {};
    PatchFrame frame;
    frame.origin = 0.5 * (p1 + p2);
    alignedTangents(flat1 ? body1 : body2, n, frame.t1, frame.t2);
    // cap1 above the support plane of body 2 and cap2 below that of body 1.
    RingGuesses guess1, guess2;
    RingReach drops1, drops2, unusedDrops;
    // The last patch's answers, moved to this depth like the zone's (below).
    // (slots: overlap and zone caps of body 1, then of body 2)
    const bool carried = guess != nullptr && guess->depth > 0.0f;
    const bool carriedZone = guess != nullptr && guess->zoneDepth > 0.0f;
    const RingGuesses last1 = carried ? loadRing(*guess, PatchGuess::kOverlap) : RingGuesses{};
    const RingGuesses last2 = carried ? loadRing(*guess, PatchGuess::kOverlap + kPatchRing) : RingGuesses{};
    const RingGuesses lastZone1 = carriedZone ? loadRing(*guess, PatchGuess::kZone) : RingGuesses{};
    const RingGuesses lastZone2 = carriedZone ? loadRing(*guess, PatchGuess::kZone + kPatchRing) : RingGuesses{};
    const double lastDepth = carried ? double(guess->depth) : 0.0;
    const Outline cap1 = capOutline(body1, n, n.dot(p2), d, p1, frame, guess1, drops1,
                                    carried ? &last1 : nullptr, lastDepth);
    const Outline cap2 = capOutline(body2, -n, -n.dot(p1), d, p2, frame, guess2, drops2,
                                    carried ? &last2 : nullptr, lastDepth);
    if (guess != nullptr) {
        storeRing(*guess, PatchGuess::kOverlap, guess1);
        storeRing(*guess, PatchGuess::kOverlap + kPatchRing, guess2);
        guess->depth = static_cast<float>(d);
    }
    // Both rings use the same tangent directions: both outlines run
    // counter-clockwise in the (t1, t2) frame.
    const Outline patch = intersect(cap1, cap2);
    const PosedBody* flatA = flat1 ? &body1 : nullptr;
    const PosedBody* flatB = flat2 ? &body2 : nullptr;
    // The contact zone: the same with both caps deeper by the zone depth.
    const double zoneDepth = d + kRimZoneDepth * std::min(flat1 ? body1.smallestHalfAxis() : HUGE_VAL,
                                                         flat2 ? body2.smallestHalfAxis() : HUGE_VAL);
    // A zone point found by capExtreme lies at most exp(kDropTolerance)
    // times the zone depth below the top.
    const double zoneBound = zoneDepth * std::exp(kDropTolerance) * (1.0 + 1e-9);
    std::array<double, kPatchRing> bound1, bound2;
    Vec2 c;
    double widthAlong[2];
    if (centroid(patch, c) && deeperCapBounds(drops1, frame.project(p1), zoneBound, bound1) &&
        deeperCapBounds(drops2, frame.project(p2), zoneBound, bound2)) {
        flatHalfWidths(frame, flatA, flatB, widthAlong);
        if (noRimPossible(c, bound1, bound2, widthAlong)) return patchPoints(patch, Outline{}, frame, flatA, flatB);
    }
    // The zone's searches start from the last zone's answers if there are
    // any (the zone is several times deeper than a light overlap, which the
    // power-law move from this overlap's answers bridges poorly), else from
    // this overlap's.
    RingGuesses zoneGuess1, zoneGuess2;
    const double lastZoneDepth = carriedZone ? double(guess->zoneDepth) : 0.0;
    const Outline zone1 = capOutline(body1, n, n.dot(p1) - zoneDepth, zoneDepth, p1, frame, zoneGuess1,
                                     unusedDrops, carriedZone ? &lastZone1 : &guess1,
                                     carriedZone ? lastZoneDepth : d);
    const Outline zone2 = capOutline(body2, -n, -n.dot(p2) - zoneDepth, zoneDepth, p2, frame, zoneGuess2,
                                     unusedDrops, carriedZone ? &lastZone2 : &guess2,
                                     carriedZone ? lastZoneDepth : d);
    if (guess != nullptr) {
        storeRing(*guess, PatchGuess::kZone, zoneGuess1);
        storeRing(*guess, PatchGuess::kZone + kPatchRing, zoneGuess2);
        guess->zoneDepth = static_cast<float>(zoneDepth);
    }
    return patchPoints(patch, intersect(zone1, zone2), frame, flatA, flatB);
}

PatchPoints wallPatch(const PosedBody& body, const Vec3& n, const Vec3& deepest, double depth,
                      const std::vector<Vec3>* clipPoints,
                      const std::vector<Vec3>* clipOutwardNormals, PatchGuess* guess) {
    if (!(depth > 0.0) || !flatSupportAt(body, -n)) return {};
    PatchFrame frame;
    frame.origin = deepest + 0.5 * depth * n;
    alignedTangents(body, n, frame.t1, frame.t2);
    // The part of the particle below the plane: up = -n, level = -n.(wall point).
    const double level = -n.dot(deepest + depth * n);
    // (the wall's caps use the overlap and zone slots of the pair's body 1)
    RingGuesses guesses, zoneGuesses;
    RingReach drops, unusedDrops;
    const bool carried = guess != nullptr && guess->depth > 0.0f;
    const bool carriedZone = guess != nullptr && guess->zoneDepth > 0.0f;
    const RingGuesses last = carried ? loadRing(*guess, PatchGuess::kOverlap) : RingGuesses{};
    const RingGuesses lastZone = carriedZone ? loadRing(*guess, PatchGuess::kZone) : RingGuesses{};
    Outline patch = capOutline(body, -n, level, depth, deepest, frame, guesses, drops, carried ? &last : nullptr,
                               carried ? double(guess->depth) : 0.0);
    // The contact zone: the part within the zone depth above the plane too.
    const double zoneDepth = depth + kRimZoneDepth * body.smallestHalfAxis();
    Outline zone = capOutline(body, -n, level - (zoneDepth - depth), zoneDepth, deepest, frame, zoneGuesses,
                              unusedDrops, carriedZone ? &lastZone : &guesses,
                              carriedZone ? double(guess->zoneDepth) : depth);
    if (guess != nullptr) {
        storeRing(*guess, PatchGuess::kOverlap, guesses);
        storeRing(*guess, PatchGuess::kZone, zoneGuesses);
        guess->depth = static_cast<float>(depth);
        guess->zoneDepth = static_cast<float>(zoneDepth);
    }
    if (clipPoints != nullptr && clipOutwardNormals != nullptr) {
        for (std::size_t k = 0; k < clipPoints->size(); ++k) {
            const Vec3& b = (*clipOutwardNormals)[k];
            const Vec2 normal(frame.t1.dot(b), frame.t2.dot(b));
            const double offset = b.dot((*clipPoints)[k] - frame.origin);
            if (patch.size() >= 3) patch = clip(patch, normal, offset);
            if (zone.size() >= 3) zone = clip(zone, normal, offset);
        }
    }
    return patchPoints(patch, zone, frame, &body, nullptr);
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
