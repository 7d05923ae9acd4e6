// WarmStartCache: lookups in recording order (the cursor hint), in random
// order and of missing keys give the entries of the last substep; previous()
// agrees with find whether or not the key was looked up before recording;
// rim-point keys (same ids, another part) are distinct entries.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "dem/WarmStartCache.hpp"

using namespace sef;
using namespace sef::dem;

namespace {

// One entry per key, impulse.x = its index, as the state of a substep.
void recordAndCommit(WarmStartCache& cache, const std::vector<ContactKey>& keys) {
    for (std::size_t k = 0; k < keys.size(); ++k) {
        WarmStartEntry e;
        e.key = keys[k];
        e.impulse = Vec3(double(k), 0.0, 0.0);
        cache.record(e);
    }
    cache.commit();
}

} // namespace

TEST(WarmStartCache, FindAndPreviousAgreeInAnyLookupOrder) {
    WarmStartCache cache;
    std::vector<ContactKey> keys;
    for (int a = 0; a < 40; ++a)
        for (int b = a + 1; b < a + 4; ++b) keys.push_back(ContactKey::pair(a, b));
    for (int id = 0; id < 10; ++id) keys.push_back(ContactKey::wall(id, id % 3));
    // rim points of a pair and of a wall contact: same ids, other parts
    for (int k = 0; k < kRimPoints; ++k) {
        keys.push_back(ContactKey::pair(0, 1).rimPoint(k));
        keys.push_back(ContactKey::wall(0, 0).rimPoint(k));
    }
    recordAndCommit(cache, keys);
    std::mt19937 rng(3);
    for (int round = 0; round < 3; ++round) {
        std::vector<ContactKey> order = keys;
        if (round == 1) std::shuffle(order.begin(), order.end(), rng);
        if (round == 2) std::reverse(order.begin(), order.end());
        for (std::size_t k = 0; k < order.size(); ++k) {
            // a missing key in between: null, and the next lookups still work
            EXPECT_EQ(cache.find(ContactKey::pair(1000 + k, 2000)), nullptr);
            const WarmStartEntry* e = cache.find(order[k]);
            ASSERT_NE(e, nullptr);
            EXPECT_EQ(e->key, order[k]);
            const auto index = std::find(keys.begin(), keys.end(), order[k]) - keys.begin();
            EXPECT_EQ(e->impulse.x(), double(index));
            // looked up right before recording, or not at all (k odd: another find between)
            if (k % 2) cache.find(keys[0]);
            WarmStartEntry next;
            next.key = order[k];
            const int slot = cache.record(next);
            ASSERT_EQ(cache.previous(slot), e);
        }
        WarmStartEntry fresh;
        fresh.key = ContactKey::pair(5000, 5001);
        EXPECT_EQ(cache.previous(cache.record(fresh)), nullptr);
        cache.clear(); // drop the substep being built (and all): then rebuild the state
        recordAndCommit(cache, keys);
    }
}
