#include "particleOutlets.H"
#include "meshWallFaces.H"
#include "wallPolyPatch.H"
#include "foamEigen.H"

#include <algorithm>
#include <ostream>
#include <unordered_set>


Foam::particleOutlets::particleOutlets(const polyMesh& mesh)
:
    mesh_(mesh),
    startTimeName_(mesh.time().timeName()),
    outlet_(mesh.boundaryMesh().size(), false),
    crossing_(faces_),
    number_(mesh.boundaryMesh().size(), 0),
    mass_(mesh.boundaryMesh().size(), 0.0),
    stepNumber_(mesh.boundaryMesh().size(), 0),
    stepMass_(mesh.boundaryMesh().size(), 0.0)
{
    for (const polyPatch& pp : mesh.boundaryMesh())
    {
        outlet_[pp.index()] =
            !isA<wallPolyPatch>(pp) && !polyPatch::constraintType(pp.type());
        // The DEM step knows walls, outlets and periodic pairs only:
        // particles would pass through a mirror or 2-D patch and leave the
        // domain uncounted. (The type is tested first: every processor has
        // these patches, in the same order, so all join the reduction.)
        const word& type = pp.type();
        if
        (
            (
                type == "symmetry" || type == "symmetryPlane"
             || type == "wedge" || type == "empty"
            )
         && returnReduce(pp.size(), sumOp<label>()) > 0
        )
        {
            FatalErrorInFunction
                << "Patch '" << pp.name() << "' is of type " << type
                << ": superellipsoidDEMFoam has no symmetry, wedge or empty"
                << " boundaries, and particles would pass through it and"
                << " leave the domain uncounted." << nl
                << "    Make it a wall (type wall) or an outlet (type patch),"
                << " or a cyclic pair for a periodic direction."
                << exit(FatalError);
        }
    }
    buildFaces();
}


void Foam::particleOutlets::buildFaces()
{
    faces_ = sef::dem::WallSet(meshPatchFaces(mesh_, outlet_));
}


bool Foam::particleOutlets::any() const
{
    return !faces_.empty();
}


void Foam::particleOutlets::open(const label patchi)
{
    if (outlet_[patchi]) return;
    outlet_[patchi] = true;
    buildFaces();
}


std::vector<std::int64_t> Foam::particleOutlets::leaving
(
    const sef::dem::ParticleSystem& ps,
    const sef::dem::StepStart& start,
    const sef::dem::PeriodicLattice& periodic
)
{
    std::vector<std::int64_t> ids;
    if (faces_.empty()) return ids;
    for (const sef::dem::LeavingParticle& p : crossing_.leaving(start, ps, periodic))
    {
        const label patchi = faces_.face(std::size_t(p.face)).patch;
        ++stepNumber_[patchi];
        stepMass_[patchi] += ps.types[ps.type[p.index]].mass;
        ids.push_back(ps.id[p.index]);
    }
    return ids;
}


void Foam::particleOutlets::remove
(
    sef::dem::ParticleSystem& ps,
    const std::vector<std::int64_t>& ids
)
{
    if (ids.empty()) return;
    const std::unordered_set<std::int64_t> gone(ids.begin(), ids.end());
    std::vector<char> keep(ps.size());
    for (std::size_t k = 0; k < ps.size(); ++k) keep[k] = !gone.count(ps.id[k]);
    ps.keepWhere(keep);
}


void Foam::particleOutlets::writeHeader()
{
    const Time& runTime = mesh_.time();
    const fileName dir = runTime.globalPath()/"postProcessing"/"particleOutlets"/startTimeName_;
    mkDir(dir);
    file_.reset(new OFstream(dir/"outlets.dat"));
    OFstream& os = file_();
    os.precision(12);
    os  << "# Particles that left the domain through each outlet patch since the run began" << nl
        << "# time  totalNumber  totalMass[kg]";
    forAll(outlet_, patchi)
    {
        if (!outlet_[patchi]) continue;
        const word& name = mesh_.boundaryMesh()[patchi].name();
        os  << "  " << name << ":number  " << name << ":mass[kg]";
    }
    os  << nl;
}


void Foam::particleOutlets::endStep(const Time& runTime)
{
    reduce(stepNumber_, sumOp<labelList>());
    reduce(stepMass_, sumOp<scalarList>());
    label left = 0;
    forAll(number_, patchi)
    {
        left += stepNumber_[patchi];
        number_[patchi] += stepNumber_[patchi];
        mass_[patchi] += stepMass_[patchi];
    }
    stepNumber_ = 0;
    stepMass_ = 0;
    if (left == 0 || !Pstream::master()) return;
    if (!file_.valid()) writeHeader();
    OFstream& os = file_();
    os  << runTime.value() << "  " << totalNumber() << "  " << totalMass();
    forAll(outlet_, patchi)
    {
        if (outlet_[patchi]) os << "  " << number_[patchi] << "  " << mass_[patchi];
    }
    os  << endl;
}


Foam::label Foam::particleOutlets::totalNumber() const
{
    label n = 0;
    for (const label k : number_) n += k;
    return n;
}


Foam::scalar Foam::particleOutlets::totalMass() const
{
    scalar m = 0;
    for (const scalar k : mass_) m += k;
    return m;
}


void Foam::particleOutlets::writeRecord(std::ostream& os) const
{
    os  << "outlets\n{\n";
    forAll(outlet_, patchi)
    {
        if (number_[patchi] == 0) continue;
        os  << "    " << mesh_.boundaryMesh()[patchi].name() << " (" << number_[patchi]
            << " " << mass_[patchi] << ");\n";
    }
    os  << "}\n";
}


void Foam::particleOutlets::readRecord(const dictionary& record)
{
    if (!record.found("outlets")) return;
    const dictionary& d = record.subDict("outlets");
    for (const entry& e : d)
    {
        const label patchi = mesh_.boundaryMesh().findPatchID(e.keyword());
        if (patchi < 0) continue;
        const scalarList values(e.stream());
        number_[patchi] = label(values[0] + 0.5);
        mass_[patchi] = values[1];
    }
}


void Foam::particleOutlets::writeJson(Ostream& os) const
{
    os  << "  \"outlets\": {";
    bool first = true;
    forAll(outlet_, patchi)
    {
        if (!outlet_[patchi]) continue;
        os  << (first ? "\n" : ",\n") << "    \"" << mesh_.boundaryMesh()[patchi].name()
            << "\": {\"number\": " << number_[patchi] << ", \"mass\": " << mass_[patchi] << "}";
        first = false;
    }
    os  << (first ? "}" : "\n  }");
}
