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
//     underestimate the gap, never overestimate it);
//   - point = midpoint of the two surface points (the contact point).
//   - flat faces (a body with min(eps1, eps2) < 0.6, ContactPatch.hpp): the
//     support points are arbitrary on a face, so for a contact the point is
//     moved to the centroid of the overlap patch and the surface points to
//     point +- (depth / 2) normal (then they lie on the patch, not
//     necessarily exactly on the surfaces); depth and normal are unchanged.
#include "geometry/Types.hpp"

#include <array>
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
// (paper 000: "the solution from previous DEM time step can be used as a
// starting point"). Store `ContactResult::normal` and pass it back.
struct PairWarmStart {
    Vec3 normal = Vec3::UnitX();
};

} // namespace sef
