#pragma once
// Where random injection may put a particle in its region (box or finite
// cylinder): centres drawn uniformly, and whether a posed body lies inside.
#include "dem/RandomInjection.hpp"

namespace sef::dem {

// A uniformly random centre at least `margin` inside the region (margin =
// bounding radius: the bounding sphere lies in the region). False when the
// region is narrower than 2 margin (no draw is made then).
bool sampleCentre(const InjectionRegion& region, double margin, PortableRandom& rng, Vec3& x);

// Whether the sphere (x, R) lies in the region (touching its boundary counts).
bool sphereInRegion(const InjectionRegion& region, const Vec3& x, double R);

// Whether the posed body lies in the region: exact for a box and along a
// cylinder's axis (support distances); radially in a cylinder by the smaller
// of two bounds of the body's distance from the axis, its bounding sphere's
// and its bounding box's farthest corner (conservative).
bool bodyInRegion(const InjectionRegion& region, const Superellipsoid& shape, const Pose& pose);

} // namespace sef::dem
