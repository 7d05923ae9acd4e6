// advanceTimeStep (dem/step/TimeStep.hpp): the one time step of both solvers. The
// order of its parts, the substep count against Subcycling's rule by hand,
// the copies' reach 2 (v + a dt) dt, and free flight against the exact
// parabola.
#include "dem/step/TimeStep.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace sef::dem {
namespace {

// Records the hooks in the order they are called; another processor is
// stood for by the largest value it would bring to a reduction.
struct RecordingSurroundings : StepSurroundings {
    std::vector<std::string> calls;
    StepMaxima otherProcessor; // what another processor brings
    double stepStart = -1, endTime = -1, reach = -1;
    std::size_t sizeInEngine = 0;

    void maxOverProcessors(StepMaxima& m) const override {
        m.subcycles = std::max(m.subcycles, otherProcessor.subcycles);
        m.capped = std::max(m.capped, otherProcessor.capped);
        m.largestTravel = std::max(m.largestTravel, otherProcessor.largestTravel);
        m.speed = std::max(m.speed, otherProcessor.speed);
        m.acceleration = std::max(m.acceleration, otherProcessor.acceleration);
    }
    void beginStep(DemEngine&, const ParticleSystem&, double start, double) override {
        calls.push_back("begin");
        stepStart = start;
    }
    HaloExchange* addCopies(ParticleSystem& ps, double r) override {
        calls.push_back("copies");
        reach = r;
        sizeInEngine = ps.size();
        return nullptr;
    }
    void removeCopies(ParticleSystem&) override { calls.push_back("uncopy"); }
    void finishStep(DemEngine&, ParticleSystem&, double) override { calls.push_back("finish"); }
    void feed(const DemEngine&, ParticleSystem& ps, double t) override {
        calls.push_back("feed");
        endTime = t;
        ps.add(0, 99, Vec3(0.5, 0.5, 0.5), Quat::Identity()); // a fed particle, after the step
    }
    void endStep(ParticleSystem&) override { calls.push_back("end"); }
};

// One sphere of d_eq 0.01 m moving at `speed` along x.
ParticleSystem oneSphere(double speed) {
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(0.005, 0.005, 0.005, 1.0, 1.0), 1000.0);
    ps.add(0, 1, Vec3::Zero(), Quat::Identity(), Vec3(speed, 0, 0));
    return ps;
}

TimeStepRequest request(double dt, int fixed, const Vec3& g = Vec3::Zero()) {
    TimeStepRequest r;
    r.dt = dt;
    r.endTime = 1.0;
    r.gravity = g;
    r.subcycling.fixed = fixed;
    return r;
}

TEST(TimeStep, PartsInTheOrderBothSolversNeed) {
    DemEngine engine({}, EngineSettings());
    ParticleSystem ps = oneSphere(1.0);
    RecordingSurroundings s;
    advanceTimeStep(engine, ps, request(1e-3, 1), s);
    const std::vector<std::string> order{"begin", "copies", "uncopy", "finish", "feed", "end"};
    EXPECT_EQ(s.calls, order);
    EXPECT_DOUBLE_EQ(s.stepStart, 1.0 - 1e-3);
    EXPECT_DOUBLE_EQ(s.endTime, 1.0);
    // the fed particle was not in the engine's step, and is in the system now
    EXPECT_EQ(s.sizeInEngine, 1u);
    EXPECT_EQ(ps.size(), 2u);
}

TEST(TimeStep, AutomaticCountIsTheLargestOverProcessors) {
    // 2 m/s for 1e-3 s: 0.2 d_eq, ceil(0.2 / 0.1) = 2 substeps here; another
    // processor with a travel of 0.55 d_eq makes it 6 on every processor
    DemEngine engine({}, EngineSettings());
    ParticleSystem ps = oneSphere(2.0);
    RecordingSurroundings s;
    TimeStepOutcome o = advanceTimeStep(engine, ps, request(1e-3, 0), s);
    EXPECT_EQ(o.subcycles, 2);
    EXPECT_NEAR(o.largestTravel, 0.2, 1e-12);
    EXPECT_FALSE(o.subcyclesCapped);

    ParticleSystem again = oneSphere(2.0);
    TimeStepRequest r = request(1e-3, 0);
    RecordingSurroundings other;
    other.otherProcessor.subcycles = 6; // (the count is reduced as a number)
    o = advanceTimeStep(engine, again, r, other);
    EXPECT_EQ(o.subcycles, 6);

    // capped on another processor: every processor hears of it
    RecordingSurroundings capped;
    capped.otherProcessor.capped = 1;
    ParticleSystem third = oneSphere(2.0);
    EXPECT_TRUE(advanceTimeStep(engine, third, r, capped).subcyclesCapped);
}

TEST(TimeStep, FixedCountIsCheckedAgainstTheTravelPerSubstep) {
    // 0.2 d_eq in the step: 1 substep travels 0.2 > 0.1 (flagged), 3 travel
    // 0.067 and 4 travel 0.05 (not flagged)
    DemEngine engine({}, EngineSettings());
    for (const auto& [fixed, exceeded] : std::vector<std::pair<int, bool>>{{1, true}, {3, false}, {4, false}}) {
        ParticleSystem ps = oneSphere(2.0);
        RecordingSurroundings s;
        const TimeStepOutcome o = advanceTimeStep(engine, ps, request(1e-3, fixed), s);
        EXPECT_EQ(o.subcycles, fixed);
        EXPECT_EQ(o.travelPerSubstepExceeded, exceeded) << fixed << " substeps";
        EXPECT_NEAR(o.largestTravel, 0.2, 1e-12);
    }
}

TEST(TimeStep, ReachBoundsEveryMoveOfTheStep) {
    // 2 (|v| + |g| dt) dt; the cloud's bounds (fluid speed, |g + F/m|) win
    // when larger
    DemEngine engine({}, EngineSettings());
    const Vec3 g(0, 0, -9.81);
    const double dt = 1e-3;
    ParticleSystem ps = oneSphere(2.0);
    RecordingSurroundings s;
    advanceTimeStep(engine, ps, request(dt, 1, g), s);
    EXPECT_DOUBLE_EQ(s.reach, 2 * (2.0 + 9.81 * dt) * dt);

    ParticleSystem fluid = oneSphere(2.0);
    TimeStepRequest r = request(dt, 1, g);
    r.speedBound = 5.0;
    r.accelerationBound = 30.0;
    RecordingSurroundings t;
    advanceTimeStep(engine, fluid, r, t);
    EXPECT_DOUBLE_EQ(t.reach, 2 * (5.0 + 30.0 * dt) * dt);
}

TEST(TimeStep, FreeFlightIsTheParabola) {
    // no contact: the step is the engine's exact flight under gravity,
    // x0 + v dt + g dt^2 / 2, whatever the substep count
    EngineSettings settings;
    settings.gravity = Vec3(0, 0, -9.81);
    DemEngine engine({}, settings);
    ParticleSystem ps = oneSphere(2.0);
    RecordingSurroundings s;
    const double dt = 1e-3;
    advanceTimeStep(engine, ps, request(dt, 0, settings.gravity), s);
    EXPECT_NEAR(ps.position[0].x(), 2.0 * dt, 1e-15);
    EXPECT_NEAR(ps.position[0].z(), -0.5 * 9.81 * dt * dt, 1e-15);
    EXPECT_NEAR(ps.velocity[0].z(), -9.81 * dt, 1e-14);
}

TEST(TimeStep, BadSettingsAreRefusedBeforeAnythingMoves) {
    DemEngine engine({}, EngineSettings());
    ParticleSystem ps = oneSphere(2.0);
    RecordingSurroundings s;
    TimeStepRequest r = request(1e-3, 0);
    r.subcycling.travelFraction = 0;
    EXPECT_THROW(advanceTimeStep(engine, ps, r, s), std::invalid_argument);
    EXPECT_TRUE(s.calls.empty());
    EXPECT_EQ(ps.position[0], Vec3::Zero());
}

} // namespace
} // namespace sef::dem
