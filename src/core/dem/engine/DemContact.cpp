#include "dem/engine/DemContact.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace sef::dem {

void mergeDuplicateWallContacts(std::vector<DemContact>& c, double angleTolerance) {
    std::vector<int> unused(c.size(), 0);
    mergeDuplicateWallContacts(c, unused, angleTolerance);
}

void mergeDuplicateWallContacts(std::vector<DemContact>& c, std::vector<int>& parallel,
                                double angleTolerance) {
    if (c.size() < 2) return;
    const double cosTolerance = std::cos(angleTolerance);
    std::vector<bool> dropped(c.size(), false);
    for (std::size_t a = 0; a < c.size(); ++a) {
        if (dropped[a]) continue;
        for (std::size_t b = a + 1; b < c.size(); ++b) {
            if (dropped[b] || c[a].i != c[b].i) continue;
            if (c[a].normal.dot(c[b].normal) < cosTolerance) continue;
            // same direction: one contact; keep the deeper (first on ties)
            if (c[b].depth > c[a].depth) {
                c[a] = c[b];
                parallel[a] = parallel[b];
            }
            dropped[b] = true;
        }
    }
    std::size_t k = 0;
    for (std::size_t a = 0; a < c.size(); ++a)
        if (!dropped[a]) {
            parallel[k] = parallel[a];
            c[k++] = c[a];
        }
    c.resize(k);
    parallel.resize(k);
}

std::vector<DemContact> selectOnePartnerPerParticle(const std::vector<DemContact>& contacts,
                                                    std::size_t particleCount) {
    std::vector<DemContact> selected;
    for (std::size_t k : selectOnePartnerPerParticle(contacts, particleCount, true))
        selected.push_back(contacts[k]);
    return selected;
}

std::vector<std::size_t> selectOnePartnerPerParticle(const std::vector<DemContact>& contacts,
                                                     std::size_t particleCount, bool,
                                                     const std::vector<char>* immovable) {
    std::vector<std::size_t> order(contacts.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return contacts[a].depth > contacts[b].depth;
    });
    std::vector<bool> taken(particleCount, false);
    std::vector<std::size_t> selected;
    for (std::size_t k : order) {
        const DemContact& c = contacts[k];
        if (taken[c.i] || (!c.isWall() && taken[c.j])) continue;
        taken[c.i] = !(immovable && (*immovable)[c.i]);
        if (!c.isWall()) taken[c.j] = !(immovable && (*immovable)[c.j]);
        selected.push_back(k);
    }
    return selected;
}

} // namespace sef::dem
