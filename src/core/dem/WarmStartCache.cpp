#include "dem/WarmStartCache.hpp"

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

std::size_t slotOf(const ContactKey& key, std::size_t mask) {
    // 64-bit mix of both ids and the part (multiplicative hashing, then the high bits folded in)
    std::uint64_t h = static_cast<std::uint64_t>(key.a) * 0x9E3779B97F4A7C15ull;
    h ^= static_cast<std::uint64_t>(key.b) * 0xC2B2AE3D27D4EB4Full;
    h ^= static_cast<std::uint64_t>(key.part) * 0x165667B19E3779F9ull;
    h ^= h >> 29;
    return static_cast<std::size_t>(h) & mask;
}

} // namespace

const WarmStartEntry* WarmStartCache::find(const ContactKey& key) const {
    // Substeps look contacts up in nearly the order they recorded them: the
    // entry after the last one found is tried before the hash table.
    lastFound_ = -1;
    if (!duplicateKeys_ && cursor_ < current_.size() && current_[cursor_].key == key) {
        lastFound_ = static_cast<int>(cursor_);
        prefetchEntry(current_, cursor_ + 2);
        return &current_[cursor_++];
    }
    if (table_.empty()) return nullptr;
    const std::size_t mask = table_.size() - 1;
    for (std::size_t s = slotOf(key, mask);; s = (s + 1) & mask) {
        const int e = table_[s];
        if (e < 0) return nullptr;
        if (current_[static_cast<std::size_t>(e)].key == key) {
            cursor_ = static_cast<std::size_t>(e) + 1;
            lastFound_ = e;
            prefetchEntry(current_, cursor_);
            prefetchEntry(current_, cursor_ + 1);
            return &current_[static_cast<std::size_t>(e)];
        }
    }
}

const WarmStartEntry* WarmStartCache::previous(int s) const {
    const int e = previousOfNext_[static_cast<std::size_t>(s)];
    return e >= 0 ? &current_[static_cast<std::size_t>(e)] : find(next_[static_cast<std::size_t>(s)].key);
}

void WarmStartCache::index() {
    std::size_t size = 16;
    while (size < 2 * current_.size()) size *= 2;
    table_.assign(size, -1);
    cursor_ = 0;
    lastFound_ = -1;
    duplicateKeys_ = false;
    const std::size_t mask = size - 1;
    for (std::size_t e = 0; e < current_.size(); ++e) {
        std::size_t s = slotOf(current_[e].key, mask);
        while (table_[s] >= 0) {
            if (current_[static_cast<std::size_t>(table_[s])].key == current_[e].key) {
                duplicateKeys_ = true; // first one wins (the cursor could find a later one)
                break;
            }
            s = (s + 1) & mask;
        }
        if (table_[s] < 0) table_[s] = static_cast<int>(e);
    }
}

void WarmStartCache::setEntries(std::vector<WarmStartEntry> entries) {
    current_ = std::move(entries);
    next_.clear();
    previousOfNext_.clear();
    index();
}

void WarmStartCache::commit() {
    current_.swap(next_);
    next_.clear();
    previousOfNext_.clear();
    index();
}

} // namespace sef::dem
