#pragma once
// The plane of a contact patch (contact/ContactPatch.hpp): its frame, the
// ring of tangent directions the caps are outlined along, and the convex
// polygons of outlines and patches (clipping, intersection, centroid).
// Shared by the stages of the patch (ContactPatch*.cpp); not for callers
// of ContactPatch.hpp.
#include "contact/ContactResult.hpp"
#include "contact/PosedBody.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

namespace sef::contactPatch {

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
void alignedTangents(const PosedBody& body, const Vec3& n, Vec3& t1, Vec3& t2);

// The ring's directions in the (t1, t2) frame, counter-clockwise.
inline const std::array<Vec2, kPatchRing>& ringDirections() {
    static const double c = 0.92387953251128674, s = 0.38268343236508978; // cos, sin(pi/8)
    static_assert(kPatchRing == 8, "ring table below has 8 directions");
    static const std::array<Vec2, 8> ring{Vec2(c, s),   Vec2(s, c),   Vec2(-s, c), Vec2(-c, s),
                                          Vec2(-c, -s), Vec2(-s, -c), Vec2(s, -c), Vec2(c, -s)};
    return ring;
}

// World tangent of ring direction k in the patch frame.
inline Vec3 ringTangent(const PatchFrame& frame, std::size_t k) {
    const Vec2& r = ringDirections()[k];
    return r.x() * frame.t1 + r.y() * frame.t2;
}

// Index of the vertex after i of a polygon of m vertices (a compare, not
// the division of (i + 1) % m: this runs for every vertex of every clip).
inline std::size_t nextVertex(std::size_t i, std::size_t m) { return i + 1 == m ? 0 : i + 1; }

// Keeps {q : normal . q <= offset} of a convex polygon (Sutherland-Hodgman),
// in place. A polygon already inside the half-plane stays as it is, without
// a copy: most clips of an outline by its partner's edges (the two outlines
// of a face on a face overlap mostly), the whole work of a kept patch.
void clipInPlace(Outline& poly, const Vec2& normal, double offset);

// Intersection with a counter-clockwise convex polygon: clip by each edge.
Outline intersect(Outline poly, const Outline& convex);

// Area centroid; false for fewer than 3 vertices or zero area, and for a
// sliver whose centroid is rounding noise (outside its bounding box).
bool centroid(const Outline& poly, Vec2& c);

inline Vec3 toOffset(const PatchFrame& frame, const Vec2& c) { return c.x() * frame.t1 + c.y() * frame.t2; }

// Distance from c (inside) along the unit direction u to the boundary of a
// counter-clockwise convex polygon.
double exitDistance(const Outline& poly, const Vec2& c, const Vec2& u);

// A half-plane {q : direction . q <= offset} of the patch frame.
struct HalfPlane {
    Vec2 direction;
    double offset;
};

// Cuts a wall patch and its zone by the half-planes where the floor ends.
void cutByFloorEdges(const PatchFrame& frame, const std::vector<Vec3>* clipPoints,
                     const std::vector<Vec3>* clipOutwardNormals, Outline& patch, Outline& zone);

} // namespace sef::contactPatch
