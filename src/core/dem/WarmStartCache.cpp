#include "dem/WarmStartCache.hpp"

#include <cstdint>

namespace sef::dem {

namespace {

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
    if (table_.empty()) return nullptr;
    const std::size_t mask = table_.size() - 1;
    for (std::size_t s = slotOf(key, mask);; s = (s + 1) & mask) {
        const int e = table_[s];
        if (e < 0) return nullptr;
        if (current_[static_cast<std::size_t>(e)].key == key) return &current_[static_cast<std::size_t>(e)];
    }
}

void WarmStartCache::index() {
    std::size_t size = 16;
    while (size < 2 * current_.size()) size *= 2;
    table_.assign(size, -1);
    const std::size_t mask = size - 1;
    for (std::size_t e = 0; e < current_.size(); ++e) {
        std::size_t s = slotOf(current_[e].key, mask);
        while (table_[s] >= 0) {
            if (current_[static_cast<std::size_t>(table_[s])].key == current_[e].key) break; // first one wins
            s = (s + 1) & mask;
        }
        if (table_[s] < 0) table_[s] = static_cast<int>(e);
    }
}

void WarmStartCache::setEntries(std::vector<WarmStartEntry> entries) {
    current_ = std::move(entries);
    next_.clear();
    index();
}

void WarmStartCache::commit() {
    current_.swap(next_);
    next_.clear();
    index();
}

} // namespace sef::dem
