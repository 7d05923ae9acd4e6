#pragma once
// Automatic number of collision substeps per step (both solvers; the cloud
// subcycles inside a fluid step). [Superellipsoid-OpenFOAM] sec. 5.1-5.2: collisions are
// resolved with negligible deviations when a particle travels at most about
// 10 % of its d_eq per (sub)step, and a step of 100 % d_eq split into 10
// substeps is as accurate as a step of 10 %. So
//   n = ceil( max_i s_i / (travelFraction d_eq,i) ),
//   s_i = (|v_i| + |g + F_i/m_i| dt) dt   (speed at the end of the step, bounded),
// at least minSubcycles (1 unless a bed at rest needs more to hold up) and
// at most maxSubcycles. Held particles (ParticleType::held)
// do not travel and are left out.
#include "dem/particles/ParticleSystem.hpp"

namespace sef::dem {

struct SubcycleChoice {
    int subcycles = 1;
    bool capped = false;       // maxSubcycles was reached (the caller should say so)
    double largestTravel = 0;  // max_i s_i / d_eq,i over the step
};

// Throws std::invalid_argument for dt <= 0, travelFraction <= 0,
// maxSubcycles < 1, minSubcycles outside [1, maxSubcycles] (and non-finite
// values).
SubcycleChoice automaticSubcycles(const ParticleSystem& particles, double dt, const Vec3& gravity,
                                  double travelFraction = 0.1, int maxSubcycles = 1000, int minSubcycles = 1);

} // namespace sef::dem
