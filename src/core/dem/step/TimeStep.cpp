#include "dem/step/TimeStep.hpp"

#include "dem/step/Subcycling.hpp"

#include <algorithm>

namespace sef::dem {

namespace {

// The substep count of the step, and whether a fixed count lets a particle
// travel more than the allowed fraction of its d_eq per substep.
void chooseSubcycles(const ParticleSystem& particles, const TimeStepRequest& request,
                     const StepSurroundings& surroundings, TimeStepOutcome& outcome) {
    const SubcycleSettings& s = request.subcycling;
    if (s.fixed > 0) {
        outcome.subcycles = s.fixed;
        const SubcycleChoice choice =
            automaticSubcycles(particles, request.dt, request.gravity, s.travelFraction, s.maxSubcycles);
        outcome.largestTravel = surroundings.maxOverProcessors(choice.largestTravel);
        outcome.travelPerSubstepExceeded = outcome.largestTravel / s.fixed > s.travelFraction;
        return;
    }
    const SubcycleChoice choice = automaticSubcycles(particles, request.dt, request.gravity, s.travelFraction,
                                                     s.maxSubcycles, s.minSubcycles);
    outcome.subcycles = static_cast<int>(surroundings.maxOverProcessors(choice.subcycles));
    outcome.subcyclesCapped = surroundings.anyOverProcessors(choice.capped);
    outcome.largestTravel = surroundings.maxOverProcessors(choice.largestTravel);
}

// How far any particle can move in the step: its speed, doubled for what a
// collision can give it, plus the largest acceleration's share.
double stepReach(const ParticleSystem& particles, const TimeStepRequest& request,
                 const StepSurroundings& surroundings) {
    double speed = request.speedBound;
    for (const Vec3& v : particles.velocity) speed = std::max(speed, v.norm());
    speed = surroundings.maxOverProcessors(speed);
    const double acceleration =
        surroundings.maxOverProcessors(std::max(request.accelerationBound, request.gravity.norm()));
    return 2 * (speed + acceleration * request.dt) * request.dt;
}

} // namespace

TimeStepOutcome advanceTimeStep(DemEngine& engine, ParticleSystem& particles, const TimeStepRequest& request,
                                StepSurroundings& surroundings) {
    TimeStepOutcome outcome;
    chooseSubcycles(particles, request, surroundings, outcome);
    surroundings.beginStep(engine, particles, request.endTime - request.dt, request.dt);
    outcome.reach = stepReach(particles, request, surroundings);
    HaloExchange* exchange = surroundings.addCopies(particles, outcome.reach);
    outcome.stats = engine.step(particles, request.dt, outcome.subcycles, exchange);
    surroundings.removeCopies(particles);
    surroundings.finishStep(engine, particles, request.dt);
    surroundings.feed(engine, particles, request.endTime);
    surroundings.endStep(particles);
    return outcome;
}

} // namespace sef::dem
