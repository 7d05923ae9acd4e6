#pragma once
// Which particles left through an outlet in a step: those whose centre's
// path from the start of the step to its end passes through an outlet face
// (doc/granular.md, "Outlets").
//
// Two things make "start[k] to position[k]" the wrong path:
// - The engine may reorder the particle arrays in a step
//   (EngineSettings::reorderParticles, large serial runs), so a particle's
//   start is found by its id, not its index.
// - In a periodic domain the centre may pass through a periodic plane in
//   the same step as through the outlet. Its path then meets the outlet's
//   plane just beyond the domain, where the face is in a periodic image:
//   a centre leaving through a slot's face 2 um past the far plane was
//   missed, and fell on below the domain for ever. The path is taken as the
//   shortest of the centre's periodic moves (no particle moves half a
//   period in a step), and tested in every lattice image of the domain.
#include "dem/particles/ParticleSystem.hpp"
#include "dem/boundaries/PeriodicLattice.hpp"
#include "dem/walls/WallSet.hpp"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace sef::dem {

// The particles' ids and centres at the start of a step.
struct StepStart {
    std::vector<std::int64_t> id;
    std::vector<Vec3> position;
    static StepStart of(const ParticleSystem& ps) { return {ps.id, ps.position}; }
};

struct LeavingParticle {
    std::size_t index; // in the particle system after the step
    int face;          // the outlet face passed (WallSet index)
};

// Kept from step to step by its user: the scratch lists keep their storage.
class OutletCrossing {
public:
    // outlets: the outlet faces (outward normals out of the domain), held
    // by reference.
    explicit OutletCrossing(const WallSet& outlets) : outlets_(&outlets) {}

    // The particles of ps whose centres passed through an outlet face since
    // `start`, in index order (particles without a start are skipped);
    // lattice: the domain's periodic directions (empty if none).
    std::vector<LeavingParticle> leaving(const StepStart& start, const ParticleSystem& ps,
                                         const PeriodicLattice& lattice);

    // The outlet face the centre passed through going from a to b (the
    // shortest periodic move between them), or -1.
    int facePassed(const Vec3& a, const Vec3& b, const PeriodicLattice& lattice);

private:
    int crossing(const Vec3& a, const Vec3& b);

    const WallSet* outlets_;
    std::vector<int> near_;
    std::unordered_map<std::int64_t, std::size_t> startOf_;
};

} // namespace sef::dem
