#include "particleTrace.H"

Foam::particleTrace::particleTrace(const Time& runTime, const dictionary& dict)
:
    ids_(dict.lookupOrDefault<labelList>("traceParticles", labelList())),
    interval_(dict.lookupOrDefault<label>("traceInterval", 1))
{
    if (interval_ < 1)
    {
        FatalIOErrorInFunction(dict)
            << "Invalid entry 'traceInterval': must be >= 1" << exit(FatalIOError);
    }
    if (ids_.size())
    {
        const fileName dir = runTime.globalPath()/"postProcessing";
        mkDir(dir);
        os_.reset(new OFstream(dir/"particleTrace.dat"));
        os_().precision(15);
        os_() << "# time id x y z Ux Uy Uz wx wy wz qw qx qy qz" << nl;
    }
}


void Foam::particleTrace::write
(
    const Time& runTime,
    const sef::dem::ParticleSystem& ps,
    bool force
)
{
    if (!os_.valid() || (!force && runTime.timeIndex() % interval_ != 0)) return;
    for (std::size_t i = 0; i < ps.size(); ++i)
    {
        if (!ids_.found(label(ps.id[i]))) continue;
        const sef::Vec3& x = ps.position[i];
        const sef::Vec3& u = ps.velocity[i];
        const sef::Vec3& w = ps.angularVelocity[i];
        const sef::Quat& q = ps.orientation[i];
        os_() << runTime.value() << ' ' << label(ps.id[i])
            << ' ' << x.x() << ' ' << x.y() << ' ' << x.z()
            << ' ' << u.x() << ' ' << u.y() << ' ' << u.z()
            << ' ' << w.x() << ' ' << w.y() << ' ' << w.z()
            << ' ' << q.w() << ' ' << q.x() << ' ' << q.y() << ' ' << q.z() << nl;
    }
}
