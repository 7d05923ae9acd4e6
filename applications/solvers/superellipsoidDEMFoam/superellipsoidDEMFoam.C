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
#include "processorHalo.H"
#include "meshPeriodicity.H"
#include "demCarriers.H"
#include "foamEigen.H"
#include "timeWriteGuard.H"
#include "storedCloud.H"
#include "restartedState.H"
#include "stepReports.H"
#include "wallSchedule.H"
#include "particleOutlets.H"
#include "wallLoads.H"
#include "particleFeeder.H"

#include "dem/DemEngine.hpp"
#include "dem/PeriodicImages.hpp"
#include "dem/Subcycling.hpp"

#include <algorithm>
#include <fstream>
#include "dem/RandomInjection.hpp"
#include "geometry/PosedShape.hpp"

using namespace Foam;

namespace
{

// Bed height along -g: the height above the lowest wall point (without
// walls, as in a triply periodic box: the lowest particle point) below which
// 95 % of the particle volume lies, each particle's volume spread uniformly
// between its lowest and highest point (support values along g). Zero
// without gravity or particles. Periodic directions across g do not change
// it: a particle's height is the same in every image.
double bedHeight95
(
    const sef::dem::ParticleSystem& ps,
    const std::vector<sef::dem::WallFace>& walls,
    const sef::Vec3& g
)
{
    if (ps.size() == 0 || g.norm() == 0) return 0;
    const sef::Vec3 up = -g.normalized();
    double floor = GREAT;
    for (const sef::dem::WallFace& w : walls)
    {
        for (const sef::Vec3& v : w.vertices) floor = min(floor, up.dot(v));
    }
    struct span { double lo, hi, volume; };
    std::vector<span> spans;
    double total = 0, top = -GREAT;
    for (std::size_t i = 0; i < ps.size(); ++i)
    {
        const sef::dem::ParticleType& t = ps.types[ps.type[i]];
        const sef::Pose pose{ps.position[i], ps.orientation[i]};
        const double hi = sef::supportValueWorld(t.shape, pose, up);
        const double lo = -sef::supportValueWorld(t.shape, pose, -up);
        spans.push_back({lo, hi, t.shape.volume()});
        total += t.shape.volume();
        top = max(top, hi);
        if (walls.empty()) floor = min(floor, lo);
    }
    // Volume below z, monotone in z: bisection to 1e-9 of the bed extent
    auto below = [&](double z)
    {
        double v = 0;
        for (const span& s : spans)
        {
            v += s.volume*min(max((z - s.lo)/(s.hi - s.lo), 0.0), 1.0);
        }
        return v;
    };
    double lo = floor, hi = top;
    for (int it = 0; it < 60; ++it)
    {
        const double mid = 0.5*(lo + hi);
        (below(mid) < 0.95*total ? lo : hi) = mid;
    }
    return 0.5*(lo + hi) - floor;
}

// Gravitational potential energy sum m (-g . x) [J]
double potentialEnergy(const sef::dem::ParticleSystem& ps, const sef::Vec3& g)
{
    double e = 0;
    for (std::size_t i = 0; i < ps.size(); ++i)
    {
        e -= ps.types[ps.type[i]].mass*g.dot(ps.position[i]);
    }
    return e;
}

struct runTotals
{
    label steps = 0;
    double contacts = 0;
    double pairContacts = 0;
    double sweeps = 0;              // sequential-impulse sweeps (all substeps)
    label pushedBack = 0;
    label fallbacks = 0;
    double maxOverlapOverDeq = 0;
    label deepOverlapSteps = 0;     // steps with an overlap above deepOverlap d_eq
    label travelSteps = 0;          // steps above subCycleTravel per substep (fixed subCycles)
    label pushBackSteps = 0;        // steps with a push-back
    label sweepCapSteps = 0;        // steps with a substep whose sweeps stopped at maxSweeps
};

// An overlap above this fraction of d_eq is reported (a settled bed keeps
// ~1e-4; the acceptance bound of the tutorials is 1e-2).
constexpr double deepOverlap = 1e-2;

void writeSummary
(
    const Time& runTime,
    const polyMesh& mesh,
    const sef::dem::ParticleSystem& ps,
    const runTotals& totals,
    const sef::dem::StepStatistics& last,
    double wallSeconds,
    double bedHeight,
    double potentialEnergyDrop,
    bool settled,
    const processorHalo* halo,
    double ownStepSeconds,
    const particleOutlets& outlets,
    const particleFeeder& feeder
)
{
    // ps: all processors' particles; each counts those in its cells
    label found = 0;
    for (const sef::Vec3& x : ps.position)
    {
        if (mesh.findCell(toFoam(x)) >= 0) ++found;
    }
    reduce(found, sumOp<label>());
    const label lost = max(label(ps.size()) - found, label(0));
    // decomposed runs: communication share and load imbalance of the DEM
    // steps (the time a processor computes, communication excluded: the
    // slowest over the mean)
    const double commSeconds = halo ? halo->communicationSeconds() : 0;
    const double computeSeconds = max(ownStepSeconds - commSeconds, 0.0);
    const double meanComm = returnReduce(commSeconds, sumOp<double>())/Pstream::nProcs();
    const double meanCompute = returnReduce(computeSeconds, sumOp<double>())/Pstream::nProcs();
    const double maxCompute = returnReduce(computeSeconds, maxOp<double>());
    const label exchanges = halo ? halo->exchanges() : 0;
    if (!Pstream::master()) return;
    const fileName dir = runTime.globalPath()/"postProcessing";
    mkDir(dir);
    OFstream os(dir/"demSummary.json");
    os.precision(10);
    const double particleSteps = double(max(totals.steps, label(1)))*max(ps.size(), size_t(1));
    // mass-weighted mean velocity (a periodic box's drift, a column's flow)
    sef::Vec3 momentum = sef::Vec3::Zero();
    double mass = 0;
    for (std::size_t i = 0; i < ps.size(); ++i)
    {
        const double m = ps.types[ps.type[i]].mass;
        momentum += m*ps.velocity[i];
        mass += m;
    }
    const sef::Vec3 meanVelocity = mass > 0 ? sef::Vec3(momentum/mass) : sef::Vec3::Zero();
    os  << "{\n"
        << "  \"particles\": " << label(ps.size()) << ",\n"
        << "  \"particleMass\": " << mass << ",\n"
        << "  \"particlesLost\": " << lost << ",\n"
        << "  \"particlesLeft\": " << outlets.totalNumber() << ",\n"
        << "  \"massLeft\": " << outlets.totalMass() << ",\n"
        << "  \"particlesFed\": " << feeder.fed() << ",\n"
        << "  \"particlesOwed\": " << feeder.owed(runTime.value()) << ",\n";
    outlets.writeJson(os);
    os  << ",\n"
        << "  \"particlesPushedBack\": " << totals.pushedBack << ",\n"
        << "  \"maxOverlapOverDeq\": " << totals.maxOverlapOverDeq << ",\n"
        << "  \"finalMaxOverlapOverDeq\": " << last.maxOverlapOverDeq << ",\n"
        << "  \"stepsWithOverlapAbove1Percent\": " << totals.deepOverlapSteps << ",\n"
        << "  \"stepsAboveSubCycleTravel\": " << totals.travelSteps << ",\n"
        << "  \"kineticEnergy\": " << last.kineticEnergy << ",\n"
        << "  \"potentialEnergyDrop\": " << potentialEnergyDrop << ",\n"
        << "  \"kineticEnergyOverPotentialDrop\": "
        << (potentialEnergyDrop > 0 ? last.kineticEnergy/potentialEnergyDrop : 0) << ",\n"
        << "  \"settled\": " << (settled ? "true" : "false") << ",\n"
        << "  \"endTime\": " << runTime.value() << ",\n"
        << "  \"steps\": " << totals.steps << ",\n"
        << "  \"contactPairsPerStep\": "
        << totals.pairContacts/max(totals.steps, label(1)) << ",\n"
        << "  \"contactsPerStep\": "
        << totals.contacts/max(totals.steps, label(1)) << ",\n"
        << "  \"sweepsPerStep\": "
        << totals.sweeps/max(totals.steps, label(1)) << ",\n"
        << "  \"stepsAtSweepCap\": " << totals.sweepCapSteps << ",\n"
        << "  \"fallbacks\": " << totals.fallbacks << ",\n"
        << "  \"bedHeight95\": " << bedHeight << ",\n"
        << "  \"meanVelocity\": [" << meanVelocity.x() << ", " << meanVelocity.y()
        << ", " << meanVelocity.z() << "],\n"
        << "  \"processors\": " << Pstream::nProcs() << ",\n"
        << "  \"communicationSeconds\": " << meanComm << ",\n"
        << "  \"communicationShare\": " << (wallSeconds > 0 ? meanComm/wallSeconds : 0) << ",\n"
        << "  \"exchangesPerProcessor\": " << exchanges << ",\n"
        << "  \"loadImbalance\": " << (meanCompute > 0 ? maxCompute/meanCompute : 1) << ",\n"
        << "  \"wallSeconds\": " << wallSeconds << ",\n"
        << "  \"microsecondsPerParticleStep\": " << 1e6*wallSeconds/particleSteps << "\n"
        << "}\n";
    Info<< "Summary written to " << os.name() << nl;
}

} // End anonymous namespace


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

    const uniformDimensionedVectorField g
    (
        IOobject("g", runTime.constant(), mesh, IOobject::MUST_READ, IOobject::NO_WRITE)
    );
    const IOdictionary cloudDict
    (
        IOobject
        (
            "superellipsoidCloudProperties", runTime.constant(), mesh,
            IOobject::MUST_READ, IOobject::NO_WRITE
        )
    );
    // Unknown top-level keywords: a warning only (macro variables such as
    // 'D 0.01;' live here); the sub-dictionaries are checked strictly
    wordList cloudKeywords(demCloudPropertiesKeywords());
    cloudKeywords.append(wordList({"stopWhenSettled"}));
    cloudKeywords.append(particleTrace::keywords());
    cloudKeywords.append(stepAverage::keyword());
    cloudKeywords.append(wallSchedule::keywords());
    cloudKeywords.append(particleFeeder::keywords());
    checkKeywords(cloudDict, cloudKeywords, false);
    demCloudProperties props = readDemCloudProperties(cloudDict);
    props.engine.gravity = toEigen(g.value());

    const std::vector<sef::dem::WallFace> walls = meshWallFaces(mesh);
    Info<< "Walls: " << label(walls.size()) << " faces on wall patches" << nl;
    // Walls that move along their surface or open (doc/granular.md), and the
    // patches particles leave through
    const wallSchedule schedule(mesh, cloudDict);
    particleOutlets outlets(mesh);
    wallLoads loads(mesh, "wallLoads", cloudDict);
    particleFeeder feeder(mesh, cloudDict, props.types, props.typeFractions);
    // Cyclic patch pairs: periodic directions (doc/periodic.md)
    const sef::dem::PeriodicLattice periodic = meshPeriodicity(mesh);
    if (!periodic.empty())
    {
        checkPeriodicRoom(periodic, props.types);
        // walls through a periodic boundary are one surface across it
        props.engine.periodicShifts = periodic.shifts();
        Info<< "Periodic: " << label(periodic.directions().size())
            << " direction(s), translations";
        for (const sef::dem::PeriodicDirection& d : periodic.directions())
        {
            Info<< " " << toFoam(d.translation);
        }
        Info<< nl;
    }

    sef::dem::ParticleSystem particles;
    particles.types = props.types;

    // What the start time holds: the run record (particles over all
    // processors, potential energy at injection) written with every cloud,
    // and the cloud's files. Either makes this a restart, which needs the
    // particles the record names; neither, at the case's first time, an
    // injection; neither at a later time is an error (its particle files
    // were lost: injecting would overwrite the time with a new bed).
    const auto runInfoPath = [&runTime]()
    {
        return runTime.timePath()/"uniform"/"demRunInfo";
    };
    const auto statePath = [&runTime]()
    {
        return runTime.timePath()/"uniform"/"demEngineState";
    };
    const fileName cloudDir = cloudFilePath(mesh, props.cloudName, "");
    const bool hasRecord = isFile(runInfoPath());
    label recordedParticles = -1;
    double recordedPotentialEnergy0 = 0;
    // wall patches opened (wallSchedule) when the start time was written:
    // the engine state's wall contacts name the faces of the others
    labelList opened = schedule.openedAt(runTime.value());
    if (hasRecord)
    {
        const dictionary info{IFstream(runInfoPath())()};
        recordedPotentialEnergy0 = info.get<scalar>("potentialEnergy0");
        // (records of older versions have no count: not checked)
        recordedParticles = info.lookupOrDefault<label>("particles", -1);
        if (info.found("openedWalls"))
        {
            opened.clear();
            for (const word& name : info.get<wordList>("openedWalls"))
            {
                opened.append(mesh.boundaryMesh().findPatchID(name));
            }
        }
        outlets.readRecord(info);
        feeder.readRecord(info);
    }
    for (const label patchi : opened)
    {
        outlets.open(patchi);
    }
    const bool anyRecord = returnReduce(hasRecord, orOp<bool>());
    const bool anyCloudFiles =
        returnReduce(isDir(cloudDir) && !readDir(cloudDir).empty(), orOp<bool>());
    const bool restarted = anyRecord || anyCloudFiles;
    if (restarted)
    {
        checkStoredCount(mesh, props.cloudName, recordedParticles, runInfoPath());
        readDemCloud(mesh, props.cloudName, particles);
        labelList ids(particles.size());
        forAll(ids, i) ids[i] = label(particles.id[i]);
        checkUniqueIds(ids, cloudDir/"particleId");
        if (!returnReduce(hasRecord, andOp<bool>()))
        {
            WarningInFunction
                << "Restart without the run record " << runInfoPath()
                << (Pstream::parRun() ? " (on some processors)" : "")
                << ": the particle count is not checked and the released"
                << " potential energy (stopWhenSettled, demSummary.json) is"
                << " counted from this time" << endl;
        }
        Info<< "Restart: read " << returnReduce(label(particles.size()), sumOp<label>())
            << " particles of cloud "
            << props.cloudName << " at time " << runTime.timeName() << nl;
    }
    else if (props.inject)
    {
        const instantList times = runTime.times();
        if (!times.empty() && runTime.value() > times.first().value() + 0.5*runTime.deltaTValue())
        {
            FatalErrorInFunction
                << "Cannot start from time " << runTime.timeName() << ": it holds"
                << " no particles of cloud " << props.cloudName << " (no "
                << cloudDir << ", no " << runInfoPath() << "), and particles"
                << " are injected only at the case's first time ("
                << times.first().name() << ")." << nl << "The particle files of"
                << " this time were deleted or never written: restore them,"
                << " restart from an earlier time, or start from time "
                << times.first().name() << " to inject anew" << exit(FatalError);
        }
        try
        {
            if (props.injectListed)
            {
                // bounding sphere clear of the walls, else the body exactly
                // (a particle listed resting on a wall)
                const sef::dem::WallSet wallSet(walls);
                const wallClearance clearance(walls);
                sef::dem::injectListed
                (
                    particles, props.listed, 0,
                    [&](const sef::Vec3& x, std::size_t n)
                    {
                        const sef::dem::ListedParticle& p = props.listed[n];
                        const sef::dem::ParticleType& type = props.types[p.type];
                        return
                            clearance.clear(mesh, x, type.boundingRadius)
                         || bodyClearOfWalls(mesh, wallSet, type.shape, sef::Pose{x, p.orientation});
                    },
                    0.0, periodic
                );
            }
            else
            {
                // bounding spheres clear of the walls, else the bodies exactly
                const sef::dem::WallSet wallSet(walls);
                const wallClearance clearance(walls);
                // (clear of the others' periodic images too)
                props.injection.periodic = periodic;
                sef::dem::injectRandom
                (
                    particles, props.injection, 0,
                    [&](const sef::Vec3& x, double R)
                    {
                        return clearance.clear(mesh, x, R);
                    },
                    [&](int t, const sef::Pose& pose)
                    {
                        return bodyClearOfWalls(mesh, wallSet, props.types[t].shape, pose);
                    }
                );
            }
        }
        catch (const sef::dem::InjectionError& err)
        {
            FatalIOErrorInFunction(cloudDict.subDict("injection"))
                << "Injection failed: " << err.what() << nl
                << "Check the entries 'count', the region and the particle list"
                << exit(FatalIOError);
        }
        // every processor placed the same particles (collective wall and
        // mesh tests): each keeps those in its cells
        Info<< "Injected " << label(particles.size()) << " particles" << nl;
        keepOwnedParticles(mesh, particles);
    }

    sef::dem::DemEngine engine(wallSchedule::closedFaces(walls, opened), props.engine);
    // (a motion the walls cannot make is refused before anything is written)
    schedule.apply(engine, runTime.value());
    // Per-contact warm starts (accumulated impulses, narrow-phase answers)
    // are engine state: stored next to every written cloud so that a
    // restart continues exactly like the continuous run.
    if (restarted && isFile(statePath()))
    {
        std::ifstream is(statePath(), std::ios::binary);
        try
        {
            engine.readState(is);
        }
        catch (const std::exception& err)
        {
            FatalErrorInFunction
                << "Cannot read " << statePath() << ": " << err.what()
                << exit(FatalError);
        }
        Info<< "Restart: read the DEM engine state (contact warm starts)" << nl;
    }
    else if (restarted && returnReduce(particles.size() > 0, orOp<bool>()))
    {
        WarningInFunction
            << "Restart without " << statePath() << ": contacts start without"
            << " their memory (warm starts, accumulated impulses), so the run"
            << " does not continue bit for bit like an uninterrupted one" << endl;
    }

    // Decomposed runs: the halo layer, and the particles near other
    // processors as OpenFOAM particles that Cloud::move hands over
    // (demCarriers). The core steps the processor's particles in the order
    // they came (injection order, arrivals appended).
    const bool parallel = Pstream::parRun();
    autoPtr<processorHalo> halo;
    autoPtr<demCarriers> carriers;
    // Periodic images of this processor's own particles (with the
    // processors' halo copies, if any, before them)
    autoPtr<sef::dem::PeriodicImages> images;
    if (!periodic.empty())
    {
        const boundBox box(mesh.points(), false);
        images.reset(new sef::dem::PeriodicImages(periodic, toEigen(box.min()), toEigen(box.max())));
    }
    if (parallel)
    {
        halo.reset(new processorHalo(mesh, periodic));
        carriers.reset(new demCarriers(mesh));
        Info<< "Parallel: " << Pstream::nProcs() << " processors; particles per processor "
            << returnReduce(label(particles.size()), minOp<label>()) << " to "
            << returnReduce(label(particles.size()), maxOp<label>()) << nl;
    }
    const auto globalPotentialEnergy = [&]()
    {
        return returnReduce(potentialEnergy(particles, props.engine.gravity), sumOp<scalar>());
    };

    // Potential energy at injection: the reference of "released" energy,
    // carried across restarts in <time>/uniform/demRunInfo.
    double potentialEnergy0 = globalPotentialEnergy();
    if (hasRecord)
    {
        potentialEnergy0 = recordedPotentialEnergy0;
    }
    // Everything of a time, marked while it is written (timeWriteGuard.H);
    // the engine state and the run record are replaced atomically.
    const auto writeThisTime = [&]()
    {
        // the total over all processors (survives reconstructPar/decomposePar)
        const label particlesInAll = returnReduce(label(particles.size()), sumOp<label>());
        beginTimeWrite(runTime);
        writeDemCloud(mesh, props.cloudName, particles);
        writeFileAtomically(statePath(), [&](std::ostream& os) { engine.writeState(os); });
        writeFileAtomically
        (
            runInfoPath(),
            [&](std::ostream& os)
            {
                os.precision(17);
                os  << "potentialEnergy0 " << potentialEnergy0 << ";\n"
                    << "particles " << particlesInAll << ";\n"
                    << "openedWalls (";
                for (const label patchi : opened)
                {
                    os  << " " << mesh.boundaryMesh()[patchi].name();
                }
                os  << " );\n";
                outlets.writeRecord(os);
                feeder.writeRecord(os);
            }
        );
        endTimeWrite(runTime);
    };
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
    label subCycles = props.subcycling.subCycles, cappedSteps = 0;
    Info<< nl << "Starting time loop" << nl << endl;
    while (runTime.loop())
    {
        try
        {
            subCycles = props.subcycling.subCycles;
            if (subCycles == 0)
            {
                const sef::dem::SubcycleChoice choice = sef::dem::automaticSubcycles
                (
                    particles, runTime.deltaTValue(), props.engine.gravity,
                    props.subcycling.subCycleTravel, props.subcycling.maxSubCycles,
                    props.subcycling.minSubCycles
                );
                subCycles = returnReduce(label(choice.subcycles), maxOp<label>());
                if (returnReduce(choice.capped, orOp<bool>()) && ++cappedSteps <= 10)
                {
                    WarningInFunction
                        << "automatic subCycles capped at maxSubCycles "
                        << props.subcycling.maxSubCycles << " at time " << runTime.timeName()
                        << ": a particle travels " << choice.largestTravel
                        << " d_eq in this step (reduce deltaT; the first 10"
                        << " such steps are reported)" << endl;
                }
            }
            // a fixed count too small for the step (auto chooses its own)
            checkSubstepTravel
            (
                particles, runTime.deltaTValue(), props.engine.gravity,
                props.subcycling.subCycles, props.subcycling, runTime.timeName(),
                totals.travelSteps
            );
            clockTime stepClock;
            // The potential energy of the particles fed in the step, less
            // that of those removed at an outlet: the reference of the
            // released energy follows the particles in the domain, so that
            // what they released before leaving stays counted
            double entered = 0;
            const auto removeCounting = [&](const std::vector<std::int64_t>& ids)
            {
                if (ids.empty()) return 0.0;
                const double before = potentialEnergy(particles, props.engine.gravity);
                particleOutlets::remove(particles, ids);
                return potentialEnergy(particles, props.engine.gravity) - before;
            };
            // how far any particle can move in the step: its speed,
            // doubled for what a collision can give it, plus gravity's
            const scalar dt = runTime.deltaTValue();
            // walls that open at the start of this step, and the motions
            // at its middle
            const scalar stepStart = runTime.value() - dt;
            const labelList nowOpen = schedule.openedAt(stepStart + 1e-6*dt);
            if (nowOpen.size() != opened.size())
            {
                for (const label patchi : nowOpen)
                {
                    if (opened.found(patchi)) continue;
                    Info<< "Wall patch " << mesh.boundaryMesh()[patchi].name()
                        << " opens at time " << runTime.timeName(stepStart) << nl;
                    outlets.open(patchi);
                }
                opened = nowOpen;
                engine.setWalls(wallSchedule::closedFaces(walls, opened));
            }
            schedule.apply(engine, stepStart + 0.5*dt);
            // the centres at the start of the step, to see who leaves
            const std::vector<sef::Vec3> start
            (
                outlets.any() ? particles.position : std::vector<sef::Vec3>()
            );
            double vmax = 0;
            for (const sef::Vec3& v : particles.velocity) vmax = max(vmax, v.norm());
            reduce(vmax, maxOp<double>());
            const double travel = 2*(vmax + props.engine.gravity.norm()*dt)*dt;
            if (parallel)
            {
                halo->build(particles, travel);
                // only particles near another processor (those it holds a
                // copy of) can leave this one in the step
                carriers->prepare(particles, halo->sentParticles());
                sef::dem::HaloExchange* exchange = halo.get();
                if (images.valid())
                {
                    images->build(particles, travel, halo.get());
                    exchange = images.get();
                }
                stats = engine.step(particles, dt, subCycles, exchange);
                halo->remove(particles);
                // (removed after the transfer, which keeps the step's order)
                const std::vector<std::int64_t> left = outlets.leaving(particles, start);
                const bool changed = carriers->transfer(particles, dt);
                entered += removeCounting(left);
                if (returnReduce(changed, orOp<bool>()))
                {
                    moveContactMemory(engine, ownedFlags(particles.id));
                }
                reduceStatistics(stats);
            }
            else if (images.valid())
            {
                images->build(particles, travel);
                stats = engine.step(particles, dt, subCycles, images.get());
                images->remove(particles);
                entered += removeCounting(outlets.leaving(particles, start));
            }
            else
            {
                stats = engine.step(particles, dt, subCycles);
                entered += removeCounting(outlets.leaving(particles, start));
            }
            if (outlets.any())
            {
                outlets.endStep(runTime);
            }
            loads.write(stats, dt);
            if (feeder.owed(runTime.value()) > 0)
            {
                const double before = potentialEnergy(particles, props.engine.gravity);
                const sef::dem::WallSet& wallSet = engine.walls();
                const wallClearance clearance(wallSet.faces());
                feeder.feed
                (
                    particles, runTime.value(), periodic,
                    [&](const sef::Vec3& x, double R)
                    {
                        return clearance.clear(mesh, x, R);
                    },
                    [&](int t, const sef::Pose& pose)
                    {
                        return bodyClearOfWalls(mesh, wallSet, props.types[t].shape, pose);
                    }
                );
                entered += potentialEnergy(particles, props.engine.gravity) - before;
            }
            if (outlets.any() || feeder.active())
            {
                potentialEnergy0 += returnReduce(entered, sumOp<scalar>());
            }
            // centres that left through a periodic boundary come back
            // through its partner (carriers that crossed one were moved by
            // their tracking already)
            for (sef::Vec3& x : particles.position)
            {
                periodic.wrap(x);
            }
            ownStepSeconds += stepClock.elapsedTime();
        }
        catch (const std::exception& err)
        {
            FatalErrorInFunction
                << "DEM step failed at time " << runTime.timeName() << ": "
                << err.what() << exit(FatalError);
        }
        ++totals.steps;
        reportPushBacks(stats, runTime.timeName(), totals.pushBackSteps);
        totals.contacts += stats.contacts;
        totals.pairContacts += stats.pairContacts;
        totals.sweeps += stats.sweeps;
        totals.pushedBack += stats.pushedBack;
        totals.fallbacks += stats.fallbacks;
        totals.maxOverlapOverDeq = max(totals.maxOverlapOverDeq, stats.maxOverlapOverDeq);
        if (stats.sweepLimitReached > 0) ++totals.sweepCapSteps;
        if (stats.maxOverlapOverDeq > deepOverlap && ++totals.deepOverlapSteps <= 10)
        {
            WarningInFunction
                << "overlap of " << stats.maxOverlapOverDeq << " d_eq at time "
                << runTime.timeName() << " (above " << deepOverlap
                << "; the first 10 such steps are reported, all are counted in"
                << " demSummary.json)" << endl;
        }

        if (runTime.writeTime() || runTime.timeIndex() % 100 == 0)
        {
            Info<< "Time = " << runTime.timeName()
                << "  particles " << returnReduce(label(particles.size()), sumOp<label>())
                << "  subcycles " << subCycles
                << "  contacts " << stats.contacts
                << " (pairs " << stats.pairContacts << ", walls " << stats.wallContacts << ")"
                << "  Newton its " << stats.newtonIterations
                << "  fallbacks " << stats.fallbacks
                << "  maxOverlap/dEq " << stats.maxOverlapOverDeq
                << "  Ekin " << stats.kineticEnergy << " J"
                << "  ExecutionTime = " << runTime.elapsedCpuTime() << " s"
                << nl;
        }
        if
        (
            settle.active()
         && settle.settled
            (
                runTime.value(), stats.kineticEnergy,
                potentialEnergy0 - globalPotentialEnergy()
            )
        )
        {
            settled = true;
            Info<< "Settled at time " << runTime.timeName() << ": kinetic energy below "
                << settle.ratio() << " of the released potential energy for "
                << settle.duration() << " s; writing and ending the run" << nl;
            runTime.writeAndEnd();
        }
        trace.write(runTime, particles);
        if (runTime.writeTime())
        {
            writeThisTime();
        }
    }

    // (a run that settled ended after its loads were added)
    loads.flush();
    const double wallSeconds = clock.elapsedTime();
    const sef::dem::ParticleSystem all = gatherParticles(particles);
    const double bedHeight = bedHeight95(all, walls, props.engine.gravity);
    Info<< "Bed height (95 % of particle volume below): " << bedHeight << " m" << nl;
    const double potentialDrop = potentialEnergy0 - globalPotentialEnergy();
    writeSummary
    (
        runTime, mesh, all, totals, stats, wallSeconds, bedHeight, potentialDrop,
        settled, halo.get(), ownStepSeconds, outlets, feeder
    );
    reportSweepCap(totals.sweepCapSteps, totals.steps, props.engine.maxSweeps, "collision");
    Info<< "End" << nl << endl;
    return 0;
}

// ************************************************************************* //
