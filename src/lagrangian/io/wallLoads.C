#include "wallLoads.H"
#include "wallPolyPatch.H"
#include "Time.H"
#include "foamEigen.H"
#include "PstreamReduceOps.H"


Foam::wallLoads::wallLoads(const polyMesh& mesh, const word& name, const dictionary& dict)
:
    mesh_(mesh),
    dir_
    (
        mesh.time().globalPath()/"postProcessing"/name
       /mesh.time().timeName(mesh.time().startTime().value())
    ),
    column_(mesh.boundaryMesh().size(), -1),
    average_(dict)
{
    DynamicList<label> walls;
    for (const polyPatch& pp : mesh.boundaryMesh())
    {
        if (!isA<wallPolyPatch>(pp)) continue;
        column_[pp.index()] = walls.size();
        walls.append(pp.index());
    }
    patches_.transfer(walls);
    impulse_.setSize(patches_.size(), Zero);
    angularImpulse_.setSize(patches_.size(), Zero);
}


void Foam::wallLoads::writeHeader()
{
    mkDir(dir_);
    file_.reset(new OFstream(dir_/"wallLoads.dat"));
    OFstream& os = file_();
    os.precision(12);
    os  << "# Loads of the particles on each wall patch: the mean force [N]"
        << " (contact impulses and push-back, divided by the time) and its"
        << " moment about the origin [N m] over the steps since the previous"
        << " line (or the run's start)" << nl
        << "# time";
    for (const label patchi : patches_)
    {
        const word& name = mesh_.boundaryMesh()[patchi].name();
        os  << "  " << name << ":Fx Fy Fz Mx My Mz";
    }
    os  << nl;
}


void Foam::wallLoads::write(const sef::dem::StepStatistics& stats, const scalar dt)
{
    if (patches_.empty()) return;
    for (const sef::dem::WallLoad& load : stats.wallLoads)
    {
        const label k =
            load.patch >= 0 && load.patch < column_.size() ? column_[load.patch] : -1;
        if (k < 0) continue;   // (a tag that is not a wall patch: none in a mesh's walls)
        impulse_[k] += toFoam(load.impulse);
        angularImpulse_[k] += toFoam(load.moment);
    }
    if (average_.add(mesh_.time(), dt))
    {
        writeLine();
    }
}


void Foam::wallLoads::flush()
{
    if (patches_.empty() || !average_.pending()) return;
    writeLine();
}


void Foam::wallLoads::writeLine()
{
    const scalar span = average_.take();
    reduce(impulse_, sumOp<vectorField>());
    reduce(angularImpulse_, sumOp<vectorField>());
    const vectorField force(impulse_/span), moment(angularImpulse_/span);
    impulse_ = Zero;
    angularImpulse_ = Zero;
    if (!Pstream::master()) return;
    if (!file_.valid()) writeHeader();
    OFstream& os = file_();
    os  << mesh_.time().value();
    forAll(patches_, k)
    {
        os  << "  " << force[k].x() << ' ' << force[k].y() << ' ' << force[k].z()
            << ' ' << moment[k].x() << ' ' << moment[k].y() << ' ' << moment[k].z();
    }
    os  << nl;
}


// ************************************************************************* //
