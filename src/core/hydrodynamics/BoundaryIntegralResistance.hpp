#pragma once
// Numerical K, Omega, Pi of any superellipsoid by the completed double-layer
// boundary integral equation (second kind; Power & Miranda, SIAM J. Appl.
// Math. 47 (1987) 689). The disturbance flow of the rigid particle is
//   u(x) = int_S K(x, y) q(y) dS_y + G(x) F / (8 pi mu) + R(x) L / (8 pi mu)
// (double layer of density q plus a stokeslet G and a rotlet R at the
// centre) with F = int q dS, L = int y x q dS. The double layer exerts no
// force or torque, so F and L are the force and torque on the fluid. The
// exterior limit on S gives a well-posed second-kind equation for q, solved
// by Nystrom collocation at the nodes of SurfaceQuadrature.hpp with the
// singularity subtracted (PV int K dS = I/2 on smooth points).
// The three mirror planes split the problem into 8 parity classes; the 9
// right sides (3 translations, 3 rotations, 3 pure strains) fall into 6 of
// them, each a dense system on one octant, solved by block-Jacobi
// preconditioned GMRES (Gmres.hpp; partial-pivot LU as the fallback).
// The error estimate is the difference to a solve at ~3/4 of the resolution.
#include "geometry/Superellipsoid.hpp"
#include "hydrodynamics/ResistanceTensors.hpp"

namespace sef {

struct ResistanceSolverOptions {
    static constexpr int defaultResolution = 16;
    // >= 2; ~24 n^2 surface nodes. Memory: one dense matrix of (9 n^2)^2
    // doubles at a time (n = 16: 42 MB, n = 24: 215 MB).
    int resolution = defaultResolution;
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
// resolution; std::runtime_error if the dense solve fails or gives a
// non-dissipative (K or Omega <= 0) result.
ResistanceTensors solveResistance(const Superellipsoid& shape, int resolution,
                                  int* nodeCount = nullptr);

// The solve at options.resolution plus the error estimate.
NumericalResistance computeResistance(const Superellipsoid& shape,
                                      const ResistanceSolverOptions& options = {});

} // namespace sef
