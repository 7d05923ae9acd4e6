/*---------------------------------------------------------------------------*\
Description
    Stream and field I/O of SuperellipsoidParcel (see SuperellipsoidParcel.H
    for the fields).
\*---------------------------------------------------------------------------*/

#include "SuperellipsoidParcel.H"
#include "IOstreams.H"
#include "IOField.H"
#include "Cloud.H"
#include "restartedState.H"
#include "fullPrecisionOutput.H"

template<class ParcelType>
const std::size_t Foam::SuperellipsoidParcel<ParcelType>::sizeofFields
(
    offsetof(SuperellipsoidParcel<ParcelType>, shapeType_)
  + sizeof(label)
  - offsetof(SuperellipsoidParcel<ParcelType>, centre_)
);


template<class ParcelType>
Foam::SuperellipsoidParcel<ParcelType>::SuperellipsoidParcel
(
    const polyMesh& mesh,
    Istream& is,
    bool readFields,
    bool newFormat
)
:
    ParcelType(mesh, is, readFields, newFormat),
    centre_(Zero),
    displacement_(Zero),
    omega_(Zero),
    quatV_(Zero),
    quatW_(1),
    particleId_(-1),
    shapeType_(-1)
{
    if (readFields)
    {
        if (is.format() == IOstream::ASCII)
        {
            is >> centre_ >> displacement_ >> omega_ >> quatV_;
            quatW_ = readScalar(is);
            particleId_ = readLabel(is);
            shapeType_ = readLabel(is);
        }
        else if (!is.checkLabelSize<>() || !is.checkScalarSize<>())
        {
            is.beginRawRead();
            readRawScalar(is, centre_.data(), vector::nComponents);
            readRawScalar(is, displacement_.data(), vector::nComponents);
            readRawScalar(is, omega_.data(), vector::nComponents);
            readRawScalar(is, quatV_.data(), vector::nComponents);
            readRawScalar(is, &quatW_);
            readRawLabel(is, &particleId_);
            readRawLabel(is, &shapeType_);
            is.endRawRead();
        }
        else
        {
            is.read(reinterpret_cast<char*>(&centre_), sizeofFields);
        }
    }

    is.check(FUNCTION_NAME);
}


template<class ParcelType>
template<class CloudType>
void Foam::SuperellipsoidParcel<ParcelType>::readFields(CloudType& c)
{
    const bool valid = c.size();

    ParcelType::readFields(c);

    IOField<vector> omega(c.fieldIOobject("omega", IOobject::MUST_READ), valid);
    c.checkFieldIOobject(c, omega);
    IOField<scalar> quatW(c.fieldIOobject("restartQuaternionW", IOobject::MUST_READ), valid);
    c.checkFieldIOobject(c, quatW);
    IOField<vector> quatV(c.fieldIOobject("restartQuaternionXYZ", IOobject::MUST_READ), valid);
    c.checkFieldIOobject(c, quatV);
    IOField<label> particleId(c.fieldIOobject("particleId", IOobject::MUST_READ), valid);
    c.checkFieldIOobject(c, particleId);
    IOField<label> shapeType(c.fieldIOobject("particleType", IOobject::MUST_READ), valid);
    c.checkFieldIOobject(c, shapeType);
    // The exact centre: absent in a cloud written by other tools (then the
    // mesh position is the centre)
    IOField<vector> centre(c.fieldIOobject("restartCentre", IOobject::READ_IF_PRESENT), valid);

    IOField<tensor> orientation(c.fieldIOobject("orientation", IOobject::MUST_READ), valid);
    c.checkFieldIOobject(c, orientation);

    // The exact values only where they agree with the cloud's own positions
    // and rotation tensors to round-off: a particle moved or turned by hand
    // (editing positions or orientation) takes the edited values.
    const scalar lengthScale = mag(c.mesh().bounds().span());
    label i = 0, repaired = 0;
    for (SuperellipsoidParcel<ParcelType>& p : c)
    {
        p.omega_ = omega[i];
        p.particleId_ = particleId[i];
        p.shapeType_ = shapeType[i];
        const bool exactCentre =
            centre.size() == c.size() && mag(centre[i] - p.position()) <= 1e-9*lengthScale;
        p.centre_ = exactCentre ? centre[i] : p.position();
        const quaternion exact(quatW[i], quatV[i]);
        if (cmptMax(cmptMag(exact.R() - orientation[i])) <= 1e-9)
        {
            p.quatW_ = quatW[i];
            p.quatV_ = quatV[i];
        }
        else
        {
            // edited by hand, or written with few digits: a rotation, or
            // the nearest one to round-off, or an error naming the particle
            const sef::Quat q =
                storedRotation(orientation[i], particleId[i], orientation.objectPath(), repaired);
            p.setOrientation(quaternion(q.w(), vector(q.x(), q.y(), q.z())));
        }
        p.displacement_ = Zero;
        ++i;
    }
    warnRepairedRotations(repaired, orientation.objectPath());
}


template<class ParcelType>
template<class CloudType>
void Foam::SuperellipsoidParcel<ParcelType>::writeFields(const CloudType& c)
{
    // Restart state, the parent's fields (U, d, ...) too: every digit, also
    // in ascii (fullPrecisionOutput.H)
    const fullPrecisionOutput allDigits;
    ParcelType::writeFields(c);

    const label np = c.size();
    const bool valid = np;

    IOField<vector> omega(c.fieldIOobject("omega", IOobject::NO_READ), np);
    IOField<tensor> orientation(c.fieldIOobject("orientation", IOobject::NO_READ), np);
    IOField<scalar> quatW(c.fieldIOobject("restartQuaternionW", IOobject::NO_READ), np);
    IOField<vector> quatV(c.fieldIOobject("restartQuaternionXYZ", IOobject::NO_READ), np);
    IOField<vector> centre(c.fieldIOobject("restartCentre", IOobject::NO_READ), np);
    IOField<label> particleId(c.fieldIOobject("particleId", IOobject::NO_READ), np);
    IOField<label> shapeType(c.fieldIOobject("particleType", IOobject::NO_READ), np);

    label i = 0;
    for (const SuperellipsoidParcel<ParcelType>& p : c)
    {
        omega[i] = p.omega_;
        orientation[i] = p.orientation().R();
        quatW[i] = p.quatW_;
        quatV[i] = p.quatV_;
        centre[i] = p.centre_;
        particleId[i] = p.particleId_;
        shapeType[i] = p.shapeType_;
        ++i;
    }

    omega.write(valid);
    orientation.write(valid);
    quatW.write(valid);
    quatV.write(valid);
    centre.write(valid);
    particleId.write(valid);
    shapeType.write(valid);
}


template<class ParcelType>
void Foam::SuperellipsoidParcel<ParcelType>::writeProperties
(
    Ostream& os,
    const wordRes& filters,
    const word& delim,
    const bool namesOnly
) const
{
    ParcelType::writeProperties(os, filters, delim, namesOnly);

    #undef  writeProp
    #define writeProp(Name, Value)                                            \
        ParcelType::writeProperty(os, Name, Value, namesOnly, delim, filters)

    writeProp("restartCentre", centre_);
    writeProp("omega", omega_);
    writeProp("restartQuaternionXYZ", quatV_);
    writeProp("restartQuaternionW", quatW_);
    writeProp("particleId", particleId_);
    writeProp("particleType", shapeType_);

    #undef writeProp
}


template<class ParcelType>
template<class CloudType>
void Foam::SuperellipsoidParcel<ParcelType>::readObjects
(
    CloudType& c,
    const objectRegistry& obr
)
{
    ParcelType::readObjects(c, obr);

    if (!c.size()) return;

    const auto& omega = cloud::lookupIOField<vector>("omega", obr);
    const auto& quatW = cloud::lookupIOField<scalar>("restartQuaternionW", obr);
    const auto& quatV = cloud::lookupIOField<vector>("restartQuaternionXYZ", obr);
    const auto& centre = cloud::lookupIOField<vector>("restartCentre", obr);
    const auto& particleId = cloud::lookupIOField<label>("particleId", obr);
    const auto& shapeType = cloud::lookupIOField<label>("particleType", obr);

    label i = 0;
    for (SuperellipsoidParcel<ParcelType>& p : c)
    {
        p.omega_ = omega[i];
        p.quatW_ = quatW[i];
        p.quatV_ = quatV[i];
        p.centre_ = centre[i];
        p.particleId_ = particleId[i];
        p.shapeType_ = shapeType[i];
        ++i;
    }
}


template<class ParcelType>
template<class CloudType>
void Foam::SuperellipsoidParcel<ParcelType>::writeObjects
(
    const CloudType& c,
    objectRegistry& obr
)
{
    ParcelType::writeObjects(c, obr);

    const label np = c.size();

    auto& omega = cloud::createIOField<vector>("omega", np, obr);
    auto& quatW = cloud::createIOField<scalar>("restartQuaternionW", np, obr);
    auto& quatV = cloud::createIOField<vector>("restartQuaternionXYZ", np, obr);
    auto& centre = cloud::createIOField<vector>("restartCentre", np, obr);
    auto& particleId = cloud::createIOField<label>("particleId", np, obr);
    auto& shapeType = cloud::createIOField<label>("particleType", np, obr);

    label i = 0;
    for (const SuperellipsoidParcel<ParcelType>& p : c)
    {
        omega[i] = p.omega_;
        quatW[i] = p.quatW_;
        quatV[i] = p.quatV_;
        centre[i] = p.centre_;
        particleId[i] = p.particleId_;
        shapeType[i] = p.shapeType_;
        ++i;
    }
}


template<class ParcelType>
Foam::Ostream& Foam::operator<<
(
    Ostream& os,
    const SuperellipsoidParcel<ParcelType>& p
)
{
    if (os.format() == IOstream::ASCII)
    {
        os  << static_cast<const ParcelType&>(p)
            << token::SPACE << p.centre_
            << token::SPACE << p.displacement_
            << token::SPACE << p.omega_
            << token::SPACE << p.quatV_
            << token::SPACE << p.quatW_
            << token::SPACE << p.particleId_
            << token::SPACE << p.shapeType_;
    }
    else
    {
        os  << static_cast<const ParcelType&>(p);
        os.write
        (
            reinterpret_cast<const char*>(&p.centre_),
            SuperellipsoidParcel<ParcelType>::sizeofFields
        );
    }

    os.check(FUNCTION_NAME);
    return os;
}

// ************************************************************************* //
