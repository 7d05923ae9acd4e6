#include "contact/ContactPatchRim.hpp"

#include <algorithm>

namespace sef::contactPatch {

bool noRimWithin(const Vec2& c, const HalfPlane* planes, int count, FlatWidths& widths) {
    for (int k = 0; k < count; ++k)
        if (!(planes[k].direction.dot(c) < planes[k].offset)) return false;
    double reach[4];
    const Vec2 directions[4] = {Vec2(1, 0), Vec2(-1, 0), Vec2(0, 1), Vec2(0, -1)};
    for (int j = 0; j < 4; ++j) {
        double exit = HUGE_VAL;
        for (int k = 0; k < count; ++k) {
            const double speed = planes[k].direction.dot(directions[j]);
            if (speed > 0.0) exit = std::min(exit, (planes[k].offset - planes[k].direction.dot(c)) / speed);
        }
        // a margin against rounding in the comparison of patchPoints
        reach[j] = kRimFraction * exit * (1.0 + 1e-9);
    }
    // the lower bounds of the widths first: if they exclude every rim, the
    // exact widths would too
    const double lower[2] = {widths.lowerBound(0), widths.lowerBound(1)};
    bool excluded = true;
    for (int j = 0; j < 4 && excluded; ++j) excluded = reach[j] < kRimMinimum * lower[j / 2];
    if (excluded) return true;
    for (int j = 0; j < 4; ++j)
        if (!(reach[j] < kRimMinimum * widths.exact(j / 2))) return false;
    return true;
}

bool noRimPossible(const Vec2& c, const std::array<double, kPatchRing>& bound1,
                   const std::array<double, kPatchRing>& bound2, FlatWidths& widths) {
    const auto& ring = ringDirections();
    HalfPlane planes[2 * kPatchRing];
    for (std::size_t k = 0; k < kPatchRing; ++k) {
        planes[2 * k] = {ring[k], bound1[k]};
        planes[2 * k + 1] = {ring[k], bound2[k]};
    }
    return noRimWithin(c, planes, 2 * kPatchRing, widths);
}

PatchPoints patchPoints(const Outline& patch, const Outline& zone, const PatchFrame& frame,
                        FlatWidths& widths) {
    PatchPoints points;
    Vec2 c;
    if (!centroid(patch, c)) return points;
    points.found = true;
    points.centroid = toOffset(frame, c);
    if (zone.size() < 3) return points;
    for (const Vec2& u : {Vec2(1, 0), Vec2(-1, 0), Vec2(0, 1), Vec2(0, -1)}) {
        const double reach = kRimFraction * exitDistance(zone, c, u);
        const double width = widths.exact(u.x() != 0.0 ? 0 : 1);
        if (reach >= kRimMinimum * width) points.rim[points.rimCount++] = toOffset(frame, c + reach * u);
    }
    return points;
}

bool curvedCapOnFace(const CapOutline& cap, const Vec3& top, const PosedBody& face, double faceLevel,
                     const Vec3& n, const PatchFrame& frame, double zoneBound, FlatWidths& widths,
                     PatchPoints& points) {
    const Vec3 lift = (faceLevel - n.dot(frame.origin)) * n;
    for (const Vec2& q : cap.outline)
        if (!(face.implicitFunction(frame.origin + toOffset(frame, q) + lift) <= 0.0)) return false;
    Vec2 c;
    std::array<double, kPatchRing> bound;
    if (!centroid(cap.outline, c) || !deeperCapBounds(cap.reach, frame.project(top), zoneBound, bound))
        return false;
    if (!noRimPossible(c, bound, bound, widths)) return false;
    points = patchPoints(cap.outline, Outline{}, frame, widths);
    return true;
}

} // namespace sef::contactPatch
