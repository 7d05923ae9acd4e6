#pragma once
// Narrow phase for a pair of superellipsoids ([Superellipsoid-OpenFOAM], sec. 3.5).
//
//   ContactResult r = detectPairContact(shape1, pose1, shape2, pose2, &warm);
//   if (r.contact) { ... r.normal points from body 1 to body 2 ... }
//   warm.normal = r.normal; // keep per pair for the next step
//
// Path: pre-evaluation (bounding sphere, then OBB; [Superellipsoid-OpenFOAM] sec. 3.5.3) ->
// Newton on the common normal (CommonNormalNewton.hpp), started from the
// warm start or from the best of a few candidate directions (the centre line
// and the body axes) -> the answer is certified (no contact: a separating
// axis was found; contact: the contact point lies inside both bodies) or the
// GJK/EPA fallback decides (ConvexFallback.hpp), polished by Newton.
// See ContactResult.hpp for the meaning of every field.
#include "contact/ContactResult.hpp"
#include "geometry/Pose.hpp"
#include "geometry/Superellipsoid.hpp"

namespace sef {

struct PairContactOptions {
    bool boundingVolumeRejection = true;
    // Newton stops when the tangential misfit |T^T (p1 - p2)| is below
    // relativeTolerance times the smallest half-axis of the pair.
    double relativeTolerance = 1e-10;
    // Where Newton converges only linearly (flat faces of blocky shapes) it
    // stops once the Newton decrement, a bound of the depth error, stagnates
    // below this fraction of the smallest half-axis (100x tighter than the
    // GJK/EPA tolerance of the fallback).
    double stagnationTolerance = 1e-8;
    int maxNewtonIterations = 40;
    // Contact certificate: the contact point must satisfy S1, S2 <= this
    // (S is dimensionless; 1e-9 ~ 5e-10 half-axes from the surface).
    double insideTolerance = 1e-9;
    // A cold-started Newton answer deeper than this fraction of the smallest
    // half-axis is re-checked by the global fallback (deep overlaps have
    // several local minima of the overlap function; DEM contacts are shallow).
    double deepOverlapFraction = 0.05;
    // Testing hook: skip Newton and answer from the fallback alone.
    bool forceFallback = false;
    // Testing hook: do not polish the fallback answer by Newton.
    bool polishFallback = true;
};

ContactResult detectPairContact(const Superellipsoid& shape1, const Pose& pose1,
                                const Superellipsoid& shape2, const Pose& pose2,
                                const PairWarmStart* warmStart = nullptr,
                                const PairContactOptions& options = {});

} // namespace sef
