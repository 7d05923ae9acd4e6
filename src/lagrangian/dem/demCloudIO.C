#include "demCloudIO.H"
#include "passiveParticleCloud.H"
#include "IOField.H"
#include "foamEigen.H"

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

} // End anonymous namespace


void Foam::writeDemCloud
(
    const polyMesh& mesh,
    const word& cloudName,
    const sef::dem::ParticleSystem& ps
)
{
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

    vectorField U(n), omega(n), axes(n);
    tensorField R(n), shapeTensor(n);
    scalarField eps1(n), eps2(n);
    labelField typeId(n), particleId(n);
    for (label i = 0; i < n; ++i)
    {
        const sef::dem::ParticleType& type = ps.types[ps.type[i]];
        const sef::Mat3 rot = ps.orientation[i].toRotationMatrix();
        U[i] = toFoam(ps.velocity[i]);
        omega[i] = toFoam(ps.angularVelocity[i]);
        R[i] = toFoam(rot);
        shapeTensor[i] = toFoam(sef::Mat3(rot * type.shape.halfAxes().asDiagonal()));
        axes[i] = toFoam(type.shape.halfAxes());
        eps1[i] = type.shape.eps1();
        eps2[i] = type.shape.eps2();
        typeId[i] = ps.type[i];
        particleId[i] = static_cast<label>(ps.id[i]);
    }
    writeField(cloud, "U", U);
    writeField(cloud, "omega", omega);
    writeField(cloud, "orientation", R);
    writeField(cloud, "shapeTensor", shapeTensor);
    writeField(cloud, "halfAxes", axes);
    writeField(cloud, "eps1", eps1);
    writeField(cloud, "eps2", eps2);
    writeField(cloud, "typeId", typeId);
    writeField(cloud, "particleId", particleId);
}


bool Foam::readDemCloud
(
    const polyMesh& mesh,
    const word& cloudName,
    sef::dem::ParticleSystem& ps
)
{
    passiveParticleCloud cloud(mesh, cloudName, false);
    if (cloud.size() == 0)
    {
        return false;
    }
    const tmp<vectorField> U(readField<vector>(cloud, "U"));
    const tmp<vectorField> omega(readField<vector>(cloud, "omega"));
    const tmp<tensorField> R(readField<tensor>(cloud, "orientation"));
    const tmp<labelField> typeId(readField<label>(cloud, "typeId"));
    const tmp<labelField> particleId(readField<label>(cloud, "particleId"));

    label i = 0;
    for (const passiveParticle& p : cloud)
    {
        const label t = typeId()[i];
        if (t < 0 || t >= label(ps.types.size()))
        {
            FatalErrorInFunction
                << "Particle " << particleId()[i] << " has typeId " << t
                << " but particleTypes defines " << ps.types.size()
                << " types" << exit(FatalError);
        }
        const sef::Quat q(toEigen(R()[i]));
        ps.add
        (
            t, particleId()[i], toEigen(p.position()), q.normalized(),
            toEigen(U()[i]), toEigen(omega()[i])
        );
        ++i;
    }
    return true;
}
