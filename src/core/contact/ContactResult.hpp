#pragma once
// Result of one narrow-phase contact query (pair, plane wall or wall face).
//
// Conventions (the same for every query):
//   - body 1 is the first argument (or the wall), body 2 the second;
//   - `normal` is the unit common normal pointing from body 1 towards body 2;
//   - surfacePoint1 lies on body 1 and is its extreme point along +normal,
//     surfacePoint2 lies on body 2 and is its extreme point along -normal;
//   - depth = normal . (surfacePoint1 - surfacePoint2): the penetration depth
//     along the normal when positive (minimum translation distance for the
//     pair); when negative (pairs), the overlap along a separating axis,
//     i.e. minus a LOWER bound of the gap (exact where Newton converged at a
//     smooth point; near the flat face centres of blocky shapes it can
//     underestimate the gap, never overestimate it; a warm-started pair
//     query whose warm normal still separates the bodies stops there);
//   - point = midpoint of the two surface points (the contact point).
//   - flat faces (a body with min(eps1, eps2) < 0.6, ContactPatch.hpp): the
//     support points are arbitrary on a face, so for a contact the point is
//     moved to the centroid of the overlap patch and the surface points to
//     point +- (depth / 2) normal (then they lie on the patch, not
//     necessarily exactly on the surfaces); depth and normal are unchanged.
#include "geometry/Types.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

namespace sef {

// Which path produced the answer.
enum class ContactStatus {
    closedForm,         // exact formula (plane wall, face interior of a wall polygon)
    newton,             // Newton on the common-normal condition converged (cold or warm)
    fallback,           // GJK/EPA on the support function (+ Newton polish)
    boundingSphere,     // rejected by the bounding-sphere test (no contact, depth is a bound)
    orientedBox,        // rejected by the oriented-bounding-box test (no contact, depth is a bound)
};

const char* toString(ContactStatus status);

// Which feature of a wall polygon touched the particle.
enum class WallFeature { none, face, edge, vertex };

// At most this many rim points per contact (ContactPatch.hpp).
constexpr int kRimPoints = 4;
// Directions of a flat patch's outline ring (ContactPatch.hpp).
constexpr int kPatchRing = 8;

// std::lround (half away from zero) for finite |x| < 2^52, inline: the
// library call was ~1 % of a rocking cube-like bed's instructions (patch
// guesses and kept outlines are encoded by every exact flat query).
// Exact: x minus its truncation is exact in floating point.
inline long roundHalfAway(double x) {
    long t = static_cast<long>(x);
    const double rest = x - static_cast<double>(t);
    if (rest >= 0.5) ++t;
    else if (rest <= -0.5) --t;
    return t;
}

// Where the cap searches of a pair's last flat patch ended (ContactPatch.cpp):
// log tan(theta) of each ring direction of the two overlap caps and of the
// two contact-zone caps, and the depths they were found at. Carried from
// one query of a pair to the next, each search starts there: the patch of a
// resting or slowly turning pair changes little between substeps, and a
// search that starts within the tolerance costs one support call instead of
// 3-5. Stored in thousandths (the searches' tolerance is 5e-2 in
// log D, ~4e-2 in x): it travels with every contact-memory entry, so it is
// kept small.
struct PatchGuess {
    // offsets in x: overlap caps of bodies 1 and 2, then the zone caps
    static constexpr int kOverlap = 0, kZone = 2 * kPatchRing;
    std::array<std::int16_t, 4 * kPatchRing> x{};
    float depth = 0.0f, zoneDepth = 0.0f; // 0: no guess
    static std::int16_t encode(double v) {
        if (std::isnan(v)) return kNone; // (first: an ordered comparison with NaN traps under OpenFOAM)
        return static_cast<std::int16_t>(roundHalfAway(std::clamp(v, -32.0, 32.0) * 1000.0));
    }
    static double decode(std::int16_t v) {
        return v == kNone ? std::numeric_limits<double>::quiet_NaN() : v * 1e-3;
    }
    static constexpr std::int16_t kNone = std::numeric_limits<std::int16_t>::min();
};

struct ContactResult {
    bool contact = false;
    Vec3 point = Vec3::Zero();
    Vec3 normal = Vec3::UnitZ();
    double depth = 0.0;
    Vec3 surfacePoint1 = Vec3::Zero();
    Vec3 surfacePoint2 = Vec3::Zero();
    int iterations = 0;       // Newton steps (+ GJK/EPA iterations on the fallback path)
    ContactStatus status = ContactStatus::closedForm;
    bool warmStarted = false; // the caller's warm start was used as the initial normal
    bool onFlatPatch = false; // the point was moved to the centre of a flat overlap patch
    // Flat-face contacts: further points inside the overlap patch, at
    // mid-depth like `point` (ContactPatch.hpp, rim points).
    std::array<Vec3, kRimPoints> rim{};
    int rimCount = 0;
    WallFeature feature = WallFeature::none; // wall polygons only
    int featureIndex = -1;                   // edge or vertex index (wall polygons only)
};

// Warm start of a pair query: the common normal of the previous time step
// ([Superquadric-LIGGGHTS]: "the solution from previous DEM time step can be used as a
// starting point"). Store `ContactResult::normal` and pass it back.
// A zero normal asks for a cold start.
// patch (optional, in and out): the last flat patch's search guesses; the
// query starts its patch outline there and leaves this one's.
// The outlines of a pair's last patch between two flat faces (ContactPatchKept.cpp,
// both bodies flat at the contact), kept for the pair's next queries.
// While the relative pose changes only by a slide across the normal and
// a turn about it, each cap is the same part of its body (both support
// planes stay where they were in their bodies), so the patch is the
// intersection of the same two outlines moved with their bodies: 2-D
// clipping instead of 16-32 cap searches and the Newton solve
// (ContactPatch.hpp, keptPairPatch). Coordinates in the patch frame of that
// answer (origin and t1 given in each body's frame), in units of `unit`: the
// outlines' own accuracy is ~0.5 % of a face, these 16 bits are 3e-5 of the
// largest coordinate. It travels beside every contact-memory entry, so it
// is kept small.
struct KeptPatch {
    bool valid = false;
    bool hasZone = false; // zone outlines kept; else the caps' reach bounds
    std::array<std::uint8_t, 2> padding{}; // defined bytes: written to the engine's state file
    float unit = 0.0f;
    // frame origin and t1 in body 1's frame and in body 2's (walls: body 1
    // is the particle, cap1 / zone1 its cap below the face plane and its
    // zone)
    std::array<float, 3> origin{}, axis{}, originIn2{}, axisIn2{};
    // walls: the particle's support point along the face's inward normal,
    // its frame (in full: the depth is taken from it)
    std::array<double, 3> deepest{};
    // the pose of body 2 relative to body 1 they were found at:
    // R1^T (x2 - x1) and R1^T R2 (row by row)
    std::array<double, 3> relativePosition{};
    std::array<double, 9> relativeRotation{};
    // vertex k at (x[2k], x[2k + 1]), counter-clockwise
    std::array<std::int16_t, 2 * kPatchRing> cap1{}, cap2{}, zone1{}, zone2{};
    // without zones: ring_k . q <= bound_k holds for each body's contact
    // zone (rounded outward)
    std::array<std::int16_t, kPatchRing> bound1{}, bound2{};

    // The stored vectors and pose as Eigen types.
    Vec3 frameOrigin(int body) const { return toVec3(body == 1 ? origin : originIn2); }
    Vec3 frameAxis(int body) const { return toVec3(body == 1 ? axis : axisIn2); }
    Vec3 deepestPoint() const { return Vec3(deepest[0], deepest[1], deepest[2]); }
    Vec3 position() const { return Vec3(relativePosition[0], relativePosition[1], relativePosition[2]); }
    Mat3 rotation() const { return Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(relativeRotation.data()); }

private:
    static Vec3 toVec3(const std::array<float, 3>& v) { return Vec3(v[0], v[1], v[2]); }
};

struct PairWarmStart {
    Vec3 normal = Vec3::UnitX();
    PatchGuess* patch = nullptr;
    // If given: the outlines of the answer's patch when both bodies are flat
    // there (valid = false otherwise).
    KeptPatch* kept = nullptr;
};

} // namespace sef
