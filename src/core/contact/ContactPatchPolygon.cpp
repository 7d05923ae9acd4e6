#include "contact/ContactPatchPolygon.hpp"

#include <cmath>
#include <limits>

namespace sef::contactPatch {

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

} // namespace sef::contactPatch
