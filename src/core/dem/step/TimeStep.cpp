#include "dem/step/TimeStep.hpp"

#include "dem/step/Subcycling.hpp"

#include <algorithm>

namespace sef::dem {

namespace {

// This processor's part of the step's maxima: the substep count (automatic,
// or the travel that a fixed count is checked against) and how far any
// particle can move in the step.
StepMaxima localMaxima(const ParticleSystem& particles, const TimeStepRequest& request) {
    const SubcycleSettings& s = request.subcycling;
    const SubcycleChoice choice = automaticSubcycles(particles, request.dt, request.gravity, s.travelFraction,
                                                     s.maxSubcycles, s.fixed > 0 ? 1 : s.minSubcycles);
    StepMaxima m;
    m.subcycles = choice.subcycles;
    m.capped = choice.capped ? 1.0 : 0.0;
    m.largestTravel = choice.largestTravel;
    m.speed = request.speedBound;
    for (const Vec3& v : particles.velocity) m.speed = std::max(m.speed, v.norm());
    m.acceleration = std::max(request.accelerationBound, request.gravity.norm());
    return m;
}

// The substep count of the step, and whether a fixed count lets a particle
// travel more than the allowed fraction of its d_eq per substep.
void chooseSubcycles(const StepMaxima& m, const SubcycleSettings& s, TimeStepOutcome& outcome) {
    outcome.largestTravel = m.largestTravel;
    if (s.fixed > 0) {
        outcome.subcycles = s.fixed;
        outcome.travelPerSubstepExceeded = outcome.largestTravel / s.fixed > s.travelFraction;
        return;
    }
    outcome.subcycles = static_cast<int>(m.subcycles);
    outcome.subcyclesCapped = m.capped > 0.0;
}

// How far any particle can move in the step: its speed, doubled for what a
// collision can give it, plus the largest acceleration's share.
double stepReach(const StepMaxima& m, double dt) { return 2 * (m.speed + m.acceleration * dt) * dt; }

} // namespace

TimeStepOutcome advanceTimeStep(DemEngine& engine, ParticleSystem& particles, const TimeStepRequest& request,
                                StepSurroundings& surroundings) {
    TimeStepOutcome outcome;
    // (beginStep moves walls, not particles: the maxima are taken before it)
    StepMaxima maxima = localMaxima(particles, request);
    surroundings.maxOverProcessors(maxima);
    chooseSubcycles(maxima, request.subcycling, outcome);
    surroundings.beginStep(engine, particles, request.endTime - request.dt, request.dt);
    outcome.reach = stepReach(maxima, request.dt);
    HaloExchange* exchange = surroundings.addCopies(particles, outcome.reach);
    outcome.stats = engine.step(particles, request.dt, outcome.subcycles, exchange);
    surroundings.removeCopies(particles);
    surroundings.finishStep(engine, particles, request.dt);
    surroundings.feed(engine, particles, request.endTime);
    surroundings.endStep(particles);
    return outcome;
}

} // namespace sef::dem
