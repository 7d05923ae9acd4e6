#pragma once
// Contacts found in one DEM substep and the two ways of choosing which of
// them receive impulses (see DemEngine.cpp for the sweep scheme).
#include "geometry/Types.hpp"

#include <vector>

namespace sef::dem {

// One detected contact. Particle-particle: i < j are particle indices and
// normal points from i to j. Particle-wall: j = -1, face is the WallSet face
// and normal points from the particle INTO the wall (the collision module's
// normalTowardsWall). depth > 0 is the penetration depth along the normal.
struct DemContact {
    int i = -1;
    int j = -1;
    int face = -1;
    Vec3 point = Vec3::Zero();  // where the impulse acts
    Vec3 normal = Vec3::UnitZ();
    double depth = 0.0;
    // A rim point of a flat-face contact (contact/ContactPatch.hpp): a
    // velocity constraint only (depth 0, no overlap removal, not counted).
    bool rim = false;
    bool isWall() const { return j < 0; }
};

// Merges wall contacts of one particle that are the same contact seen from
// several faces (coplanar neighbours sharing an edge, duplicated faces):
// normals closer than `angleTolerance` [rad] keep only the deepest.
// Contacts of different particles are never merged. Input order is kept
// otherwise (the result is deterministic).
void mergeDuplicateWallContacts(std::vector<DemContact>& wallContactsOfOneParticle,
                                double angleTolerance = 1e-3);
// Same, keeping a parallel vector (e.g. warm-start slots) in step.
void mergeDuplicateWallContacts(std::vector<DemContact>& wallContactsOfOneParticle,
                                std::vector<int>& parallel, double angleTolerance = 1e-3);

// [Superellipsoid-OpenFOAM], sec. 3.4.3 / 3.5.3: every particle keeps only ONE collision
// partner per step, the one with the largest overlap; partners already taken
// are neglected for the rest of the step. Greedy by decreasing depth (ties
// by input order), a wall counts as a partner of its particle.
// Returns the selected contacts (a subset; pairwise disjoint in particles).
std::vector<DemContact> selectOnePartnerPerParticle(const std::vector<DemContact>& contacts,
                                                    std::size_t particleCount);
// The same selection as indices into `contacts` (in selection order).
// immovable (optional, per particle): particles that, like a wall, are a
// partner of any number of particles (held particles: no impulse changes
// them, so their contacts are still disjoint in what they move).
std::vector<std::size_t> selectOnePartnerPerParticle(const std::vector<DemContact>& contacts,
                                                     std::size_t particleCount, bool /*indices*/,
                                                     const std::vector<char>* immovable = nullptr);

} // namespace sef::dem
