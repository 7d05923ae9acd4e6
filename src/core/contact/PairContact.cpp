#include "contact/PairContact.hpp"

#include "contact/BoundingVolumes.hpp"
#include "contact/CommonNormalNewton.hpp"
#include "contact/ConvexFallback.hpp"

#include <array>
#include <cmath>
#include <limits>

namespace sef {

namespace {

ContactResult fromSolution(const CommonNormalSolution& s, ContactStatus status) {
    ContactResult r;
    r.normal = s.normal;
    r.depth = s.overlap;
    r.contact = s.overlap > 0.0;
    r.surfacePoint1 = s.point1;
    r.surfacePoint2 = s.point2;
    r.point = 0.5 * (s.point1 + s.point2);
    r.iterations = s.iterations;
    r.status = status;
    return r;
}

Vec3 centreLine(const PosedBody& b1, const PosedBody& b2) {
    const Vec3 d = b2.position - b1.position;
    const double norm = d.norm();
    return norm > 0.0 ? Vec3(d / norm) : Vec3(Vec3::UnitX());
}

// Cold start candidates: the centre line (the exact normal of the
// volume-equivalent spheres, paper 000 continuation step 1) and the body axes
// of both bodies (the face normals of the bounding boxes that paper 001 uses
// for its first guess), each oriented from body 1 to body 2. Returns the two
// with the smallest overlap f (Newton runs from both: two basins cover the
// crossing configurations of elongated bodies).
std::array<Vec3, 2> coldStartNormals(const PosedBody& b1, const PosedBody& b2) {
    const Vec3 u = centreLine(b1, b2);
    Vec3 p1, p2;
    std::array<Vec3, 2> best{u, u};
    std::array<double, 2> bestOverlap{overlapAlong(b1, b2, u, p1, p2),
                                      std::numeric_limits<double>::infinity()};
    for (const PosedBody* b : {&b1, &b2}) {
        for (int i = 0; i < 3; ++i) {
            Vec3 axis = b->rotation.col(i);
            if (axis.dot(u) < 0.0) axis = -axis;
            const double f = overlapAlong(b1, b2, axis, p1, p2);
            if (f < bestOverlap[0]) {
                best[1] = best[0];
                bestOverlap[1] = bestOverlap[0];
                best[0] = axis;
                bestOverlap[0] = f;
            } else if (f < bestOverlap[1]) {
                best[1] = axis;
                bestOverlap[1] = f;
            }
        }
    }
    return best;
}

bool insideBoth(const PosedBody& b1, const PosedBody& b2, const Vec3& x, double tolerance) {
    return b1.implicitFunction(x) <= tolerance && b2.implicitFunction(x) <= tolerance;
}

// Contact certificate: a point inside both bodies among the midpoint of the
// two support points and the points half the depth below each of them. On
// flat faces (blocky shapes) the support points may sit anywhere on the
// faces, laterally offset, and the midpoint alone often misses the thin
// overlap slab although one of the other two lies in it.
bool overlapCertified(const PosedBody& b1, const PosedBody& b2, const CommonNormalSolution& s,
                      double tolerance) {
    const Vec3 half = 0.5 * s.overlap * s.normal;
    return insideBoth(b1, b2, 0.5 * (s.point1 + s.point2), tolerance) ||
           insideBoth(b1, b2, s.point1 - half, tolerance) ||
           insideBoth(b1, b2, s.point2 + half, tolerance);
}

ContactResult fallback(const PosedBody& b1, const PosedBody& b2, double lengthScale,
                       const CommonNormalSettings& settings, const PairContactOptions& options,
                       int iterationsSoFar) {
    const auto supportK = [&](const Vec3& d) { return b1.support(d) - b2.support(-d); };
    const ConvexFallbackResult f =
        gjkEpa(supportK, b1.position - b2.position, 1e-6 * lengthScale);
    CommonNormalSolution raw;
    raw.normal = f.normal;
    raw.overlap = overlapAlong(b1, b2, f.normal, raw.point1, raw.point2);
    raw.iterations = f.iterations;
    ContactResult r = fromSolution(raw, ContactStatus::fallback);
    if (options.polishFallback) {
        CommonNormalSolution polished = solveCommonNormal(b1, b2, f.normal, settings);
        // Accept the polish if it converged and stayed on the same side of
        // the contact decision (EPA is global, Newton only local).
        const bool sameDecision = (polished.overlap > 0.0) == (raw.overlap > 0.0);
        if (polished.converged && sameDecision && polished.overlap <= raw.overlap + 1e-9 * lengthScale) {
            polished.iterations += f.iterations;
            r = fromSolution(polished, ContactStatus::fallback);
        }
    }
    // GJK is the authority on contact / no contact.
    if (f.outcome == ConvexFallbackResult::Outcome::separated) r.contact = false;
    if (f.outcome == ConvexFallbackResult::Outcome::intersecting) {
        r.contact = true;
        r.depth = std::max(r.depth, 0.0);
    }
    r.iterations += iterationsSoFar;
    return r;
}

} // namespace

ContactResult detectPairContact(const Superellipsoid& shape1, const Pose& pose1,
                                const Superellipsoid& shape2, const Pose& pose2,
                                const PairWarmStart* warmStart, const PairContactOptions& options) {
    const PosedBody b1(shape1, pose1), b2(shape2, pose2);
    const double lengthScale = std::min(b1.smallestHalfAxis(), b2.smallestHalfAxis());

    const bool warm = warmStart != nullptr && warmStart->normal.allFinite() &&
                      warmStart->normal.squaredNorm() > 0.0;
    if (options.boundingVolumeRejection) {
        ContactResult rejected;
        rejected.normal = centreLine(b1, b2);
        const double sphereGap = boundingSphereGap(b1.position, shape1.boundingRadius(),
                                                   b2.position, shape2.boundingRadius());
        if (sphereGap > 0.0) {
            rejected.depth = -sphereGap; // the true depth is below this bound
            rejected.status = ContactStatus::boundingSphere;
            return rejected;
        }
        // The 15-axis box test pays off for new pairs; a warm-started pair
        // touched last step and rarely separates by a box gap in one step
        // (Newton's negative f certifies that case anyway).
        const double boxGap = warm ? 0.0
                                   : orientedBoxGap({b1.position, b1.rotation, shape1.halfAxes()},
                                                    {b2.position, b2.rotation, shape2.halfAxes()});
        if (boxGap > 0.0) {
            rejected.depth = -boxGap;
            rejected.status = ContactStatus::orientedBox;
            return rejected;
        }
    }

    CommonNormalSettings settings;
    settings.gradientTolerance = options.relativeTolerance * lengthScale;
    settings.depthTolerance = options.relativeTolerance * 1e-2 * lengthScale;
    settings.stagnationDepthTolerance = options.stagnationTolerance * lengthScale;
    // Decrement 1e-9 L before a full step: the depth error after it is
    // ~1e-18 L times the curvature-variation constant (<< relativeTolerance).
    settings.postStepTolerance = 1e-9 * lengthScale;
    settings.maxIterations = options.maxNewtonIterations;
    if (options.forceFallback) return fallback(b1, b2, lengthScale, settings, options, 0);

    CommonNormalSolution s;
    if (warm) {
        s = solveCommonNormal(b1, b2, warmStart->normal, settings);
    } else {
        const auto starts = coldStartNormals(b1, b2);
        s = solveCommonNormal(b1, b2, starts[0], settings);
        if (s.overlap > 0.0 && (starts[1] - starts[0]).norm() > 1e-12) {
            CommonNormalSolution second = solveCommonNormal(b1, b2, starts[1], settings);
            second.iterations += s.iterations;
            if (second.converged && (!s.converged || second.overlap < s.overlap)) {
                s = second;
            } else {
                s.iterations = second.iterations;
            }
        }
    }
    if (s.converged && std::isfinite(s.overlap)) {
        ContactResult r = fromSolution(s, ContactStatus::newton);
        r.warmStarted = warm;
        // Certificates: a stationary point with f < 0 is the global minimum
        // (the sublevel sets {f <= t < 0} are convex cones), i.e. a
        // separating axis; a claimed overlap needs a point inside both.
        // Cold starts with a deep overlap may sit in a local minimum of f
        // (several exist for deep overlaps); those go to the global fallback.
        const bool deepCold = !warm && s.overlap > options.deepOverlapFraction * lengthScale;
        if (s.overlap <= 0.0 ||
            (!deepCold && overlapCertified(b1, b2, s, options.insideTolerance)))
            return r;
    }
    ContactResult r = fallback(b1, b2, lengthScale, settings, options, s.iterations);
    r.warmStarted = warm;
    return r;
}

} // namespace sef
