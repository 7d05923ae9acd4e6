#include "contact/PairContact.hpp"

#include "contact/BoundingVolumes.hpp"
#include "contact/CommonNormalNewton.hpp"
#include "contact/ContactPatch.hpp"
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
// volume-equivalent spheres, [Superquadric-LIGGGHTS] continuation step 1) and the body axes
// of both bodies (the face normals of the bounding boxes that [Superellipsoid-OpenFOAM] uses
// for its first guess), each oriented from body 1 to body 2. Returns the two
// with the smallest overlap f (Newton runs from both: two basins cover the
// crossing configurations of elongated bodies).
std::array<Vec3, 2> coldStartNormals(const PosedBody& b1, const PosedBody& b2) {
    const Vec3 u = centreLine(b1, b2);
    // all seven overlaps evaluated together (overlapsAlong)
    Vec3 candidates[7];
    candidates[0] = u;
    int count = 1;
    for (const PosedBody* b : {&b1, &b2}) {
        for (int i = 0; i < 3; ++i) {
            Vec3 axis = b->rotation.col(i);
            if (axis.dot(u) < 0.0) axis = -axis;
            candidates[count++] = axis;
        }
    }
    double overlaps[7];
    overlapsAlong(b1, b2, candidates, count, overlaps);
    std::array<Vec3, 2> best{u, u};
    std::array<double, 2> bestOverlap{overlaps[0], std::numeric_limits<double>::infinity()};
    for (int k = 1; k < count; ++k) {
        const double f = overlaps[k];
        if (f < bestOverlap[0]) {
            best[1] = best[0];
            bestOverlap[1] = bestOverlap[0];
            best[0] = candidates[k];
            bestOverlap[0] = f;
        } else if (f < bestOverlap[1]) {
            best[1] = candidates[k];
            bestOverlap[1] = f;
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
    const auto supportK = [&](const Vec3& d) {
        const Vec3 opposite = -d; // named: GCC 12 misreads the Eigen temporary as uninitialised
        return Vec3(b1.support(d) - b2.support(opposite));
    };
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
    // Safety net: the penetration depth is the minimum of the overlap f(n)
    // over all normals, so every evaluated f(n) bounds it from above. EPA on
    // the rounded corners of blocky shapes can stop on a poor face and report
    // a depth far above the truth (seen as spurious deep overlaps in settled
    // beds); never report more than the overlap along the centre line or a
    // body axis, and polish from the best of those.
    if (r.depth > 0.0) {
        const Vec3 centre = centreLine(b1, b2);
        std::array<Vec3, 7> candidates{centre,
                                       b1.rotation.col(0), b1.rotation.col(1), b1.rotation.col(2),
                                       b2.rotation.col(0), b2.rotation.col(1), b2.rotation.col(2)};
        for (Vec3& c : candidates)
            if (c.dot(centre) < 0.0) c = -c;
        for (const Vec3& c : candidates) {
            CommonNormalSolution probe;
            probe.normal = c;
            probe.overlap = overlapAlong(b1, b2, c, probe.point1, probe.point2);
            if (!(probe.overlap < r.depth - 1e-9 * lengthScale)) continue;
            CommonNormalSolution polished = solveCommonNormal(b1, b2, c, settings);
            if (!(polished.overlap < probe.overlap)) polished = probe;
            polished.iterations = r.iterations;
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

// Flat faces: the support points are arbitrary on the face; move the
// contact point (and both surface points, keeping depth and the midpoint
// rule) to the centre of the overlap patch (ContactPatch.hpp).
ContactResult centredOnPatch(ContactResult r, const PosedBody& b1, const PosedBody& b2,
                             PatchGuess* guess = nullptr, KeptPatch* kept = nullptr) {
    if (!r.contact) return r;
    const PatchPoints patch = pairPatch(b1, b2, r.normal, r.surfacePoint1, r.surfacePoint2, guess, kept);
    if (!patch.found) return r;
    const Vec3 midpoint = r.point;
    for (int k = 0; k < patch.rimCount; ++k) r.rim[k] = midpoint + patch.rim[k];
    r.rimCount = patch.rimCount;
    if (patch.centroid.isZero(0.0)) return r;
    r.point += patch.centroid;
    r.onFlatPatch = true;
    r.surfacePoint1 = r.point + 0.5 * r.depth * r.normal;
    r.surfacePoint2 = r.point - 0.5 * r.depth * r.normal;
    return r;
}

// Mirror symmetry of the pair: planes through both centres that are
// symmetry planes of both bodies (the normal m is a body axis of each; every
// superellipsoid is symmetric about its three coordinate planes).
int mirrorPlaneNormals(const PosedBody& b1, const PosedBody& b2, std::array<Vec3, 3>& m) {
    const Vec3 d = b2.position - b1.position;
    const double size = b1.shape.boundingRadius() + b2.shape.boundingRadius();
    int count = 0;
    for (int i = 0; i < 3; ++i) {
        const Vec3 axis = b1.rotation.col(i);
        if (std::fabs(axis.dot(d)) > 1e-12 * size) continue;
        for (int j = 0; j < 3; ++j)
            if (axis.cross(b2.rotation.col(j)).norm() <= 1e-12) { // parallel to 1e-12 rad
                m[count++] = axis;
                break;
            }
    }
    return count;
}

// In a mirror-symmetric configuration the minimum of f may be a mirror pair
// of normals +-n_m off the plane (a diamond's tip against an edge: both
// surfaces are only C1 there, the in-plane normal is a saddle of f, 3 %
// shallower): which one Newton or EPA returns depends on rounding, and the
// impulse then breaks the symmetry. For a contact we then answer the
// symmetric solution: the minimum of f over normals in the plane (the
// in-plane stationary point, where the mirror pair merges), found by a
// safeguarded secant on f'(phi) = n'(phi).(p1 - p2) (envelope theorem).
// Its depth bounds the minimum translation distance from above.
ContactResult mirrorSymmetric(ContactResult r, const PosedBody& b1, const PosedBody& b2,
                              double gradientTolerance) {
    if (!r.contact) return r;
    std::array<Vec3, 3> planes;
    const int count = mirrorPlaneNormals(b1, b2, planes);
    int broken = 0;
    Vec3 m = Vec3::Zero();
    for (int k = 0; k < count; ++k)
        if (std::fabs(planes[k].dot(r.normal)) > 1e-12) m = planes[k], ++broken;
    if (broken == 0) return r;
    if (count >= 2) {
        // Two symmetry planes meet in the centre line: the only symmetric normal.
        Vec3 p1, p2;
        r.normal = centreLine(b1, b2);
        r.depth = overlapAlong(b1, b2, r.normal, p1, p2);
        r.surfacePoint1 = p1;
        r.surfacePoint2 = p2;
        r.point = 0.5 * (p1 + p2);
        r.contact = r.depth > 0.0;
        return r;
    }
    const double off = m.dot(r.normal);
    Vec3 e1 = r.normal - off * m;
    if (!(e1.norm() > 1e-6)) e1 = centreLine(b1, b2) - m.dot(centreLine(b1, b2)) * m;
    e1.normalize();
    const Vec3 e2 = m.cross(e1);
    auto evaluate = [&](double phi, Vec3& n, Vec3& p1, Vec3& p2, double& slope) {
        n = std::cos(phi) * e1 + std::sin(phi) * e2;
        const double f = overlapAlong(b1, b2, n, p1, p2);
        slope = (-std::sin(phi) * e1 + std::cos(phi) * e2).dot(p1 - p2);
        return f;
    };
    Vec3 n, p1, p2;
    double g0, g1;
    double phi0 = 0.0, f = evaluate(phi0, n, p1, p2, g0);
    double best = f, bestPhi = phi0;
    // Bracket the zero of the slope (f is convex-like near its minimum).
    double lo = -0.5, hi = 0.5; // rad
    double phi1 = g0 > 0.0 ? -1e-3 : 1e-3;
    for (int k = 0; k < 60 && std::fabs(g0) > gradientTolerance; ++k) {
        const double f1 = evaluate(phi1, n, p1, p2, g1);
        if (f1 < best) best = f1, bestPhi = phi1;
        (g1 > 0.0 ? hi : lo) = phi1;
        double next = g1 != g0 ? phi1 - g1 * (phi1 - phi0) / (g1 - g0) : 0.5 * (lo + hi);
        if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
        phi0 = phi1, g0 = g1;
        phi1 = next;
        if (hi - lo < 1e-15) break;
    }
    evaluate(bestPhi, n, p1, p2, g0);
    r.normal = n;
    r.depth = n.dot(p1 - p2);
    r.surfacePoint1 = p1;
    r.surfacePoint2 = p2;
    r.point = 0.5 * (p1 + p2);
    r.contact = r.depth > 0.0;
    return r;
}

// Bounding-volume rejection: a gap between the bounding spheres, or (cold
// queries only) between the oriented bounding boxes, proves the pair apart;
// true with that answer in `rejected` (depth: minus the gap, a bound).
bool apartByBoundingVolumes(const PosedBody& b1, const PosedBody& b2, bool warm, ContactResult& rejected) {
    rejected.normal = centreLine(b1, b2);
    const double sphereGap = boundingSphereGap(b1.position, b1.shape.boundingRadius(),
                                               b2.position, b2.shape.boundingRadius());
    if (sphereGap > 0.0) {
        rejected.depth = -sphereGap; // the true depth is below this bound
        rejected.status = ContactStatus::boundingSphere;
        return true;
    }
    // The 15-axis box test pays off for new pairs; a warm-started pair
    // touched last step and rarely separates by a box gap in one step
    // (Newton's negative f certifies that case anyway).
    const double boxGap = warm ? 0.0
                               : orientedBoxGap({b1.position, b1.rotation, b1.shape.halfAxes()},
                                                {b2.position, b2.rotation, b2.shape.halfAxes()});
    if (boxGap > 0.0) {
        rejected.depth = -boxGap;
        rejected.status = ContactStatus::orientedBox;
        return true;
    }
    return false;
}

CommonNormalSettings newtonSettings(const PairContactOptions& options, double lengthScale) {
    CommonNormalSettings settings;
    settings.gradientTolerance = options.relativeTolerance * lengthScale;
    settings.depthTolerance = options.relativeTolerance * 1e-2 * lengthScale;
    settings.stagnationDepthTolerance = options.stagnationTolerance * lengthScale;
    // Decrement 1e-9 L before a full step: the depth error after it is
    // ~1e-18 L times the curvature-variation constant (<< relativeTolerance).
    settings.postStepTolerance = 1e-9 * lengthScale;
    settings.maxIterations = options.maxNewtonIterations;
    return settings;
}

// The Newton solve of the common normal, from the warm normal or from the
// two best cold-start normals.
CommonNormalSolution newtonSolution(const PosedBody& b1, const PosedBody& b2, const Vec3* warmNormal,
                                    const CommonNormalSettings& settings) {
    if (warmNormal != nullptr) {
        // A warm normal that still separates the pair proves it apart
        // (separating-axis theorem): no Newton solve. The depth is then the
        // overlap along that axis, minus a lower bound of the gap (the
        // convention above). Why: a pair of neighbours a hair apart was
        // solved to its exact gap every substep; in the cube-like bed of
        // the cylinder-filling tutorial 60 % of the Newton solves were such
        // pairs, ~9 iterations each on their flat faces. When
        // the pair closes, the solve starts from this (older) normal.
        CommonNormalSettings warmSettings = settings;
        warmSettings.stopWhenSeparated = true;
        return solveCommonNormal(b1, b2, *warmNormal, warmSettings);
    }
    const auto starts = coldStartNormals(b1, b2);
    CommonNormalSolution s = solveCommonNormal(b1, b2, starts[0], settings);
    if (s.overlap > 0.0 && (starts[1] - starts[0]).norm() > 1e-12) {
        CommonNormalSolution second = solveCommonNormal(b1, b2, starts[1], settings);
        second.iterations += s.iterations;
        if (second.converged && (!s.converged || second.overlap < s.overlap)) {
            s = second;
        } else if (second.overlap < s.overlap - settings.stagnationDepthTolerance) {
            // The second run went below the first answer without
            // converging: the first was no minimum (a false stop near a
            // blocky face centre); let the global fallback decide.
            s = second;
            s.converged = false;
        } else {
            s.iterations = second.iterations;
        }
    }
    return s;
}

} // namespace

ContactResult detectPairContact(const Superellipsoid& shape1, const Pose& pose1,
                                const Superellipsoid& shape2, const Pose& pose2,
                                const PairWarmStart* warmStart, const PairContactOptions& options) {
    const PosedBody b1(shape1, pose1), b2(shape2, pose2);
    const double lengthScale = std::min(b1.smallestHalfAxis(), b2.smallestHalfAxis());

    const bool warm = warmStart != nullptr && isFinite(warmStart->normal) &&
                      warmStart->normal.squaredNorm() > 0.0;
    PatchGuess* guess = warmStart != nullptr ? warmStart->patch : nullptr;
    KeptPatch* kept = warmStart != nullptr ? warmStart->kept : nullptr;
    if (kept != nullptr) kept->valid = false;
    ContactResult rejected;
    if (options.boundingVolumeRejection && apartByBoundingVolumes(b1, b2, warm, rejected)) return rejected;

    const CommonNormalSettings settings = newtonSettings(options, lengthScale);
    if (options.forceFallback)
        return centredOnPatch(mirrorSymmetric(fallback(b1, b2, lengthScale, settings, options, 0),
                                              b1, b2, settings.gradientTolerance),
                              b1, b2);

    const CommonNormalSolution s = newtonSolution(b1, b2, warm ? &warmStart->normal : nullptr, settings);
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
            return centredOnPatch(mirrorSymmetric(r, b1, b2, settings.gradientTolerance), b1, b2, guess, kept);
    }
    ContactResult r = fallback(b1, b2, lengthScale, settings, options, s.iterations);
    r.warmStarted = warm;
    r = mirrorSymmetric(r, b1, b2, settings.gradientTolerance);
    if (warm) {
        // A warm start that failed can leave the fallback at a poor answer
        // between flat faces (seen in a cube bed: 5.3e-2 d_eq reported for
        // two touching cubes whose cold query gives 0; overlap removal then
        // shoved them into their neighbours). The depth is the minimum of
        // the overlap over all normals, so the smaller answer is the better.
        const ContactResult cold = detectPairContact(shape1, pose1, shape2, pose2, nullptr, options);
        if (cold.depth < r.depth) {
            ContactResult better = cold;
            better.iterations += r.iterations;
            return better;
        }
    }
    // (the patch last: it leaves depth and normal as they are)
    return centredOnPatch(r, b1, b2, guess, kept);
}

} // namespace sef
