#include "wallSchedule.H"
#include "wallPolyPatch.H"
#include "demCloudProperties.H"
#include "foamEigen.H"

#include <algorithm>
#include <cmath>

namespace
{

Foam::string joinedNames(const Foam::wordList& words)
{
    Foam::string s;
    for (const Foam::word& w : words) s += (s.empty() ? "" : " ") + w;
    return s;
}

} // End anonymous namespace


Foam::wallSchedule::wallSchedule
(
    const polyMesh& mesh,
    const dictionary& cloudDict,
    const bool openingAllowed
)
:
    mesh_(mesh),
    openAt_(mesh.boundaryMesh().size(), GREAT)
{
    if (!cloudDict.found("walls")) return;
    if (!cloudDict.isDict("walls"))
    {
        invalidEntry(cloudDict, "walls", "must be a dictionary of wall patches");
    }
    dict_ = cloudDict.subDict("walls");
    const dictionary& walls = cloudDict.subDict("walls");
    wordList wallPatches;
    for (const polyPatch& pp : mesh.boundaryMesh())
    {
        if (isA<wallPolyPatch>(pp)) wallPatches.append(pp.name());
    }
    for (const entry& e : walls)
    {
        const word& name = e.keyword();
        if (name.starts_with('#')) continue;
        const label patchi = mesh.boundaryMesh().findPatchID(name);
        if (patchi < 0 || !isA<wallPolyPatch>(mesh.boundaryMesh()[patchi]))
        {
            invalidEntry
            (
                walls, name,
                "not a wall patch of the mesh (wall patches: " + joinedNames(wallPatches) + ")"
            );
        }
        if (!e.isDict())
        {
            invalidEntry(walls, name, "must be a dictionary (velocity, angularVelocity, origin, openAt)");
        }
        const dictionary& d = e.dict();
        // (a Function1 may take its coefficients from <name>Coeffs)
        checkKeywords(d, {"velocity", "angularVelocity", "origin", "openAt", "velocityCoeffs", "angularVelocityCoeffs"});
        if (d.found("openAt") && !openingAllowed)
        {
            invalidEntry(d, "openAt", "walls open only in superellipsoidDEMFoam (the fluid keeps its walls)");
        }
        if (d.found("openAt"))
        {
            openAt_[patchi] = d.get<scalar>("openAt");
            if (!std::isfinite(openAt_[patchi]) || std::abs(openAt_[patchi]) >= GREAT)
            {
                invalidEntry(d, "openAt", "must be a finite time");
            }
        }
        if (!d.found("velocity") && !d.found("angularVelocity")) continue;
        patchMotion m;
        m.patch = patchi;
        if (d.found("velocity")) m.velocity = Function1<vector>::New("velocity", d);
        if (d.found("angularVelocity"))
        {
            m.angularVelocity = Function1<vector>::New("angularVelocity", d);
            if (!d.found("origin"))
            {
                invalidEntry(d, "origin", "missing: a point of the rotation axis is needed with angularVelocity");
            }
        }
        m.origin = d.lookupOrDefault<vector>("origin", Zero);
        motions_.push_back(std::move(m));
    }
}


void Foam::wallSchedule::apply(sef::dem::DemEngine& engine, scalar t) const
{
    if (motions_.empty()) return;
    try
    {
        engine.setWallMotions(motions(t));
    }
    catch (const sef::dem::WallMotionError& err)
    {
        // the entry of the patch whose motion is refused
        word name = "walls";
        for (const sef::dem::WallMotion& m : motions(t))
        {
            try
            {
                sef::dem::motionOfFaces(engine.walls(), {m});
            }
            catch (const sef::dem::WallMotionError&)
            {
                name = mesh_.boundaryMesh()[m.patch].name();
                break;
            }
        }
        FatalIOErrorInFunction(dict_)
            << "Invalid entry '" << name << "' in " << dict_.name() << " at time " << Foam::name(t).c_str()
            << ": " << err.what() << exit(FatalIOError);
    }
}


std::vector<sef::dem::WallMotion> Foam::wallSchedule::motions(scalar t) const
{
    std::vector<sef::dem::WallMotion> result;
    for (const patchMotion& m : motions_)
    {
        if (isOpen(m.patch, t)) continue;
        sef::dem::WallMotion w;
        w.patch = int(m.patch);
        if (m.velocity.valid()) w.velocity = toEigen(m.velocity->value(t));
        if (m.angularVelocity.valid()) w.angularVelocity = toEigen(m.angularVelocity->value(t));
        w.origin = toEigen(m.origin);
        result.push_back(w);
    }
    return result;
}


Foam::labelList Foam::wallSchedule::openedAt(scalar t) const
{
    labelList opened;
    forAll(openAt_, patchi)
    {
        if (isOpen(patchi, t)) opened.append(patchi);
    }
    return opened;
}


Foam::labelList Foam::wallSchedule::checkRecordedOpenings
(
    const wordList& recorded,
    const scalar t,
    const fileName& record
) const
{
    labelList opened;
    for (const word& name : recorded)
    {
        const label patchi = mesh_.boundaryMesh().findPatchID(name);
        if (patchi < 0)
        {
            FatalErrorInFunction
                << "Cannot restart from time " << t << ": the run record "
                << record << " holds wall patch '" << name << "' as opened,"
                << " but the mesh has no such patch" << exit(FatalError);
        }
        if (!isOpen(patchi, t))
        {
            const bool given = dict_.isDict(name) && dict_.subDict(name).found("openAt");
            FatalErrorInFunction
                << "Cannot restart from time " << t << ": wall patch '" << name
                << "' opened before this time (the run record " << record
                << " holds openedWalls (" << joinedNames(recorded).c_str() << ")), but "
                << (given
                    ? "walls/" + name + "/openAt is now " + Foam::name(openAt_[patchi])
                    : string("the walls dictionary no longer opens it")).c_str()
                << "." << nl << "A wall that opened stays open: set 'openAt' of "
                << name << " to at most " << t << ". To close it again on"
                << " purpose, remove " << name << " from openedWalls in " << record
                << " (particles may be half through it)" << exit(FatalError);
        }
        opened.append(patchi);
    }
    return opened;
}


std::vector<sef::dem::WallFace> Foam::wallSchedule::closedFaces
(
    const std::vector<sef::dem::WallFace>& all,
    const labelList& opened
)
{
    std::vector<sef::dem::WallFace> closed;
    closed.reserve(all.size());
    for (const sef::dem::WallFace& f : all)
    {
        if (!opened.found(f.patch)) closed.push_back(f);
    }
    return closed;
}
