#pragma once
// Quadrature rule on a superellipsoid surface for the boundary-integral
// solver: nodes x_j and weights w_j with sum_j w_j g(x_j) ~ int_S g dS.
//
// Why not the signed-power (eta, w) parametrisation of ParametricSurface.hpp:
// its Jacobian vanishes or blows up like |cos|^(eps-1) on the coordinate
// planes for eps != 1, and a uniform (eta, w) grid leaves the flat faces of
// blocky shapes almost empty. Instead we use a cubed-sphere-like atlas:
// every octant is split into 3 patches (one per dominant axis k). Patch
// (octant, k) maps (s, t) in [0,1]^2 to the direction d with d_k = 1 and the
// two other components tan(pi s/4), tan(pi t/4) (equiangular), projected
// radially onto the unit superellipsoid (a = b = c = 1) and stretched by
// (a, b, c). The map is smooth inside each patch; the patch borders are the
// coordinate planes (edges of diamond shapes, eps > 1) and the planes
// |x/a| = |y/b| etc. (edges of blocky shapes, eps < 1), where Gauss-Legendre
// nodes cluster. Node counts per patch direction follow the arc length, so
// spacing is nearly uniform also for elongated shapes.
#include "geometry/Superellipsoid.hpp"

#include <vector>

namespace sef {

struct SurfaceQuadrature {
    std::vector<Vec3> nodes;
    std::vector<double> weights;
    // Local node spacing: the larger of the two patch directions,
    // |dx/ds| w_s and |dx/dt| w_t (Gauss-Legendre weights ~ local step).
    std::vector<double> spacing;
    double maxSpacing = 0.0; // largest mean spacing (arc length / nodes) of a patch direction
};

// resolution n >= 2: about 24 n^2 nodes in total (n Gauss-Legendre nodes per
// patch direction for a sphere). Throws std::invalid_argument for n < 2.
SurfaceQuadrature buildSurfaceQuadrature(const Superellipsoid& shape, int resolution);

// Gauss-Legendre nodes and weights on [0, 1].
void gaussLegendre01(int n, std::vector<double>& x, std::vector<double>& w);

} // namespace sef
