#include "dem/WarmStartCache.hpp"

#include <algorithm>

namespace sef::dem {

const WarmStartEntry* WarmStartCache::find(const ContactKey& key) const {
    const auto it = std::lower_bound(current_.begin(), current_.end(), key,
                                     [](const WarmStartEntry& e, const ContactKey& k) { return e.key < k; });
    return it != current_.end() && it->key == key ? &*it : nullptr;
}

void WarmStartCache::setEntries(std::vector<WarmStartEntry> entries) {
    current_ = std::move(entries);
    std::sort(current_.begin(), current_.end(),
              [](const WarmStartEntry& x, const WarmStartEntry& y) { return x.key < y.key; });
    next_.clear();
}

void WarmStartCache::commit() {
    std::sort(next_.begin(), next_.end(),
              [](const WarmStartEntry& x, const WarmStartEntry& y) { return x.key < y.key; });
    current_.swap(next_);
    next_.clear();
}

} // namespace sef::dem
