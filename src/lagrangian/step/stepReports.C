#include "stepReports.H"
#include "dem/step/Subcycling.hpp"
#include "Pstream.H"
#include "PstreamReduceOps.H"

void Foam::reportPushBacks
(
    const sef::dem::StepStatistics& stats,
    const word& timeName,
    label& reportedSteps
)
{
    if (stats.pushedBack == 0) return;
    constexpr label maxReported = 100;
    if (++reportedSteps > maxReported) return;
    Info<< "Push-back at time " << timeName << ": " << stats.pushedBack
        << " particle(s) left through a wall and were put back inside, their"
        << " velocity out of the wall removed; ids";
    for (const std::int64_t id : stats.pushedBackIds) Info<< ' ' << label(id);
    if (stats.pushedBack > long(stats.pushedBackIds.size())) Info<< " ...";
    Info<< " (a time step too large for the particles' speed? see"
        << " doc/checks.md)";
    if (reportedSteps == maxReported)
    {
        Info<< "; further push-backs are counted in the summary only";
    }
    Info<< nl;
}


void Foam::reportSweepCap
(
    const label capSteps,
    const label steps,
    const int maxSweeps,
    const word& dictionary
)
{
    // A deep bed whose impulses do not converge within the cap can creep
    // into ever deeper overlaps without any other sign
    if (capSteps <= 0.01*max(steps, label(1))) return;
    WarningInFunction
        << "the impulse sweeps stopped at maxSweeps " << maxSweeps << " in "
        << capSteps << " of " << steps << " steps. If the bed creeps (the"
        << " largest overlap grows, the kinetic energy does not decay), raise"
        << " maxSweeps in " << dictionary << " { } (doc/dem.md, \"Deep beds:"
        << " the sweep cap\")" << endl;
}
