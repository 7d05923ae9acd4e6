// WarmStartCache: lookups in recording order (the cursor hint), in random
// order and of missing keys give the entries of the last substep; previous()
// agrees with find whether or not the key was looked up before recording;
// rim-point keys (same ids, another part) are distinct entries.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <new>
#include <random>
#include <vector>

#include "dem/engine/WarmStartCache.hpp"

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
            const PreviousImpulse* previous = cache.previous(slot);
            ASSERT_NE(previous, nullptr);
            EXPECT_EQ(previous->impulse.x(), double(index));
        }
        WarmStartEntry fresh;
        fresh.key = ContactKey::pair(5000, 5001);
        EXPECT_EQ(cache.previous(cache.record(fresh)), nullptr);
        cache.clear(); // drop the substep being built (and all): then rebuild the state
        recordAndCommit(cache, keys);
    }
}

TEST(WarmStartCache, MatchesAMapModelUnderChurnAndCompaction) {
    // Substeps record random subsets of 300 keys (new, carried in place,
    // re-recorded after a gap, repeated within a substep), so that dead
    // entries pile up and the pool is compacted. After every commit, find
    // must give exactly the last substep's entries (the first of a repeated
    // key), and previous() their impulses; a restart from entries() must
    // answer the same.
    WarmStartCache cache;
    std::mt19937 rng(11);
    std::uniform_int_distribution<int> pick(0, 299);
    std::bernoulli_distribution keep(0.7), carry(0.5), repeat(0.02);
    std::map<ContactKey, double> last; // the model: key -> impulse.x of the last substep
    std::vector<ContactKey> live;
    for (int step = 0; step < 200; ++step) {
        std::map<ContactKey, double> now;
        std::size_t recorded = 0; // slots of this substep (repeats included)
        std::vector<ContactKey> keys;
        for (const ContactKey& k : live)
            if (keep(rng)) keys.push_back(k);
        for (int extra = 0; extra < 40; ++extra) keys.push_back(ContactKey::pair(pick(rng), 1000 + step % 7));
        std::shuffle(keys.begin(), keys.end(), rng);
        for (const ContactKey& key : keys) {
            const WarmStartEntry* e = cache.find(key);
            const auto it = last.find(key);
            ASSERT_EQ(e != nullptr, it != last.end() && !now.count(key)) << "step " << step;
            int slot;
            if (e && carry(rng)) {
                ASSERT_EQ(e->key, key);
                slot = cache.recordCarried(*e, Vec3::UnitX());
            } else {
                WarmStartEntry fresh;
                fresh.key = key;
                slot = cache.record(fresh);
            }
            const PreviousImpulse* previous = cache.previous(slot);
            if (!now.count(key) && it != last.end()) {
                ASSERT_NE(previous, nullptr) << "step " << step;
                EXPECT_EQ(previous->impulse.x(), it->second);
            }
            const double impulse = step * 1000.0 + recorded++;
            cache.slot(slot).impulse = Vec3(impulse, 0.0, 0.0);
            if (!now.count(key)) now[key] = impulse; // the first of a repeated key counts
            if (repeat(rng)) { // the same key again in this substep
                WarmStartEntry again;
                again.key = key;
                cache.slot(cache.record(again)).impulse = Vec3(-1.0, 0.0, 0.0);
                ++recorded;
            }
        }
        cache.commit();
        if (step % 50 == 49) { // restart from the saved entries
            WarmStartCache restarted;
            restarted.setEntries(cache.entries());
            cache = restarted;
        }
        last = now;
        live.clear();
        for (const auto& kv : now) live.push_back(kv.first);
        EXPECT_EQ(cache.size(), recorded) << "live entries: every slot of the substep";
    }
}

// Kept patch outlines (KeptPatch) stay with their entry while it is carried
// (recordCarried), through the compaction that drops dead entries and
// through entries()/patches() and setEntries (a restart); a new reference
// for the key (record) drops them. Patches are told apart by their unit.
TEST(WarmStartCache, KeptPatchesStayWithTheirEntries) {
    WarmStartCache cache;
    const auto patchWithUnit = [](float unit) {
        KeptPatch p;
        p.valid = true;
        p.unit = unit;
        return p;
    };
    std::vector<ContactKey> keys;
    for (int a = 0; a < 200; ++a) keys.push_back(ContactKey::pair(a, a + 1));
    for (const ContactKey& k : keys) {
        WarmStartEntry e;
        e.key = k;
        const int slot = cache.record(e);
        if (k.a % 3 == 0) cache.keepPatch(slot, patchWithUnit(float(k.a)));
    }
    cache.commit();
    // carry every fourth pair (the others die: the pool is compacted),
    // record pair 12 afresh (its patch goes)
    for (const ContactKey& k : keys) {
        if (k.a % 4) continue;
        const WarmStartEntry* e = cache.find(k);
        ASSERT_NE(e, nullptr);
        if (k.a == 12) {
            WarmStartEntry fresh;
            fresh.key = k;
            cache.record(fresh, e);
        } else {
            cache.recordCarried(*e, e->normal);
        }
    }
    cache.commit();
    const auto check = [&](const WarmStartCache& c) {
        for (const ContactKey& k : keys) {
            const WarmStartEntry* e = c.find(k);
            if (k.a % 4) {
                EXPECT_EQ(e, nullptr);
                continue;
            }
            ASSERT_NE(e, nullptr);
            const KeptPatch* p = c.keptPatch(e);
            if (k.a % 3 == 0 && k.a != 12) {
                ASSERT_NE(p, nullptr) << k.a;
                EXPECT_TRUE(p->valid);
                EXPECT_EQ(p->unit, float(k.a));
            } else {
                EXPECT_EQ(p, nullptr) << k.a;
            }
        }
    };
    check(cache);
    WarmStartCache restarted;
    restarted.setEntries(cache.entries(), cache.compliances(), cache.patches());
    check(restarted);
}

namespace {

// The bytes of a record constructed over memory filled with `fill`.
template <class T> std::vector<unsigned char> bytesOver(unsigned char fill) {
    alignas(T) unsigned char storage[sizeof(T)];
    std::fill(std::begin(storage), std::end(storage), fill);
    T* record = new (storage) T;
    std::vector<unsigned char> bytes(storage, storage + sizeof(T));
    record->~T();
    return bytes;
}

} // namespace

// The engine's state file holds these records as raw bytes: every byte must
// be a member's, set by construction, or a restart file carries whatever
// the memory held (padding), and identical runs write different files. A
// record built over 0x00 and over 0xff bytes must come out the same.
TEST(WarmStartCache, StateRecordsHaveNoUndefinedBytes) {
    EXPECT_EQ(bytesOver<WarmStartEntry>(0x00), bytesOver<WarmStartEntry>(0xff));
    EXPECT_EQ(bytesOver<KeptCompliance>(0x00), bytesOver<KeptCompliance>(0xff));
    EXPECT_EQ(bytesOver<KeptPatch>(0x00), bytesOver<KeptPatch>(0xff));
}
