/*---------------------------------------------------------------------------*\
Application
    superellipsoidDEMFoam

Group
    superellipsoidFoam solvers

Description
    Dry (no fluid) DEM of superellipsoidal particles on an ordinary OpenFOAM
    case: the mesh's wall patches are the collision walls, constant/g is
    gravity, system/controlDict sets time step and write times, and
    constant/superellipsoidCloudProperties the particles, injection and
    collision laws. The particle step is the core's DemEngine::step, the
    same code the fluid-coupled cloud calls.

    Writes the cloud at every write time (foamToVTK/ParaView readable);
    restarts from the cloud of the start time if one is stored there, and
    injects only at the case's first time: a later start time without its
    particle files is an error, never a fresh injection (doc/checks.md). A
    time being written is marked (timeWriteGuard.H), so a killed run never
    restarts from a half-written time. At the end writes
    postProcessing/demSummary.json.

    Parallel (decomposePar, mpirun -np N superellipsoidDEMFoam -parallel):
    each processor steps the particles in its cells with halo copies of its
    neighbours' (processorHalo, the same layer as the cloud's), and OpenFOAM's
    Cloud::move hands particles to their new processor (demParticle);
    doc/parallel.md.
\*---------------------------------------------------------------------------*/

#include "processorCollectives.H"
#include "argList.H"
#include "Time.H"
#include "polyMesh.H"
#include "IOdictionary.H"
#include "uniformDimensionedFields.H"
#include "OFstream.H"
#include "IFstream.H"
#include "clockTime.H"

#include "demCloudProperties.H"
#include "demCloudIO.H"
#include "meshWallFaces.H"
#include "settleMonitor.H"
#include "particleTrace.H"
#include "particleStepper.H"
#include "sleepCounts.H"
#include "meshPeriodicity.H"
#include "foamEigen.H"
#include "timeWriteGuard.H"
#include "engineStateFile.H"
#include "storedCloud.H"
#include "restartedState.H"
#include "recordedTypes.H"
#include "stepReports.H"
#include "wallSchedule.H"
#include "particleOutlets.H"
#include "wallLoads.H"
#include "particleFeeder.H"

#include "dem/engine/DemEngine.hpp"

#include <algorithm>
#include <fstream>
#include "dem/injection/RandomInjection.hpp"
#include "geometry/PosedShape.hpp"

using namespace Foam;

#include "demRunSummary.H"


int main(int argc, char *argv[])
{
    argList::addNote
    (
        "Dry DEM of superellipsoidal particles (impulse-based collisions)"
    );

    #include "setRootCase.H"
    #include "createTime.H"
    checkStartTimeComplete(runTime);
    #include "createPolyMesh.H"

    #include "readDemCase.H"
    #include "createParticles.H"
    #include "createEngine.H"
    #include "writeThisTime.H"

    if (!restarted && props.inject)
    {
        writeThisTime();
    }
    settleMonitor settle(cloudDict);
    bool settled = false;
    particleTrace trace(runTime, cloudDict);
    trace.write(runTime, particles, true);

    runTotals totals;
    sef::dem::StepStatistics stats;
    clockTime clock;
    double ownStepSeconds = 0;     // this processor's DEM steps (with exchanges)
    label subCycles = props.subcycling.subCycles;
    Info<< nl << "Starting time loop" << nl << endl;
    while (runTime.loop())
    {
        try
        {
            #include "demStep.H"
        }
        catch (const std::exception& err)
        {
            FatalErrorInFunction
                << "DEM step failed at time " << runTime.timeName() << ": "
                << err.what() << exit(FatalError);
        }
        #include "reportStep.H"

        trace.write(runTime, particles);
        if (runTime.writeTime())
        {
            writeThisTime();
        }
    }

    // (a run that settled ended after its loads were added)
    loads.flush();
    const double wallSeconds = clock.elapsedTime();
    // (on the master only: every processor holding all would not scale)
    const sef::dem::ParticleSystem all = gatherParticles(particles, gatherTarget::master);
    double bedHeight = bedHeight95(all, walls, props.engine.gravity);
    Pstream::scatter(bedHeight);
    Info<< "Bed height (95 % of particle volume below): " << bedHeight << " m" << nl;
    const double potentialDrop = potentialEnergy0 - globalPotentialEnergy();
    writeSummary
    (
        runTime, mesh, particles, all, totals, stats, wallSeconds, bedHeight, potentialDrop,
        settled, stepper, ownStepSeconds, outlets, feeder
    );
    reportSweepCap(totals.sweepCapSteps, totals.steps, props.engine.maxSweeps, "collision");
    Info<< "End" << nl << endl;
    return 0;
}

// ************************************************************************* //
