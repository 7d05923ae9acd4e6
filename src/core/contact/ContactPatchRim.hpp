#pragma once
// The points of a contact patch (contact/ContactPatch.hpp): the centroid of
// the overlap patch and the rim points in the contact zone, and the tests
// that prove no rim point possible before the zone is outlined. Shared by
// the stages of the patch (ContactPatch*.cpp).
#include "contact/ContactPatch.hpp"
#include "contact/ContactPatchCaps.hpp"
#include "contact/ContactPatchPolygon.hpp"

#include <array>
#include <cmath>

namespace sef::contactPatch {

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

// True when no rim point can pass the kRimMinimum test whatever the contact
// zone's outline: the zone lies within the half-planes (both bodies'
// deeperCapBounds), so from the centroid c (inside them) the exit distance
// along u is at most that of those half-planes. The zone outlines (a third
// of a blocky pair patch's support calls) are then not needed; the answer
// is the same.
bool noRimWithin(const Vec2& c, const HalfPlane* planes, int count, FlatWidths& widths);

// The same with the ring-aligned bounds of both bodies' caps.
bool noRimPossible(const Vec2& c, const std::array<double, kPatchRing>& bound1,
                   const std::array<double, kPatchRing>& bound2, FlatWidths& widths);

// Centroid of the overlap patch and rim points in the contact zone (which
// contains the patch; see ContactPatch.hpp); a rim point along u is kept
// when it lies at least kRimMinimum times the half-width along u of the
// flat bodies (the smaller one) from the centroid.
PatchPoints patchPoints(const Outline& patch, const Outline& zone, const PatchFrame& frame,
                        FlatWidths& widths);

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
                     PatchPoints& points);

} // namespace sef::contactPatch
