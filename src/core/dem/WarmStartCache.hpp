#pragma once
// Per-contact data carried from one substep to the next, keyed by the
// contact's identity (particle ids, or particle id and wall face): the common
// normal (warm start of the narrow phase) and the accumulated impulse (warm
// start of the sequential-impulse solver).
//
// Flat and allocation-free in steady state: the entries of a substep are
// appended in any order; commit indexes them in an open-addressing table of
// entry indices (linear probing, at most half full), so the lookups of the
// next substep cost one or two probes. No sort and no node allocation;
// deterministic (the insertion order is the contact-detection order).
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
    // smaller id A (dem/PairGeometryReuse.hpp): relative pose of B in A's
    // frame, normal in A's frame, support points in each body frame.
    bool hasReference = false;
    bool flatReference = false;                  // the answer was a flat-patch centre
    Quat relativeOrientation = Quat::Identity(); // q_A^-1 q_B
    Vec3 relativePosition = Vec3::Zero();        // R_A^T (x_B - x_A)
    Vec3 normalInA = Vec3::UnitZ();
    Vec3 supportA = Vec3::Zero(), supportB = Vec3::Zero();
    // The rim points of that answer (ContactPatch.hpp), body frame of A /
    // of the particle.
    std::array<Vec3, kRimPoints> rimInA = filledArray<kRimPoints>(Vec3::Zero());
    std::int64_t rimCount = 0;
};

class WarmStartCache {
public:
    // Entry of the previous substep, or nullptr.
    const WarmStartEntry* find(const ContactKey& key) const;
    // Adds an entry for the substep being built; returns its slot.
    int record(const WarmStartEntry& entry) {
        // remembered when `find` just looked this key up (the usual pattern)
        return record(entry, lastFound_ >= 0 && current_[lastFound_].key == entry.key
                                 ? &current_[static_cast<std::size_t>(lastFound_)]
                                 : nullptr);
    }
    // The same with its previous-substep entry given (what find(entry.key)
    // returned, or nullptr), for callers that looked up several keys first.
    int record(const WarmStartEntry& entry, const WarmStartEntry* previous) {
        next_.push_back(entry);
        previousOfNext_.push_back(indexOf(previous));
        return static_cast<int>(next_.size()) - 1;
    }
    // Carries the previous substep's entry `e` (from find) on: its
    // narrow-phase reference kept, its impulse cleared, the given normal.
    // One copy, where building a fresh entry and assigning cost three.
    int recordCarried(const WarmStartEntry& e, const Vec3& normal) {
        const int s = record(e, &e);
        WarmStartEntry& carried = next_.back();
        carried.impulse.setZero();
        carried.resting = false;
        carried.normal = normal;
        return s;
    }
    // find(slot(s).key), without hashing when the key was looked up right
    // before it was recorded.
    const WarmStartEntry* previous(int s) const;
    WarmStartEntry& slot(int s) { return next_[static_cast<std::size_t>(s)]; }
    // The recorded entries become the ones `find` sees.
    void commit();
    void clear() { setEntries({}); }
    std::size_t size() const { return current_.size(); }
    // The entries `find` sees, e.g. to save them for a restart.
    const std::vector<WarmStartEntry>& entries() const { return current_; }
    // Replaces them; for a restart.
    void setEntries(std::vector<WarmStartEntry> entries);

private:
    void index();
    // Index in current_ of an entry find returned, -1 for nullptr (or any
    // other address).
    int indexOf(const WarmStartEntry* e) const {
        if (!e || current_.empty() || e < current_.data() || e >= current_.data() + current_.size()) return -1;
        return static_cast<int>(e - current_.data());
    }
    std::vector<WarmStartEntry> current_, next_;
    std::vector<int> table_; // entry index of current_ per slot, -1: empty; size a power of 2
    mutable std::size_t cursor_ = 0; // lookup hint: the entry after the last one found
    mutable int lastFound_ = -1;     // entry index of the last find, -1: none
    std::vector<int> previousOfNext_; // per slot of next_: its entry in current_, -1: unknown
    bool duplicateKeys_ = false;     // some key recorded twice: no hint
};

} // namespace sef::dem
