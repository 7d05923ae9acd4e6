// Decomposed DEM steps (dem/boundaries/HaloExchange.hpp) against the serial step: two
// "processors" are two engines on two threads, split by the plane x = 0,
// exchanging halo states and corrections in memory every substep; between
// steps the particles are redistributed by their new centres and the
// contact memory of the movers goes with them (extractState/mergeState).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

#include "DemTestSupport.hpp"
#include "dem/engine/DemEngine.hpp"
#include "dem/boundaries/HaloExchange.hpp"

using namespace sef;
using namespace sef::dem;

namespace {

// Two ranks meeting at a barrier (a generation counter: reusable).
class Barrier {
public:
    void wait() {
        std::unique_lock<std::mutex> lock(mutex_);
        const long generation = generation_;
        if (++arrived_ == 2) {
            arrived_ = 0;
            ++generation_;
            cv_.notify_all();
        } else {
            cv_.wait(lock, [&] { return generation_ != generation; });
        }
    }

private:
    std::mutex mutex_;
    std::condition_variable cv_;
    int arrived_ = 0;
    long generation_ = 0;
};

struct Mailbox {
    Barrier barrier;
    std::array<std::vector<BodyKinematics>, 2> states;
    std::array<std::vector<BodyCorrection>, 2> corrections;
    std::array<double, 2> values{};
};

// Rank r's halo is the other rank's sent list, in its order.
class InMemoryExchange : public HaloExchange {
public:
    InMemoryExchange(int rank, Mailbox& box, std::size_t firstHalo, std::vector<std::size_t> sent)
        : rank_(rank), box_(box), firstHalo_(firstHalo), sent_(std::move(sent)) {}
    std::size_t firstHalo() const override { return firstHalo_; }
    const std::vector<std::size_t>& sentParticles() const override { return sent_; }
    void exchangeStates(const std::vector<BodyKinematics>& sent, std::vector<BodyKinematics>& halo) override {
        box_.states[rank_] = sent;
        box_.barrier.wait();
        ASSERT_EQ(halo.size(), box_.states[1 - rank_].size());
        halo = box_.states[1 - rank_];
        box_.barrier.wait();
    }
    void exchangeCorrections(const std::vector<BodyCorrection>& halo, std::vector<BodyCorrection>& sent) override {
        box_.corrections[rank_] = halo;
        box_.barrier.wait();
        ASSERT_EQ(sent.size(), box_.corrections[1 - rank_].size());
        sent = box_.corrections[1 - rank_];
        box_.barrier.wait();
    }
    double maximum(double value) override {
        box_.values[rank_] = value;
        box_.barrier.wait();
        const double m = std::max(box_.values[0], box_.values[1]);
        box_.barrier.wait();
        return m;
    }

private:
    int rank_;
    Mailbox& box_;
    std::size_t firstHalo_;
    std::vector<std::size_t> sent_;
};

int rankOf(const Vec3& x) { return x.x() < 0.0 ? 0 : 1; }

// The global system stepped by two engines; `width`: a particle within this
// distance of the plane is a halo copy on the other side.
class TwoRankRun {
public:
    TwoRankRun(const std::vector<WallFace>& walls, const EngineSettings& settings, double width)
        : engines_{DemEngine(walls, settings), DemEngine(walls, settings)}, width_(width) {}

    void step(ParticleSystem& global, double dt, int nSubcycles) {
        std::array<ParticleSystem, 2> local;
        std::array<std::vector<std::size_t>, 2> globalIndex, sent;
        for (int r = 0; r < 2; ++r) local[r].types = global.types;
        for (std::size_t i = 0; i < global.size(); ++i) {
            const int r = rankOf(global.position[i]);
            const std::size_t k = local[r].add(global.type[i], global.id[i], global.position[i],
                                               global.orientation[i], global.velocity[i],
                                               global.angularVelocity[i]);
            globalIndex[r].push_back(i);
            if (std::abs(global.position[i].x()) < width_) sent[r].push_back(k);
        }
        std::array<std::size_t, 2> owned{local[0].size(), local[1].size()};
        for (int r = 0; r < 2; ++r)
            for (const std::size_t k : sent[1 - r]) {
                const ParticleSystem& o = local[1 - r];
                local[r].add(o.type[k], o.id[k], o.position[k], o.orientation[k], o.velocity[k],
                             o.angularVelocity[k]);
            }
        Mailbox box;
        InMemoryExchange x0(0, box, owned[0], sent[0]), x1(1, box, owned[1], sent[1]);
        std::thread other([&] { engines_[1].step(local[1], dt, nSubcycles, &x1); });
        engines_[0].step(local[0], dt, nSubcycles, &x0);
        other.join();
        for (int r = 0; r < 2; ++r)
            for (std::size_t k = 0; k < owned[r]; ++k) {
                const std::size_t i = globalIndex[r][k];
                global.position[i] = local[r].position[k];
                global.orientation[i] = local[r].orientation[k];
                global.velocity[i] = local[r].velocity[k];
                global.angularVelocity[i] = local[r].angularVelocity[k];
            }
        // the contact memory of the particles that changed sides
        for (int r = 0; r < 2; ++r) {
            const auto ownedHere = [&](std::int64_t id) {
                for (std::size_t i = 0; i < global.size(); ++i)
                    if (global.id[i] == id) return rankOf(global.position[i]) == r;
                return false;
            };
            const auto ownedThere = [&](std::int64_t id) { return !ownedHere(id); };
            std::stringstream moved;
            engines_[r].extractState(ownedHere, moved);
            engines_[1 - r].mergeState(moved, ownedThere);
        }
    }

private:
    std::array<DemEngine, 2> engines_;
    double width_;
};

EngineSettings coulomb(const Vec3& g) {
    EngineSettings s;
    s.pair.model = s.wall.model = "coulomb";
    s.pair.restitution = s.wall.restitution = 0.5;
    s.pair.friction = s.wall.friction = 0.3;
    s.gravity = g;
    return s;
}

double maxDifference(const ParticleSystem& a, const ParticleSystem& b, double length, double speed) {
    double d = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        d = std::max(d, (a.position[i] - b.position[i]).norm() / length);
        d = std::max(d, (a.orientation[i].coeffs() - b.orientation[i].coeffs()).norm());
        d = std::max(d, (a.velocity[i] - b.velocity[i]).norm() / speed);
        d = std::max(d, (a.angularVelocity[i] - b.angularVelocity[i]).norm() * length / speed);
    }
    return d;
}

} // namespace

// Two particles, one on each side, collide obliquely (off-centre, with
// friction and spin) across the plane, then fall onto a floor: the serial
// answer to 1e-12 at every step.
TEST(HaloExchange, PairCollisionAcrossTheBoundaryIsTheSerialOne) {
    const Vec3 g(0, 0, -9.81);
    const std::vector<WallFace> walls = boxWalls(Vec3(-0.1, -0.1, 0), Vec3(0.1, 0.1, 0.2));
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(0.006, 0.004, 0.003, 0.5, 0.8), 2500);
    std::mt19937 rng(7);
    std::normal_distribution<double> n(0, 1);
    const auto randomQuat = [&] { return Quat(n(rng), n(rng), n(rng), n(rng)).normalized(); };
    ps.add(0, 3, Vec3(-0.012, 0.001, 0.03), randomQuat(), Vec3(0.4, 0, 0), Vec3(5, -3, 2));
    ps.add(0, 1, Vec3(0.012, -0.002, 0.031), randomQuat(), Vec3(-0.4, 0.05, 0), Vec3(0, 4, 1));
    ParticleSystem serial = ps;
    DemEngine engine(walls, coulomb(g));
    TwoRankRun parallel(walls, coulomb(g), 0.03);
    long contactsAcross = 0;
    for (int step = 0; step < 400; ++step) {
        const bool across = rankOf(ps.position[0]) != rankOf(ps.position[1]);
        const StepStatistics st = engine.step(serial, 5e-4, 4);
        const long contacts = st.pairContacts + st.speculativePairContacts; // (touching, or met at a gap)
        if (across) contactsAcross += contacts;
        parallel.step(ps, 5e-4, 4);
        ASSERT_LT(maxDifference(ps, serial, 0.006, 0.4), 1e-12) << "step " << step;
    }
    EXPECT_GT(contactsAcross, 0);        // they collided across the plane
    EXPECT_LT(ps.position[0].z(), 0.01); // and reached the floor
}

// A particle resting and sliding on the floor moves across the plane: its
// wall contacts' memory (warm-started impulses, narrow-phase references)
// goes with it, and the run stays the serial one.
TEST(HaloExchange, ContactMemoryMovesWithTheParticle) {
    const Vec3 g(0, 0, -9.81);
    const std::vector<WallFace> walls = boxWalls(Vec3(-0.1, -0.1, 0), Vec3(0.1, 0.1, 0.2), 4);
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(0.005, 0.005, 0.005, 0.3, 0.3), 2500);
    ps.add(0, 0, Vec3(-0.008, 0.0, 0.005 - 1e-8), Quat::Identity(), Vec3(0.3, 0.02, 0));
    ps.add(0, 1, Vec3(-0.006, 0.02, 0.005 - 1e-8), Quat::Identity(), Vec3(0.25, 0, 0));
    ParticleSystem serial = ps;
    DemEngine engine(walls, coulomb(g));
    TwoRankRun parallel(walls, coulomb(g), 0.015);
    for (int step = 0; step < 200; ++step) {
        engine.step(serial, 1e-3, 2);
        parallel.step(ps, 1e-3, 2);
        ASSERT_LT(maxDifference(ps, serial, 0.005, 0.3), 1e-12) << "step " << step;
    }
    EXPECT_GT(ps.position[0].x(), 0.0); // crossed
    EXPECT_GT(ps.position[1].x(), 0.0);
}

// Thirty frictional particles in free space, half on each side, colliding
// in clusters across the plane: whatever the order of resolution, every
// impulse acts on both its bodies, so the linear momentum stays that of the
// start (to round-off), and the impacts dissipate energy. (Angular momentum
// about a point is not a check: overlap removal shifts centres, in serial
// too.)
TEST(HaloExchange, ClustersAcrossTheBoundaryConserveMomentum) {
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(0.006, 0.004, 0.004, 0.4, 1.0), 2000);
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> u(-1, 1);
    std::normal_distribution<double> n(0, 1);
    for (int k = 0; k < 30; ++k) {
        const Vec3 x(0.03 * u(rng), 0.03 * u(rng), 0.03 * u(rng));
        ps.add(0, k, x, Quat(n(rng), n(rng), n(rng), n(rng)).normalized(), -2.0 * x / 0.03 * 0.3,
               Vec3(n(rng), n(rng), n(rng)) * 10);
    }
    // drop overlapping starts
    for (std::size_t i = ps.size(); i-- > 0;)
        for (std::size_t j = 0; j < i; ++j)
            if ((ps.position[i] - ps.position[j]).norm() < 2.2 * ps.types[0].boundingRadius) {
                ps.remove(i);
                break;
            }
    ASSERT_GT(ps.size(), 15u);
    const auto momentum = [](const ParticleSystem& s) {
        Vec3 p = Vec3::Zero();
        double e = 0;
        for (std::size_t i = 0; i < s.size(); ++i) {
            const ParticleType& t = s.types[s.type[i]];
            const Mat3 R = s.orientation[i].toRotationMatrix();
            const Mat3 I = R * t.principalInertia.asDiagonal() * R.transpose();
            p += t.mass * s.velocity[i];
            e += 0.5 * t.mass * s.velocity[i].squaredNorm() + 0.5 * s.angularVelocity[i].dot(I * s.angularVelocity[i]);
        }
        return std::make_pair(p, e);
    };
    const auto [p0, e0] = momentum(ps);
    TwoRankRun parallel({}, coulomb(Vec3::Zero()), 0.02);
    for (int step = 0; step < 100; ++step) parallel.step(ps, 1e-3, 4);
    const auto [p1, e1] = momentum(ps);
    const double scale = ps.types[0].mass * 0.3 * ps.size();
    EXPECT_LT((p1 - p0).norm(), 1e-12 * scale);
    EXPECT_LT(e1, 0.9 * e0); // collisions happened and dissipated
}

// Held particles across the plane (ParticleType::held: the type index is
// carried, so their halo copies are held too): a free particle thrown at a
// held one owned by the other rank (resolved there, with the free one's
// halo copy, the held one having the smaller id), and one thrown at a held
// halo copy (resolved by the free one's owner). The serial answer to 1e-12
// at every step, and the held particles bit for bit in place.
TEST(HaloExchange, HeldParticlesAcrossTheBoundaryAreTheSerialOnes) {
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(0.006, 0.006, 0.006, 1.0, 1.0), 2500);
    ps.types.back().held = true;
    ps.types.emplace_back(Superellipsoid(0.005, 0.0035, 0.003, 0.7, 0.9), 1500);
    ps.add(0, 0, Vec3(0.004, 0.0, 0.0), Quat::Identity());
    ps.add(1, 5, Vec3(-0.008, 0.001, 0.012), Quat(Eigen::AngleAxisd(0.5, Vec3(1, 2, 0).normalized())),
           Vec3(0.3, 0, -0.6), Vec3(20, -10, 5));
    ps.add(0, 7, Vec3(-0.004, 0.05, 0.0), Quat::Identity());
    ps.add(1, 2, Vec3(0.008, 0.049, 0.012), Quat(Eigen::AngleAxisd(1.2, Vec3(0, 1, 1).normalized())),
           Vec3(-0.3, 0.05, -0.6), Vec3(0, 15, -20));
    ParticleSystem serial = ps;
    const ParticleSystem start = ps;
    DemEngine engine({}, coulomb(Vec3::Zero()));
    TwoRankRun parallel({}, coulomb(Vec3::Zero()), 0.03);
    long contacts = 0;
    for (int step = 0; step < 100; ++step) {
        const StepStatistics st = engine.step(serial, 2e-4, 2);
        contacts += st.pairContacts + st.speculativePairContacts; // (touching, or met at a gap)
        parallel.step(ps, 2e-4, 2);
        ASSERT_LT(maxDifference(ps, serial, 0.005, 0.6), 1e-12) << "step " << step;
    }
    EXPECT_GE(contacts, 2);
    EXPECT_LT(ps.velocity[1].x(), -0.1); // both bounced back off the side of their held sphere
    EXPECT_GT(ps.velocity[3].x(), 0.1);
    for (std::size_t i : {0, 2}) {
        EXPECT_EQ(ps.position[i], start.position[i]);
        EXPECT_EQ(ps.orientation[i].coeffs(), start.orientation[i].coeffs());
        EXPECT_EQ(ps.velocity[i], Vec3::Zero());
        EXPECT_EQ(ps.angularVelocity[i], Vec3::Zero());
    }
}
