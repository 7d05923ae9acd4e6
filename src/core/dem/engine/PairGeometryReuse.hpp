#pragma once
// Reuse of a pair's last exact narrow-phase answer while the pair's RELATIVE
// pose has hardly changed (settled beds: the exact Newton query every
// substep is the dominant cost, and it keeps returning the same answer).
//
// The reference (WarmStartEntry) holds, in the body frame of A (the smaller
// id), the common normal n_A and both support points p_A (body A frame) and
// p_B (body B frame). With the relative pose now (R_rel, d_rel):
//     depth = n_A . (p_A - d_rel - R_rel p_B),  point = midpoint.
// p_A is exactly A's support point along n_A; along a FIXED direction the
// depth is a separating-axis projection, an upper bound of the penetration
// depth whose error is second order in the change of the optimal normal
// (envelope theorem), i.e. O(R (delta/R)^2) for a relative translation delta
// and O(R theta^2) for a relative rotation theta on curved surfaces. Reusing
// p_B (instead of B's support along the slightly rotated direction) errs by
// O(R theta^2) on curved surfaces and by up to theta times the flat width on
// (nearly) flat faces. The reference is therefore used only while
//     |d_rel - d_rel,ref| <= tolerance * r_min  and  theta <= tolerance,
// r_min the smaller bounding radius; beyond that the exact query runs and
// becomes the new reference.
//
// Two tolerances. On curved surfaces the stored points leave the impulse's
// line of action off the centre line by up to the relative translation:
// frictionless spheres then gain spin that nothing removes (doc/dem.md: a
// tolerance of 1e-3 pumped energy into a sphere bed), so the curved
// tolerance is tight. On a flat patch the exact query is expensive (patch
// outline: ~80 support evaluations) and the stored patch centre is what a
// fresh query returns up to the relative motion itself; the depth error is
// the rotation times the patch half-width, so 1e-4 keeps it at the allowed
// penetration (1e-4 d_eq).
#include "contact/ContactResult.hpp"
#include "contact/PosedBody.hpp"
#include "dem/walls/WallSet.hpp"
#include "dem/engine/WarmStartCache.hpp"
#include "geometry/Types.hpp"

namespace sef::dem {

struct PairPose {
    Vec3 position;
    Mat3 rotation; // body -> world
    Quat orientation;
};

// Stores the exact answer r (normal from A to B, as ContactResult of
// detectPairContact(A, B)) as the entry's reference.
void storePairReference(WarmStartEntry& entry, const PairPose& A, const PairPose& B,
                        const ContactResult& r);

// If the reference of `entry` may be reused for the current poses, fills r
// (normal from A to B) and returns true.
// The tolerance is `flatTolerance` for an answer on a flat patch, else
// `curvedTolerance`; a flat answer's translation tolerance is
// `flatTranslation` (negative: flatTolerance). Why a separate one:
// a relative translation leaves both support points along the stored
// normal where they were in their body frames, and the minimum of the
// overlap of a flat contact on the (face) normal, so the reused depth is
// the exact one; only the stored patch points lag, by at most the
// translation itself (within the patch outline's own accuracy at 1e-3). A
// rotation turns the faces and errs by the angle times the patch width.
bool reusePairReference(const WarmStartEntry& entry, const PairPose& A, const PairPose& B,
                        double curvedTolerance, double flatTolerance, double minRadius,
                        ContactResult& r, double flatTranslation = -1.0);

// Flat answers between two flat faces, with their outlines kept (KeptPatch):
// a block sliding or spinning on a block fails the gate above
// within a few substeps (a rocking bed of cube-like blocks: 56 % of its flat
// checks, three quarters of them by the slide or the spin alone), though
// the answer changes only in the patch. While
// B has moved in A's frame since the outlines were found by at most
// flatTolerance times minRadius along the normal (fixed in A) and
// slideTolerance times minRadius across it, and turned by at most
// flatTolerance about the tangents and slideTolerance (rad) about the
// normal, each body's support plane along the normal is the same plane of
// its body: the depth along the entry's normal with its support points
// moved with their bodies is the depth now (n . p unchanged by such
// moves), and each cap is the same part of its body, so the kept outlines
// moved with their bodies and intersected again are the patch a fresh
// query would outline along that normal (ContactPatch.hpp, keptPairPatch).
// The tilt and the approach are bounded as by the flat gate; only the
// patch follows the slide and the spin. The caller makes the answer the
// entry's new reference (the flat gate then reuses it; the outlines keep
// the pose they were found at). Fills r (normal from A to B); false beyond
// those bounds or where the outlines cannot answer.
bool reuseKeptPatch(const WarmStartEntry& entry, const KeptPatch& kept, const PairPose& poseA,
                    const PairPose& poseB, const PosedBody& A, const PosedBody& B, double flatTolerance,
                    double slideTolerance, double minRadius, ContactResult& r);

// Wall faces: the same for a particle's face answer with kept outlines
// (contact/PolygonWallContact.hpp, keptPolygonFaceContact), the motion of
// the particle in the world since they were found bounded as above about
// the face's normal; the floor's edges cut the moved outlines, and the face
// must still claim the particle's deepest point. The caller makes the
// answer the entry's new reference.
bool reuseKeptWallPatch(const WarmStartEntry& entry, const KeptPatch& kept, const PairPose& particle,
                        const Superellipsoid& shape, const WallSet& walls, int face, double flatTolerance,
                        double slideTolerance, double radius, ContactResult& r);

// Warm-start normal of an exact query for a pair whose last answer was on a
// flat patch: that answer's normal turned with A or with B, whichever gives
// the smaller overlap. Why: between flat faces the overlap has a kink at
// each face normal and its minimum sits on one of them; the stored world
// normal is off it by the bodies' rotation since, and from there Newton
// creeps toward the kink linearly or stops on the face short of it (test
// GeometryReuse.FlatPatchWarmNormalFollowsTheFace: 7-10 % too deep). The
// normal turned with the body whose face holds the minimum starts on it
// (in the cube-like tutorial bed 41 % fewer Newton iterations).
Vec3 flatPatchWarmNormal(const WarmStartEntry& entry, const PosedBody& A, const PosedBody& B);

// Pairs whose bounding volumes do not overlap (the narrow phase's cheap
// rejection, with `gap` a lower bound of their distance): the entry keeps
// the relative pose and the gap. While the points of B have moved by less
// than half the gap in A's frame since then,
//     |d_rel - d_rel,ref| + 2 r_B |vec(q_rel,ref^-1 q_rel)| <= gap / 2
// (a rotation by theta moves a point at distance <= r_B from the centre by
// at most 2 r_B sin(theta/2) = 2 r_B |vec|), the pair is certainly still
// apart and needs no query. Why: a settled bed of 2:1.5:1 blocks has ~380
// such pairs, bounding spheres overlapping but boxes apart, whose box test
// was re-run every substep.
void storeSeparatedPair(WarmStartEntry& entry, const PairPose& A, const PairPose& B, double gap);
// reach: what the pair may close before the next query besides (its
// contacts before touching); the gap left must exceed it.
bool pairStillSeparated(const WarmStartEntry& entry, const PairPose& A, const PairPose& B, double radiusB,
                        double reach = 0.0);

// Pairs apart at their last exact answer (referenceDepth < 0), at any
// motion: the stored normal, turned with A, is an axis; if the two bodies'
// support planes along it are still apart by more than `margin`, it
// separates them (separating-axis theorem: f(n) = n.(p_A - p_B) < 0 for
// any one n means no contact), and r is filled with "no contact" and that
// gap, without the Newton query. Why: blocky shapes have bounding
// spheres far larger than their faces (an eps = 0.2 cube's reaches 1.7
// half-widths out), so a bed of them has many touching bounding spheres of
// pairs that are apart, and their exact queries every substep (Newton on
// flat faces: 5-10 iterations of support and Hessian) were a large share of
// the cost. The margin is the caller's (the engine: rounding only, and
// the axis becomes the pair's warm-start normal). Two support calls.
bool separatedAlongReference(const WarmStartEntry& entry, const PosedBody& A, const PosedBody& B,
                             double margin, ContactResult& r);

// The same decision without a support call: along the reference normal
// (fixed in A's frame) A's support plane has not moved, and B's has moved
// by at most the change of B's relative position plus 2 r_B |vec(q_ref^-1
// q_rel)| (a rotation by theta moves B's support plane by at most r_B
// 2 sin(theta/2)). So the overlap along that normal is at most
//     referenceDepth + |d_rel - d_rel,ref| + 2 r_B |vec(q_ref^-1 q_rel)|,
// and where that is below -margin, separatedAlongReference would answer
// "apart" too: the pair is apart, decided exactly as before. Why:
// in the settled eps = 0.25 bed a seventh of the time went into the
// two support calls of separatedAlongReference for pairs that had hardly
// moved since their reference.
bool apartWithinMotionBound(const WarmStartEntry& entry, const PairPose& A, const PairPose& B,
                            double radiusB, double margin);

// After separatedAlongReference answered r ("apart" along the reference
// normal, fixed in A's frame): the reference's pose, depth and B's support
// point become those of now, the normal and A's point stay (A's support
// along a direction fixed in its frame does not move). Why: the motion
// bound above grows with the motion since the reference, and a reference
// kept from the settling (0.5 mm of relative motion on average in the
// settled eps = 0.25 bed, gaps of 0.2 mm) would never pass it.
void refreshApartReference(WarmStartEntry& entry, const PairPose& A, const PairPose& B, const ContactResult& r);

// Wall faces: the same for a particle against a fixed face, for answers
// on the face itself (not its edges or vertices, whose normal follows the
// particle). The reference holds the particle pose, the face normal and the
// wall point (world) and the particle's point (body frame); the depth is
// re-evaluated against the face plane.
void storeWallReference(WarmStartEntry& entry, const PairPose& particle, const ContactResult& r);
bool reuseWallReference(const WarmStartEntry& entry, const PairPose& particle,
                        double curvedTolerance, double flatTolerance, double radius,
                        ContactResult& r, double flatTranslation = -1.0);

} // namespace sef::dem
