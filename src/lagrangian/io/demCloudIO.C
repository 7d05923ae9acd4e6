#include "demCloudIO.H"
#include "passiveParticleCloud.H"
#include "IOField.H"
#include "foamEigen.H"
#include "storedCloud.H"
#include "restartedState.H"
#include "fullPrecisionOutput.H"

#include <cmath>

namespace
{

using namespace Foam;

template<class Type>
void writeField
(
    const passiveParticleCloud& cloud,
    const word& fieldName,
    const Field<Type>& values
)
{
    IOField<Type> field(cloud.fieldIOobject(fieldName, IOobject::NO_READ), values);
    field.write();
}

template<class Type>
tmp<Field<Type>> readField(const passiveParticleCloud& cloud, const word& fieldName)
{
    IOobject io(cloud.fieldIOobject(fieldName, IOobject::MUST_READ));
    checkFieldReadable(io.objectPath());
    if (!io.typeHeaderOk<IOField<Type>>(true))
    {
        FatalErrorInFunction
            << "Cannot restart: field " << io.objectPath() << " is missing"
            << exit(FatalError);
    }
    IOField<Type> field(io);
    if (field.size() != cloud.size())
    {
        FatalErrorInFunction
            << "Field " << io.objectPath() << " has " << field.size()
            << " values for " << cloud.size() << " particles" << exit(FatalError);
    }
    return tmp<Field<Type>>::New(std::move(field));
}

// The field if the cloud has it (with one value per particle), else empty.
template<class Type>
tmp<Field<Type>> readOptionalField(const passiveParticleCloud& cloud, const word& fieldName)
{
    IOobject io(cloud.fieldIOobject(fieldName, IOobject::MUST_READ));
    checkFieldReadable(io.objectPath());
    if (!io.typeHeaderOk<IOField<Type>>(true))
    {
        return tmp<Field<Type>>::New();
    }
    return readField<Type>(cloud, fieldName);
}

// The type index of each particle: 'typeId' of superellipsoidDEMFoam,
// 'particleType' of the fluid-coupled cloud (whose typeId is OpenFOAM's
// injector id); mapped by mapTypes (collective) when given
labelList readTypeIndices
(
    const passiveParticleCloud& cloud,
    const storedTypeMap& mapTypes
)
{
    tmp<labelField> storedType(readOptionalField<label>(cloud, "particleType"));
    if (storedType().size() != cloud.size())
    {
        storedType = readField<label>(cloud, "typeId");
    }
    return mapTypes ? mapTypes(storedType()) : labelList(storedType());
}

// What a particle's state is restarted from besides the cloud's
// barycentric coordinates and rotation tensors, and what was taken from it
struct restartSources
{
    const polyMesh& mesh;
    const fileName dir;

    // The exact state when this solver wrote the cloud (older or hand-made
    // clouds: from the positions and rotation tensors).
    const tmp<vectorField> exactCentre;
    const tmp<vectorField> quaternionXYZ;
    const tmp<scalarField> quaternionW;
    const bool exactPosition;
    const bool exactOrientation;

    const scalar lengthScale;

    // OpenFOAM reads the barycentric `coordinates`; the `positions` written
    // beside them are what users edit to move a particle: where they differ,
    // the edit wins
    const List<point> handPositions;

    label exactValues = 0, moved = 0, repaired = 0;

    restartSources
    (
        const polyMesh& mesh,
        const passiveParticleCloud& cloud,
        const word& cloudName,
        const fileName& dir
    )
    :
        mesh(mesh),
        dir(dir),
        exactCentre(readOptionalField<vector>(cloud, "restartCentre")),
        quaternionXYZ(readOptionalField<vector>(cloud, "restartQuaternionXYZ")),
        quaternionW(readOptionalField<scalar>(cloud, "restartQuaternionW")),
        exactPosition(exactCentre().size() == cloud.size()),
        exactOrientation
        (
            quaternionXYZ().size() == cloud.size() && quaternionW().size() == cloud.size()
        ),
        lengthScale(mag(mesh.bounds().span())),
        handPositions(readHandPositions(mesh, cloudName, cloud.size()))
    {}
};

// Particle i's centre: its edited `positions` entry where there is one (in
// the mesh, else FatalError), else the cloud's own
point restartCentre
(
    restartSources& sources,
    const label i,
    const point& stored,
    const label particleId
)
{
    const List<point>& handPositions = sources.handPositions;
    if (!handPositions.empty() && mag(handPositions[i] - stored) > 1e-9*sources.lengthScale)
    {
        ++sources.moved;
        if (sources.mesh.findCell(handPositions[i]) < 0)
        {
            FatalErrorInFunction
                << "Cannot restart: " << sources.dir/"positions" << " moves particle "
                << particleId << " to " << handPositions[i] << ", outside the mesh"
                << exit(FatalError);
        }
        return handPositions[i];
    }
    return stored;
}

// The exact centre only where it agrees with the cloud's own (to
// round-off): a position edited by hand wins
sef::Vec3 restartPosition
(
    restartSources& sources,
    const label i,
    const point& centre
)
{
    if (sources.exactPosition && mag(sources.exactCentre()[i] - centre) <= 1e-9*sources.lengthScale)
    {
        ++sources.exactValues;
        return toEigen(sources.exactCentre()[i]);
    }
    return toEigen(centre);
}

// The stored rotation, or the exact quaternion where it agrees with it (to
// round-off): an orientation edited by hand wins
sef::Quat restartOrientation
(
    restartSources& sources,
    const label i,
    const tensor& R,
    const label particleId
)
{
    const sef::Mat3 rotation = toEigen(R);
    const sef::Quat q = storedRotation(R, particleId, sources.dir/"orientation", sources.repaired);
    if (!sources.exactOrientation) return q;
    const sef::Quat exact
    (
        sources.quaternionW()[i], sources.quaternionXYZ()[i].x(),
        sources.quaternionXYZ()[i].y(), sources.quaternionXYZ()[i].z()
    );
    if
    (
        exact.coeffs().allFinite()
     && std::abs(exact.norm() - 1.0) <= 1e-12
     && (exact.toRotationMatrix() - rotation).cwiseAbs().maxCoeff() <= 1e-9
    )
    {
        ++sources.exactValues;
        return exact;
    }
    return q;
}

// The repaired rotations, moved particles and inexact values of n restarted
// particles
void reportRestartSources(const restartSources& sources, const label n)
{
    warnRepairedRotations(sources.repaired, sources.dir/"orientation");
    if (sources.moved > 0)
    {
        Info<< "Restart: " << sources.moved << " particles moved by the edited "
            << sources.dir/"positions" << nl;
    }
    if (sources.exactValues < 2*n)
    {
        Info<< "Restart: " << 2*n - sources.exactValues << " of " << 2*n << " centres and"
            << " orientations taken from the cloud's positions and rotation tensors"
            << " (restartCentre/restartQuaternion* missing or edited)" << nl;
    }
}

} // End anonymous namespace


void Foam::writeDemCloud
(
    const polyMesh& mesh,
    const word& cloudName,
    const sef::dem::ParticleSystem& ps
)
{
    // Restart state: every digit, also in ascii (fullPrecisionOutput.H)
    const fullPrecisionOutput allDigits;
    const label n = ps.size();
    IDLList<passiveParticle> list;
    for (label i = 0; i < n; ++i)
    {
        const point x = toFoam(ps.position[i]);
        label celli = mesh.findCell(x);
        if (celli < 0)
        {
            // Centre on a face/edge or a hair outside a curved wall: the
            // nearest cell keeps it in the mesh for the writer.
            celli = mesh.findNearestCell(x);
        }
        list.append(new passiveParticle(mesh, x, celli));
    }
    passiveParticleCloud cloud(mesh, cloudName, list);
    cloud.write();

    vectorField U(n), omega(n), axes(n), exactCentre(n), quaternionXYZ(n);
    tensorField R(n), glyphTensor(n);
    scalarField eps1(n), eps2(n), quaternionW(n);
    labelField typeId(n), particleId(n);
    for (label i = 0; i < n; ++i)
    {
        const sef::dem::ParticleType& type = ps.types[ps.type[i]];
        const sef::Mat3 rot = ps.orientation[i].toRotationMatrix();
        U[i] = toFoam(ps.velocity[i]);
        omega[i] = toFoam(ps.angularVelocity[i]);
        R[i] = toFoam(rot);
        exactCentre[i] = toFoam(ps.position[i]);
        quaternionXYZ[i] = toFoam(sef::Vec3(ps.orientation[i].vec()));
        quaternionW[i] = ps.orientation[i].w();
        // ParaView's Tensor Glyph reads the 9 components column by column,
        // OpenFOAM writes them row by row: store the transpose so that
        // ParaView maps the unit sphere by R diag(a, b, c).
        glyphTensor[i] =
            toFoam(sef::Mat3((rot*type.shape.halfAxes().asDiagonal()).transpose()));
        axes[i] = toFoam(type.shape.halfAxes());
        eps1[i] = type.shape.eps1();
        eps2[i] = type.shape.eps2();
        typeId[i] = ps.type[i];
        particleId[i] = static_cast<label>(ps.id[i]);
    }
    writeField(cloud, "U", U);
    writeField(cloud, "omega", omega);
    writeField(cloud, "orientation", R);
    writeField(cloud, "glyphTensor", glyphTensor);
    writeField(cloud, "halfAxes", axes);
    writeField(cloud, "eps1", eps1);
    writeField(cloud, "eps2", eps2);
    writeField(cloud, "typeId", typeId);
    writeField(cloud, "particleId", particleId);
    // For restarts only: the state bit for bit. The cloud keeps positions as
    // barycentric coordinates of a tet, and `orientation` is a rotation
    // matrix, from which the quaternion comes back with its sign chosen and
    // renormalised; the contact dynamics grow such differences (a falling
    // box of 1e3: 3e-11 relative in the velocities 30 steps later).
    writeField(cloud, "restartCentre", exactCentre);
    writeField(cloud, "restartQuaternionXYZ", quaternionXYZ);
    writeField(cloud, "restartQuaternionW", quaternionW);
}


bool Foam::readDemCloud
(
    const polyMesh& mesh,
    const word& cloudName,
    sef::dem::ParticleSystem& ps,
    const storedTypeMap& mapTypes
)
{
    // (a truncated coordinates file is named, not read as an empty cloud)
    storedParticleCount(mesh, cloudName);
    passiveParticleCloud cloud(mesh, cloudName, false);
    if (cloud.size() == 0)
    {
        if (mapTypes) mapTypes(labelList());
        return false;
    }
    const fileName dir = cloudFilePath(mesh, cloudName, "");
    const tmp<vectorField> U(readField<vector>(cloud, "U"));
    const tmp<vectorField> omega(readField<vector>(cloud, "omega"));
    const tmp<tensorField> R(readField<tensor>(cloud, "orientation"));
    const labelList typeId(readTypeIndices(cloud, mapTypes));
    const tmp<labelField> particleId(readField<label>(cloud, "particleId"));
    restartSources sources(mesh, cloud, cloudName, dir);

    label i = 0;
    for (const passiveParticle& p : cloud)
    {
        const label t = typeId[i];
        if (t < 0 || t >= label(ps.types.size()))
        {
            FatalErrorInFunction
                << "Particle " << particleId()[i] << " has typeId " << t
                << " but particleTypes defines " << ps.types.size()
                << " types" << exit(FatalError);
        }
        const point centre = restartCentre(sources, i, p.position(), particleId()[i]);
        const sef::Vec3 x = restartPosition(sources, i, centre);
        const sef::Quat q = restartOrientation(sources, i, R()[i], particleId()[i]);
        const sef::Vec3 v = toEigen(U()[i]), w = toEigen(omega()[i]);
        checkRestartedState(x, q, v, w, ps.types[t].boundingRadius, particleId()[i], dir);
        ps.add(t, particleId()[i], x, q, v, w);
        ++i;
    }
    reportRestartSources(sources, i);
    return true;
}
