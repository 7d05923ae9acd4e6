#include "contact/VerletPairList.hpp"

namespace sef {

void VerletPairList::update(const std::vector<Vec3>& centres, const std::vector<double>& radii,
                            const std::vector<std::int64_t>& identity) {
    grid_.build(centres, radii); // O(n); validates, and its cells give the order
    if (!stillValid(centres, radii, identity)) rebuild(centres, radii, identity);
}

bool VerletPairList::stillValid(const std::vector<Vec3>& centres, const std::vector<double>& radii,
                                const std::vector<std::int64_t>& identity) const {
    if (centres.size() != builtCentres_.size() || radii != builtRadii_ ||
        identity != builtIdentity_)
        return false;
    const double limit = 0.25 * skin_ * skin_; // (skin/2)^2
    for (std::size_t i = 0; i < centres.size(); ++i)
        if (!((centres[i] - builtCentres_[i]).squaredNorm() <= limit)) return false;
    return true;
}

void VerletPairList::rebuild(const std::vector<Vec3>& centres, const std::vector<double>& radii,
                             const std::vector<std::int64_t>& identity) {
    ++rebuilds_;
    builtCentres_ = centres;
    builtRadii_ = radii;
    builtIdentity_ = identity;
    const double largest = radii.empty() ? 0.0 : *std::max_element(radii.begin(), radii.end());
    skin_ = skinFraction_ * largest;
    const int n = static_cast<int>(centres.size());
    wide_.build(centres, radii, skin_);
    // pairs arrive grouped by i ascending
    start_.assign(static_cast<std::size_t>(n) + 1, 0);
    partners_.clear();
    wide_.forEachCandidatePair([&](int i, int j) {
        ++start_[static_cast<std::size_t>(i) + 1];
        partners_.push_back(j);
    });
    for (int i = 0; i < n; ++i) start_[i + 1] += start_[i];
}

} // namespace sef
