#include "demParticle.H"
#include "foamEigen.H"
#include "wallPolyPatch.H"
#include "processorPolyPatch.H"

namespace Foam
{
    defineTypeNameAndDebug(demParticle, 0);
    defineTemplateTypeNameAndDebug(Cloud<demParticle>, 0);
}



Foam::demParticle::demParticle
(
    const polyMesh& mesh,
    const vector& position,
    const label celli
)
:
    particle(mesh, position, celli),
    particleId_(-1),
    typeIndex_(0),
    centre_(position),
    quatW_(1),
    quatV_(Zero),
    U_(Zero),
    omega_(Zero),
    displacement_(Zero)
{}


Foam::demParticle::demParticle
(
    const polyMesh& mesh,
    Istream& is,
    bool readFields,
    bool newFormat
)
:
    particle(mesh, is, readFields, newFormat)
{
    arrived_ = true;
    if (readFields)
    {
        is  >> particleId_ >> typeIndex_ >> centre_ >> quatW_ >> quatV_ >> U_ >> omega_
            >> displacement_;
        track_ = true;
    }
    is.check(FUNCTION_NAME);
}


void Foam::demParticle::addTo(sef::dem::ParticleSystem& ps) const
{
    ps.add
    (
        typeIndex_, particleId_, toEigen(centre_),
        sef::Quat(quatW_, quatV_.x(), quatV_.y(), quatV_.z()), toEigen(U_), toEigen(omega_)
    );
}


void Foam::demParticle::setFrom
(
    const sef::dem::ParticleSystem& ps,
    const std::size_t k,
    const bool track
)
{
    initialise(ps, k);
    track_ = track;
    if (track)
    {
        displacement_ = centre_ - position();
    }
}


void Foam::demParticle::initialise(const sef::dem::ParticleSystem& ps, const std::size_t k)
{
    particleId_ = label(ps.id[k]);
    typeIndex_ = ps.type[k];
    centre_ = toFoam(ps.position[k]);
    const sef::Quat& q = ps.orientation[k];
    quatW_ = q.w();
    quatV_ = vector(q.x(), q.y(), q.z());
    U_ = toFoam(ps.velocity[k]);
    omega_ = toFoam(ps.angularVelocity[k]);
    displacement_ = Zero;
}


bool Foam::demParticle::move
(
    Cloud<demParticle>& cloud,
    trackingData& td,
    const scalar
)
{
    td.switchProcessor = false;
    td.keepParticle = true;
    if (!track_)
    {
        return true;
    }
    label hits = 0;
    while (td.keepParticle && !td.switchProcessor && stepFraction() < 1)
    {
        const scalar f = 1 - stepFraction();
        trackToAndHitFace(f*displacement_, f, cloud, td);
        if (++hits == 10000)
        {
            // tracking makes no progress (round-off on a face): the exact
            // centre is kept anyway; the particle stays in this cell
            Pout<< "Warning: tracking of particle " << particleId_
                << " stopped after 10000 face hits: position " << position()
                << " centre " << centre_ << " displacement " << displacement_
                << " stepFraction " << stepFraction() << " face " << face()
                << " onBoundary " << onBoundaryFace() << " patch "
                << (onBoundaryFace() ? mesh().boundaryMesh()[patch()].name() : word("none"))
                << endl;
            stepFraction() = 1;
        }
    }
    return td.keepParticle;
}


bool Foam::demParticle::hitPatch(Cloud<demParticle>&, trackingData& td)
{
    const polyPatch& pp = mesh().boundaryMesh()[patch()];
    if (isA<processorPolyPatch>(pp) || isA<wallPolyPatch>(pp))
    {
        return false;   // the default: transfer / hitWallPatch
    }
    if (!polyPatch::constraintType(pp.type()))
    {
        td.keepParticle = false;    // left through an open boundary
        return true;
    }
    return false;
}


void Foam::demParticle::hitProcessorPatch(Cloud<demParticle>&, trackingData& td)
{
    td.switchProcessor = true;  // (particle's default does nothing)
}


void Foam::demParticle::hitWallPatch(Cloud<demParticle>&, trackingData&)
{
    stepFraction() = 1;
}


Foam::Ostream& Foam::operator<<(Ostream& os, const demParticle& p)
{
    os  << static_cast<const particle&>(p)
        << token::SPACE << p.particleId_ << token::SPACE << p.typeIndex_
        << token::SPACE << p.centre_ << token::SPACE << p.quatW_
        << token::SPACE << p.quatV_ << token::SPACE << p.U_
        << token::SPACE << p.omega_ << token::SPACE << p.displacement_;
    os.check(FUNCTION_NAME);
    return os;
}


void Foam::demParticle::transformProperties(const vector& separation)
{
    particle::transformProperties(separation);
    centre_ += separation;
}
