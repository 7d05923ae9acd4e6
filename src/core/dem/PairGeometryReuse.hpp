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
#include "contact/ContactResult.hpp"
#include "dem/WarmStartCache.hpp"
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
bool reusePairReference(const WarmStartEntry& entry, const PairPose& A, const PairPose& B,
                        double tolerance, double minRadius, ContactResult& r);

} // namespace sef::dem
