/*---------------------------------------------------------------------------*\
Description
    particleStepper: the OpenFOAM side of one particle time step.
\*---------------------------------------------------------------------------*/

#include "processorCollectives.H"
#include "particleStepper.H"
#include "meshWallFaces.H"
#include "particleFeeder.H"
#include "particleOutlets.H"
#include "stepReports.H"
#include "wallSchedule.H"
#include "foamEigen.H"

// * * * * * * * * * * * * * * * * Constructors  * * * * * * * * * * * * * * //

Foam::particleStepper::particleStepper
(
    const polyMesh& mesh,
    const subcycleSettings& subcycling,
    const sef::Vec3& gravity,
    const sef::dem::PeriodicLattice& periodic,
    const parts& p,
    const labelList& opened
)
:
    mesh_(mesh),
    subcycling_(subcycling),
    gravity_(gravity),
    periodic_(periodic),
    parts_(p),
    opened_(opened)
{
    if (!periodic_.empty())
    {
        const boundBox box(mesh_.points(), false);
        images_.reset(new sef::dem::PeriodicImages(periodic_, toEigen(box.min()), toEigen(box.max())));
    }
    if (Pstream::parRun())
    {
        // collisions across processor boundaries (doc/parallel.md)
        halo_.reset(new processorHalo(mesh_, periodic_));
        if (parts_.coreHoldsParticles)
        {
            carriers_.reset(new demCarriers(mesh_));
        }
    }
}


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

sef::dem::TimeStepOutcome Foam::particleStepper::step
(
    sef::dem::DemEngine& engine,
    sef::dem::ParticleSystem& particles,
    const scalar dt,
    const scalar speedBound,
    const scalar accelerationBound
)
{
    sef::dem::TimeStepRequest request;
    request.dt = dt;
    request.endTime = mesh_.time().value();
    request.gravity = gravity_;
    request.subcycling.fixed = subcycling_.subCycles;
    request.subcycling.travelFraction = subcycling_.subCycleTravel;
    request.subcycling.maxSubcycles = subcycling_.maxSubCycles;
    request.subcycling.minSubcycles = subcycling_.minSubCycles;
    request.speedBound = speedBound;
    request.accelerationBound = accelerationBound;

    entered_ = 0;
    ownedSum_ += double(particles.size());
    sef::dem::TimeStepOutcome outcome =
        sef::dem::advanceTimeStep(engine, particles, request, *this);
    contactSum_ += double(outcome.stats.contacts);   // (before the sum over processors)
    if (halo_) haloSum_ += double(halo_->haloParticles());

    const bool entering =
        (parts_.outlets && parts_.outlets->any()) || (parts_.feeder && parts_.feeder->active());
    enteredTotal_ = entering ? returnReduce(entered_, sumOp<scalar>()) : 0;
    if (parts_.outlets && parts_.outlets->any())
    {
        parts_.outlets->endStep(mesh_.time());
    }
    reduceStatistics(outcome.stats);
    report(outcome);
    return outcome;
}


void Foam::particleStepper::report(const sef::dem::TimeStepOutcome& outcome)
{
    ++counts_.steps;
    const word timeName = mesh_.time().timeName();
    if (outcome.subcyclesCapped && ++counts_.cappedSteps <= 10)
    {
        WarningInFunction
            << "automatic subCycles capped at maxSubCycles "
            << subcycling_.maxSubCycles << " at time " << timeName
            << ": a particle travels " << outcome.largestTravel
            << " d_eq in this step (reduce deltaT; the first 10"
            << " such steps are reported)" << endl;
    }
    if (outcome.travelPerSubstepExceeded && ++counts_.travelSteps <= 10)
    {
        WarningInFunction
            << "at time " << timeName << " a particle travels "
            << outcome.largestTravel/outcome.subcycles
            << " of its d_eq per substep (subCycles " << outcome.subcycles << "), above"
            << " subCycleTravel " << subcycling_.subCycleTravel << " ([Superellipsoid-OpenFOAM]"
            << " sec. 5: collisions are missed or resolved late, the bed gains"
            << " energy). Use 'subCycles auto' or reduce deltaT (the first 10"
            << " such steps are reported, all are counted in the summary)"
            << endl;
    }
    reportPushBacks(outcome.stats, timeName, counts_.pushBackSteps);
}


Foam::rankCounts Foam::particleStepper::gatherRankCounts() const
{
    const scalar steps = max(scalar(counts_.steps), 1.0);
    const scalar exchanges = halo_ ? max(scalar(halo_->substepExchanges()), 1.0) : 1.0;
    const label n = Pstream::nProcs(), me = Pstream::myProcNo();
    rankCounts r;
    List<scalarList*> lists
    ({
        &r.ownedParticles, &r.haloCopies, &r.contacts,
        &r.messagesPerExchange, &r.bytesPerExchange, &r.exchangeSeconds,
        &r.setUpMessagesPerStep
    });
    const scalarList mine
    ({
        ownedSum_/steps, haloSum_/steps, contactSum_/steps,
        halo_ ? halo_->messagesSent()/exchanges : 0.0,
        halo_ ? halo_->bytesSent()/exchanges : 0.0,
        halo_ ? halo_->communicationSeconds() : 0.0,
        halo_ ? halo_->setUpMessages()/max(scalar(halo_->builds()), 1.0) : 0.0
    });
    forAll(lists, k)
    {
        scalarList& l = *lists[k];
        l.setSize(n, 0);
        l[me] = mine[k];
        Pstream::gatherList(l);
    }
    return r;
}


void Foam::rankCounts::writeJson(Ostream& os) const
{
    const auto list = [&os](const char* name, const scalarList& l, const bool last)
    {
        os  << "    \"" << name << "\": [";
        forAll(l, i) os << (i ? ", " : "") << l[i];
        os  << "]" << (last ? "\n" : ",\n");
    };
    os  << "  \"ranks\": {\n";
    list("ownedParticlesPerStep", ownedParticles, false);
    list("haloCopiesPerStep", haloCopies, false);
    list("contactsPerStep", contacts, false);
    list("messagesPerExchange", messagesPerExchange, false);
    list("bytesPerExchange", bytesPerExchange, false);
    list("exchangeSeconds", exchangeSeconds, false);
    list("setUpMessagesPerStep", setUpMessagesPerStep, true);
    os  << "  },\n";
}


void Foam::particleStepper::maxOverProcessors(sef::dem::StepMaxima& m) const
{
    if (!Pstream::parRun()) return;
    scalarList values({m.subcycles, m.capped, m.largestTravel, m.speed, m.acceleration});
    Pstream::listCombineGather(values, maxEqOp<scalar>());
    Pstream::listCombineScatter(values);
    m.subcycles = values[0];
    m.capped = values[1];
    m.largestTravel = values[2];
    m.speed = values[3];
    m.acceleration = values[4];
}


void Foam::particleStepper::openWalls
(
    sef::dem::DemEngine& engine,
    const scalar stepStart,
    const scalar dt
)
{
    // (a hair into the step: a patch opening at its start is open for it)
    const labelList nowOpen = parts_.schedule->openedAt(stepStart + 1e-6*dt);
    if (nowOpen.size() == opened_.size()) return;
    for (const label patchi : nowOpen)
    {
        if (opened_.found(patchi)) continue;
        Info<< "Wall patch " << mesh_.boundaryMesh()[patchi].name()
            << " opens at time " << mesh_.time().timeName(stepStart) << nl;
        if (parts_.outlets) parts_.outlets->open(patchi);
    }
    opened_ = nowOpen;
    // (the mesh's wall faces, turned into core faces once, when a wall first opens)
    if (allWalls_.empty()) allWalls_ = meshWallFaces(mesh_);
    engine.setWalls(wallSchedule::closedFaces(allWalls_, opened_));
}


void Foam::particleStepper::beginStep
(
    sef::dem::DemEngine& engine,
    const sef::dem::ParticleSystem& ps,
    const double stepStart,
    const double dt
)
{
    if (parts_.schedule)
    {
        openWalls(engine, stepStart, dt);
        // the motions at the step's middle
        parts_.schedule->apply(engine, stepStart + 0.5*dt);
    }
    // the centres at the start of the step, to see who leaves
    const bool outlets = parts_.outlets && parts_.outlets->any();
    start_ = outlets ? sef::dem::StepStart::of(ps) : sef::dem::StepStart();
}


sef::dem::HaloExchange* Foam::particleStepper::addCopies
(
    sef::dem::ParticleSystem& ps,
    const double reach
)
{
    sef::dem::HaloExchange* exchange = nullptr;
    if (halo_)
    {
        halo_->build(ps, reach);
        // only particles near another processor (those it holds a copy of)
        // can leave this one in the step
        if (carriers_) carriers_->prepare(ps, halo_->sentParticles());
        exchange = halo_.get();
    }
    if (images_)
    {
        images_->build(ps, reach, halo_.get());
        exchange = images_.get();
    }
    return exchange;
}


void Foam::particleStepper::removeCopies(sef::dem::ParticleSystem& ps)
{
    // (the images' removal drops the inner halo copies too)
    if (images_)
    {
        images_->remove(ps);
    }
    else if (halo_)
    {
        halo_->remove(ps);
    }
}


double Foam::particleStepper::removeLeaving
(
    sef::dem::ParticleSystem& ps,
    const std::vector<std::int64_t>& ids
) const
{
    if (ids.empty()) return 0;
    const double before = potentialEnergy(ps, gravity_);
    particleOutlets::remove(ps, ids);
    return potentialEnergy(ps, gravity_) - before;
}


void Foam::particleStepper::finishStep
(
    sef::dem::DemEngine& engine,
    sef::dem::ParticleSystem& ps,
    const double dt
)
{
    std::vector<std::int64_t> left;
    if (parts_.outlets && parts_.outlets->any())
    {
        left = parts_.outlets->leaving(ps, start_, periodic_);
    }
    if (!carriers_)
    {
        entered_ += removeLeaving(ps, left);
        return;
    }
    // (removed after the transfer, which keeps the step's order)
    const bool changed = carriers_->transfer(ps, dt);
    entered_ += removeLeaving(ps, left);
    if (returnReduce(changed, orOp<bool>()))
    {
        // the contact memory follows the particles that changed processor
        moveContactMemory(engine, ownedFlags(ps.id), *halo_);
    }
}


void Foam::particleStepper::feed
(
    const sef::dem::DemEngine& engine,
    sef::dem::ParticleSystem& ps,
    const double endTime
)
{
    if (!parts_.feeder || parts_.feeder->owed(endTime) <= 0) return;
    const double before = potentialEnergy(ps, gravity_);
    const sef::dem::WallSet& walls = engine.walls();
    const wallClearance clearance(walls.faces());
    parts_.feeder->feed
    (
        ps, endTime, periodic_,
        [&](const sef::Vec3& x, double R)
        {
            return clearance.clear(mesh_, x, R);
        },
        [&](int t, const sef::Pose& pose)
        {
            return bodyClearOfWalls(mesh_, walls, ps.types[t].shape, pose);
        }
    );
    entered_ += potentialEnergy(ps, gravity_) - before;
}


void Foam::particleStepper::endStep(sef::dem::ParticleSystem& ps)
{
    if (!parts_.coreHoldsParticles) return;
    // centres that left through a periodic boundary come back through its
    // partner (carriers that crossed one were moved by their tracking)
    for (sef::Vec3& x : ps.position)
    {
        periodic_.wrap(x);
    }
}

// ************************************************************************* //
