#include "contact/ContactPatch.hpp"

#include "contact/CapSearch.hpp"
#include "contact/FaceChart.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <new>
#include <type_traits>

namespace sef {

namespace {

using Vec2 = Eigen::Vector2d;

// A convex polygon with its vertices stored inline: an outline has
// kPatchRing vertices, and each half-plane clip adds at most one, so the
// intersection of two outlines and the wall's few clips stay far below the
// capacity. Why not std::vector: the clips of every patch allocated and
// freed ~20 vectors (12 % of the patch's time in the cube bed).
class Outline {
public:
    // (a clip adds at most one vertex: 8 + one per clipping edge that
    // crosses the patch; a wall polygon's floor crosses a small patch a few
    // times at most)
    static constexpr std::size_t kCapacity = 64;
    Outline() = default;
    Outline(const Outline& o) : size_(o.size_) { std::copy(o.begin(), o.end(), vertices_.data()); }
    Outline& operator=(const Outline& o) {
        size_ = o.size_;
        std::copy(o.begin(), o.end(), vertices_.data());
        return *this;
    }
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    void clear() { size_ = 0; }
    void reserve(std::size_t) {}
    void push_back(const Vec2& v) {
        // Never reached by convex clips of a patch; were it, the polygon
        // would lose its last vertices (a smaller patch), never memory.
        if (size_ < kCapacity) vertices_[size_++] = v;
    }
    const Vec2& operator[](std::size_t i) const { return vertices_[i]; }
    Vec2& operator[](std::size_t i) { return vertices_[i]; }
    const Vec2* begin() const { return vertices_.data(); }
    const Vec2* end() const { return vertices_.data() + size_; }

private:
    std::array<Vec2, kCapacity> vertices_;
    std::size_t size_ = 0;
};

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

// log tan(theta) of each ring direction's answer (the CapSearch warm start).
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

// World tangent of ring direction k in the patch frame.
Vec3 ringTangent(const PatchFrame& frame, std::size_t k) {
    const Vec2& r = ringDirections()[k];
    return r.x() * frame.t1 + r.y() * frame.t2;
}

// How far a cap search's answer (log tan(theta)) moves when the cap's drop
// goes from `from` to `to`: by the face power law D ~ theta^e, e = 2 / (2 - eps).
double guessShift(const PosedBody& body, double from, double to) {
    const double eps = std::min({body.shape.eps1(), body.shape.eps2(), 1.0});
    return std::log(to / from) * (2.0 - eps) / 2.0;
}

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

// Index of the vertex after i of a polygon of m vertices (a compare, not
// the division of (i + 1) % m: this runs for every vertex of every clip).
inline std::size_t nextVertex(std::size_t i, std::size_t m) { return i + 1 == m ? 0 : i + 1; }

// Keeps {q : normal . q <= offset} of a convex polygon (Sutherland-Hodgman),
// in place. A polygon already inside the half-plane stays as it is, without
// a copy: most clips of an outline by its partner's edges (the two outlines
// of a face on a face overlap mostly), the whole work of a kept patch.
void clipInPlace(Outline& poly, const Vec2& normal, double offset) {
    const std::size_t m = poly.size();
    double side[Outline::kCapacity];
    bool outside = false;
    for (std::size_t i = 0; i < m; ++i) {
        side[i] = normal.dot(poly[i]) - offset;
        outside = outside || !(side[i] <= 0.0); // (a NaN vertex is dropped below)
    }
    if (!outside) return;
    Outline out;
    for (std::size_t i = 0; i < m; ++i) {
        const std::size_t j = nextVertex(i, m);
        const Vec2& p = poly[i];
        const Vec2& q = poly[j];
        const double sp = side[i], sq = side[j];
        if (sp <= 0.0) out.push_back(p);
        if ((sp < 0.0 && sq > 0.0) || (sp > 0.0 && sq < 0.0))
            out.push_back(p + (sp / (sp - sq)) * (q - p));
    }
    poly = out;
}

// Intersection with a counter-clockwise convex polygon: clip by each edge.
Outline intersect(Outline poly, const Outline& convex) {
    const std::size_t m = convex.size();
    for (std::size_t i = 0; i < m && poly.size() >= 3; ++i) {
        const Vec2& a = convex[i];
        const Vec2 e = convex[nextVertex(i, m)] - a;
        if (!(e.squaredNorm() > 0.0)) continue; // repeated corner
        const Vec2 outward(e.y(), -e.x());
        clipInPlace(poly, outward, outward.dot(a));
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
    // The centroid of a convex polygon lies within its vertices' bounding
    // box. A sliver whose area is rounding noise can put the quotient
    // anywhere: seen 6e8 m from a particle whose wall patch (eps 1.9 / 0.1)
    // degenerated, its compliance then ~1e27 and the sweeps' 2x2 tangential
    // inverse a division by zero (SIGFPE under OpenFOAM's traps). Such a
    // patch is degenerate: the caller keeps the midpoint.
    Vec2 lo = poly[0], hi = poly[0];
    for (const Vec2& v : poly) lo = lo.cwiseMin(v), hi = hi.cwiseMax(v);
    return isFinite(c) && (c.array() >= lo.array()).all() && (c.array() <= hi.array()).all();
}

Vec3 toOffset(const PatchFrame& frame, const Vec2& c) { return c.x() * frame.t1 + c.y() * frame.t2; }

// Distance from c (inside) along the unit direction u to the boundary of a
// counter-clockwise convex polygon.
double exitDistance(const Outline& poly, const Vec2& c, const Vec2& u) {
    double exit = std::numeric_limits<double>::infinity();
    const std::size_t m = poly.size();
    for (std::size_t i = 0; i < m; ++i) {
        const Vec2 e = poly[nextVertex(i, m)] - poly[i];
        const Vec2 outward(e.y(), -e.x());
        const double speed = outward.dot(u); // > 0: the ray leaves through this edge
        if (speed > 0.0) exit = std::min(exit, outward.dot(poly[i] - c) / speed);
    }
    return std::isfinite(exit) ? std::max(exit, 0.0) : 0.0;
}

// The smaller half-widths (centre to support plane) of the flat bodies
// along t1 and t2: what a rim point's distance from the centroid is
// measured against. Exact ones cost two support calls per body, so they
// are evaluated only when asked for (and then once), and a test that only
// needs them to be large enough (noRimPossible) asks for lower bounds
// first: the body contains the ellipsoid of its half-axes when eps1, eps2
// <= 1 (a p-norm ball with p >= 2 contains the 2-norm ball), and the
// octahedron of its axis tips for any eps <= 2 (eps = 2 is that
// octahedron); their half-widths are closed forms without pow (they spare
// 4-8 of a warm blocky pair's support calls).
class FlatWidths {
public:
    FlatWidths(const PatchFrame& frame, const PosedBody* flatA, const PosedBody* flatB)
        : frame_(frame), bodies_{flatA, flatB} {}

    // Along t1 (axis 0) and t2 (axis 1). A superellipsoid is centrally
    // symmetric: its half-width along -u is that along u.
    double exact(int axis) {
        if (!exactKnown_) evaluateExact();
        return exact_[axis];
    }
    double lowerBound(int axis) const {
        const Vec3& t = axis == 0 ? frame_.t1 : frame_.t2;
        double width = HUGE_VAL;
        for (const PosedBody* body : bodies_) {
            if (body == nullptr) continue;
            const Vec3 scaled = body->shape.halfAxes().cwiseProduct(body->directionToBody(t));
            const bool ellipsoidInside = std::max(body->shape.eps1(), body->shape.eps2()) <= 1.0;
            width = std::min(width, ellipsoidInside ? scaled.norm() : scaled.cwiseAbs().maxCoeff());
        }
        return width;
    }

private:
    void evaluateExact() {
        exact_[0] = exact_[1] = HUGE_VAL;
        const PosedBody* bodies[4];
        Vec3 directions[4], p[4];
        int count = 0;
        for (const PosedBody* body : bodies_)
            if (body != nullptr)
                for (const Vec3* t : {&frame_.t1, &frame_.t2}) bodies[count] = body, directions[count++] = *t;
        if (count > 0) PosedBody::supportLanes(bodies, directions, p, count);
        for (int i = 0; i < count; ++i) {
            double& width = exact_[i % 2];
            width = std::min(width, directions[i].dot(p[i] - bodies[i]->position));
        }
        exactKnown_ = true;
    }

    const PatchFrame& frame_;
    const PosedBody* bodies_[2];
    double exact_[2] = {HUGE_VAL, HUGE_VAL};
    bool exactKnown_ = false;
};

// Half-planes {q : ring_k . q <= bound_k} (frame coordinates) that contain
// the outline of the same body's cap of drop `deeper` (>= the cap's own),
// from the cap's reach bounds: along ring_k the cap of drop D_k reaches at
// most extent_k (CapSearch), and by convexity a cap of drop Z lies in the
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

// A half-plane {q : direction . q <= offset} of the patch frame.
struct HalfPlane {
    Vec2 direction;
    double offset;
};

// True when no rim point can pass the kRimMinimum test whatever the contact
// zone's outline: the zone lies within the half-planes (both bodies'
// deeperCapBounds), so from the centroid c (inside them) the exit distance
// along u is at most that of those half-planes. The zone outlines (a third
// of a blocky pair patch's support calls) are then not needed; the answer
// is the same.
bool noRimWithin(const Vec2& c, const HalfPlane* planes, int count, FlatWidths& widths) {
    for (int k = 0; k < count; ++k)
        if (!(planes[k].direction.dot(c) < planes[k].offset)) return false;
    double reach[4];
    const Vec2 directions[4] = {Vec2(1, 0), Vec2(-1, 0), Vec2(0, 1), Vec2(0, -1)};
    for (int j = 0; j < 4; ++j) {
        double exit = HUGE_VAL;
        for (int k = 0; k < count; ++k) {
            const double speed = planes[k].direction.dot(directions[j]);
            if (speed > 0.0) exit = std::min(exit, (planes[k].offset - planes[k].direction.dot(c)) / speed);
        }
        // a margin against rounding in the comparison of patchPoints
        reach[j] = kRimFraction * exit * (1.0 + 1e-9);
    }
    // the lower bounds of the widths first: if they exclude every rim, the
    // exact widths would too
    const double lower[2] = {widths.lowerBound(0), widths.lowerBound(1)};
    bool excluded = true;
    for (int j = 0; j < 4 && excluded; ++j) excluded = reach[j] < kRimMinimum * lower[j / 2];
    if (excluded) return true;
    for (int j = 0; j < 4; ++j)
        if (!(reach[j] < kRimMinimum * widths.exact(j / 2))) return false;
    return true;
}

// The same with the ring-aligned bounds of both bodies' caps.
bool noRimPossible(const Vec2& c, const std::array<double, kPatchRing>& bound1,
                   const std::array<double, kPatchRing>& bound2, FlatWidths& widths) {
    const auto& ring = ringDirections();
    HalfPlane planes[2 * kPatchRing];
    for (std::size_t k = 0; k < kPatchRing; ++k) {
        planes[2 * k] = {ring[k], bound1[k]};
        planes[2 * k + 1] = {ring[k], bound2[k]};
    }
    return noRimWithin(c, planes, 2 * kPatchRing, widths);
}

// Centroid of the overlap patch and rim points in the contact zone (which
// contains the patch; see ContactPatch.hpp); a rim point along u is kept
// when it lies at least kRimMinimum times the half-width along u of the
// flat bodies (the smaller one) from the centroid.
PatchPoints patchPoints(const Outline& patch, const Outline& zone, const PatchFrame& frame,
                        FlatWidths& widths) {
    PatchPoints points;
    Vec2 c;
    if (!centroid(patch, c)) return points;
    points.found = true;
    points.centroid = toOffset(frame, c);
    if (zone.size() < 3) return points;
    for (const Vec2& u : {Vec2(1, 0), Vec2(-1, 0), Vec2(0, 1), Vec2(0, -1)}) {
        const double reach = kRimFraction * exitDistance(zone, c, u);
        const double width = widths.exact(u.x() != 0.0 ? 0 : 1);
        if (reach >= kRimMinimum * width) points.rim[points.rimCount++] = toOffset(frame, c + reach * u);
    }
    return points;
}

// One body curved at the contact, the other on a flat face (a corner or a
// rounded edge on a face: two thirds of the random blocky pairs of
// contactBenchmark, a third of the cube-like tutorial's patches). The
// curved body's cap is small and usually lies where the face covers it;
// then the patch IS that cap and the face's outline (its 8 searches, the
// slow ones on a flat face) is not needed. Covered: above every outline
// vertex the point at `faceLevel` (n.x where the face's cap ends, the far
// side of the overlap slab) is inside the face body, so by convexity the
// face's cap projects onto the whole outline. The answer is then the
// patch of the exact caps (the full path clips by the face's polygon,
// inscribed in its cap). Returns false (the caller then outlines the face
// too and goes the full path) when a vertex is not covered or a rim point
// is possible (noRimPossible with the curved cap's bounds alone: the zone
// lies within them too).
bool curvedCapOnFace(const CapOutline& cap, const Vec3& top, const PosedBody& face, double faceLevel,
                     const Vec3& n, const PatchFrame& frame, double zoneBound, FlatWidths& widths,
                     PatchPoints& points) {
    const Vec3 lift = (faceLevel - n.dot(frame.origin)) * n;
    for (const Vec2& q : cap.outline)
        if (!(face.implicitFunction(frame.origin + toOffset(frame, q) + lift) <= 0.0)) return false;
    Vec2 c;
    std::array<double, kPatchRing> bound;
    if (!centroid(cap.outline, c) || !deeperCapBounds(cap.reach, frame.project(top), zoneBound, bound))
        return false;
    if (!noRimPossible(c, bound, bound, widths)) return false;
    points = patchPoints(cap.outline, Outline{}, frame, widths);
    return true;
}

// KeptPatch storage: 16-bit coordinates in units of the largest one over
// 32000 (headroom for the outward rounding of the bounds).
constexpr double kKeptRange = 32000.0;

void keepOutline(const Outline& o, double unit, std::array<std::int16_t, 2 * kPatchRing>& out) {
    for (std::size_t k = 0; k < kPatchRing; ++k) {
        out[2 * k] = static_cast<std::int16_t>(roundHalfAway(o[k].x() / unit));
        out[2 * k + 1] = static_cast<std::int16_t>(roundHalfAway(o[k].y() / unit));
    }
}

Outline keptOutline(const std::array<std::int16_t, 2 * kPatchRing>& in, double unit, const Eigen::Matrix2d& turn,
                    const Vec2& shift) {
    Outline o;
    for (std::size_t k = 0; k < kPatchRing; ++k) o.push_back(turn * Vec2(in[2 * k] * unit, in[2 * k + 1] * unit) + shift);
    return o;
}

// The storage unit of outlines whose largest coordinate (or bound) is
// `largest`; 0 where there is none.
double keptUnit(double largest) {
    if (!(largest > 0.0) || !std::isfinite(largest)) return 0.0;
    return static_cast<float>(largest / kKeptRange);
}

double largestCoordinate(const Outline& o) {
    double largest = 0.0;
    for (const Vec2& q : o) largest = std::max({largest, std::fabs(q.x()), std::fabs(q.y())});
    return largest;
}

// The frame in a body's frame, and the pose the outlines were found at.
void keepFrame(const PatchFrame& frame, const PosedBody& body, std::array<float, 3>& origin,
               std::array<float, 3>& axis) {
    const Vec3 o = body.toBody(frame.origin), t = body.directionToBody(frame.t1);
    for (int i = 0; i < 3; ++i) {
        origin[i] = static_cast<float>(o[i]);
        axis[i] = static_cast<float>(t[i]);
    }
}

void keepPose(KeptPatch& kept, const Vec3& position, const Mat3& rotation) {
    for (int i = 0; i < 3; ++i) {
        kept.relativePosition[i] = position[i];
        for (int j = 0; j < 3; ++j) kept.relativeRotation[3 * i + j] = rotation(i, j);
    }
}

// Keeps the outlines of a two-flat-faces patch (zones: nullptr when the
// bounds proved that it has no rim points; then the bounds are kept).
void keepPatch(KeptPatch& kept, const PatchFrame& frame, const PosedBody& body1, const PosedBody& body2,
               const CapOutline* caps, const CapOutline* zones, const std::array<double, kPatchRing>* bound1,
               const std::array<double, kPatchRing>* bound2) {
    kept.valid = false;
    double largest = 0.0;
    for (int b = 0; b < 2; ++b) {
        if (caps[b].outline.size() != kPatchRing) return;
        largest = std::max(largest, largestCoordinate(caps[b].outline));
        if (zones == nullptr) continue;
        if (zones[b].outline.size() != kPatchRing) return;
        largest = std::max(largest, largestCoordinate(zones[b].outline));
    }
    if (zones == nullptr)
        for (std::size_t k = 0; k < kPatchRing; ++k)
            largest = std::max({largest, std::fabs((*bound1)[k]), std::fabs((*bound2)[k])});
    const double unit = keptUnit(largest);
    if (!(unit > 0.0)) return;
    kept.unit = static_cast<float>(unit);
    keepFrame(frame, body1, kept.origin, kept.axis);
    keepFrame(frame, body2, kept.originIn2, kept.axisIn2);
    keepPose(kept, body1.toBody(body2.position), body1.rotation.transpose() * body2.rotation);
    keepOutline(caps[0].outline, unit, kept.cap1);
    keepOutline(caps[1].outline, unit, kept.cap2);
    kept.hasZone = zones != nullptr;
    if (kept.hasZone) {
        keepOutline(zones[0].outline, unit, kept.zone1);
        keepOutline(zones[1].outline, unit, kept.zone2);
    } else {
        for (std::size_t k = 0; k < kPatchRing; ++k) {
            kept.bound1[k] = static_cast<std::int16_t>(std::ceil((*bound1)[k] / unit));
            kept.bound2[k] = static_cast<std::int16_t>(std::ceil((*bound2)[k] / unit));
        }
    }
    kept.valid = true;
}

// Keeps a wall patch's outlines (before the floor's edges cut them).
// Without the zone (zone empty): its bounds (deeperCapBounds), as keepPatch.
void keepWallPatch(KeptPatch& kept, const PatchFrame& frame, const PosedBody& body, const Vec3& deepest,
                   const Outline& patch, const Outline& zone, const std::array<double, kPatchRing>* zoneBound = nullptr) {
    kept.valid = false;
    const bool hasZone = zoneBound == nullptr;
    if (patch.size() != kPatchRing || (hasZone && zone.size() != kPatchRing)) return;
    double largest = largestCoordinate(patch);
    if (hasZone)
        largest = std::max(largest, largestCoordinate(zone));
    else
        for (const double b : *zoneBound) largest = std::max(largest, std::fabs(b));
    const double unit = keptUnit(largest);
    if (!(unit > 0.0)) return;
    kept.unit = static_cast<float>(unit);
    keepFrame(frame, body, kept.origin, kept.axis);
    keepPose(kept, body.position, body.rotation); // (walls: the particle's world pose)
    const Vec3 deepestInBody = body.toBody(deepest);
    for (int i = 0; i < 3; ++i) kept.deepest[i] = deepestInBody[i];
    keepOutline(patch, unit, kept.cap1);
    kept.hasZone = hasZone;
    if (hasZone)
        keepOutline(zone, unit, kept.zone1);
    else
        for (std::size_t k = 0; k < kPatchRing; ++k)
            kept.bound1[k] = static_cast<std::int16_t>(std::ceil((*zoneBound)[k] / unit));
    kept.valid = true;
}

// Cuts a wall patch and its zone by the half-planes where the floor ends.
void cutByFloorEdges(const PatchFrame& frame, const std::vector<Vec3>* clipPoints,
                     const std::vector<Vec3>* clipOutwardNormals, Outline& patch, Outline& zone) {
    if (clipPoints == nullptr || clipOutwardNormals == nullptr) return;
    for (std::size_t k = 0; k < clipPoints->size(); ++k) {
        const Vec3& b = (*clipOutwardNormals)[k];
        const Vec2 normal(frame.t1.dot(b), frame.t2.dot(b));
        const double offset = b.dot((*clipPoints)[k] - frame.origin);
        if (patch.size() >= 3) clipInPlace(patch, normal, offset);
        if (zone.size() >= 3) clipInPlace(zone, normal, offset);
    }
}

} // namespace

bool hasFlatFaces(const Superellipsoid& shape) {
    return std::min(shape.eps1(), shape.eps2()) < kFlatFaceEps;
}

namespace {

// On a curved part of the surface (radius of curvature rho) a tilt of the
// direction by delta moves the support point by rho delta <= size delta; on
// a flat face it moves by ~ size delta^(eps/(2-eps)), orders of magnitude
// more. Only there is the support point ill-defined and the patch centre
// needed; a rounded edge of a blocky shape (Kodam's cylinder rim) keeps its
// exact deepest point. Flat: the support map's radius of curvature in some
// tangent direction exceeds kFlatRadiusFactor times the largest half-axis.
constexpr double kFlatRadiusFactor = 10.0;

// Blocky p-norm balls (eps1 = eps2 = eps, FaceChart::applies): the radius in closed form, with
// no support call (the probes below would be 10 of a warm blocky
// pair's 64 support calls). The support point is x_i = L_i q_i S^(-1/p),
// q_i = u_i^r, u_i = L_i |n_i| / (L_k |n_k|), r = 1/(p-1) = eps/(2-eps),
// S = sum u_i q_i (SupportKernel), k the axis of the largest L_j |n_j|.
// A tilt of the unit direction n by delta towards the lateral axis i moves
// u_i by L_i delta / (L_k |n_k|) and x_i by
//     rho_i delta,   rho_i = r |x_i| / |n_i|
// to leading order (a sphere gives rho = R, an ellipse L_i^2 / L_k at the
// end of axis k: the radii of curvature). On a face (u_i -> 0) rho_i grows
// like u_i^(r-1) without bound. At the flatness limit (u_i ~ 6e-3 at
// eps = 0.2) a tilt of 1e-6 changes u_i by 1e-4 of itself, so this is
// what the probes' finite tilt measured, for the worst tangent direction
// instead of two arbitrary ones (tested against finite differences:
// ContactPatch.FlatSupportTestMatchesTheCurvatureRadius).
bool flatBallSupport(const PosedBody& body, const Vec3& direction, const Vec3& supportPoint) {
    const Vec3 n = body.directionToBody(direction).normalized();
    const Vec3 x = body.toBody(supportPoint);
    const Vec3 L = body.shape.halfAxes();
    const double eps = body.shape.eps1();
    const double r = eps / (2.0 - eps);
    int k = 0;
    for (int i = 1; i < 3; ++i)
        if (L[i] * std::fabs(n[i]) > L[k] * std::fabs(n[k])) k = i;
    const double limit = kFlatRadiusFactor * L.maxCoeff();
    for (int i = 0; i < 3; ++i)
        if (i != k && r * std::fabs(x[i]) >= limit * std::fabs(n[i])) return true; // (n_i = 0: rho infinite)
    return false;
}

// Other blocky shapes (eps1 != eps2, e.g. cylinders): the radius measured
// by finite tilts, the support point and four probes (five support lanes
// per body; flatSupportsAt evaluates those of both bodies together).
constexpr double kFlatProbeTilt = 1e-6;
constexpr int kFlatProbes = 5;

void flatProbeDirections(const Vec3& direction, Vec3* out) {
    const Vec3 n = direction.normalized();
    const Vec3 t1 = n.unitOrthogonal(), t2 = n.cross(t1);
    const double delta = kFlatProbeTilt;
    out[0] = n;
    out[1] = n + delta * t1;
    out[2] = n - delta * t1;
    out[3] = n + delta * t2;
    out[4] = n - delta * t2;
}

bool flatProbesMoved(const PosedBody& body, const Vec3* p) {
    const double size = body.shape.halfAxes().maxCoeff();
    for (int k = 1; k < kFlatProbes; ++k)
        if ((p[k] - p[0]).norm() > kFlatRadiusFactor * size * kFlatProbeTilt) return true;
    return false;
}

// flatSupportAt of body1 along d1 (support point p1) and of body2 along d2
// (p2); probes of both bodies are evaluated together.
void flatSupportsAt(const PosedBody& body1, const Vec3& d1, const Vec3& p1, const PosedBody& body2,
                    const Vec3& d2, const Vec3& p2, bool& flat1, bool& flat2) {
    flat1 = flat2 = false;
    const bool test1 = hasFlatFaces(body1.shape), test2 = hasFlatFaces(body2.shape);
    const bool probe1 = test1 && !FaceChart::applies(body1.shape), probe2 = test2 && !FaceChart::applies(body2.shape);
    if (test1 && !probe1) flat1 = flatBallSupport(body1, d1, p1);
    if (test2 && !probe2) flat2 = flatBallSupport(body2, d2, p2);
    const PosedBody* bodies[2 * kFlatProbes];
    Vec3 directions[2 * kFlatProbes], p[2 * kFlatProbes];
    int count = 0;
    if (probe1) {
        flatProbeDirections(d1, directions);
        for (int k = 0; k < kFlatProbes; ++k) bodies[count++] = &body1;
    }
    if (probe2) {
        flatProbeDirections(d2, directions + count);
        for (int k = 0; k < kFlatProbes; ++k) bodies[count++] = &body2;
    }
    if (count == 0) return;
    PosedBody::supportLanes(bodies, directions, p, count);
    if (probe1) flat1 = flatProbesMoved(body1, p);
    if (probe2) flat2 = flatProbesMoved(body2, p + (probe1 ? kFlatProbes : 0));
}

} // namespace

bool flatSupportAt(const PosedBody& body, const Vec3& direction, const Vec3& supportPoint) {
    if (!hasFlatFaces(body.shape)) return false;
    if (FaceChart::applies(body.shape)) return flatBallSupport(body, direction, supportPoint);
    Vec3 directions[kFlatProbes], p[kFlatProbes];
    flatProbeDirections(direction, directions);
    body.support(directions, p, kFlatProbes);
    return flatProbesMoved(body, p);
}

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

bool keptPairPatch(const KeptPatch& kept, const PosedBody& body1, const PosedBody& body2, const Vec3& n,
                   const Vec3& origin1, const Vec3& axis1, const Vec3& origin2, const Vec3& axis2,
                   PatchPoints& points) {
    points = PatchPoints{};
    if (!kept.valid) return false;
    // body 1's frame now, and body 2's (its t1 brought into the plane)
    PatchFrame frame;
    frame.origin = origin1;
    frame.t1 = (axis1 - n.dot(axis1) * n).normalized();
    frame.t2 = n.cross(frame.t1);
    const Vec3 u1 = (axis2 - n.dot(axis2) * n).normalized(), u2 = n.cross(u1);
    if (!isFinite(frame.t1) || !isFinite(u1)) return false;
    Eigen::Matrix2d turn; // body 2's frame coordinates -> body 1's
    turn << frame.t1.dot(u1), frame.t1.dot(u2), frame.t2.dot(u1), frame.t2.dot(u2);
    const Vec2 shift = frame.project(origin2);
    const double unit = kept.unit;
    const Outline patch = intersect(keptOutline(kept.cap1, unit, Eigen::Matrix2d::Identity(), Vec2::Zero()),
                                    keptOutline(kept.cap2, unit, turn, shift));
    FlatWidths widths(frame, &body1, &body2);
    if (kept.hasZone) {
        points = patchPoints(patch, intersect(keptOutline(kept.zone1, unit, Eigen::Matrix2d::Identity(), Vec2::Zero()),
                                              keptOutline(kept.zone2, unit, turn, shift)),
                             frame, widths);
        return points.found;
    }
    Vec2 c;
    if (!centroid(patch, c)) return false;
    const auto& ring = ringDirections();
    HalfPlane planes[2 * kPatchRing];
    for (std::size_t k = 0; k < kPatchRing; ++k) {
        const Vec2 turned = turn * ring[k]; // body 2's bound, moved with it
        planes[2 * k] = {ring[k], kept.bound1[k] * unit};
        planes[2 * k + 1] = {turned, kept.bound2[k] * unit + turned.dot(shift)};
    }
    if (!noRimWithin(c, planes, 2 * kPatchRing, widths)) return false; // the zone would be needed
    points = patchPoints(patch, Outline{}, frame, widths);
    return points.found;
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

bool keptWallPatch(const KeptPatch& kept, const PosedBody& body, const Vec3& n, const Vec3& origin,
                   const Vec3& axis, const Vec3& keptOrigin, const std::vector<Vec3>* clipPoints,
                   const std::vector<Vec3>* clipOutwardNormals, PatchPoints& points) {
    points = PatchPoints{};
    if (!kept.valid) return false;
    PatchFrame frame;
    frame.origin = origin;
    frame.t1 = (axis - n.dot(axis) * n).normalized();
    frame.t2 = n.cross(frame.t1);
    if (!isFinite(frame.t1)) return false;
    const Vec2 shift = frame.project(keptOrigin);
    Outline patch = keptOutline(kept.cap1, kept.unit, Eigen::Matrix2d::Identity(), shift);
    Outline zone = kept.hasZone ? keptOutline(kept.zone1, kept.unit, Eigen::Matrix2d::Identity(), shift) : Outline{};
    cutByFloorEdges(frame, clipPoints, clipOutwardNormals, patch, zone);
    FlatWidths widths(frame, &body, nullptr);
    if (!kept.hasZone) {
        // the zone's bounds, moved with the patch: still no rim point possible?
        Vec2 c;
        if (!centroid(patch, c)) return false;
        const auto& ring = ringDirections();
        HalfPlane planes[kPatchRing];
        for (std::size_t k = 0; k < kPatchRing; ++k)
            planes[k] = {ring[k], kept.bound1[k] * double(kept.unit) + ring[k].dot(shift)};
        if (!noRimWithin(c, planes, kPatchRing, widths)) return false; // the zone would be needed
    }
    points = patchPoints(patch, zone, frame, widths);
    return points.found;
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
