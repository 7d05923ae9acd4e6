#include "dem/engine/WarmStartCache.hpp"

#include <cstdint>

namespace sef::dem {

namespace {

// Entries are large (a narrow-phase reference each) and a settled bed reads
// them in recording order: fetching the next ones while this one is used
// hides most of the cache misses of the reuse test.
void prefetchEntry(const std::vector<WarmStartEntry>& entries, std::size_t e) {
#if defined(__GNUC__)
    if (e >= entries.size()) return;
    const char* p = reinterpret_cast<const char*>(&entries[e]);
    for (std::size_t offset = 0; offset < sizeof(WarmStartEntry); offset += 64) __builtin_prefetch(p + offset);
#else
    (void)entries;
    (void)e;
#endif
}

std::uint64_t hashOf(const ContactKey& key) {
    // 64-bit mix of both ids and the part (multiplicative hashing, then the high bits folded in)
    std::uint64_t h = static_cast<std::uint64_t>(key.a) * 0x9E3779B97F4A7C15ull;
    h ^= static_cast<std::uint64_t>(key.b) * 0xC2B2AE3D27D4EB4Full;
    h ^= static_cast<std::uint64_t>(key.part) * 0x165667B19E3779F9ull;
    h ^= h >> 29;
    return h;
}

// The slot's check value: other bits of the hash than those of the slot
// index (tables stay far below 2^32 slots).
std::uint32_t tagOf(std::uint64_t hash) { return static_cast<std::uint32_t>(hash >> 32); }

} // namespace

int WarmStartCache::lookup(const ContactKey& key) const {
    if (table_.empty()) return -1;
    const std::size_t mask = table_.size() - 1;
    const std::uint64_t h = hashOf(key);
    const std::uint32_t tag = tagOf(h);
    for (std::size_t s = static_cast<std::size_t>(h) & mask;; s = (s + 1) & mask) {
        const TableSlot t = table_[s];
        if (t.pool < 0) return -1;
        // the tag first: a probe past other keys then reads no entry
        if (t.tag == tag && pool_[static_cast<std::size_t>(t.pool)].key == key) return t.pool;
    }
}

void WarmStartCache::place(int p) {
    const std::size_t mask = table_.size() - 1;
    const std::uint64_t h = hashOf(pool_[static_cast<std::size_t>(p)].key);
    std::size_t s = static_cast<std::size_t>(h) & mask;
    while (table_[s].pool >= 0) s = (s + 1) & mask;
    table_[s] = TableSlot{p, tagOf(h)};
}

const WarmStartEntry* WarmStartCache::find(const ContactKey& key) const {
    // Substeps look contacts up in nearly the order they recorded them: the
    // entry recorded after the last one found is tried before the table.
    // Followed through the recording order (live_), not through the pool:
    // the pool follows it only after a compaction, and in a large falling
    // system new pairs and particles changing place made 38 % of the
    // lookups miss the next pool entry (and go to the table, two cache
    // misses each); the entries ahead are prefetched instead.
    lastFound_ = -1;
    int p = -1;
    if (cursor_ < live_.size()) {
        const int q = live_[cursor_];
        if (indexed_[static_cast<std::size_t>(q)] && pool_[static_cast<std::size_t>(q)].key == key) p = q;
    }
    if (p < 0) p = lookup(key);
    if (p < 0 || recordedGeneration_[static_cast<std::size_t>(p)] != generation_ - 1) return nullptr;
    lastFound_ = p;
    cursor_ = static_cast<std::size_t>(livePosition_[static_cast<std::size_t>(p)]) + 1;
    if (cursor_ + 1 < live_.size()) prefetchEntry(pool_, static_cast<std::size_t>(live_[cursor_ + 1]));
    return &pool_[static_cast<std::size_t>(p)];
}

int WarmStartCache::append(const WarmStartEntry& entry, bool indexed) {
    pool_.push_back(entry);
    compliance_.emplace_back();
    patchOf_.push_back(-1);
    recordedGeneration_.push_back(0);
    previousGeneration_.push_back(0);
    previousImpulse_.emplace_back();
    indexed_.push_back(indexed);
    const int p = static_cast<int>(pool_.size()) - 1;
    if (indexed) insert(p);
    return p;
}

void WarmStartCache::insert(int p) {
    if (2 * (pool_.size() + 1) > table_.size()) return rebuildTable(); // includes p
    place(p);
}

void WarmStartCache::rebuildTable() {
    std::size_t size = 16;
    while (size < 2 * pool_.size() + 2) size *= 2;
    table_.assign(size, TableSlot{});
    for (std::size_t p = 0; p < pool_.size(); ++p)
        if (indexed_[p]) place(static_cast<int>(p));
}

int WarmStartCache::record(const WarmStartEntry& entry, const WarmStartEntry* previous) {
    int p = indexOf(previous);
    if (p < 0) p = lookup(entry.key); // a dead entry of this key: its place is reused
    if (p >= 0 && recordedGeneration_[static_cast<std::size_t>(p)] == generation_)
        p = append(entry, false); // recorded twice in this substep: the first stays indexed
    else if (p < 0)
        p = append(entry, true);
    else {
        pool_[static_cast<std::size_t>(p)] = entry;
        compliance_[static_cast<std::size_t>(p)].valid = false; // a new reference
        dropPatch(static_cast<std::size_t>(p));
    }
    recordedGeneration_[static_cast<std::size_t>(p)] = generation_;
    recorded_.push_back(p);
    return static_cast<int>(recorded_.size()) - 1;
}

int WarmStartCache::recordCarried(const WarmStartEntry& e, const Vec3& normal) {
    const int p = indexOf(&e);
    if (p < 0 || recordedGeneration_[static_cast<std::size_t>(p)] == generation_) {
        WarmStartEntry carried = e; // not from find, or already recorded: as a new entry
        carried.impulse.setZero();
        carried.resting = false;
        carried.normal = normal;
        return record(carried, nullptr);
    }
    WarmStartEntry& carried = pool_[static_cast<std::size_t>(p)];
    carried.impulse.setZero();
    carried.resting = false;
    carried.normal = normal;
    recordedGeneration_[static_cast<std::size_t>(p)] = generation_;
    recorded_.push_back(p);
    return static_cast<int>(recorded_.size()) - 1;
}

void WarmStartCache::commit() {
    for (int p : recorded_) {
        const std::size_t q = static_cast<std::size_t>(p);
        previousImpulse_[q] = PreviousImpulse{pool_[q].impulse, pool_[q].resting};
        previousGeneration_[q] = generation_;
    }
    live_.swap(recorded_);
    recorded_.clear();
    livePosition_.resize(pool_.size());
    for (std::size_t k = 0; k < live_.size(); ++k) livePosition_[static_cast<std::size_t>(live_[k])] = static_cast<int>(k);
    ++generation_;
    cursor_ = 0;
    lastFound_ = -1;
    // Dead entries (not recorded in the substep just committed) are kept
    // while they are few: a contact that flickers finds its place again.
    if (pool_.size() > 2 * live_.size() + 64) compact();
}

void WarmStartCache::dropPatch(std::size_t p) {
    if (patchOf_[p] < 0) return;
    freePatches_.push_back(patchOf_[p]);
    patchOf_[p] = -1;
}

void WarmStartCache::keepPatch(int s, const KeptPatch& patch) {
    keepPatchAt(static_cast<std::size_t>(recorded_[static_cast<std::size_t>(s)]), patch);
}

void WarmStartCache::keepPatchAt(std::size_t p, const KeptPatch& patch) {
    if (patchOf_[p] < 0) {
        if (freePatches_.empty()) {
            patchOf_[p] = static_cast<int>(patches_.size());
            patches_.push_back(patch);
            return;
        }
        patchOf_[p] = freePatches_.back();
        freePatches_.pop_back();
    }
    patches_[static_cast<std::size_t>(patchOf_[p])] = patch;
}

void WarmStartCache::adopt(const std::vector<WarmStartEntry>& entries,
                           const std::vector<KeptCompliance>& compliances, const std::vector<KeptPatch>& patches) {
    const long last = generation_ - 1; // the substep `find` sees
    for (std::size_t k = 0; k < entries.size(); ++k) {
        int p = lookup(entries[k].key);
        if (p >= 0 && recordedGeneration_[static_cast<std::size_t>(p)] == last) continue; // seen already
        if (p >= 0) pool_[static_cast<std::size_t>(p)] = entries[k]; // a dead entry's place
        else p = append(entries[k], true);
        const std::size_t q = static_cast<std::size_t>(p);
        compliance_[q] = k < compliances.size() ? compliances[k] : KeptCompliance{};
        dropPatch(q);
        if (k < patches.size() && patches[k].valid) keepPatchAt(q, patches[k]);
        recordedGeneration_[q] = previousGeneration_[q] = last;
        previousImpulse_[q] = PreviousImpulse{entries[k].impulse, entries[k].resting};
        livePosition_.resize(pool_.size());
        livePosition_[q] = static_cast<int>(live_.size());
        live_.push_back(p);
    }
    cursor_ = 0;
    lastFound_ = -1;
}

void WarmStartCache::compact() {
    std::vector<WarmStartEntry> pool;
    std::vector<KeptCompliance> compliance;
    std::vector<PreviousImpulse> impulses;
    pool.reserve(live_.size());
    compliance.reserve(live_.size());
    impulses.reserve(live_.size());
    // the kept patches stay where they are; those of dead entries are freed
    std::vector<int> patchOf;
    patchOf.reserve(live_.size());
    for (int p : live_) {
        pool.push_back(pool_[static_cast<std::size_t>(p)]);
        compliance.push_back(compliance_[static_cast<std::size_t>(p)]);
        impulses.push_back(previousImpulse_[static_cast<std::size_t>(p)]);
        patchOf.push_back(patchOf_[static_cast<std::size_t>(p)]);
        patchOf_[static_cast<std::size_t>(p)] = -1;
    }
    for (std::size_t p = 0; p < patchOf_.size(); ++p) dropPatch(p);
    const std::size_t n = pool.size();
    pool_.swap(pool);
    compliance_.swap(compliance);
    patchOf_.swap(patchOf);
    previousImpulse_.swap(impulses);
    recordedGeneration_.assign(n, generation_ - 1);
    previousGeneration_.assign(n, generation_ - 1);
    // duplicates (unindexed) keep their flag: the first of a key is indexed
    std::vector<char> indexed(n);
    for (std::size_t k = 0; k < n; ++k) indexed[k] = indexed_[static_cast<std::size_t>(live_[k])];
    indexed_.swap(indexed);
    livePosition_.resize(n);
    for (std::size_t k = 0; k < n; ++k) live_[k] = livePosition_[k] = static_cast<int>(k);
    rebuildTable();
}

std::vector<WarmStartEntry> WarmStartCache::entries() const {
    std::vector<WarmStartEntry> out;
    out.reserve(live_.size());
    for (int p : live_) out.push_back(pool_[static_cast<std::size_t>(p)]);
    return out;
}

std::vector<KeptCompliance> WarmStartCache::compliances() const {
    std::vector<KeptCompliance> out;
    out.reserve(live_.size());
    for (int p : live_) out.push_back(compliance_[static_cast<std::size_t>(p)]);
    return out;
}

std::vector<KeptPatch> WarmStartCache::patches() const {
    std::vector<KeptPatch> out;
    out.reserve(live_.size());
    for (int p : live_) {
        const int k = patchOf_[static_cast<std::size_t>(p)];
        out.push_back(k >= 0 ? patches_[static_cast<std::size_t>(k)] : KeptPatch{});
    }
    return out;
}

void WarmStartCache::setEntries(std::vector<WarmStartEntry> entries, std::vector<KeptCompliance> compliances,
                                const std::vector<KeptPatch>& patches) {
    const std::size_t n = entries.size();
    pool_ = std::move(entries);
    compliance_ = std::move(compliances);
    compliance_.resize(n); // none given: none kept
    patchOf_.assign(n, -1);
    patches_.clear();
    freePatches_.clear();
    for (std::size_t p = 0; p < n && p < patches.size(); ++p)
        if (patches[p].valid) keepPatchAt(p, patches[p]);
    generation_ = 2; // the entries are those of substep 1
    recordedGeneration_.assign(n, 1);
    previousGeneration_.assign(n, 1);
    previousImpulse_.resize(n);
    for (std::size_t p = 0; p < n; ++p) previousImpulse_[p] = PreviousImpulse{pool_[p].impulse, pool_[p].resting};
    indexed_.assign(n, 1);
    table_.clear();
    rebuildTable(); // then unindex repeated keys: the first stays
    for (std::size_t p = 0; p < n; ++p)
        if (lookup(pool_[p].key) != static_cast<int>(p)) indexed_[p] = 0;
    rebuildTable();
    live_.resize(n);
    livePosition_.resize(n);
    for (std::size_t p = 0; p < n; ++p) live_[p] = livePosition_[p] = static_cast<int>(p);
    recorded_.clear();
    cursor_ = 0;
    lastFound_ = -1;
}

} // namespace sef::dem
