/*---------------------------------------------------------------------------*\
Application
    superellipsoidParcelFoam

Group
    superellipsoidFoam solvers

Description
    Transient incompressible flow (PIMPLE; laminar or any of OpenFOAM's
    incompressible turbulence models) with one cloud of superellipsoidal
    particles: fluid forces through the resistance tensors ([Superellipsoid-OpenFOAM] sec.
    2.2), collisions by impulses subcycled inside the fluid step (secs. 3-4),
    coupling one-way, two-way (momentum source, explicit and implicit parts)
    or two-way with the particle volume fraction in the fluid equations.

    A pimpleFoam case becomes a particle case with constant/g, 'rho' in
    constant/transportProperties and constant/<cloud>Properties
    (README.md, doc/superellipsoidCloud.md). The cloud is
    basicSuperellipsoidCloud: the same core step as superellipsoidDEMFoam.

    Writes the cloud with the fields at every write time; at the end
    postProcessing/<cloud>Summary.json.
\*---------------------------------------------------------------------------*/

#include "fvCFD.H"
#include "singlePhaseTransportModel.H"
#include "PhaseIncompressibleTurbulenceModel.H"
#include "pimpleControl.H"
#include "fvOptions.H"
#include "clockTime.H"
#include "basicSuperellipsoidCloud.H"
#include "timeWriteGuard.H"
#include "volumeFractionFilter.H"
#include "fixedFluxPressureFvPatchScalarField.H"
#include "wallFvPatch.H"
#include "superficialVelocityFvPatchVectorField.H"

int main(int argc, char *argv[])
{
    argList::addNote
    (
        "Transient incompressible flow with a cloud of superellipsoidal"
        " particles (resistance-tensor hydrodynamics, impulse collisions)"
    );
    #include "addCloudOption.H"

    #include "addCheckCaseOptions.H"
    #include "setRootCaseLists.H"
    #include "createTime.H"
    // never from a time a killed run left half-written (timeWriteGuard.H)
    checkStartTimeComplete(runTime);
    #include "createMesh.H"
    #include "createControl.H"
    #include "createTimeControls.H"
    #include "createFields.H"

    clockTime wallClock;

    Info<< "\nStarting time loop\n" << endl;

    #include "createTimeStepLimits.H"

    while (runTime.run())
    {
        #include "readTimeControls.H"
        #include "readDragNumberControl.H"
        #include "CourantNo.H"
        #include "checkCourant.H"
        #include "setDeltaTWithDrag.H"
        #include "checkTimeStepCollapse.H"

        ++runTime;
        // a time is marked while it is written (from the step's start: the
        // cloud writes its injection state during evolve); a run killed
        // meanwhile leaves the marker, and a restart refuses that time
        const bool writing = runTime.writeTime();
        if (writing) beginTimeWrite(runTime);

        Info<< "Time = " << runTime.timeName() << nl << endl;

        #include "evolveCloud.H"
        #include "cloudSU.H"

        while (pimple.loop())
        {
            #include "UEqn.H"

            while (pimple.correct())
            {
                #include "pEqn.H"
            }

            alphaPhic = alphacf*phi;

            if (pimple.turbCorr())
            {
                laminarTransport.correct();
                turbulence->correct();
            }
        }

        runTime.write();
        if (writing) endTimeWrite(runTime);

        runTime.printExecutionTime(Info);
    }

    parcels.writeSummary(wallClock.elapsedTime());

    Info<< "End\n" << endl;

    return 0;
}

// ************************************************************************* //
