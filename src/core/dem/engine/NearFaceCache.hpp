#pragma once
// Wall faces near each particle, cached between substeps: the answer of
// WallSet::facesNear for a sphere (centre, radius) is taken from the faces
// within a wider sphere (centre0, reach0) found earlier for that particle,
// filtered by the same exact sphere-polygon test, while the query sphere lies
// inside the wider one (then every face within `radius` of `centre` is within
// reach0 of centre0: the distance to a face is 1-Lipschitz). Same faces, same
// (ascending) order as WallSet::facesNear. Why: a settled particle asks the
// same question every substep (detection and push-back).
//
// Kept per particle slot as a small handle into a pool of entries, made on
// the first query of a slot: the engine asks only for particles near a wall
// (WallSet::noFaceWithin answers the others), a few per cent of a large
// system, and renumbering the slots (permute) moves 4-byte handles, not
// entries (moving 72-byte entries of every slot cost 2 cache misses per
// particle and step in a falling system of 1e4).
#include "dem/walls/WallSet.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace sef::dem {

class NearFaceCache {
public:
    // A particle's list covers its bounding radius plus skinFraction times it.
    explicit NearFaceCache(double skinFraction = 0.1) : skinFraction_(skinFraction) {}

    // Appends to `out` the faces of `walls` within `radius` of `centre` for
    // the particle at index `particle` (named by `identity`, bounding radius
    // `particleRadius`). The walls must be the same in every call.
    void facesNear(const WallSet& walls, std::size_t particle, std::int64_t identity,
                   double particleRadius, const Vec3& centre, double radius, std::vector<int>& out);

    // The caller renumbered its particles: the entry of new index k is the
    // one of old index fromSlot[k] (a permutation of 0..size-1). Entries are
    // checked by identity anyway; this only keeps them useful.
    void permute(const std::vector<std::size_t>& fromSlot);

    // Grid queries made so far (answers not taken from an entry).
    long recomputations() const { return recomputations_; }

private:
    struct Entry {
        bool valid = false;
        std::int64_t identity = 0;
        Vec3 centre = Vec3::Zero();
        double reach = 0.0;
        // the faces within reach of centre, ascending: the first kInline in
        // the entry (a separately allocated list cost a cache miss per
        // particle near a wall and query in a large system), the rest in
        // `more` (corners of fine wall meshes)
        static constexpr int kInline = 6;
        int count = 0;
        std::array<int, kInline> faces{};
        std::vector<int> more;
        // each face's distance from `centre` (same order): a query sphere
        // moved by s from it is within d - s .. d + s of the face, so most
        // queries of a settled particle need no exact test
        std::array<double, kInline> distance{};
        std::vector<double> moreDistance;
    };
    double skinFraction_;
    std::vector<int> entryOfSlot_; // index into entries_, -1: none yet
    std::vector<Entry> entries_;
    std::vector<int> freeEntries_; // entries of slots that are gone
    std::vector<int> scratch_;     // of permute
    std::vector<int> scratchFaces_;
    std::vector<double> scratchDistances_;
    long recomputations_ = 0;
};

} // namespace sef::dem
