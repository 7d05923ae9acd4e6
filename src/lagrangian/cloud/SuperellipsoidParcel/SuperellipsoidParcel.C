/*---------------------------------------------------------------------------*\
Description
    Construction and mesh tracking of SuperellipsoidParcel.
\*---------------------------------------------------------------------------*/

#include "SuperellipsoidParcel.H"
#include "wallPolyPatch.H"
#include "processorPolyPatch.H"

// * * * * * * * * * * * * * * * * Constructors  * * * * * * * * * * * * * * //

template<class ParcelType>
Foam::SuperellipsoidParcel<ParcelType>::SuperellipsoidParcel
(
    const polyMesh& mesh,
    const barycentric& coordinates,
    const label celli,
    const label tetFacei,
    const label tetPti
)
:
    ParcelType(mesh, coordinates, celli, tetFacei, tetPti),
    centre_(this->position()),
    displacement_(Zero),
    omega_(Zero),
    quatV_(Zero),
    quatW_(1),
    particleId_(-1),
    shapeType_(-1)
{}


template<class ParcelType>
Foam::SuperellipsoidParcel<ParcelType>::SuperellipsoidParcel
(
    const polyMesh& mesh,
    const vector& position,
    const label celli
)
:
    ParcelType(mesh, position, celli),
    centre_(position),
    displacement_(Zero),
    omega_(Zero),
    quatV_(Zero),
    quatW_(1),
    particleId_(-1),
    shapeType_(-1)
{}


template<class ParcelType>
Foam::SuperellipsoidParcel<ParcelType>::SuperellipsoidParcel
(
    const SuperellipsoidParcel<ParcelType>& p,
    const polyMesh& mesh
)
:
    ParcelType(p, mesh),
    centre_(p.centre_),
    displacement_(p.displacement_),
    omega_(p.omega_),
    quatV_(p.quatV_),
    quatW_(p.quatW_),
    particleId_(p.particleId_),
    shapeType_(p.shapeType_)
{}


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

template<class ParcelType>
template<class TrackCloudType>
bool Foam::SuperellipsoidParcel<ParcelType>::move
(
    TrackCloudType& cloud,
    trackingData& td,
    const scalar trackTime
)
{
    td.switchProcessor = false;
    td.keepParticle = true;

    while (td.keepParticle && !td.switchProcessor && this->stepFraction() < 1)
    {
        const scalar f = 1 - this->stepFraction();
        this->trackToAndHitFace(f*displacement_, f, cloud, td);
    }

    return td.keepParticle;
}


template<class ParcelType>
template<class TrackCloudType>
bool Foam::SuperellipsoidParcel<ParcelType>::hitPatch
(
    TrackCloudType& cloud,
    trackingData& td
)
{
    const polyPatch& pp = this->mesh().boundaryMesh()[this->patch()];

    if (isA<processorPolyPatch>(pp))
    {
        return false;
    }
    if (isA<wallPolyPatch>(pp))
    {
        // Round-off at a wall: stay on the face for the rest of the step
        this->stepFraction() = 1;
        return true;
    }
    if (!polyPatch::constraintType(pp.type()))
    {
        // An open boundary (inlet, outlet): the particle leaves the domain
        cloud.patchInteraction().addToEscapedParcels(this->nParticle()*this->mass());
        td.keepParticle = false;
        return true;
    }
    // symmetry, cyclic, wedge: the default transformations
    return false;
}


template<class ParcelType>
template<class TrackCloudType>
void Foam::SuperellipsoidParcel<ParcelType>::hitWallPatch
(
    TrackCloudType&,
    trackingData&
)
{
    this->stepFraction() = 1;
}


template<class ParcelType>
void Foam::SuperellipsoidParcel<ParcelType>::transformProperties
(
    const tensor& T
)
{
    ParcelType::transformProperties(T);
    omega_ = transform(T, omega_);
    displacement_ = transform(T, displacement_);
    // (rotational cyclics and mirror planes: the core has no images across
    // them; take the new place)
    centre_ = this->position();
}


template<class ParcelType>
void Foam::SuperellipsoidParcel<ParcelType>::transformProperties
(
    const vector& separation
)
{
    // through a translational cyclic: the exact centre moves with the
    // parcel (doc/periodic.md)
    ParcelType::transformProperties(separation);
    centre_ += separation;
}


// * * * * * * * * * * * * * * * * IOStream operators  * * * * * * * * * * * //

#include "SuperellipsoidParcelIO.C"

// ************************************************************************* //
