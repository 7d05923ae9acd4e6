/*---------------------------------------------------------------------------*\
Description
    The cloud's side of the coupling with the fluid equations (part of
    SuperellipsoidCloud.C): the particle volume fraction the fluid sees,
    where each particle's momentum source goes, the driving pressure
    gradient of periodic columns, the fluid-force record.
\*---------------------------------------------------------------------------*/

template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::addDrivingPressureGradient
(
    volVectorField& gradp
) const
{
    // The fluid's explicit fvOptions sources of momentum (meanVelocityForce:
    // the mean pressure gradient that drives a periodic column, or holds the
    // mean flow of a periodic suspension) stand for a pressure gradient the
    // solver's p does not hold: alphac DU/Dt = -alphac grad p + S + ...
    // The particles feel it as well, -V grad p_drive with grad p_drive =
    // -S/alphac (model A; doc/periodic.md). fvMatrix keeps S as -S V in its
    // source.
    fv::options& options = fv::options::New(this->mesh());
    volVectorField& U = const_cast<volVectorField&>(this->U());
    if (!options.appliesToField(U.name())) return;
    const tmp<fvVectorMatrix> sources(options(U));   // (addSup only reads its state)
    const scalarField& V = this->mesh().V();
    const volScalarField* alphac =
        this->mesh().template findObject<volScalarField>("alphac");
    forAll(gradp, celli)
    {
        const scalar fluid = alphac ? max((*alphac)[celli], SMALL) : 1;
        gradp[celli] += sources().source()[celli]/(V[celli]*fluid);
    }
    gradp.correctBoundaryConditions();
}


template<class CloudType>
template<class Visit>
void Foam::SuperellipsoidCloud<CloudType>::visitVolumeShares
(
    const parcelType& p,
    Visit&& visit
) const
{
    // with the volume fraction: the cells by the particle's volume in each,
    // as alphac has it (a bed's sources then vary from cell to cell as its
    // solids do, not with where the centres fall); a part on another
    // processor (or beyond a periodic boundary) at the centre's cell
    const auto shares =
        volumeFraction() ? volumeShares_.find(p.particleId()) : volumeShares_.end();
    scalar rest = 1;
    if (shares != volumeShares_.end())
    {
        // (mass over density: shape.volume() evaluates Beta functions)
        const sef::dem::ParticleType& type = settings_.types.types[p.shapeType()];
        const scalar V = type.mass/type.density;
        for (const cellShare& c : shares->second)
        {
            const scalar w = c.volume/V;
            visit(c.cell, w);
            rest -= w;
        }
    }
    if (rest > 0)
    {
        visit(p.cell(), rest);
    }
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::depositSource
(
    const parcelType& p,
    const vector& toFluid,
    const scalar coeff
)
{
    visitVolumeShares(p, [&](const label cell, const scalar w)
    {
        this->UTrans()[cell] += w*toFluid;
        this->UCoeff()[cell] += w*coeff;
    });
}


template<class CloudType>
const Foam::volTensorField&
Foam::SuperellipsoidCloud<CloudType>::reconstructionTensor() const
{
    if (!reconstructionTensor_.valid())
    {
        const fvMesh& mesh = this->mesh();
        reconstructionTensor_.reset
        (
            new volTensorField
            (
                IOobject("reconstructionTensor", mesh.time().timeName(), mesh),
                mesh,
                dimensionedTensor(dimLength, Zero),
                calculatedFvPatchTensorField::typeName
            )
        );
        const surfaceVectorField SfHat(mesh.Sf()/mesh.magSf());
        reconstructionTensor_->primitiveFieldRef() =
            mesh.V().field()*inv(fvc::surfaceSum(SfHat*mesh.Sf()))().primitiveField();
        // (the neighbours' across coupled patches)
        reconstructionTensor_->correctBoundaryConditions();
    }
    return reconstructionTensor_();
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::addBoundaryPressurePushes
(
    const volTensorField& B,
    const surfaceScalarField& w,
    const surfaceScalarField& s,
    const volScalarField& alphac,
    vectorField& g
) const
{
    const fvMesh& mesh = this->mesh();
    const surfaceVectorField& Sf = mesh.Sf();
    forAll(mesh.boundary(), patchi)
    {
        const fvPatch& patch = mesh.boundary()[patchi];
        const labelUList& cells = patch.faceCells();
        const vectorField& pSf = Sf.boundaryField()[patchi];
        const scalarField& ps = s.boundaryField()[patchi];
        const scalarField& pw = w.boundaryField()[patchi];
        if (patch.coupled())
        {
            // the neighbour's reconstruction holds the face too, and this
            // cell's theta in its theta_f with the same weight w
            const tensorField Bn(B.boundaryField()[patchi].patchNeighbourField());
            forAll(cells, i)
            {
                g[cells[i]] += pw[i]*((B[cells[i]] + Bn[i]) & pSf[i])*ps[i];
            }
            continue;
        }
        // theta_b = 1 - alphac_b: the part of it that follows the cell's
        // (zeroGradient all, a fixed value none)
        const fvPatchScalarField& pAlphac = alphac.boundaryField()[patchi];
        if (pAlphac.fixesValue() || isA<calculatedFvPatchScalarField>(pAlphac)) continue;
        const scalarField follows(pAlphac.valueInternalCoeffs(pw));
        forAll(cells, i)
        {
            g[cells[i]] += follows[i]*(B[cells[i]] & pSf[i])*ps[i];
        }
    }
}


template<class CloudType>
Foam::tmp<Foam::vectorField>
Foam::SuperellipsoidCloud<CloudType>::pressurePushes
(
    const volScalarField& p,
    const volScalarField& alphac
) const
{
    const fvMesh& mesh = this->mesh();
    const volTensorField& B = reconstructionTensor();

    const tmp<surfaceScalarField> tw =
        surfaceInterpolationScheme<scalar>::New
        (
            mesh, mesh.interpolationScheme("interpolate(" + alphac.name() + ')')
        )().weights(alphac);
    const surfaceScalarField& w = tw();
    const tmp<surfaceScalarField> ts = fvc::snGrad(p);
    const surfaceScalarField& s = ts();
    const surfaceVectorField& Sf = mesh.Sf();

    tmp<vectorField> tg(new vectorField(mesh.nCells(), Zero));
    vectorField& g = tg.ref();
    const labelUList& owner = mesh.owner();
    const labelUList& neighbour = mesh.neighbour();
    forAll(neighbour, facei)
    {
        const label o = owner[facei], n = neighbour[facei];
        const vector push = ((B[o] + B[n]) & Sf[facei])*s[facei];
        g[o] += w[facei]*push;
        g[n] += (1 - w[facei])*push;
    }
    addBoundaryPressurePushes(B, w, s, alphac, g);
    return tg;
}


template<class CloudType>
Foam::tmp<Foam::volVectorField>
Foam::SuperellipsoidCloud<CloudType>::particlePressureGradient() const
{
    // The fluid equations push the fluid by the pressure on faces,
    // reconstruct(alphac_f snGrad(p) |S|) (UEqn.H, pEqn.H), with alphac_f
    // interpolated from the cells. The particles must take the rest,
    // reconstruct((1 - alphac_f) snGrad(p) |S|), for fluid and particles
    // together to feel just the pressure on the domain's boundary (a bed's
    // pressure drop is then the fluid force on it). That rest is linear in
    // the cells' solids fractions theta = 1 - alphac:
    //     sum_c V_c reconstruct(theta_f snGrad(p) |S|)_c = sum_c theta_c g_c,
    // a face adding (B_O + B_N).S s theta_f, theta_f = w theta_O +
    // (1 - w) theta_N, with B = V inv(sum_faces S S/|S|), reconstruct's own
    // tensor. The particle volume in cell c then carries the gradient
    // g_c/V_c, and a particle the average over the cells its volume is in
    // (visitVolumeShares): in a uniform gradient, that gradient.
    // Exact where theta -> alphac is linear: not where alphac is clipped at
    // 1 - alphaMax, nor for the part of a particle on another processor.
    const fvMesh& mesh = this->mesh();
    const volScalarField& p = mesh.template lookupObject<volScalarField>("p");
    const volScalarField& alphac = mesh.template lookupObject<volScalarField>("alphac");
    const tmp<vectorField> g = pressurePushes(p, alphac);

    tmp<volVectorField> tgradp
    (
        tmp<volVectorField>::New
        (
            IOobject("particlePressureGradient", mesh.time().timeName(), mesh),
            mesh,
            dimensionedVector(p.dimensions()/dimLength, Zero),
            calculatedFvPatchVectorField::typeName
        )
    );
    volVectorField& gradp = tgradp.ref();
    gradp.primitiveFieldRef() = g()/mesh.V().field();
    // the fluid's alphac came through the filter (self-adjoint,
    // volumeFractionFilter.H): sum_c V_c filter(theta)_c G_c = sum_c V_c
    // theta_c filter(G)_c, so the particles sample the filtered gradient
    if (settings_.volumeFractionSmoothing > 0)
    {
        for (direction d = 0; d < vector::nComponents; ++d)
        {
            gradp.primitiveFieldRef().replace
            (
                d,
                volumeFractionFilter
                (
                    mesh, gradp.primitiveField().component(d), settings_.volumeFractionSmoothing
                )
            );
        }
    }
    gradp.correctBoundaryConditions();
    addDrivingPressureGradient(gradp);
    return tgradp;
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::writeFluidForce()
{
    if (!settings_.anyFluidForce || !Pstream::master()) return;
    const Time& time = this->db().time();
    const scalar dt = time.deltaTValue();
    fluidImpulse_ += lastStep_.fluidForce*dt;
    pressureImpulse_ += lastStep_.pressureForce*dt;
    if (!fluidForceAverage_.add(time, dt)) return;
    const scalar span = fluidForceAverage_.take();
    const vector F = fluidImpulse_/span;
    const vector P = pressureImpulse_/span;
    fluidImpulse_ = Zero;
    pressureImpulse_ = Zero;
    if (!fluidForceFile_.valid())
    {
        // as OpenFOAM's function objects: one file per start time
        const fileName dir =
            time.globalPath()/"postProcessing"/this->name()/time.timeName(time.startTime().value());
        mkDir(dir);
        fluidForceFile_.reset(new OFstream(dir/"fluidForce.dat"));
        fluidForceFile_()
            << "# Total fluid force on the particles of cloud " << this->name()
            << " [N]: drag, pressure gradient and added mass (buoyancy excluded),"
            << " the mean over the steps since the previous line (or the run's start)"
            << nl << "# P: its pressure-gradient part, -V grad p (of the pressure at the"
            << " step's start; F - P went to the fluid in the step)"
            << nl << "# time Fx Fy Fz Px Py Pz" << nl;
        fluidForceFile_().precision(12);
    }
    fluidForceFile_()
        << time.value() << ' ' << F.x() << ' ' << F.y() << ' ' << F.z()
        << ' ' << P.x() << ' ' << P.y() << ' ' << P.z() << nl;
}


template<class CloudType>
Foam::tmp<Foam::volScalarField>
Foam::SuperellipsoidCloud<CloudType>::solidFraction()
{
    tmp<volScalarField> ttheta(this->theta());
    volumeShares_.clear();
    if (!volumeFractionSamples_)
    {
        // (centre model: each particle's source goes to its cell)
        return ttheta;
    }
    clockTime clock;
    sef::dem::ParticleSystem ps;
    ps.types = settings_.types.types;
    // each parcel's cell: where the deposit's walks start
    labelList cells(this->size());
    label i = 0;
    for (const parcelType& p : *this)
    {
        addParcelBody(ps, p);
        cells[i++] = p.cell();
    }
    const std::size_t owned = ps.size();
    processorHalo* halo = stepper_->halo();
    sef::dem::PeriodicImages* images = stepper_->images();
    if (halo)
    {
        halo->build(ps, 0);
    }
    if (images)
    {
        images->build(ps, 0, halo);
        // a periodic image's walks start at its source's cell (the deposit
        // walks from there to the image's part inside this mesh)
        cells.setSize(label(ps.size()), -1);
        for (std::size_t h = 0; owned + h < ps.size(); ++h)
        {
            const long source = images->localSource(h);
            if (source >= 0 && std::size_t(source) < owned)
            {
                cells[label(owned + h)] = cells[label(source)];
            }
        }
    }
    scalarField volumes(this->mesh().nCells(), Zero);
    std::vector<cellShares> shares;
    volumeFractionSamples_->addParticleVolumes(ps, owned, volumes, cells, &shares);
    for (std::size_t k = 0; k < owned; ++k)
    {
        volumeShares_[ps.id[k]] = std::move(shares[k]);
    }
    volScalarField& theta = ttheta.ref();
    theta.primitiveFieldRef() = volumes/this->mesh().V();
    theta.correctBoundaryConditions();
    totals_.volumeFractionSeconds += clock.elapsedTime();
    return ttheta;
}


// ************************************************************************* //
