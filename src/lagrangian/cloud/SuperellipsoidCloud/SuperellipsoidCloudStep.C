/*---------------------------------------------------------------------------*\
Description
    SuperellipsoidCloud's step, in the order stepParticles runs its parts:
    gather the parcels, sample the fluid, the fluid forces, the core step
    (particleStepper, the same as superellipsoidDEMFoam's), the parcels fed
    in it, scatter the new state, the momentum back to the fluid.
\*---------------------------------------------------------------------------*/

// * * * * * * * * * * * * * Private Member Functions  * * * * * * * * * * * //

template<class CloudType>
Foam::DynamicList<typename Foam::SuperellipsoidCloud<CloudType>::parcelType*>
Foam::SuperellipsoidCloud<CloudType>::gatherParcels()
{
    DynamicList<parcelType*> parcels(this->size());
    for (parcelType& p : *this)
    {
        parcels.append(&p);
    }
    const auto byId = [](const parcelType* a, const parcelType* b)
    {
        return a->particleId() < b->particleId();
    };
    if (!std::is_sorted(parcels.begin(), parcels.end(), byId))
    {
        std::stable_sort(parcels.begin(), parcels.end(), byId);
    }
    system_.clear();
    for (parcelType* pp : parcels)
    {
        try
        {
            addParcelBody(system_, *pp);
        }
        catch (const std::exception& err)
        {
            FatalErrorInFunction
                << "Cloud " << this->name() << ": " << err.what() << exit(FatalError);
        }
    }
    return parcels;
}


template<class CloudType>
std::vector<sef::FluidState> Foam::SuperellipsoidCloud<CloudType>::sampleFluid
(
    const DynamicList<parcelType*>& parcels,
    typename parcelType::trackingData& td
) const
{
    // (on every processor, with or without parcels: the gradients below
    // exchange processor-patch values)
    std::vector<sef::FluidState> fluid(parcels.size());
    const volVectorField& U = this->U();
    const word scheme =
        this->solution().interpolationSchemes().template
            lookupOrDefault<word>(U.name(), "cellPoint");
    // grad U and Du/Dt over the whole mesh only when a force uses them
    // (rotation rate; pressure gradient and added mass). OpenFOAM's
    // grad(U)_ij = d U_j / d x_i: the transpose of the core's L
    const sef::FluidForceModel& model = settings_.forces;
    const bool needAcceleration =
        (model.pressureGradient && !model.pressureFromField) || model.addedMass;
    const bool needGradient = model.rotationalDrag || needAcceleration;
    tmp<volTensorField> gradU;
    tmp<volVectorField> DUDt;
    autoPtr<interpolation<tensor>> gradUInterp;
    autoPtr<interpolation<vector>> DUDtInterp;
    if (needGradient)
    {
        gradU = tmp<volTensorField>::New("gradU", fvc::grad(U));
        gradUInterp = interpolation<tensor>::New(scheme, gradU());
    }
    if (needAcceleration)
    {
        DUDt = tmp<volVectorField>::New("DUDt", fvc::ddt(U) + (U & gradU()));
        DUDtInterp = interpolation<vector>::New(scheme, DUDt());
    }
    // the pressure-gradient force from the solver's (kinematic) p: the
    // particles' share of the fluid's face pressure force, averaged over
    // the cells each particle's volume is in (particlePressureGradient)
    tmp<volVectorField> gradp;
    if (model.pressureGradient && model.pressureFromField)
    {
        gradp = particlePressureGradient();
    }
    // hindered drag: the solver's fluid fraction (of the previous step's
    // particle positions, as the fluid equations used it)
    autoPtr<interpolation<scalar>> alphacInterp;
    if (model.voidage != sef::VoidageModel::none)
    {
        const volScalarField& alphac =
            this->mesh().template lookupObject<volScalarField>("alphac");
        alphacInterp = interpolation<scalar>::New
        (
            this->solution().interpolationSchemes().template
                lookupOrDefault<word>(alphac.name(), "cell"),
            alphac
        );
    }

    forAll(parcels, k)
    {
        const parcelType& p = *parcels[k];
        const barycentric& coords = p.coordinates();
        const tetIndices tet = p.currentTetIndices();
        sef::FluidState& f = fluid[k];
        f.velocity = toEigen(td.UInterp().interpolate(coords, tet));
        if (needGradient)
        {
            f.velocityGradient = toEigen(gradUInterp->interpolate(coords, tet)).transpose();
        }
        if (needAcceleration)
        {
            f.acceleration = toEigen(DUDtInterp->interpolate(coords, tet));
        }
        f.density = td.rhoInterp().interpolate(coords, tet);
        if (gradp.valid())
        {
            vector average = Zero;
            visitVolumeShares(p, [&](const label cell, const scalar w)
            {
                average += w*gradp()[cell];
            });
            f.pressureGradient = f.density*toEigen(average);
        }
        if (alphacInterp.valid())
        {
            f.fluidFraction = min(max(alphacInterp->interpolate(coords, tet), SMALL), 1.0);
        }
        f.dynamicViscosity = td.muInterp().interpolate(coords, tet);
    }
    return fluid;
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::applyFluidForces
(
    const DynamicList<parcelType*>& parcels,
    const std::vector<sef::FluidState>& fluid,
    std::vector<sef::ParticleFluidForces>& forces,
    scalar& speedBound,
    scalar& accelerationBound
)
{
    // ([Superellipsoid-OpenFOAM] eqs. 5-7, 21-23; hydrodynamics/FluidForces.hpp)
    const sef::Vec3 g = settings_.engine.gravity;
    const label n = parcels.size();
    forces.resize(n);
    system_.fluidDrag.resize(n);
    lastStep_.maxReynolds = 0;
    for (label k = 0; k < n; ++k)
    {
        const parcelType& p = *parcels[k];
        const scalar m = settings_.types.types[p.shapeType()].mass;
        sef::ParticleFluidForces& f = forces[k];
        try
        {
            f = sef::fluidForces
            (
                settings_.hydrodynamics[p.shapeType()], m, system_.orientation[k],
                system_.velocity[k], fluid[k], g, settings_.forces,
                system_.angularVelocity[k]
            );
        }
        catch (const std::exception& err)
        {
            FatalErrorInFunction
                << "Fluid forces on particle " << p.particleId() << " at "
                << p.centre() << " failed: " << err.what() << exit(FatalError);
        }
        system_.fluidDrag[k] = f.drag;
        system_.externalForce[k] = f.force;
        system_.externalTorque[k] = f.torque;
        lastStep_.maxReynolds = max(lastStep_.maxReynolds, f.reynolds);
        // drag pulls toward the fluid's velocity, never beyond it
        speedBound = max(speedBound, fluid[k].velocity.norm());
        accelerationBound = max(accelerationBound, (g + f.force/m).norm());
    }
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::collisionStep
(
    const scalar speedBound,
    const scalar accelerationBound
)
{
    const scalar dt = this->db().time().deltaTValue();
    if (feeder_->active())
    {
        // fed particles are numbered after every injected one
        feeder_->reserveIds(nextParticleId_);
    }
    try
    {
        const sef::dem::TimeStepOutcome outcome =
            stepper_->step(*engine_, system_, dt, speedBound, accelerationBound);
        lastStep_.stats = outcome.stats;
        lastStep_.subCycles = outcome.subcycles;
    }
    catch (const std::exception& err)
    {
        FatalErrorInFunction
            << "Particle step of cloud " << this->name() << " failed at time "
            << this->db().time().timeName() << ": " << err.what() << exit(FatalError);
    }
    if (feeder_->active())
    {
        nextParticleId_ = max(nextParticleId_, label(feeder_->nextId()));
    }
    if (!wallLoads_.valid())
    {
        wallLoads_.reset(new wallLoads(this->mesh(), this->name(), this->particleProperties()));
    }
    wallLoads_->write(lastStep_.stats, dt);
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::addFedParcels(const label first)
{
    const scalar dt = this->db().time().deltaTValue();
    for (label k = first; k < label(system_.size()); ++k)
    {
        // (the feeder keeps on each processor the particles in its cells)
        const vector x = toFoam(system_.position[k]);
        const label celli = this->mesh().findCell(x);
        if (celli < 0)
        {
            FatalErrorInFunction
                << "Cloud " << this->name() << ": fed particle " << system_.id[k]
                << " at " << x << " is in no cell of this processor"
                << exit(FatalError);
        }
        parcelType* p = new parcelType(this->mesh(), x, celli);
        const sef::Quat& q = system_.orientation[k];
        p->shapeType() = system_.type[k];
        p->particleId() = label(system_.id[k]);
        p->U() = toFoam(system_.velocity[k]);
        p->omega() = toFoam(system_.angularVelocity[k]);
        p->setOrientation(quaternion(q.w(), vector(q.x(), q.y(), q.z())));
        p->centre() = x;
        p->nParticle() = 1;
        this->checkParcelProperties(*p, dt, false);
        p->displacement() = Zero;
        p->stepFraction() = 0;
        this->addParticle(p);
    }
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::scatterParcels
(
    const DynamicList<parcelType*>& parcels
)
{
    const scalar dt = this->db().time().deltaTValue();
    forAll(parcels, k)
    {
        parcelType& p = *parcels[k];
        const vector x = toFoam(system_.position[k]);
        const sef::Quat& q = system_.orientation[k];
        p.displacement() = x - p.position();
        p.centre() = x;
        p.U() = toFoam(system_.velocity[k]);
        p.omega() = toFoam(system_.angularVelocity[k]);
        p.setOrientation(quaternion(q.w(), vector(q.x(), q.y(), q.z())));
        p.stepFraction() = 0;
        p.age() += dt;
    }
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::depositFluidMomentum
(
    const DynamicList<parcelType*>& parcels,
    const std::vector<sef::ParticleFluidForces>& forces
)
{
    const scalar dt = this->db().time().deltaTValue();
    const sef::Vec3 g = settings_.engine.gravity;
    const bool coupled = this->solution().coupled();
    lastStep_.fluidForce = Zero;
    lastStep_.pressureForce = Zero;
    forAll(parcels, k)
    {
        const parcelType& p = *parcels[k];
        // Momentum given to the fluid: the opposite of what drag,
        // pressure-gradient and added-mass forces gave the particle, to
        // round-off (hydrodynamics/FluidForces.hpp: momentumToFluid)
        const sef::dem::ParticleType& type = settings_.types.types[p.shapeType()];
        const scalar m = type.mass;
        const vector toFluid = toFoam
        (
            sef::momentumToFluid(forces[k], m, g, system_.dragImpulse[k], dt, type.held)
        );
        // the fluid's whole force: what it exchanges, and -V grad p (whose
        // reaction is in the fluid equations' -alphac grad p)
        lastStep_.fluidForce += toFoam(forces[k].pressureForce) - toFluid/dt;
        lastStep_.pressureForce += toFoam(forces[k].pressureForce);
        if (coupled)
        {
            // Implicit part: how the exchanged impulse changes with the
            // fluid velocity, m (1 - exp(-d dt/m)) with the isotropic part d
            // of the (step's) drag tensor: d dt for slow particles, m for
            // fast ones; d dt for a held particle, which never follows
            const scalar d = system_.fluidDrag[k].translation.trace()/3;
            const scalar coeff = type.held ? d*dt : m*(1 - std::exp(-d*dt/m));
            depositSource(p, toFluid, coeff);
        }
    }
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::countStep(const label parcels)
{
    reduce(lastStep_.maxReynolds, maxOp<scalar>());
    reduce(lastStep_.fluidForce, sumOp<vector>());
    reduce(lastStep_.pressureForce, sumOp<vector>());
    writeFluidForce();
    lastStep_.parcels = returnReduce(parcels, sumOp<label>());
    const sef::dem::StepStatistics& stats = lastStep_.stats;
    ++totals_.steps;
    totals_.contacts += stats.contacts + stats.speculativeContacts; // (touching, or met at a gap)
    totals_.subCycles += lastStep_.subCycles;
    totals_.fallbacks += stats.fallbacks;
    totals_.pushedBack += stats.pushedBack;
    if (stats.sweepLimitReached > 0) ++totals_.sweepCapSteps;
    totals_.correctionEnergyPaid += stats.correctionEnergyPaid;
    totals_.correctionEnergyUnpaid += stats.correctionEnergyUnpaid;
    totals_.sleeping.add(stats, lastStep_.parcels);
    totals_.maxOverlapOverDeq = max(totals_.maxOverlapOverDeq, stats.maxOverlapOverDeq);
    totals_.maxReynolds = max(totals_.maxReynolds, lastStep_.maxReynolds);
    totals_.parcelSteps += lastStep_.parcels;
}


template<class CloudType>
template<class TrackCloudType>
void Foam::SuperellipsoidCloud<CloudType>::stepParticles
(
    TrackCloudType& cloud,
    typename parcelType::trackingData& td
)
{
    clockTime clock;
    const DynamicList<parcelType*> parcels = gatherParcels();
    const label n = parcels.size();

    // The fluid forces, kept until the step is done: the fluid's share
    // needs them. The travel bounds: particles' own speeds and gravity
    // unless the fluid's are larger
    std::vector<sef::ParticleFluidForces> forces;
    scalar speedBound = 0, accelerationBound = 0;
    lastStep_.maxReynolds = 0;
    if (settings_.anyFluidForce)
    {
        applyFluidForces(parcels, sampleFluid(parcels, td), forces, speedBound, accelerationBound);
    }
    totals_.forceSeconds += clock.timeIncrement();

    collisionStep(speedBound, accelerationBound);
    totals_.stepSeconds += clock.timeIncrement();
    trace_.write(this->db().time(), system_);

    addFedParcels(n);
    scatterParcels(parcels);
    if (settings_.anyFluidForce)
    {
        depositFluidMomentum(parcels, forces);
    }
    else
    {
        lastStep_.fluidForce = Zero;
        lastStep_.pressureForce = Zero;
    }
    countStep(n);
}

// ************************************************************************* //
