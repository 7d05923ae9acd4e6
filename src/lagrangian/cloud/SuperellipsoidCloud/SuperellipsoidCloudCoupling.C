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
void Foam::SuperellipsoidCloud<CloudType>::depositSource
(
    const parcelType& p,
    const vector& toFluid,
    const scalar coeff
)
{
    // with the volume fraction: over the cells by the particle's volume in
    // each, as alphac has it (a bed's sources then vary from cell to cell
    // as its solids do, not with where the centres fall); a part on another
    // processor (or beyond a periodic boundary) to the centre's cell
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
            this->UTrans()[c.cell] += w*toFluid;
            this->UCoeff()[c.cell] += w*coeff;
            rest -= w;
        }
    }
    if (rest > 0)
    {
        this->UTrans()[p.cell()] += rest*toFluid;
        this->UCoeff()[p.cell()] += rest*coeff;
    }
}


template<class CloudType>
void Foam::SuperellipsoidCloud<CloudType>::writeFluidForce()
{
    if (!settings_.anyFluidForce || !Pstream::master()) return;
    if (!fluidForceFile_.valid())
    {
        // as OpenFOAM's function objects: one file per start time
        const Time& time = this->db().time();
        const fileName dir =
            time.globalPath()/"postProcessing"/this->name()/time.timeName(time.startTime().value());
        mkDir(dir);
        fluidForceFile_.reset(new OFstream(dir/"fluidForce.dat"));
        fluidForceFile_()
            << "# Total fluid force on the particles of cloud " << this->name()
            << " [N]: drag, pressure gradient and added mass (buoyancy excluded)"
            << nl << "# time Fx Fy Fz" << nl;
        fluidForceFile_().precision(12);
    }
    const vector& F = lastStep_.fluidForce;
    fluidForceFile_()
        << this->db().time().value() << ' ' << F.x() << ' ' << F.y() << ' ' << F.z() << nl;
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
    if (halo_)
    {
        halo_->build(ps, 0);
    }
    if (images_)
    {
        images_->build(ps, 0, halo_.get());
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
