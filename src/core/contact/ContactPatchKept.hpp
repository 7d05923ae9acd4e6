#pragma once
// Keeping a contact patch's outlines (KeptPatch, contact/ContactResult.hpp)
// for the pair's or the wall contact's next queries; the patch from kept
// outlines is keptPairPatch / keptWallPatch (contact/ContactPatch.hpp).
// Shared by the stages of the patch (ContactPatch*.cpp).
#include "contact/ContactPatchCaps.hpp"
#include "contact/ContactPatchPolygon.hpp"

#include <array>

namespace sef::contactPatch {

// Keeps the outlines of a two-flat-faces patch (zones: nullptr when the
// bounds proved that it has no rim points; then the bounds are kept).
void keepPatch(KeptPatch& kept, const PatchFrame& frame, const PosedBody& body1, const PosedBody& body2,
               const CapOutline* caps, const CapOutline* zones, const std::array<double, kPatchRing>* bound1,
               const std::array<double, kPatchRing>* bound2);

// Keeps a wall patch's outlines (before the floor's edges cut them).
// Without the zone (zone empty): its bounds (deeperCapBounds), as keepPatch.
void keepWallPatch(KeptPatch& kept, const PatchFrame& frame, const PosedBody& body, const Vec3& deepest,
                   const Outline& patch, const Outline& zone, const std::array<double, kPatchRing>* zoneBound = nullptr);

} // namespace sef::contactPatch
