#pragma once
// Contact point at the centre of a flat contact patch.
//
// Why: on the flat faces of blocky shapes (small eps) the support point is
// extremely sensitive to the normal (lateral offset ~ angle^(eps/(2-eps)),
// a 1e-20 tilt moves it by 1 % of the face), so the Newton answer sits
// wherever Newton stopped on the face; an impulse there spins bodies that
// collide centrically. The physically right point is the centre of the
// overlap patch.
//
// How: with the normal n and depth d found, the overlap region of the two
// bodies lies in the slab between the two support planes, so its projection
// onto the contact plane lies inside the intersection of the projected caps
//     cap1 = {x in body 1 :  n.x >= n.p2},   cap2 = {x in body 2 : -n.x >= -n.p1}
// (p1, p2: the support points, d = n.(p1 - p2)). Each cap is outlined by its
// extreme points in a ring of kPatchRing tangent directions t_k (the support
// point of the tilted direction cos(theta) n + sin(theta) t_k whose height is
// exactly the cap level, theta found by a bracketed Illinois iteration:
// Lagrange duality of max t.x s.t. x in body, n.x >= level). The two convex
// outlines are intersected (half-plane clipping) and the contact point is the
// area centroid of the intersection, at mid-depth. For a strictly convex
// smooth contact both caps are ellipses centred (to leading order) on the
// common line, so the point moves by O(d) only; that is why the patch is
// used only when a body has flat faces (min(eps1, eps2) < kFlatFaceEps), and
// smooth shapes keep the exact midpoint. The ring is aligned with the body
// axis most perpendicular to n, so mirror-symmetric face contacts give
// mirror-symmetric outlines and an exactly symmetric point.
// Degenerate patches (empty or zero-area intersection, or a sliver whose
// area is rounding noise: its centroid outside its bounding box) keep the
// midpoint.
//
// Rim points. One point at the centroid resolves the resultant of the
// contact pressure but not its moment: a blocky body on a flat face then
// rocks for ever (the centroid follows the tilt continuously, the contact
// never closes with an impact, frictionless rocking is conservative;
// measured: an eps = 0.2 cube dropped on a floor keeps rocking at 2.7 rad/s
// with 2e-3 of the drop energy). A face-on-face contact is a distributed
// contact: the patch also gives up to kRimPoints points, at kRimFraction
// of the way from the centroid to the boundary of the CONTACT ZONE along
// +-t1, +-t2 (the face axes). The zone is the patch of both caps taken
// deeper by kRimZoneDepth times the smallest half-axis of the flat bodies
// (2e-4: about the engine's allowed penetration of 1e-4 d_eq): the part of
// the faces within that distance of each other. A face resting with a
// smaller overlap than usual (1e-5 d_eq is seen in beds) still holds its
// rim; the overlap patch alone then shrinks to a spot and loses it. The DEM solver adds them as velocity
// constraints (dem/engine/DemEngine.cpp), so a face that rotates into its partner
// is stopped at the patch edge, as a flat face resting on a flat face is.
// A rim point is kept only at least kRimMinimum times the flat body's
// half-width (in that direction) away from the centroid: a smaller patch is
// a rounded edge or a curved cap, whose single point is exact. At rest the
// patch reaches to where the face drops by the allowed penetration (1e-4
// d_eq): 0.55 half-widths at eps = 0.2, 0.18 at eps = 0.5.
#include "contact/ContactResult.hpp"
#include "contact/PosedBody.hpp"

#include <array>
#include <vector>

namespace sef {

// Shapes with min(eps1, eps2) below this have faces flat enough for the
// support point to wander (at eps = 0.6 the lateral offset still grows like
// angle^0.43; at eps = 1 it is linear and the midpoint is well defined).
constexpr double kFlatFaceEps = 0.6;
constexpr double kRimFraction = 0.9;
constexpr double kRimMinimum = 0.3;
constexpr double kRimZoneDepth = 2e-4;

// Where a contact's points lie, as world offsets from the midpoint of the
// two support points (all perpendicular to the normal).
struct PatchPoints {
    bool found = false;           // false: no patch (smooth contact or degenerate patch)
    Vec3 centroid = Vec3::Zero();
    std::array<Vec3, kRimPoints> rim{};
    int rimCount = 0;
};

bool hasFlatFaces(const Superellipsoid& shape);

// True where the support point of the body in the world direction (the
// body's supportPoint there) lies on a flat face, ill-defined under tiny
// tilts: the support map's radius of curvature exceeds 10 times the
// largest half-axis. False on curved parts, including the rounded edges of
// blocky shapes.
bool flatSupportAt(const PosedBody& body, const Vec3& direction, const Vec3& supportPoint);

// Pair: the tangential offsets (world vectors perpendicular to n) from the
// midpoint of p1, p2 to the patch centroid and the rim points; no patch if
// neither body has flat faces, d <= 0 or the patch is degenerate.
// guess (optional, in and out): where the cap searches of this pair's last
// patch ended (PatchGuess); the searches start there and leave theirs.
// kept (optional, out): the outlines of a patch between two flat faces
// (KeptPatch; valid = false for any other answer).
PatchPoints pairPatch(const PosedBody& body1, const PosedBody& body2, const Vec3& n,
                      const Vec3& p1, const Vec3& p2, PatchGuess* guess = nullptr,
                      KeptPatch* kept = nullptr);

// The patch of a pair from its kept outlines (KeptPatch) after body 2 slid
// across the normal n and turned about it: the kept frame moved with body 1
// (origin1, axis1: world) and with body 2 (origin2, axis2); the outlines are
// intersected in body 1's frame (offsets from origin1, as pairPatch's from
// its midpoint). False when it cannot answer as pairPatch would: no patch,
// or a rim point possible where only the caps' bounds were kept.
bool keptPairPatch(const KeptPatch& kept, const PosedBody& body1, const PosedBody& body2, const Vec3& n,
                   const Vec3& origin1, const Vec3& axis1, const Vec3& origin2, const Vec3& axis2,
                   PatchPoints& points);

// Wall (body 1 = the half-space below the plane with unit normal n through
// the point on the wall): the offset from the midpoint of the particle's
// deepest point and its projection to the centroid of the part of the
// particle below the plane, clipped by the half-planes
// {x : clipOutwardNormals[k] . (x - clipPoints[k]) <= 0} (the in-plane
// outward normals of the wall polygon edges that bound the floor), and the
// rim points. No patch when the particle has no flat faces or the patch is
// degenerate.
// kept (optional, out): the outlines before the cuts (KeptPatch; valid =
// false without a patch).
PatchPoints wallPatch(const PosedBody& body, const Vec3& n, const Vec3& deepest, double depth,
                     const std::vector<Vec3>* clipPoints = nullptr,
                     const std::vector<Vec3>* clipOutwardNormals = nullptr, PatchGuess* guess = nullptr,
                     KeptPatch* kept = nullptr);

// The wall patch from kept outlines (wallPatch's) after the particle slid
// across the face normal n and turned about it: the kept frame moved with
// the particle (keptOrigin, axis: world), the patch frame now at `origin`
// (the midpoint of the deepest point and its projection), cut by the
// floor's edges as wallPatch does. Offsets from `origin`. False without a
// patch.
bool keptWallPatch(const KeptPatch& kept, const PosedBody& body, const Vec3& n, const Vec3& origin,
                   const Vec3& axis, const Vec3& keptOrigin, const std::vector<Vec3>* clipPoints,
                   const std::vector<Vec3>* clipOutwardNormals, PatchPoints& points);

// Wall answers: moves the point and both surface points of r (the point is
// their midpoint) by the patch centroid, sets onFlatPatch for a non-zero
// move, and stores the rim points.
void placeOnWallPatch(ContactResult& r, const PatchPoints& patch);

} // namespace sef
