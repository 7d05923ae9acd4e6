/*---------------------------------------------------------------------------*\
Description
    SuperellipsoidInjection: the particle list of each source, checked by
    the core (SuperellipsoidInjection.H).
\*---------------------------------------------------------------------------*/

#include "SuperellipsoidInjection.H"
#include "demCloudProperties.H"
#include "demCloudIO.H"
#include "meshWallFaces.H"
#include "meshPeriodicity.H"
#include "foamEigen.H"
#include "dem/injection/WallClearance.hpp"
#include "Time.H"
#include "polyMesh.H"

#include <cmath>

// * * * * * * * * * * * * * Private Member Functions  * * * * * * * * * * * //

template<class CloudType>
void Foam::SuperellipsoidInjection<CloudType>::checkCoeffKeywords() const
{
    const dictionary& dict = this->coeffDict();
    // InjectionModel's own entries (v1912), then those of the source
    wordList valid
    ({
        "type", "SOI", "massTotal", "massFlowRate", "parcelBasisType",
        "nParticle", "minParticlesPerParcel", "injectorID", "source"
    });
    const word source = dict.lookupOrDefault<word>("source", "");
    if (source == "list")
    {
        valid.append("particles");
    }
    else if (source == "random")
    {
        valid.append(injectionRegionKeywords(dict));
        valid.append(randomInjectionKeywords());
    }
    else if (source == "cloud")
    {
        valid.append(wordList({"case", "time", "cloud", "translate", "keepVelocity"}));
    }
    // (an unknown source is named by readParticles)
    checkKeywords(dict, valid);
}


template<class CloudType>
void Foam::SuperellipsoidInjection<CloudType>::placeListed
(
    sef::dem::ParticleSystem& ps,
    const std::vector<sef::dem::ListedParticle>& list,
    const particleTypeTable& types,
    const sef::dem::WallSet& wallSet,
    const double overlapTolerance,
    const sef::dem::PeriodicLattice& periodic
) const
{
    // A listed particle must have its centre in the mesh and its body (not
    // just its bounding sphere) clear of the walls, up to the overlap the
    // DEM step itself tolerates: a settled bed rests on its floor.
    const polyMesh& mesh = this->owner().mesh();
    const auto admissible = [&](const sef::Vec3& x, std::size_t n)
    {
        const sef::Superellipsoid& shape = types.types[list[n].type].shape;
        const scalar allowed = 1e-2*typeDiameters_[list[n].type];
        return
            insideMesh(mesh, x)
         && sef::dem::wallPenetration(wallSet, shape, sef::Pose{x, list[n].orientation}) <= allowed;
    };
    sef::dem::injectListed(ps, list, 0, admissible, overlapTolerance, periodic);
}


template<class CloudType>
sef::dem::InjectionSpec
Foam::SuperellipsoidInjection<CloudType>::readRandomSpec
(
    const particleTypeTable& types,
    const sef::dem::PeriodicLattice& periodic
) const
{
    const dictionary& dict = this->coeffDict();
    sef::dem::InjectionSpec spec;
    spec.region = readInjectionRegion(dict);
    spec.count = dict.get<label>("count");
    if (spec.count < 0)
    {
        FatalIOErrorInFunction(dict)
            << "Invalid entry 'count' in " << dict.name() << ": must be >= 0"
            << exit(FatalIOError);
    }
    const label seed = dict.lookupOrDefault<label>("seed", 1);
    if (seed < 0)
    {
        FatalIOErrorInFunction(dict)
            << "Invalid entry 'seed' in " << dict.name() << ": must be >= 0"
            << exit(FatalIOError);
    }
    spec.seed = static_cast<std::uint64_t>(seed);
    spec.velocity = toEigen(dict.lookupOrDefault<vector>("U0", Zero));
    spec.maxAttemptsPerParticle = dict.lookupOrDefault<label>("maxAttempts", 10000);
    spec.typeFractions = types.fractions;
    spec.periodic = periodic;
    return spec;
}


template<class CloudType>
bool Foam::SuperellipsoidInjection<CloudType>::placeRandom
(
    sef::dem::ParticleSystem& ps,
    const particleTypeTable& types,
    const std::vector<sef::dem::WallFace>& walls,
    const sef::dem::WallSet& wallSet,
    const sef::dem::PeriodicLattice& periodic
) const
{
    const sef::dem::InjectionSpec spec = readRandomSpec(types, periodic);
    // A restart after this model injected (its parcels counted in the
    // restart time's uniform/lagrangian/<cloud>/<cloud>OutputProperties):
    // it injects at its start time only, so it has nothing left to place.
    // The entries are checked (above); the placement, O(particles x wall
    // faces) and minutes for a large random bed, is not repeated. (Lists
    // and clouds are placed again: cheap, and it checks them.)
    if (this->parcelsAddedTotal() > 0)
    {
        Info<< "    " << this->modelName() << ": injected "
            << this->parcelsAddedTotal() << " parcels before this restart;"
            << " nothing left to inject" << nl;
        return false;
    }
    const polyMesh& mesh = this->owner().mesh();
    const wallClearance clearance(walls);
    sef::dem::injectRandom
    (
        ps, spec, 0,
        [&](const sef::Vec3& x, double R) { return clearance.clear(mesh, x, R); },
        [&](int t, const sef::Pose& pose)
        {
            return bodyClearOfWalls(mesh, wallSet, types.types[t].shape, pose);
        }
    );
    return true;
}


template<class CloudType>
Foam::fileName Foam::SuperellipsoidInjection<CloudType>::cloudCase() const
{
    const dictionary& dict = this->coeffDict();
    fileName dir = dict.get<fileName>("case");
    dir.expand();
    if (!dir.isAbsolute())
    {
        dir = this->owner().db().time().globalPath()/dir;
    }
    dir.clean();
    if (!isDir(dir/"system"))
    {
        FatalIOErrorInFunction(dict)
            << "Invalid entry 'case' in " << dict.name() << ": " << dir
            << " is not a case directory" << exit(FatalIOError);
    }
    return dir;
}


template<class CloudType>
Foam::label Foam::SuperellipsoidInjection<CloudType>::cloudTimeIndex
(
    const instantList& times,
    const fileName& dir
) const
{
    const dictionary& dict = this->coeffDict();
    const word timeName = dict.lookupOrDefault<word>("time", "latestTime");
    label index = times.size() - 1;
    if (timeName != "latestTime")
    {
        index = Time::findClosestTimeIndex(times, readScalar(timeName));
        if (index < 0 || mag(times[index].value() - readScalar(timeName)) > SMALL)
        {
            FatalIOErrorInFunction(dict)
                << "Invalid entry 'time' in " << dict.name() << ": no time "
                << timeName << " in " << dir << exit(FatalIOError);
        }
    }
    if (index < 0)
    {
        FatalIOErrorInFunction(dict)
            << "Invalid entry 'case' in " << dict.name() << ": no times in " << dir
            << exit(FatalIOError);
    }
    return index;
}


template<class CloudType>
std::vector<sef::dem::ListedParticle>
Foam::SuperellipsoidInjection<CloudType>::listedFrom
(
    const sef::dem::ParticleSystem& other
) const
{
    const dictionary& dict = this->coeffDict();
    const sef::Vec3 shift = toEigen(dict.lookupOrDefault<vector>("translate", Zero));
    const bool keepVelocity = readSwitch(dict, "keepVelocity", true);
    std::vector<sef::dem::ListedParticle> list(other.size());
    for (std::size_t i = 0; i < other.size(); ++i)
    {
        list[i].type = other.type[i];
        list[i].position = other.position[i] + shift;
        list[i].orientation = other.orientation[i];
        if (keepVelocity)
        {
            list[i].velocity = other.velocity[i];
            list[i].angularVelocity = other.angularVelocity[i];
        }
    }
    return list;
}


template<class CloudType>
void Foam::SuperellipsoidInjection<CloudType>::placeFromCloud
(
    sef::dem::ParticleSystem& ps,
    const particleTypeTable& types,
    const sef::dem::WallSet& wallSet,
    const sef::dem::PeriodicLattice& periodic
) const
{
    const dictionary& dict = this->coeffDict();
    const fileName dir = cloudCase();
    Time otherTime(Time::controlDictName, fileName(dir.path()), fileName(dir.name()), word("system"), word("constant"), false);
    const instantList times = otherTime.times();
    const label index = cloudTimeIndex(times, dir);
    otherTime.setTime(times[index], index);
    const polyMesh otherMesh
    (
        IOobject(polyMesh::defaultRegion, otherTime.timeName(), otherTime, IOobject::MUST_READ)
    );
    sef::dem::ParticleSystem other;
    other.types = types.types;
    const word cloudName = dict.lookupOrDefault<word>("cloud", "superellipsoidCloud");
    if (!readDemCloud(otherMesh, cloudName, other))
    {
        FatalIOErrorInFunction(dict)
            << "Invalid entry 'cloud' in " << dict.name() << ": no particles of cloud "
            << cloudName << " at time " << otherTime.timeName() << " of " << dir
            << exit(FatalIOError);
    }
    const std::vector<sef::dem::ListedParticle> list = listedFrom(other);
    Info<< "    " << label(list.size()) << " particles from cloud " << cloudName
        << " at time " << otherTime.timeName() << " of " << dir << nl;
    // a settled bed: its resting contacts overlap by the DEM step's
    // allowed penetration (1e-4 d_eq); 1e-2 d_eq is the acceptance
    // bound of overlaps in the tutorials
    placeListed(ps, list, types, wallSet, 1e-2, periodic);
}


template<class CloudType>
void Foam::SuperellipsoidInjection<CloudType>::storeParticles
(
    const sef::dem::ParticleSystem& ps
)
{
    particles_.resize(ps.size());
    for (std::size_t i = 0; i < ps.size(); ++i)
    {
        particles_[i].type = ps.type[i];
        particles_[i].position = ps.position[i];
        particles_[i].orientation = ps.orientation[i];
        particles_[i].velocity = ps.velocity[i];
        particles_[i].angularVelocity = ps.angularVelocity[i];
    }
    this->volumeTotal_ = 0;
    for (const sef::dem::ListedParticle& p : particles_)
    {
        this->volumeTotal_ += ps.types[p.type].shape.volume();
    }
}


template<class CloudType>
void Foam::SuperellipsoidInjection<CloudType>::readParticles()
{
    const dictionary& dict = this->coeffDict();
    checkCoeffKeywords();
    const particleTypeTable types = readParticleTypes
    (
        this->owner().particleProperties().subDict("constantProperties").subDict("particleTypes")
    );
    typeDiameters_.setSize(label(types.types.size()));
    forAll(typeDiameters_, t)
    {
        typeDiameters_[t] = std::cbrt(6*types.types[t].shape.volume()/constant::mathematical::pi);
    }

    const polyMesh& mesh = this->owner().mesh();
    const std::vector<sef::dem::WallFace> walls = meshWallFaces(mesh);
    sef::dem::ParticleSystem ps;
    ps.types = types.types;
    const sef::dem::WallSet wallSet(walls);

    // periodic boundaries (cyclic patch pairs): clear of the images too
    const sef::dem::PeriodicLattice periodic = meshPeriodicity(mesh);

    const word source = dict.get<word>("source");
    try
    {
        if (source == "list")
        {
            placeListed(ps, readListedParticles(dict, types.names), types, wallSet, 0.0, periodic);
        }
        else if (source == "random")
        {
            if (!placeRandom(ps, types, walls, wallSet, periodic)) return;
        }
        else if (source == "cloud")
        {
            placeFromCloud(ps, types, wallSet, periodic);
        }
        else
        {
            FatalIOErrorInFunction(dict)
                << "Invalid entry 'source' in " << dict.name() << ": unknown source '"
                << source << "' (valid: list random cloud)" << exit(FatalIOError);
        }
    }
    catch (const sef::dem::InjectionError& err)
    {
        FatalIOErrorInFunction(dict)
            << "Injection model " << this->modelName() << " (" << dict.name()
            << ") cannot place its particles: " << err.what() << exit(FatalIOError);
    }
    catch (const sef::dem::PeriodicError& err)
    {
        FatalIOErrorInFunction(dict)
            << "Injection model " << this->modelName() << " (" << dict.name()
            << "): " << err.what() << exit(FatalIOError);
    }
    storeParticles(ps);
}


// * * * * * * * * * * * * * * * * Constructors  * * * * * * * * * * * * * * //

template<class CloudType>
Foam::SuperellipsoidInjection<CloudType>::SuperellipsoidInjection
(
    const dictionary& dict,
    CloudType& owner,
    const word& modelName
)
:
    InjectionModel<CloudType>(dict, owner, modelName, typeName)
{
    readParticles();
    updateMesh();
}


template<class CloudType>
Foam::SuperellipsoidInjection<CloudType>::SuperellipsoidInjection
(
    const SuperellipsoidInjection<CloudType>& im
)
:
    InjectionModel<CloudType>(im),
    particles_(im.particles_),
    typeDiameters_(im.typeDiameters_),
    injectorCells_(im.injectorCells_),
    injectorTetFaces_(im.injectorTetFaces_),
    injectorTetPts_(im.injectorTetPts_)
{}


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

template<class CloudType>
void Foam::SuperellipsoidInjection<CloudType>::updateMesh()
{
    const label n = particles_.size();
    injectorCells_.setSize(n, -1);
    injectorTetFaces_.setSize(n, -1);
    injectorTetPts_.setSize(n, -1);
    for (label i = 0; i < n; ++i)
    {
        vector x = toFoam(particles_[i].position);
        this->findCellAtPosition
        (
            injectorCells_[i], injectorTetFaces_[i], injectorTetPts_[i], x, true
        );
    }
}


template<class CloudType>
Foam::scalar Foam::SuperellipsoidInjection<CloudType>::timeEnd() const
{
    // All at once (a finite interval avoids a zero-length injection)
    return this->SOI_ + ROOTVSMALL;
}


template<class CloudType>
Foam::label Foam::SuperellipsoidInjection<CloudType>::parcelsToInject
(
    const scalar time0,
    const scalar time1
)
{
    return (0 >= time0 && 0 < time1) ? label(particles_.size()) : 0;
}


template<class CloudType>
Foam::scalar Foam::SuperellipsoidInjection<CloudType>::volumeToInject
(
    const scalar time0,
    const scalar time1
)
{
    return (0 >= time0 && 0 < time1) ? this->volumeTotal_ : 0;
}


template<class CloudType>
void Foam::SuperellipsoidInjection<CloudType>::setPositionAndCell
(
    const label parcelI,
    const label,
    const scalar,
    vector& position,
    label& cellOwner,
    label& tetFacei,
    label& tetPti
)
{
    position = toFoam(particles_[parcelI].position);
    cellOwner = injectorCells_[parcelI];
    tetFacei = injectorTetFaces_[parcelI];
    tetPti = injectorTetPts_[parcelI];
}


template<class CloudType>
void Foam::SuperellipsoidInjection<CloudType>::setProperties
(
    const label parcelI,
    const label,
    const scalar,
    typename CloudType::parcelType& parcel
)
{
    const sef::dem::ListedParticle& p = particles_[parcelI];
    const sef::Quat& q = p.orientation;
    parcel.shapeType() = p.type;
    // its place in the list: the cloud numbers it the same on every
    // processor (SuperellipsoidCloud::assignParticleIds)
    parcel.particleId() = -2 - parcelI;
    parcel.U() = toFoam(p.velocity);
    parcel.omega() = toFoam(p.angularVelocity);
    parcel.setOrientation(quaternion(q.w(), vector(q.x(), q.y(), q.z())));
    parcel.d() = typeDiameters_[p.type];
    // the exact listed centre (the mesh position is its barycentric round
    // trip): the core starts from it, as the dry solver does
    parcel.centre() = toFoam(p.position);
}

// ************************************************************************* //
