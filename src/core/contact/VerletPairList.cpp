#include "contact/VerletPairList.hpp"

namespace sef {

void VerletPairList::update(const std::vector<Vec3>& centres, const std::vector<double>& radii,
                            const std::vector<std::int64_t>& identity) {
    grid_.build(centres, radii); // O(n); validates, and its cells give the order
    if (!mapToBuild(identity) || !stillValid(centres, radii)) rebuild(centres, radii, identity);
}

int VerletPairList::slotOfIdentity(std::int64_t id) const {
    if (!slotTable_.empty()) {
        const std::int64_t k = id - identityBase_;
        return k >= 0 && k < static_cast<std::int64_t>(slotTable_.size())
                   ? slotTable_[static_cast<std::size_t>(k)]
                   : -1;
    }
    const auto it = std::lower_bound(slotList_.begin(), slotList_.end(), std::make_pair(id, -1));
    return it != slotList_.end() && it->first == id ? it->second : -1;
}

bool VerletPairList::mapToBuild(const std::vector<std::int64_t>& identity) {
    const std::size_t n = identity.size();
    if (n != builtIdentity_.size()) return false;
    slotOfCurrent_.resize(n);
    sameOrder_ = identity == builtIdentity_;
    if (sameOrder_) { // the common case
        for (std::size_t i = 0; i < n; ++i) slotOfCurrent_[i] = static_cast<int>(i);
        currentOfSlot_ = slotOfCurrent_;
        return true;
    }
    currentOfSlot_.assign(n, -1);
    for (std::size_t i = 0; i < n; ++i) {
        const int slot = slotOfIdentity(identity[i]);
        if (slot < 0 || currentOfSlot_[static_cast<std::size_t>(slot)] >= 0) return false;
        slotOfCurrent_[i] = slot;
        currentOfSlot_[static_cast<std::size_t>(slot)] = static_cast<int>(i);
    }
    return true;
}

bool VerletPairList::stillValid(const std::vector<Vec3>& centres, const std::vector<double>& radii) const {
    const double limit = 0.25 * skin_ * skin_; // (skin/2)^2
    for (std::size_t i = 0; i < centres.size(); ++i) {
        const std::size_t slot = static_cast<std::size_t>(slotOfCurrent_[i]);
        if (radii[i] != builtRadii_[slot]) return false;
        if (!((centres[i] - builtCentres_[slot]).squaredNorm() <= limit)) return false;
    }
    return true;
}

void VerletPairList::rebuild(const std::vector<Vec3>& centres, const std::vector<double>& radii,
                             const std::vector<std::int64_t>& identity) {
    ++rebuilds_;
    builtCentres_ = centres;
    builtRadii_ = radii;
    builtIdentity_ = identity;
    const int n = static_cast<int>(centres.size());
    slotOfCurrent_.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) slotOfCurrent_[static_cast<std::size_t>(i)] = i;
    currentOfSlot_ = slotOfCurrent_;
    // identity -> slot
    slotTable_.clear();
    slotList_.clear();
    if (n > 0) {
        const auto [lo, hi] = std::minmax_element(identity.begin(), identity.end());
        const std::int64_t span = *hi - *lo; // ids may be any int64; compact ones get a table
        if (span >= 0 && span < 4 * static_cast<std::int64_t>(n)) {
            identityBase_ = *lo;
            slotTable_.assign(static_cast<std::size_t>(span) + 1, -1);
            for (int i = 0; i < n; ++i) {
                int& s = slotTable_[static_cast<std::size_t>(identity[static_cast<std::size_t>(i)] - *lo)];
                s = s < 0 ? i : -2; // -2: repeated identity, never mapped
            }
        } else {
            for (int i = 0; i < n; ++i) slotList_.emplace_back(identity[static_cast<std::size_t>(i)], i);
            std::sort(slotList_.begin(), slotList_.end());
            for (std::size_t k = 1; k < slotList_.size(); ++k)
                if (slotList_[k].first == slotList_[k - 1].first) slotList_[k].second = slotList_[k - 1].second = -2;
        }
    }
    const double largest = radii.empty() ? 0.0 : *std::max_element(radii.begin(), radii.end());
    skin_ = skinFraction_ * largest;
    wide_.build(centres, radii, skin_);
    // both directions of every pair, so any later order finds it from its smaller index
    builtPairs_.clear();
    start_.assign(static_cast<std::size_t>(n) + 1, 0);
    wide_.forEachCandidatePair([&](int i, int j) {
        builtPairs_.emplace_back(i, j);
        ++start_[static_cast<std::size_t>(i) + 1];
        ++start_[static_cast<std::size_t>(j) + 1];
    });
    for (int i = 0; i < n; ++i) start_[static_cast<std::size_t>(i) + 1] += start_[static_cast<std::size_t>(i)];
    partners_.resize(static_cast<std::size_t>(start_[static_cast<std::size_t>(n)]));
    std::vector<int> fill(start_.begin(), start_.end() - 1); // next free place of each slot
    for (const auto& [i, j] : builtPairs_) {
        partners_[static_cast<std::size_t>(fill[static_cast<std::size_t>(i)]++)] = j;
        partners_[static_cast<std::size_t>(fill[static_cast<std::size_t>(j)]++)] = i;
    }
    // Each slot's partners in the visiting order (cell of the current grid,
    // then index; slots are the current indices at a build), so that until
    // particles change cells forEachCandidatePair finds them in order and
    // need not sort.
    for (int i = 0; i < n; ++i)
        std::sort(partners_.begin() + start_[static_cast<std::size_t>(i)],
                  partners_.begin() + start_[static_cast<std::size_t>(i) + 1], [&](int a, int b) {
                      const int ca = grid_.cellOfParticle(a), cb = grid_.cellOfParticle(b);
                      return ca != cb ? ca < cb : a < b;
                  });
    upperStart_.assign(static_cast<std::size_t>(n) + 1, 0);
    upperPartners_.clear();
    for (int i = 0; i < n; ++i) {
        for (int k = start_[static_cast<std::size_t>(i)]; k < start_[static_cast<std::size_t>(i) + 1]; ++k)
            if (partners_[static_cast<std::size_t>(k)] > i) upperPartners_.push_back(partners_[static_cast<std::size_t>(k)]);
        upperStart_[static_cast<std::size_t>(i) + 1] = static_cast<int>(upperPartners_.size());
    }
    sameOrder_ = true; // slots are the current indices
}

} // namespace sef
