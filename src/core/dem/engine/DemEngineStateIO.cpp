// The DEM engine's state file: the warm-start cache (contact memory), so a
// restart continues with the same contact warm starts.
#include "dem/engine/DemEngineImpl.hpp"

#include <cstdint>
#include <cstring>
#include <istream>
#include <ostream>
#include <set>
#include <sstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace sef::dem {

namespace {
// The version digit changes with the layout of the state: magic, entry
// count, sizeof(WarmStartEntry), the entries, sizeof(KeptCompliance), one
// kept compliance per entry, the count of kept patches,
// sizeof(IndexedPatch), the kept patches with the index of their entry
// (only a bed's flat pairs have one).
constexpr char stateMagic[8] = {'s', 'e', 'f', 'D', 'E', 'M', '4', '\0'};

// Trivially copyable PODs of Eigen fixed-size types, written as bytes.
template <class T>
void writeRecords(std::ostream& os, const std::vector<T>& records) {
    const std::uint64_t size = sizeof(T);
    os.write(reinterpret_cast<const char*>(&size), sizeof size);
    if (!records.empty())
        os.write(reinterpret_cast<const char*>(records.data()),
                 static_cast<std::streamsize>(records.size() * sizeof(T)));
}

template <class T>
std::vector<T> readRecords(std::istream& is, std::uint64_t count) {
    std::uint64_t size = 0;
    is.read(reinterpret_cast<char*>(&size), sizeof size);
    if (!is) throw std::runtime_error("DemEngine::readState: truncated state");
    if (size != sizeof(T) || count > (std::uint64_t{1} << 40))
        throw std::runtime_error("DemEngine::readState: state written by an incompatible build");
    std::vector<T> records(count);
    if (count) is.read(reinterpret_cast<char*>(records.data()), static_cast<std::streamsize>(count * size));
    if (!is) throw std::runtime_error("DemEngine::readState: truncated state");
    return records;
}
} // namespace

namespace {
struct IndexedPatch {
    std::uint64_t entry;
    KeptPatch patch;
};

// Every byte of a record is a member's (the would-be padding is an explicit
// zeroed member): the same state is then the same file, byte for byte.
// A member added without accounting for its alignment fails here.
constexpr std::size_t kRimBytes = sizeof(WarmStartEntry::rimInA);
static_assert(sizeof(ContactKey) == 3 * sizeof(std::int64_t));
static_assert(sizeof(PatchGuess) == sizeof(PatchGuess::x) + 2 * sizeof(float));
static_assert(sizeof(WarmStartEntry) ==
              sizeof(ContactKey) + 2 * sizeof(Vec3) + 3 * sizeof(bool) + sizeof(WarmStartEntry::padding) +
                  sizeof(Quat) + 4 * sizeof(Vec3) + kRimBytes + sizeof(std::int64_t) + 2 * sizeof(double) +
                  sizeof(PatchGuess));
static_assert(sizeof(KeptCompliance) ==
              sizeof(bool) + sizeof(KeptCompliance::padding) + sizeof(Quat) + 2 * sizeof(Mat3));
static_assert(sizeof(KeptPatch) == 2 * sizeof(bool) + sizeof(KeptPatch::padding) + sizeof(float) +
                                       4 * sizeof(KeptPatch::origin) + 2 * sizeof(KeptPatch::deepest) +
                                       sizeof(KeptPatch::relativeRotation) + 4 * sizeof(KeptPatch::cap1) +
                                       2 * sizeof(KeptPatch::bound1));
static_assert(sizeof(IndexedPatch) == sizeof(std::uint64_t) + sizeof(KeptPatch));

void writeEntries(std::ostream& os, const std::vector<WarmStartEntry>& entries,
                  const std::vector<KeptCompliance>& compliances, const std::vector<KeptPatch>& patches) {
    const std::uint64_t count = entries.size();
    os.write(stateMagic, sizeof stateMagic);
    os.write(reinterpret_cast<const char*>(&count), sizeof count);
    writeRecords(os, entries);
    writeRecords(os, compliances);
    std::vector<IndexedPatch> kept;
    for (std::size_t k = 0; k < patches.size(); ++k)
        if (patches[k].valid) kept.push_back(IndexedPatch{k, patches[k]});
    const std::uint64_t keptCount = kept.size();
    os.write(reinterpret_cast<const char*>(&keptCount), sizeof keptCount);
    writeRecords(os, kept);
    if (!os) throw std::runtime_error("DemEngine::writeState: write failed");
}
} // namespace

// Sleeping (Sleeping.cpp), after the entries: magic, the settings that
// decide who sleeps and what holds it (a restart with other settings wakes
// every island), the records of the sleeping and still bodies, the islands
// waiting to wake (at the next substep, at the next step afresh). Absent (an older state, a hand-over between processors):
// everything awake, nothing still.
namespace {
constexpr char sleepMagic[8] = {'s', 'e', 'f', 'S', 'L', 'P', '1', '\0'};
static_assert(sizeof(SleepRecord) == 4 * sizeof(std::int64_t) + sizeof(Quat) + 3 * sizeof(Vec3) + sizeof(double),
              "SleepRecord: no padding bytes");

std::vector<double> sleepFingerprint(const EngineSettings& s) {
    std::vector<double> f{s.sleepTime, s.sleepSpeed, s.sleepDrift, s.wakeForceChange,
                          s.gravity.x(), s.gravity.y(), s.gravity.z()};
    for (const ContactLaw* law : {&s.pair, &s.wall}) {
        f.insert(f.end(), {law->restitution, law->tangentialRestitution, law->friction, law->rollingFriction,
                           law->twistingFriction,
                           static_cast<double>(std::hash<std::string>{}(law->model) % 1000003)});
    }
    return f;
}
} // namespace

void DemEngine::writeState(std::ostream& os) const { writeState(os, {}); }

void DemEngine::writeState(std::ostream& os, const std::vector<std::string>& others) const {
    std::vector<WarmStartEntry> entries = impl_->warm.entries();
    std::vector<KeptCompliance> compliances = impl_->warm.compliances();
    std::vector<KeptPatch> patches = impl_->warm.patches();
    if (!others.empty()) {
        std::set<ContactKey> known;
        for (const WarmStartEntry& e : entries) known.insert(e.key);
        for (const std::string& state : others) {
            DemEngine other({}, EngineSettings{});
            std::istringstream is(state);
            other.readState(is);
            const std::vector<WarmStartEntry> theirs = other.impl_->warm.entries();
            const std::vector<KeptCompliance> theirCompliances = other.impl_->warm.compliances();
            const std::vector<KeptPatch> theirPatches = other.impl_->warm.patches();
            for (std::size_t k = 0; k < theirs.size(); ++k) {
                if (!known.insert(theirs[k].key).second) continue;
                entries.push_back(theirs[k]);
                compliances.push_back(k < theirCompliances.size() ? theirCompliances[k] : KeptCompliance{});
                patches.push_back(k < theirPatches.size() ? theirPatches[k] : KeptPatch{});
            }
        }
    }
    writeEntries(os, entries, compliances, patches);
    std::vector<SleepRecord> records;
    impl_->recordSleep(records);
    const Impl& m = *impl_;
    if (records.empty() && m.pendingWake.empty() && m.freshWake.empty()) return;
    os.write(sleepMagic, sizeof sleepMagic);
    const std::vector<double> fingerprint = sleepFingerprint(m.settings);
    const std::uint64_t sizes[4] = {fingerprint.size(), records.size(), m.pendingWake.size(), m.freshWake.size()};
    os.write(reinterpret_cast<const char*>(sizes), sizeof sizes);
    writeRecords(os, fingerprint);
    writeRecords(os, records);
    writeRecords(os, m.pendingWake);
    writeRecords(os, m.freshWake);
    if (!os) throw std::runtime_error("DemEngine::writeState: write failed");
}

void DemEngine::extractState(const std::function<bool(std::int64_t)>& owned, std::ostream& os) const {
    std::vector<WarmStartEntry> moved;
    std::vector<KeptCompliance> movedCompliances;
    std::vector<KeptPatch> movedPatches;
    impl_->warm.collect([&owned](std::int64_t id) { return !owned(id); }, moved, movedCompliances, movedPatches);
    writeEntries(os, moved, movedCompliances, movedPatches);
}

void DemEngine::mergeState(std::istream& is, const std::function<bool(std::int64_t)>& owned) {
    DemEngine received({}, EngineSettings{});
    received.readState(is);
    std::vector<WarmStartEntry> entries;
    std::vector<KeptCompliance> compliances;
    std::vector<KeptPatch> patches;
    received.impl_->warm.collect(owned, entries, compliances, patches);
    impl_->warm.adopt(entries, compliances, patches);
}

void DemEngine::readState(std::istream& is) {
    char magic[sizeof stateMagic] = {};
    std::uint64_t count = 0;
    is.read(magic, sizeof magic);
    is.read(reinterpret_cast<char*>(&count), sizeof count);
    if (is && std::memcmp(magic, stateMagic, 6) == 0 && magic[6] != stateMagic[6])
        throw std::runtime_error("DemEngine::readState: state written by another version of the "
                                 "engine (delete it to restart with cold contact warm starts)");
    if (!is || std::memcmp(magic, stateMagic, sizeof magic) != 0)
        throw std::runtime_error("DemEngine::readState: not a DEM engine state");
    std::vector<WarmStartEntry> entries = readRecords<WarmStartEntry>(is, count);
    std::vector<KeptCompliance> compliances = readRecords<KeptCompliance>(is, count);
    std::uint64_t keptCount = 0;
    is.read(reinterpret_cast<char*>(&keptCount), sizeof keptCount);
    if (!is || keptCount > count) throw std::runtime_error("DemEngine::readState: corrupt state");
    std::vector<KeptPatch> patches(count);
    for (const IndexedPatch& k : readRecords<IndexedPatch>(is, keptCount)) {
        if (k.entry >= count) throw std::runtime_error("DemEngine::readState: corrupt state");
        patches[k.entry] = k.patch;
    }
    impl_->warm.setEntries(std::move(entries), std::move(compliances), patches);
    readSleepState(is);
}

void DemEngine::readSleepState(std::istream& is) {
    Impl& m = *impl_;
    m.sleep.clear();
    m.pendingWake.clear();
    m.freshWake.clear();
    char magic[sizeof sleepMagic] = {};
    is.read(magic, sizeof magic);
    if (is.gcount() == 0) return; // no sleeping section
    std::uint64_t sizes[4] = {};
    is.read(reinterpret_cast<char*>(sizes), sizeof sizes);
    if (!is || std::memcmp(magic, sleepMagic, sizeof magic) != 0)
        throw std::runtime_error("DemEngine::readState: corrupt state (after the contact memory)");
    const std::vector<double> fingerprint = readRecords<double>(is, sizes[0]);
    m.sleep = readRecords<SleepRecord>(is, sizes[1]);
    m.pendingWake = readRecords<std::int64_t>(is, sizes[2]);
    m.freshWake = readRecords<std::int64_t>(is, sizes[3]);
    if (fingerprint != sleepFingerprint(m.settings)) m.wakeAll(); // other settings: nothing rests on the old ones
}

} // namespace sef::dem
