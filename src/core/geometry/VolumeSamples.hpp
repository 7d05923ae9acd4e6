#pragma once
// Points that stand for a particle's volume (the "divided" volume fraction
// of CFD-DEM: each particle's volume given to the cells its body overlaps,
// as CFDEM's sample points or MFiX's satellite points do, but placed in the
// true superellipsoid rather than in its bounding sphere).
//
// The points are quasi-random (Halton) points of the bounding box
// [-a, a] x [-b, b] x [-c, c] (body frame) that lie inside the body
// ([Superellipsoid-OpenFOAM] eq. 3: S <= 0), each with its mirror image through the centre, all of
// the same weight V / N: the weights add up to the particle's volume to
// round-off whatever the resolution, and the points' centroid is the centre.
// Unlike a regular grid they form no planes, so as a particle crosses a cell
// face in any pose the volume on each side changes by one weight at a time.
#include "geometry/Superellipsoid.hpp"

#include <vector>

namespace sef {

// A group of neighbouring points (a box of a partition of the bounding box
// into about cubes, sized to the number of points: 4 per axis for a sphere
// of 268 points, 7 for 2100): a cell that holds the whole ball (centre,
// radius) gets the group's weight at once, without locating each point.
struct VolumeSampleCluster {
    Vec3 centre = Vec3::Zero(); // body frame [m]
    double radius = 0;          // largest distance of its points from centre [m]
    std::size_t begin = 0, end = 0; // its points: points[begin, end)
};

struct VolumeSamples {
    std::vector<Vec3> points; // body frame, about the centre, grouped by cluster [m]
    double weight = 0;        // volume per point, V / points.size() [m^3]
    std::vector<VolumeSampleCluster> clusters; // cover points exactly once
};

// The samples of `shape`: about as many points as cubes of side
// d_eq / pointsPerDiameter fill it, (pi / 6) pointsPerDiameter^3 (d_eq the
// volume-equivalent diameter; 268 at 8). pointsPerDiameter must lie in
// [1, 100] (std::invalid_argument otherwise). The same shape always gets
// the same points.
VolumeSamples volumeSamples(const Superellipsoid& shape, int pointsPerDiameter);

} // namespace sef
