#pragma once
// Per-contact data carried from one substep to the next, keyed by the
// contact's identity (particle ids, or particle id and wall face): the common
// normal (warm start of the narrow phase) and the accumulated impulse (warm
// start of the sequential-impulse solver).
//
// Entries live in one pool and stay in place from substep to substep: a
// contact carried on (its narrow-phase reference reused) is re-recorded by
// marking its entry, not by copying it. Why: a settled bed carries ~95 % of
// its ~5000 entries (320 bytes each) every substep; copying them into a new
// table and re-indexing it would cost ~10 % of the step (benchmarks/README.md).
// An open-addressing table (linear probing, at most half full) maps keys to
// pool indices, each with 32 other bits of its key's hash: a probe compares
// those before it reads an entry (in a large system the pool is far larger
// than the caches, and a lookup for a new contact probed past entries of
// other keys, one cache miss each); entries not recorded in a substep are dead and are dropped
// when they outnumber the live ones (the pool is then rebuilt in recording
// order, which is also the order of the next substep's lookups). The
// previous substep's impulse of each entry is kept beside it (previous()).
// Deterministic: nothing depends on addresses or timing.
#include "contact/ContactResult.hpp"
#include "geometry/Types.hpp"

#include <array>

#include <cstdint>
#include <vector>

namespace sef::dem {

struct ContactKey {
    std::int64_t a = 0, b = 0; // pair: (smaller id, larger id); wall: (id, -1 - face)
    std::int64_t part = 0;     // 0: the contact point; 1..kRimPoints: its rim points
    bool operator<(const ContactKey& o) const {
        return a < o.a || (a == o.a && (b < o.b || (b == o.b && part < o.part)));
    }
    bool operator==(const ContactKey& o) const { return a == o.a && b == o.b && part == o.part; }
    static ContactKey pair(std::int64_t idA, std::int64_t idB) {
        return idA < idB ? ContactKey{idA, idB} : ContactKey{idB, idA};
    }
    static ContactKey wall(std::int64_t id, int face) { return ContactKey{id, -1 - static_cast<std::int64_t>(face)}; }
    ContactKey rimPoint(int k) const { return ContactKey{a, b, k + 1}; }
};

template <std::size_t N> std::array<Vec3, N> filledArray(const Vec3& v) {
    std::array<Vec3, N> a;
    a.fill(v); // Eigen vectors are not zeroed by value-initialisation
    return a;
}

struct WarmStartEntry {
    ContactKey key;
    Vec3 normal = Vec3::UnitZ();     // pair: from the smaller id to the larger; wall: contact module's
    Vec3 impulse = Vec3::Zero();     // accumulated impulse on the larger id / the wall, world frame
    bool resting = false;            // the impulse belongs to a resting contact (may warm-start)
    // Pairs: the last EXACT narrow-phase answer, in the body frame of the
    // smaller id A (dem/engine/PairGeometryReuse.hpp): relative pose of B in A's
    // frame, normal in A's frame, support points in each body frame. (An
    // apart answer's pose, depth and B point move on with each
    // separatedAlongReference along the same normal: refreshApartReference.)
    bool hasReference = false;
    bool flatReference = false;                  // the answer was a flat-patch centre
    // The bytes the compiler would leave undefined before the quaternion:
    // the engine's state file holds these records as bytes
    // (DemEngineStateIO.cpp), and every byte defined makes it the same
    // file for the same state.
    std::array<std::uint8_t, 5> padding{};
    Quat relativeOrientation = Quat::Identity(); // q_A^-1 q_B
    Vec3 relativePosition = Vec3::Zero();        // R_A^T (x_B - x_A)
    Vec3 normalInA = Vec3::UnitZ();
    Vec3 supportA = Vec3::Zero(), supportB = Vec3::Zero();
    // The rim points of that answer (ContactPatch.hpp), body frame of A /
    // of the particle.
    std::array<Vec3, kRimPoints> rimInA = filledArray<kRimPoints>(Vec3::Zero());
    std::int64_t rimCount = 0;
    // Pairs rejected by a bounding volume (no reference): a lower bound of
    // their distance at the relative pose above; 0: none
    // (dem/engine/PairGeometryReuse.hpp, pairStillSeparated).
    double separation = 0.0;
    // Pairs: the depth of the exact answer at the reference (< 0: apart).
    double referenceDepth = 0.0;
    // Pairs with a flat patch: where its outline's searches ended.
    PatchGuess patchGuess;
};

// A contact's compliance K and K^-1 (solver set-up), kept beside its entry
// while the narrow-phase reference is carried: valid while the smaller id's
// body (walls: the particle) has turned by less than the reuse tolerance
// from `orientation` (DemEngine.cpp: with the reference fixed, K is a
// function of that body's orientation only). Beside the entries, not in
// them: most entries are candidate pairs that never reach the solver, and
// entry size is memory traffic in large systems.
struct KeptCompliance {
    bool valid = false;
    std::array<std::uint8_t, 15> padding{}; // defined bytes (WarmStartEntry::padding)
    Quat orientation = Quat::Identity();
    Mat3 compliance = Mat3::Zero(), inverseCompliance = Mat3::Zero();
};

// What the solver's warm start needs of an entry's previous substep.
struct PreviousImpulse {
    Vec3 impulse = Vec3::Zero();
    bool resting = false;
};

class WarmStartCache {
public:
    // Entry of the previous substep, or nullptr. Valid until the next
    // record or commit.
    const WarmStartEntry* find(const ContactKey& key) const;
    // The pool place of an entry from find (-1 for nullptr), and back: the
    // place stays valid until the next commit, the pointer only until the
    // next record (which may move the pool).
    int placeOf(const WarmStartEntry* e) const { return indexOf(e); }
    const WarmStartEntry* atPlace(int p) const {
        return p >= 0 ? &pool_[static_cast<std::size_t>(p)] : nullptr;
    }
    // Adds an entry for the substep being built; returns its slot.
    int record(const WarmStartEntry& entry) {
        // the last find usually looked this key up
        return record(entry, lastFound_ >= 0 && pool_[static_cast<std::size_t>(lastFound_)].key == entry.key
                                 ? &pool_[static_cast<std::size_t>(lastFound_)]
                                 : nullptr);
    }
    // The same with its previous-substep entry given (what find(entry.key)
    // returned, or nullptr), for callers that looked up several keys first.
    int record(const WarmStartEntry& entry, const WarmStartEntry* previous);
    // Carries the previous substep's entry `e` (from find) on: its
    // narrow-phase reference kept, its impulse cleared, the given normal.
    // In place: no copy.
    int recordCarried(const WarmStartEntry& e, const Vec3& normal);
    // The previous substep's impulse of slot s's contact, or nullptr if it
    // had none.
    const PreviousImpulse* previous(int s) const {
        const std::size_t p = static_cast<std::size_t>(recorded_[static_cast<std::size_t>(s)]);
        return previousGeneration_[p] == generation_ - 1 ? &previousImpulse_[p] : nullptr;
    }
    WarmStartEntry& slot(int s) { return pool_[static_cast<std::size_t>(recorded_[static_cast<std::size_t>(s)])]; }
    // Asks the memory for what the solver set-up of slot s's contact will
    // read (its kept compliance and its entry), a few contacts ahead: the
    // places follow the pool, not the contacts, and each was a cache miss
    // (a third of the set-up's time in a settled bed, perf).
    void prefetchForSetUp(int s) const {
        const std::size_t p = static_cast<std::size_t>(recorded_[static_cast<std::size_t>(s)]);
        const char* kept = reinterpret_cast<const char*>(&compliance_[p]);
        for (std::size_t offset = 0; offset < sizeof(KeptCompliance); offset += 64) __builtin_prefetch(kept + offset);
        __builtin_prefetch(&pool_[p].resting);
    }
    // The patch outlines kept with an entry from find (its reference's,
    // when that was a patch between two flat faces), or nullptr. Kept
    // apart from the entries and only for those that have them (a few of a
    // bed's entries; 220 bytes each): a new reference drops them.
    const KeptPatch* keptPatch(const WarmStartEntry* e) const {
        const int p = indexOf(e);
        if (p < 0) return nullptr;
        const int k = patchOf_[static_cast<std::size_t>(p)];
        return k >= 0 ? &patches_[static_cast<std::size_t>(k)] : nullptr;
    }
    // Keeps the patch outlines of slot s's contact (a new reference's).
    void keepPatch(int s, const KeptPatch& patch);
    // The kept compliance of slot s's contact (invalid for a new entry).
    KeptCompliance& compliance(int s) {
        return compliance_[static_cast<std::size_t>(recorded_[static_cast<std::size_t>(s)])];
    }
    // The recorded entries become the ones `find` sees.
    void commit();
    void clear() { setEntries({}); }
    std::size_t size() const { return live_.size(); }
    // The entries `find` sees (in recording order), e.g. to save them for a
    // restart, and their kept compliances (same order).
    std::vector<WarmStartEntry> entries() const;
    std::vector<KeptCompliance> compliances() const;
    // ... and their kept patch outlines (valid = false for none).
    std::vector<KeptPatch> patches() const;
    // Replaces them; for a restart (compliances, patches: empty, or one per entry).
    void setEntries(std::vector<WarmStartEntry> entries, std::vector<KeptCompliance> compliances = {},
                    const std::vector<KeptPatch>& patches = {});
    // Decomposed runs (particles changing processor), between steps:
    // appends to out the entries `find` sees whose key.a `select` accepts
    // (the cache is unchanged: entries no longer recorded die by
    // themselves), and adopts entries as if recorded in the last committed
    // substep (a key already seen by `find` keeps its own entry). Both in
    // O(their count), without rebuilding the cache.
    template <class Select>
    void collect(Select&& select, std::vector<WarmStartEntry>& out, std::vector<KeptCompliance>& outCompliances,
                 std::vector<KeptPatch>& outPatches) const {
        for (const int p : live_) {
            const std::size_t q = static_cast<std::size_t>(p);
            if (!select(pool_[q].key.a)) continue;
            out.push_back(pool_[q]);
            outCompliances.push_back(compliance_[q]);
            outPatches.push_back(patchOf_[q] >= 0 ? patches_[static_cast<std::size_t>(patchOf_[q])] : KeptPatch{});
        }
    }
    void adopt(const std::vector<WarmStartEntry>& entries, const std::vector<KeptCompliance>& compliances,
               const std::vector<KeptPatch>& patches);

private:
    int indexOf(const WarmStartEntry* e) const {
        if (!e || pool_.empty() || e < pool_.data() || e >= pool_.data() + pool_.size()) return -1;
        return static_cast<int>(e - pool_.data());
    }
    int lookup(const ContactKey& key) const; // pool index in the table, -1: none
    int append(const WarmStartEntry& entry, bool indexed);
    void insert(int p);
    void place(int p); // into a free slot of the table
    void rebuildTable();
    void compact();
    void dropPatch(std::size_t p); // of pool entry p, if any
    void keepPatchAt(std::size_t p, const KeptPatch& patch);

    std::vector<WarmStartEntry> pool_;
    std::vector<KeptCompliance> compliance_; // per pool entry
    std::vector<int> patchOf_;               // per pool entry: its place in patches_, -1: none
    std::vector<KeptPatch> patches_;         // kept patch outlines (some places free)
    std::vector<int> freePatches_;           // free places of patches_
    std::vector<long> recordedGeneration_;  // per pool entry: the substep it was last recorded in
    std::vector<long> previousGeneration_;  // per pool entry: the substep of previousImpulse_
    std::vector<PreviousImpulse> previousImpulse_;
    std::vector<char> indexed_;             // in the table (a key recorded twice in one substep: the second is not)
    struct TableSlot {
        int pool = -1;          // pool index, -1: empty
        std::uint32_t tag = 0;  // bits of the key's hash (lookup)
    };
    std::vector<TableSlot> table_;          // size a power of 2
    std::vector<int> recorded_;             // pool index per slot of the substep being built
    std::vector<int> live_;                 // the same of the last committed substep
    std::vector<int> livePosition_;         // per pool entry: its place in live_ (if live)
    long generation_ = 1;                   // the substep being built
    mutable std::size_t cursor_ = 0;        // lookup hint: the place in live_ after the last one found
    mutable int lastFound_ = -1;            // pool index of the last find, -1: none
};

} // namespace sef::dem
