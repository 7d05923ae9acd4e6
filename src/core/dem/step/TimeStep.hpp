#pragma once
// One time step of either solver around the engine's collision step. The dry
// solver (superellipsoidDEMFoam) and the cloud of superellipsoidParcelFoam
// both call advanceTimeStep, so the order below is written once:
//   1. the substep count: automatic, or fixed and checked against the travel
//      per substep ([Superellipsoid-OpenFOAM] sec. 5: at most about 10 % of
//      d_eq; Subcycling.hpp);
//   2. the walls: those that open at the step's start, the motions at its
//      middle (the midpoint rule of a wall's displacement over the step);
//   3. the travel bound, and the copies the engine must see beside the
//      particles it owns (other processors' halo, periodic images);
//   4. the engine step; the copies are dropped;
//   5. particles that leave (outlets, other processors), then particles fed,
//      then centres wrapped into a periodic domain.
// What each part needs of a mesh, of the processors or of a dictionary is
// the solver's (StepSurroundings); the core keeps the order and the numbers.
#include "dem/engine/DemEngine.hpp"
#include "dem/boundaries/HaloExchange.hpp"
#include "dem/particles/ParticleSystem.hpp"

namespace sef::dem {

struct SubcycleSettings {
    int fixed = 1;               // substeps per step; 0: automatic
    double travelFraction = 0.1; // largest travel per substep / d_eq
    int maxSubcycles = 1000;     // automatic: upper bound
    int minSubcycles = 1;        // automatic: lower bound
};

struct TimeStepRequest {
    double dt = 0;
    double endTime = 0; // the time at the step's end
    Vec3 gravity = Vec3::Zero();
    SubcycleSettings subcycling;
    // Bounds beyond the particles' own speed and gravity, for the copies'
    // reach: the cloud gives the fluid's largest velocity (drag pulls toward
    // it, never beyond) and the largest |g + F/m| of its fluid forces.
    double speedBound = 0;
    double accelerationBound = 0;
};

struct TimeStepOutcome {
    StepStatistics stats;  // this processor's (the caller reduces)
    int subcycles = 1;
    bool subcyclesCapped = false;  // automatic: maxSubcycles reached on some processor
    double largestTravel = 0;      // largest travel in the step / d_eq, over processors
    bool travelPerSubstepExceeded = false; // fixed: largestTravel / subcycles above the fraction
    double reach = 0;              // how far a particle can move in the step (copies' reach)
};

// What every processor of a decomposed run must agree on before a step,
// each the largest over the processors: one reduction for all of them.
struct StepMaxima {
    double subcycles = 0;     // automatic substep count
    double capped = 0;        // 1: automatic count capped at maxSubcycles
    double largestTravel = 0; // largest travel in the step / d_eq
    double speed = 0;         // largest speed (and speed bound)
    double acceleration = 0;  // largest of the acceleration bound and |g|
};

// What a solver does around the engine step. Every hook has a default: a
// serial run whose walls never move or open, with nothing leaving or fed.
class StepSurroundings {
public:
    virtual ~StepSurroundings() = default;

    // The step's maxima over the processors of a decomposed run, in place.
    virtual void maxOverProcessors(StepMaxima&) const {}

    // Before the step: walls that open at stepStart, the wall motions over
    // [stepStart, stepStart + dt], what a leaving particle is judged by.
    virtual void beginStep(DemEngine&, const ParticleSystem&, double /*stepStart*/, double /*dt*/) {}

    // Append the copies the engine must see within `reach` of the owned
    // particles; returns the exchange that keeps them in step, or nullptr.
    virtual HaloExchange* addCopies(ParticleSystem&, double /*reach*/) { return nullptr; }
    virtual void removeCopies(ParticleSystem&) {}

    // After the step (copies removed): particles leaving through outlets or
    // to another processor.
    virtual void finishStep(DemEngine&, ParticleSystem&, double /*dt*/) {}

    // Particles due by endTime, placed clear of the others and of the walls.
    virtual void feed(const DemEngine&, ParticleSystem&, double /*endTime*/) {}

    // Last: centres that left through a periodic boundary come back through
    // its partner.
    virtual void endStep(ParticleSystem&) {}
};

// Throws what the engine and Subcycling throw (std::invalid_argument for a bad
// setting or a non-finite state, the engine's errors for a failed step).
TimeStepOutcome advanceTimeStep(DemEngine& engine, ParticleSystem& particles, const TimeStepRequest& request,
                                StepSurroundings& surroundings);

} // namespace sef::dem
