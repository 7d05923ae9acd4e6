/*---------------------------------------------------------------------------*\
Description
    SuperellipsoidCloud: gather -> core step -> scatter -> track
    (see SuperellipsoidCloud.H).
\*---------------------------------------------------------------------------*/

#include "SuperellipsoidCloud.H"
#include "meshWallFaces.H"
#include "meshPeriodicity.H"
#include "foamEigen.H"
#include "interpolation.H"
#include "fvc.H"
#include "fvOptions.H"
#include "fvMatrices.H"
#include "clockTime.H"
#include "OFstream.H"
#include "IStringStream.H"
#include "IOField.H"
#include "dem/step/Subcycling.hpp"
#include "storedCloud.H"
#include "restartedState.H"
#include "recordedTypes.H"
#include "timeWriteGuard.H"
#include "engineStateFile.H"
#include "stepReports.H"
#include "volumeFractionFilter.H"
#include "surfaceInterpolationScheme.H"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

// * * * * * * * * * * * * * Private Member Functions  * * * * * * * * * * * //

namespace Foam
{
//- A parcel as a body of the core's particle system
template<class ParcelType>
void addParcelBody(sef::dem::ParticleSystem& ps, const ParcelType& p)
{
    const quaternion q = p.orientation();
    ps.add
    (
        p.shapeType(), p.particleId(), toEigen(p.centre()),
        sef::Quat(q.w(), q.v().x(), q.v().y(), q.v().z()),
        toEigen(p.U()), toEigen(p.omega())
    );
}
}

template<class CloudType>
Foam::fileName Foam::SuperellipsoidCloud<CloudType>::engineStatePath() const
{
    // One file per processor directory (each engine has its own contacts)
    return this->db().time().timePath()/"uniform"/cloud::prefix/this->name()
        /"demEngineState";
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::readEngineState()
{
    const fileName path = engineStatePath();
    const bool missing = !isFile(path);
    if (returnReduce(missing && this->size() > 0, orOp<bool>()))
    {
        WarningInFunction
            << "Restart without " << path << (Pstream::parRun() ? " (or a processor's)" : "")
            << ": contacts of cloud " << this->name() << " start without their"
            << " memory (warm starts, accumulated impulses), so the run does not"
            << " continue bit for bit like an uninterrupted one" << endl;
    }
    if (missing) return;

    std::ifstream is(path, std::ios::binary);
    try
    {
        engine_->readState(is);
    }
    catch (const std::exception& err)
    {
        FatalErrorInFunction
            << "Cannot read " << path << ": " << err.what() << exit(FatalError);
    }
    Info<< "    read the collision warm starts of cloud " << this->name() << nl;
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::moveToHandPositions()
{
    // OpenFOAM reads the barycentric coordinates; users edit `positions`
    // (written beside them) to move a parcel: where they differ, the edit
    // wins (doc/checks.md)
    const List<point> hand = readHandPositions(this->mesh(), this->name(), this->size());
    if (hand.empty()) return;
    const scalar tolerance = 1e-9*mag(this->mesh().bounds().span());
    label i = 0, moved = 0;
    for (parcelType& p : *this)
    {
        const point& x = hand[i++];
        if (mag(x - p.position()) <= tolerance) continue;
        if (this->mesh().findCell(x) < 0)
        {
            FatalErrorInFunction
                << "Cannot restart: "
                << cloudFilePath(this->mesh(), this->name(), "positions")
                << " moves particle " << p.particleId() << " to " << x
                << ", outside the mesh" << exit(FatalError);
        }
        p.relocate(x);
        p.centre() = x;
        ++moved;
    }
    if (moved)
    {
        Pout<< "    " << moved << " parcels moved by the edited "
            << cloudFilePath(this->mesh(), this->name(), "positions") << endl;
    }
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::createStep
(
    const sef::dem::PeriodicLattice& periodic
)
{
    // moving walls (doc/granular.md); a motion the walls cannot make is
    // refused here, before anything is written
    const dictionary& collisionDict =
        this->particleProperties().subDict("subModels").subDict("superellipsoidCollision");
    walls_.reset(new wallSchedule(this->mesh(), collisionDict, false));
    walls_->apply(*engine_, this->db().time().value());
    // particles fed at a rate (doc/granular.md, "Feeding")
    feeder_.reset
    (
        new particleFeeder
        (
            this->mesh(), collisionDict, settings_.types.names,
            settings_.types.types, settings_.types.fractions
        )
    );
    // the step around the engine, as superellipsoidDEMFoam's; the parcels
    // are the particles' state (OpenFOAM's tracking moves them across
    // processor and cyclic patches)
    particleStepper::parts stepParts;
    stepParts.schedule = walls_.get();
    stepParts.feeder = feeder_.get();
    stepper_.reset
    (
        new particleStepper
        (
            this->mesh(), settings_.subcycling, settings_.engine.gravity,
            periodic, stepParts
        )
    );
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::checkInjectors()
{
    // Stock injection models: which type they inject, one particle per parcel
    injectorTypes_.setSize(this->injectors().size(), 0);
    forAll(this->injectors(), i)
    {
        const dictionary& d = this->injectors()[i].coeffDict();
        if (this->injectors()[i].type() == "superellipsoidInjection")
        {
            continue;   // types per particle, one particle per parcel
        }
        if (d.found("particleType"))
        {
            injectorTypes_[i] = particleTypeIndex(settings_.types, d, "particleType");
        }
        else if (settings_.types.names.size() > 1)
        {
            FatalIOErrorInFunction(d)
                << "Missing entry 'particleType' in " << d.name()
                << ": the cloud has several particle types ("
                << settings_.types.names << ")" << exit(FatalIOError);
        }
        const word basis = d.lookupOrDefault<word>("parcelBasisType", "fixed");
        if (basis != "fixed" || d.lookupOrDefault<scalar>("nParticle", 1) != 1)
        {
            FatalIOErrorInFunction(d)
                << "Invalid entry 'parcelBasisType' in " << d.name()
                << ": superellipsoid parcels are single particles; set"
                << " 'parcelBasisType fixed; nParticle 1;'" << exit(FatalIOError);
        }
    }
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::readParcels()
{
    // The parcels written at this time (over all processors, recorded
    // with the injection models' state): missing or replaced particle
    // files are an error, never a run with fewer parcels
    checkStoredCount
    (
        this->mesh(), this->name(),
        this->outputProperties().template lookupOrDefault<label>("parcels", -1),
        this->outputProperties().objectPath()
    );
    parcelType::readFields(*this);
    moveToHandPositions();
    this->deleteLostParticles();
    // each parcel's type found by name in the current particleTypes
    labelList stored(this->size());
    label k = 0;
    for (const parcelType& p : *this) stored[k++] = p.shapeType();
    const labelList current = mapStoredTypes
    (
        this->outputProperties(), this->outputProperties().objectPath(),
        this->db().time().timeName(), settings_.types.names, settings_.types.types, stored
    );
    k = 0;
    for (parcelType& p : *this) p.shapeType() = current[k++];
    for (const parcelType& p : *this)
    {
        if (p.shapeType() < 0 || p.shapeType() >= settings_.types.names.size())
        {
            FatalErrorInFunction
                << "Particle " << p.particleId() << " of cloud " << this->name()
                << " has type index " << p.shapeType() << " but the cloud has "
                << settings_.types.names.size() << " particle types"
                << exit(FatalError);
        }
        nextParticleId_ = max(nextParticleId_, p.particleId() + 1);
        const quaternion q = p.orientation();
        checkRestartedState
        (
            toEigen(p.centre()), sef::Quat(q.w(), q.v().x(), q.v().y(), q.v().z()),
            toEigen(p.U()), toEigen(p.omega()),
            settings_.types.types[p.shapeType()].boundingRadius, p.particleId(),
            cloudFilePath(this->mesh(), this->name(), "")
        );
    }
    labelList ids(this->size());
    label i = 0;
    for (const parcelType& p : *this) ids[i++] = p.particleId();
    checkUniqueIds(ids, cloudFilePath(this->mesh(), this->name(), "particleId"));
    reduce(nextParticleId_, maxOp<label>());
    nextParticleId_ = max
    (
        nextParticleId_,
        this->outputProperties().template lookupOrDefault<label>("nextParticleId", 0)
    );
    if (this->outputProperties().found("feeding"))
    {
        feeder_->readRecord(this->outputProperties().subDict("feeding"));
    }
}


// * * * * * * * * * * * * * * * * Constructors  * * * * * * * * * * * * * * //

template<class CloudType>
Foam::SuperellipsoidCloud<CloudType>::SuperellipsoidCloud
(
    const word& cloudName,
    const volScalarField& rho,
    const volVectorField& U,
    const volScalarField& mu,
    const dimensionedVector& g,
    bool readFields
)
:
    CloudType(cloudName, rho, U, mu, g, false),
    settings_(readSuperellipsoidCloudSettings(this->particleProperties())),
    engine_(),
    system_(),
    injectorTypes_(),
    currentInjector_(-1),
    nextParticleId_(0),
    trace_(this->db().time(), this->particleProperties()),
    fluidForceAverage_(this->particleProperties())
{
    // collisions across cyclic patch pairs (doc/periodic.md)
    const sef::dem::PeriodicLattice periodic = meshPeriodicity(this->mesh());
    if (!periodic.empty())
    {
        checkPeriodicRoom(periodic, settings_.types.types);
        // walls through a periodic boundary are one surface across it
        settings_.engine.periodicShifts = periodic.shifts();
    }

    if (!this->solution().transient())
    {
        FatalIOErrorInFunction(this->particleProperties())
            << "Invalid entry 'transient' in solution of " << this->name()
            << "Properties: superellipsoid clouds are transient only"
            << exit(FatalIOError);
    }

    settings_.engine.gravity = toEigen(g.value());
    try
    {
        engine_.reset(new sef::dem::DemEngine(meshWallFaces(this->mesh()), settings_.engine));
    }
    catch (const std::exception& err)
    {
        FatalIOErrorInFunction(this->particleProperties())
            << "Collision settings of " << this->name() << ": " << err.what()
            << exit(FatalIOError);
    }
    createStep(periodic);
    system_.types = settings_.types.types;
    if (settings_.volumeFraction && settings_.dividedVolumeFraction)
    {
        volumeFractionSamples_.reset
        (
            new particleVolumeFraction
            (
                this->mesh(), settings_.types.types, settings_.volumeFractionPoints,
                stepper_->halo() ? stepper_->halo()->boxes() : List<boundBox>(), periodic
            )
        );
    }

    checkInjectors();

    if (readFields)
    {
        readParcels();
        readEngineState();
    }
}


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::setParcelThermoProperties
(
    parcelType& parcel,
    const scalar
)
{
    // Density from the particle type (checkParcelProperties, once the type is known)
    parcel.rho() = settings_.types.types[0].density;
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::checkParcelProperties
(
    parcelType& parcel,
    const scalar lagrangianDt,
    const bool fullyDescribed
)
{
    CloudType::checkParcelProperties(parcel, lagrangianDt, fullyDescribed);

    if (parcel.shapeType() < 0 || parcel.shapeType() >= settings_.types.names.size())
    {
        parcel.shapeType() = currentInjector_ >= 0 ? injectorTypes_[currentInjector_] : 0;
    }
    const sef::dem::ParticleType& type = settings_.types.types[parcel.shapeType()];
    const scalar dEq = settings_.hydrodynamics[parcel.shapeType()].factors.equivalentDiameter;
    parcel.rho() = type.density;
    parcel.d() = dEq;
    parcel.dTarget() = dEq;
    // the id comes with assignParticleIds, once the injector is done
    // The exact centre: the one superellipsoidInjection gave it, which its
    // mesh position rounds; else (stock injectors) the mesh position
    if (mag(parcel.centre() - parcel.position()) > 1e-9*dEq)
    {
        parcel.centre() = parcel.position();
    }
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::assignParticleIds(const label added)
{
    // The new parcels are the last `added` of this processor. Parcels of
    // superellipsoidInjection carry -2 - (their index in its list): their id
    // is the first free id plus that index, the serial id on every
    // processor. Other (stock) injectors' parcels (-1) are numbered after
    // those, processor by processor: unique, but in a decomposed run not
    // necessarily the serial numbers.
    label listed = 0, stock = 0;
    label skip = this->size() - added;
    for (parcelType& p : *this)
    {
        if (skip-- > 0) continue;
        if (p.particleId() <= -2)
        {
            listed = max(listed, -1 - p.particleId());
        }
        else
        {
            ++stock;
        }
    }
    reduce(listed, maxOp<label>());
    labelList stockPerProcessor(Pstream::nProcs(), 0);
    stockPerProcessor[Pstream::myProcNo()] = stock;
    Pstream::gatherList(stockPerProcessor);
    Pstream::scatterList(stockPerProcessor);
    label next = nextParticleId_ + listed;
    for (label proci = 0; proci < Pstream::myProcNo(); ++proci)
    {
        next += stockPerProcessor[proci];
    }
    skip = this->size() - added;
    for (parcelType& p : *this)
    {
        if (skip-- > 0) continue;
        p.particleId() = p.particleId() <= -2 ? nextParticleId_ - 2 - p.particleId() : next++;
    }
    nextParticleId_ += listed + sum(stockPerProcessor);
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::evolve()
{
    if (!this->solution().canEvolve()) return;

    clockTime clock;
    typename parcelType::trackingData td(*this);

    // KinematicCloud::solve and evolveCloud, with the injection models run
    // one by one (each knows its particle type)
    this->preEvolve();
    if (this->solution().coupled())
    {
        this->resetSourceTerms();
    }
    forAll(this->injectors(), i)
    {
        currentInjector_ = i;
        const label before = this->size();
        this->injectors()[i].inject(*this, td);
        const label added = this->size() - before;
        if (returnReduce(added, sumOp<label>()) > 0)
        {
            assignParticleIds(added);
        }
        totals_.injected += returnReduce(added, sumOp<label>());
    }
    currentInjector_ = -1;

    motion(*this, td);

    if (this->solution().coupled())
    {
        this->scaleSources();
    }
    this->outputProperties().set("nextParticleId", nextParticleId_);
    if (feeder_->active())
    {
        // the count fed and the next id: a restart feeds on exactly
        std::ostringstream record;
        record.precision(17);
        feeder_->writeRecord(record);
        IStringStream is(record.str());
        this->outputProperties().set("feeding", dictionary(is));
    }
    if (this->db().time().writeTime())
    {
        // the restart's check: the total (reconstructPar and decomposePar
        // copy one processor's uniform/ to all)
        this->outputProperties().set("parcels", returnReduce(this->size(), sumOp<label>()));
        // (a restart finds each parcel's type by name: recordedTypes.H)
        this->outputProperties().set
        (
            "particleTypes", recordedTypes(settings_.types.names, settings_.types.types)
        );
    }
    this->info();
    this->postEvolve();
    totals_.cloudSeconds += clock.elapsedTime();
}


template<class CloudType>
template<class TrackCloudType>
void Foam::SuperellipsoidCloud<CloudType>::motion
(
    TrackCloudType& cloud,
    typename parcelType::trackingData& td
)
{
    stepParticles(cloud, td);

    clockTime clock;
    const label before = this->size();
    td.part() = parcelType::trackingData::tpLinearTrack;
    CloudType::move(cloud, td, this->db().time().deltaTValue());
    // (transfers between processors cancel in the sum)
    totals_.escaped += returnReduce(before - this->size(), sumOp<label>());
    if (stepper_->halo())
    {
        // the contact memory follows the particles that changed processor
        std::vector<std::int64_t> ids;
        ids.reserve(this->size());
        for (const parcelType& p : *this) ids.push_back(p.particleId());
        moveContactMemory(*engine_, ownedFlags(ids), *stepper_->halo());
    }
    totals_.trackSeconds += clock.elapsedTime();
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::info()
{
    // OpenFOAM's cloud summary; it also stores the injection models' state
    // (what they injected and when) for restarts
    CloudType::info();

    const sef::dem::StepStatistics& s = lastStep_.stats;
    Info<< "    superellipsoids"
        << ": parcels " << returnReduce(this->size(), sumOp<label>())
        << "  collisions " << s.contacts
        << " (pairs " << s.pairContacts << ", walls " << s.wallContacts << ")"
        << "  subcycles " << lastStep_.subCycles
        << "  Newton its " << s.newtonIterations
        // narrow-phase answers reused from the contact memory (no query)
        << "  reused " << s.reusedPairs << " of " << s.candidatePairs << " pairs, "
        << s.reusedWalls << " walls"
        << "  fallbacks " << s.fallbacks
        << "  max Re_p " << lastStep_.maxReynolds
        << "  maxOverlap/dEq " << s.maxOverlapOverDeq
        << nl;
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::writeFields() const
{
    CloudType::writeFields();

    // Shape fields for ParaView (Tensor Glyph) and bin/sefRenderCloud.py
    const label np = this->size();
    IOField<vector> halfAxes(this->fieldIOobject("halfAxes", IOobject::NO_READ), np);
    IOField<scalar> eps1(this->fieldIOobject("eps1", IOobject::NO_READ), np);
    IOField<scalar> eps2(this->fieldIOobject("eps2", IOobject::NO_READ), np);
    IOField<tensor> glyph(this->fieldIOobject("glyphTensor", IOobject::NO_READ), np);
    label i = 0;
    for (const parcelType& p : *this)
    {
        const sef::Superellipsoid& shape = settings_.types.types[p.shapeType()].shape;
        halfAxes[i] = toFoam(shape.halfAxes());
        eps1[i] = shape.eps1();
        eps2[i] = shape.eps2();
        // R diag(a, b, c), transposed: ParaView reads tensors column by column
        const tensor R = p.orientation().R();
        const vector& h = halfAxes[i];
        glyph[i] = tensor
        (
            R.xx()*h.x(), R.xy()*h.y(), R.xz()*h.z(),
            R.yx()*h.x(), R.yy()*h.y(), R.yz()*h.z(),
            R.zx()*h.x(), R.zy()*h.y(), R.zz()*h.z()
        ).T();
        ++i;
    }
    halfAxes.write(np > 0);
    eps1.write(np > 0);
    eps2.write(np > 0);
    glyph.write(np > 0);

    // Collision warm starts: a restart continues like the continuous run
    writeEngineState(*engine_, engineStatePath());
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::writeSummary(const scalar wallSeconds) const
{
    const label parcels = returnReduce(this->size(), sumOp<label>());
    // decomposed runs: communication share, and the load imbalance of the
    // core steps (slowest processor's step time, communication excluded,
    // over the mean)
    const processorHalo* halo = stepper_->halo();
    const double comm = halo ? halo->communicationSeconds() : 0;
    const double compute = max(totals_.stepSeconds - comm, 0.0);
    const double meanComm = returnReduce(comm, sumOp<double>())/Pstream::nProcs();
    const double meanCompute = returnReduce(compute, sumOp<double>())/Pstream::nProcs();
    const double maxCompute = returnReduce(compute, maxOp<double>());
    const rankCounts ranks = stepper_->gatherRankCounts();
    // the particles' mass-weighted mean velocity at the end (a periodic
    // suspension's settling, a column's flow)
    vector momentum = Zero;
    scalar mass = 0;
    for (const parcelType& p : *this)
    {
        const scalar m = settings_.types.types[p.shapeType()].mass;
        momentum += m*p.U();
        mass += m;
    }
    reduce(momentum, sumOp<vector>());
    reduce(mass, sumOp<scalar>());
    const vector meanVelocity = mass > 0 ? momentum/mass : vector::zero;
    if (!Pstream::master()) return;

    const superellipsoidRunTotals& t = totals_;
    const fileName dir = this->db().time().globalPath()/"postProcessing";
    mkDir(dir);
    OFstream os(dir/(this->name() + "Summary.json"));
    os.precision(10);
    const double steps = max(t.steps, label(1));
    const double parcelSteps = max(t.parcelSteps, 1.0);
    os  << "{\n"
        << "  \"parcels\": " << parcels << ",\n"
        << "  \"injected\": " << t.injected << ",\n"
        << "  \"escaped\": " << t.escaped << ",\n"
        << "  \"pushedBack\": " << t.pushedBack << ",\n"
        << "  \"particlesFed\": " << feeder_->fed() << ",\n"
        << "  \"particlesOwed\": " << feeder_->owed(this->db().time().value()) << ",\n"
        << "  \"stepsAboveSubCycleTravel\": " << stepper_->counts().travelSteps << ",\n"
        << "  \"stepsWithSubCyclesCapped\": " << stepper_->counts().cappedSteps << ",\n"
        << "  \"maxOverlapOverDeq\": " << t.maxOverlapOverDeq << ",\n"
        << "  \"maxReynolds\": " << t.maxReynolds << ",\n"
        << "  \"meanParticleVelocity\": [" << meanVelocity.x() << ", "
        << meanVelocity.y() << ", " << meanVelocity.z() << "],\n"
        << "  \"steps\": " << t.steps << ",\n"
        << "  \"collisionsPerStep\": " << t.contacts/steps << ",\n"
        << "  \"subCyclesPerStep\": " << t.subCycles/steps << ",\n"
        << "  \"fallbacks\": " << t.fallbacks << ",\n"
        << "  \"stepsAtSweepCap\": " << t.sweepCapSteps << ",\n"
        << "  \"correctionEnergyPaid\": " << t.correctionEnergyPaid << ",\n"
 << "  \"correctionEnergyUnpaid\": " << t.correctionEnergyUnpaid << ",\n";
    t.sleeping.writeJson(os);
    os  << "  \"processors\": " << Pstream::nProcs() << ",\n";
    ranks.writeJson(os);
    os
        << "  \"haloParticlesPerStep\": " << ranks.haloCopiesPerStep() << ",\n"
        << "  \"haloMessagesPerExchange\": " << ranks.largestMessagesPerExchange() << ",\n"
        << "  \"haloBytesPerExchange\": " << ranks.largestBytesPerExchange() << ",\n"
        << "  \"communicationSeconds\": " << meanComm << ",\n"
        << "  \"loadImbalance\": " << (meanCompute > 0 ? maxCompute/meanCompute : 1) << ",\n"
        << "  \"wallSeconds\": " << wallSeconds << ",\n"
        << "  \"cloudSeconds\": " << t.cloudSeconds << ",\n"
        << "  \"cloudShareOfWallTime\": " << (wallSeconds > 0 ? t.cloudSeconds/wallSeconds : 0) << ",\n"
        << "  \"microsecondsPerParcelStep\": {\n"
        << "    \"forces\": " << 1e6*t.forceSeconds/parcelSteps << ",\n"
        << "    \"coreStep\": " << 1e6*t.stepSeconds/parcelSteps << ",\n"
        << "    \"tracking\": " << 1e6*t.trackSeconds/parcelSteps << ",\n"
        << "    \"volumeFraction\": " << 1e6*t.volumeFractionSeconds/parcelSteps << ",\n"
        << "    \"total\": " << 1e6*t.cloudSeconds/parcelSteps << "\n"
        << "  }\n"
        << "}\n";
    Info<< "Cloud summary written to " << os.name() << nl;
    reportSweepCap(t.sweepCapSteps, t.steps, settings_.engine.maxSweeps, "superellipsoidCollision");
}

// The cloud's side of the coupling with the fluid equations
#include "SuperellipsoidCloudStep.C"
#include "SuperellipsoidCloudCoupling.C"

// ************************************************************************* //
