#include "contact/ContactPatchKept.hpp"

#include "contact/ContactPatch.hpp"
#include "contact/ContactPatchRim.hpp"

#include <algorithm>
#include <cmath>

namespace sef {

namespace contactPatch {

namespace {

// KeptPatch storage: 16-bit coordinates in units of the largest one over
// 32000 (headroom for the outward rounding of the bounds).
constexpr double kKeptRange = 32000.0;

void keepOutline(const Outline& o, double unit, std::array<std::int16_t, 2 * kPatchRing>& out) {
    for (std::size_t k = 0; k < kPatchRing; ++k) {
        out[2 * k] = static_cast<std::int16_t>(roundHalfAway(o[k].x() / unit));
        out[2 * k + 1] = static_cast<std::int16_t>(roundHalfAway(o[k].y() / unit));
    }
}

Outline keptOutline(const std::array<std::int16_t, 2 * kPatchRing>& in, double unit, const Eigen::Matrix2d& turn,
                    const Vec2& shift) {
    Outline o;
    for (std::size_t k = 0; k < kPatchRing; ++k) o.push_back(turn * Vec2(in[2 * k] * unit, in[2 * k + 1] * unit) + shift);
    return o;
}

// The storage unit of outlines whose largest coordinate (or bound) is
// `largest`; 0 where there is none.
double keptUnit(double largest) {
    if (!(largest > 0.0) || !std::isfinite(largest)) return 0.0;
    return static_cast<float>(largest / kKeptRange);
}

double largestCoordinate(const Outline& o) {
    double largest = 0.0;
    for (const Vec2& q : o) largest = std::max({largest, std::fabs(q.x()), std::fabs(q.y())});
    return largest;
}

// The frame in a body's frame, and the pose the outlines were found at.
void keepFrame(const PatchFrame& frame, const PosedBody& body, std::array<float, 3>& origin,
               std::array<float, 3>& axis) {
    const Vec3 o = body.toBody(frame.origin), t = body.directionToBody(frame.t1);
    for (int i = 0; i < 3; ++i) {
        origin[i] = static_cast<float>(o[i]);
        axis[i] = static_cast<float>(t[i]);
    }
}

void keepPose(KeptPatch& kept, const Vec3& position, const Mat3& rotation) {
    for (int i = 0; i < 3; ++i) {
        kept.relativePosition[i] = position[i];
        for (int j = 0; j < 3; ++j) kept.relativeRotation[3 * i + j] = rotation(i, j);
    }
}

} // namespace

void keepPatch(KeptPatch& kept, const PatchFrame& frame, const PosedBody& body1, const PosedBody& body2,
               const CapOutline* caps, const CapOutline* zones, const std::array<double, kPatchRing>* bound1,
               const std::array<double, kPatchRing>* bound2) {
    kept.valid = false;
    double largest = 0.0;
    for (int b = 0; b < 2; ++b) {
        if (caps[b].outline.size() != kPatchRing) return;
        largest = std::max(largest, largestCoordinate(caps[b].outline));
        if (zones == nullptr) continue;
        if (zones[b].outline.size() != kPatchRing) return;
        largest = std::max(largest, largestCoordinate(zones[b].outline));
    }
    if (zones == nullptr)
        for (std::size_t k = 0; k < kPatchRing; ++k)
            largest = std::max({largest, std::fabs((*bound1)[k]), std::fabs((*bound2)[k])});
    const double unit = keptUnit(largest);
    if (!(unit > 0.0)) return;
    kept.unit = static_cast<float>(unit);
    keepFrame(frame, body1, kept.origin, kept.axis);
    keepFrame(frame, body2, kept.originIn2, kept.axisIn2);
    keepPose(kept, body1.toBody(body2.position), body1.rotation.transpose() * body2.rotation);
    keepOutline(caps[0].outline, unit, kept.cap1);
    keepOutline(caps[1].outline, unit, kept.cap2);
    kept.hasZone = zones != nullptr;
    if (kept.hasZone) {
        keepOutline(zones[0].outline, unit, kept.zone1);
        keepOutline(zones[1].outline, unit, kept.zone2);
    } else {
        for (std::size_t k = 0; k < kPatchRing; ++k) {
            kept.bound1[k] = static_cast<std::int16_t>(std::ceil((*bound1)[k] / unit));
            kept.bound2[k] = static_cast<std::int16_t>(std::ceil((*bound2)[k] / unit));
        }
    }
    kept.valid = true;
}

void keepWallPatch(KeptPatch& kept, const PatchFrame& frame, const PosedBody& body, const Vec3& deepest,
                   const Outline& patch, const Outline& zone, const std::array<double, kPatchRing>* zoneBound) {
    kept.valid = false;
    const bool hasZone = zoneBound == nullptr;
    if (patch.size() != kPatchRing || (hasZone && zone.size() != kPatchRing)) return;
    double largest = largestCoordinate(patch);
    if (hasZone)
        largest = std::max(largest, largestCoordinate(zone));
    else
        for (const double b : *zoneBound) largest = std::max(largest, std::fabs(b));
    const double unit = keptUnit(largest);
    if (!(unit > 0.0)) return;
    kept.unit = static_cast<float>(unit);
    keepFrame(frame, body, kept.origin, kept.axis);
    keepPose(kept, body.position, body.rotation); // (walls: the particle's world pose)
    const Vec3 deepestInBody = body.toBody(deepest);
    for (int i = 0; i < 3; ++i) kept.deepest[i] = deepestInBody[i];
    keepOutline(patch, unit, kept.cap1);
    kept.hasZone = hasZone;
    if (hasZone)
        keepOutline(zone, unit, kept.zone1);
    else
        for (std::size_t k = 0; k < kPatchRing; ++k)
            kept.bound1[k] = static_cast<std::int16_t>(std::ceil((*zoneBound)[k] / unit));
    kept.valid = true;
}

} // namespace contactPatch

using namespace contactPatch;

bool keptPairPatch(const KeptPatch& kept, const PosedBody& body1, const PosedBody& body2, const Vec3& n,
                   const Vec3& origin1, const Vec3& axis1, const Vec3& origin2, const Vec3& axis2,
                   PatchPoints& points) {
    points = PatchPoints{};
    if (!kept.valid) return false;
    // body 1's frame now, and body 2's (its t1 brought into the plane)
    PatchFrame frame;
    frame.origin = origin1;
    frame.t1 = (axis1 - n.dot(axis1) * n).normalized();
    frame.t2 = n.cross(frame.t1);
    const Vec3 u1 = (axis2 - n.dot(axis2) * n).normalized(), u2 = n.cross(u1);
    if (!isFinite(frame.t1) || !isFinite(u1)) return false;
    Eigen::Matrix2d turn; // body 2's frame coordinates -> body 1's
    turn << frame.t1.dot(u1), frame.t1.dot(u2), frame.t2.dot(u1), frame.t2.dot(u2);
    const Vec2 shift = frame.project(origin2);
    const double unit = kept.unit;
    const Outline patch = intersect(keptOutline(kept.cap1, unit, Eigen::Matrix2d::Identity(), Vec2::Zero()),
                                    keptOutline(kept.cap2, unit, turn, shift));
    FlatWidths widths(frame, &body1, &body2);
    if (kept.hasZone) {
        points = patchPoints(patch, intersect(keptOutline(kept.zone1, unit, Eigen::Matrix2d::Identity(), Vec2::Zero()),
                                              keptOutline(kept.zone2, unit, turn, shift)),
                             frame, widths);
        return points.found;
    }
    Vec2 c;
    if (!centroid(patch, c)) return false;
    const auto& ring = ringDirections();
    HalfPlane planes[2 * kPatchRing];
    for (std::size_t k = 0; k < kPatchRing; ++k) {
        const Vec2 turned = turn * ring[k]; // body 2's bound, moved with it
        planes[2 * k] = {ring[k], kept.bound1[k] * unit};
        planes[2 * k + 1] = {turned, kept.bound2[k] * unit + turned.dot(shift)};
    }
    if (!noRimWithin(c, planes, 2 * kPatchRing, widths)) return false; // the zone would be needed
    points = patchPoints(patch, Outline{}, frame, widths);
    return points.found;
}

bool keptWallPatch(const KeptPatch& kept, const PosedBody& body, const Vec3& n, const Vec3& origin,
                   const Vec3& axis, const Vec3& keptOrigin, const std::vector<Vec3>* clipPoints,
                   const std::vector<Vec3>* clipOutwardNormals, PatchPoints& points) {
    points = PatchPoints{};
    if (!kept.valid) return false;
    PatchFrame frame;
    frame.origin = origin;
    frame.t1 = (axis - n.dot(axis) * n).normalized();
    frame.t2 = n.cross(frame.t1);
    if (!isFinite(frame.t1)) return false;
    const Vec2 shift = frame.project(keptOrigin);
    Outline patch = keptOutline(kept.cap1, kept.unit, Eigen::Matrix2d::Identity(), shift);
    Outline zone = kept.hasZone ? keptOutline(kept.zone1, kept.unit, Eigen::Matrix2d::Identity(), shift) : Outline{};
    cutByFloorEdges(frame, clipPoints, clipOutwardNormals, patch, zone);
    FlatWidths widths(frame, &body, nullptr);
    if (!kept.hasZone) {
        // the zone's bounds, moved with the patch: still no rim point possible?
        Vec2 c;
        if (!centroid(patch, c)) return false;
        const auto& ring = ringDirections();
        HalfPlane planes[kPatchRing];
        for (std::size_t k = 0; k < kPatchRing; ++k)
            planes[k] = {ring[k], kept.bound1[k] * double(kept.unit) + ring[k].dot(shift)};
        if (!noRimWithin(c, planes, kPatchRing, widths)) return false; // the zone would be needed
    }
    points = patchPoints(patch, zone, frame, widths);
    return points.found;
}

} // namespace sef
