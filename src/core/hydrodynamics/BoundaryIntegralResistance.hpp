#pragma once
// Numerical K, Omega, Pi of any superellipsoid by a boundary-integral
// (single-layer, first-kind) Stokes solver:
//   u(x_i) = 1/(8 pi mu) sum_j G_delta(x_i - x_j) F_j        (collocation)
// with F_j the point force the particle exerts on the fluid at node j, the
// surface quadrature of SurfaceQuadrature.hpp and the O(delta^5) regularized
// Stokeslet of RegularizedStokeslet.hpp. A rigid particle in any Stokes flow
// is represented exactly by the single layer of its traction (Pozrikidis,
// "Boundary integral and singularity methods", 1992, sec. 4.3), so one dense
// symmetric system (Cholesky; partial-pivot LU as fallback) with nine right
// sides (3 translations, 3 rotations, 3 pure strains) gives all tensors.
// The error estimate is the difference to a solve at ~3/4 of the resolution.
#include "geometry/Superellipsoid.hpp"
#include "hydrodynamics/ResistanceTensors.hpp"

namespace sef {

struct ResistanceSolverOptions {
    static constexpr int defaultResolution = 8;
    int resolution = defaultResolution; // ~24 n^2 surface nodes, >= 2
    double blobFactor = 2.0;            // delta = blobFactor * largest node spacing
    bool estimateError = true;          // extra solve at ~3/4 resolution
};

struct NumericalResistance {
    ResistanceTensors tensors;
    ResistanceTensors errorEstimate; // |difference| to the coarser solve (zero if none)
    int resolution = 0;
    int nodes = 0;
    double seconds = 0.0;
};

// One solve at one resolution. Throws std::invalid_argument on a bad
// resolution or blob factor; std::runtime_error if the dense solve fails.
ResistanceTensors solveResistance(const Superellipsoid& shape, int resolution,
                                  double blobFactor = 2.0, int* nodeCount = nullptr);

// The solve at options.resolution plus the error estimate.
NumericalResistance computeResistance(const Superellipsoid& shape,
                                      const ResistanceSolverOptions& options = {});

} // namespace sef
