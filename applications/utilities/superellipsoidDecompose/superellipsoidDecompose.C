/*---------------------------------------------------------------------------*\
Application
    superellipsoidDecompose

Group
    superellipsoidFoam utilities

Description
    A decomposition that follows the particles: every cell is weighted by
    its fluid work and the work of the particles it holds at a written time,
    w = 1 + particleWeight * (particles in the cell), and decomposed by an
    OpenFOAM method that takes weights (hierarchical, simple). The
    result is written as constant/cellDecomposition for OpenFOAM's manual
    method, so decomposePar and mpirun ... -parallel run as usual:

        // system/decomposeParDict
        numberOfSubdomains 8;
        method          manual;
        manualCoeffs    { dataFile "cellDecomposition"; }
        weightedMethod  hierarchical;   // what superellipsoidDecompose uses
        hierarchicalCoeffs { n (2 2 2); order xyz; }

        superellipsoidDecompose -latestTime
        decomposePar -latestTime

    Options: -cloud NAME (default: the one cloud of the time),
    -particleWeight W (default 10: a particle-step costs about as much as
    10 cells' fluid step; a dry case, where cells cost nothing, takes 1000),
    and the usual time selection (the last selected time is used).

    Prints, for the weighted decomposition and for weightedMethod without
    the particle weights (the plain one), the particles per subdomain and
    the imbalances (largest over the mean) of the particles, the cells and
    the weights, and writes them to postProcessing/superellipsoidDecompose.json.
    A coupled solver runs the fluid and the particles in turns, each
    waiting for its slowest processor: both the particles and the cells
    need balance, which a split in columns across a bed gives (n_z = 1).
\*---------------------------------------------------------------------------*/

#include "fvCFD.H"
#include "timeSelector.H"
#include "passiveParticleCloud.H"
#include "decompositionMethod.H"
#include "labelIOList.H"
#include "OFstream.H"

using namespace Foam;

namespace
{

// The particles and the weight of each subdomain of a decomposition
struct domainLoad
{
    labelList particles;
    labelList cells;
    scalarList weight;
};

domainLoad loadOf
(
    const labelList& domainOfCell,
    const labelList& particlesInCell,
    const scalarField& cellWeight,
    const label nDomains
)
{
    domainLoad load{labelList(nDomains, 0), labelList(nDomains, 0), scalarList(nDomains, 0.0)};
    forAll(domainOfCell, celli)
    {
        load.particles[domainOfCell[celli]] += particlesInCell[celli];
        ++load.cells[domainOfCell[celli]];
        load.weight[domainOfCell[celli]] += cellWeight[celli];
    }
    return load;
}

// Largest over the mean (1: balanced); 1 for no particles at all
template<class Type>
scalar imbalance(const List<Type>& perDomain)
{
    scalar total = 0, largest = 0;
    for (const Type v : perDomain)
    {
        total += v;
        largest = max(largest, scalar(v));
    }
    return total > 0 ? largest*perDomain.size()/total : 1;
}

void report(const word& name, const domainLoad& load)
{
    Info<< name << ": particles per subdomain " << load.particles
        << ", particle imbalance " << imbalance(load.particles)
        << ", cell imbalance " << imbalance(load.cells)
        << ", work imbalance " << imbalance(load.weight) << nl;
}

void writeJson(OFstream& os, const word& name, const domainLoad& load)
{
    os  << "  \"" << name << "\": {\"particles\": [";
    forAll(load.particles, i)
    {
        os  << (i ? ", " : "") << load.particles[i];
    }
    os  << "], \"particleImbalance\": " << imbalance(load.particles)
        << ", \"cellImbalance\": " << imbalance(load.cells)
        << ", \"workImbalance\": " << imbalance(load.weight) << "}";
}

} // namespace


int main(int argc, char *argv[])
{
    argList::addNote
    (
        "Decomposition weighted by the particles of a written time,"
        " for the manual method"
    );
    argList::noParallel();
    timeSelector::addOptions(true, false);
    argList::addOption("cloud", "name", "the cloud (default: the time's one cloud)");
    argList::addOption
    (
        "particleWeight", "scalar",
        "work of one particle in units of one cell's fluid work (default 10)"
    );

    #include "setRootCase.H"
    #include "createTime.H"

    const instantList times = timeSelector::select0(runTime, args);
    runTime.setTime(times.last(), 0);

    #include "createMesh.H"

    const scalar particleWeight = args.lookupOrDefault<scalar>("particleWeight", 10);
    if (!(particleWeight >= 0) || !std::isfinite(particleWeight))
    {
        FatalErrorInFunction
            << "-particleWeight " << particleWeight << ": must be >= 0 and finite"
            << exit(FatalError);
    }

    // The cloud: named, or the only one of the time
    word cloudName;
    if (!args.readIfPresent("cloud", cloudName))
    {
        const fileNameList clouds
        (
            readDir(runTime.timePath()/cloud::prefix, fileName::DIRECTORY)
        );
        if (clouds.size() != 1)
        {
            FatalErrorInFunction
                << "Time " << runTime.timeName() << " has " << clouds.size()
                << " clouds " << clouds << " in " << runTime.timePath()/cloud::prefix
                << ": name one with -cloud" << exit(FatalError);
        }
        cloudName = clouds[0];
    }

    // The method with weights: weightedMethod, else the dictionary's own
    IOdictionary decompDict
    (
        IOobject
        (
            "decomposeParDict", runTime.system(), mesh,
            IOobject::MUST_READ_IF_MODIFIED, IOobject::NO_WRITE, false
        )
    );
    dictionary methodDict(decompDict);
    const word method =
        decompDict.lookupOrDefault<word>("weightedMethod", decompDict.get<word>("method"));
    if (method == "manual")
    {
        FatalIOErrorInFunction(decompDict)
            << "the method that balances the weights is manual: set"
            << " weightedMethod (hierarchical or simple) and its coefficients"
            << exit(FatalIOError);
    }
    methodDict.set("method", method);
    autoPtr<decompositionMethod> decomposer = decompositionMethod::New(methodDict);
    const label nDomains = decomposer().nDomains();

    // The particles of each cell
    passiveParticleCloud particles(mesh, cloudName, false);
    labelList particlesInCell(mesh.nCells(), 0);
    for (const passiveParticle& p : particles)
    {
        ++particlesInCell[p.cell()];
    }
    Info<< "Cloud " << cloudName << " at time " << runTime.timeName() << ": "
        << particles.size() << " particles in " << mesh.nCells() << " cells" << nl;
    if (particles.size() == 0)
    {
        WarningInFunction
            << "no particles: the decomposition balances the cells only" << nl;
    }

    scalarField cellWeight(mesh.nCells(), 1.0);
    forAll(cellWeight, celli)
    {
        cellWeight[celli] += particleWeight*particlesInCell[celli];
    }
    const labelList plain = decomposer().decompose(mesh, mesh.cellCentres());
    const labelList weighted = decomposer().decompose(mesh, mesh.cellCentres(), cellWeight);

    const domainLoad plainLoad = loadOf(plain, particlesInCell, cellWeight, nDomains);
    const domainLoad weightedLoad = loadOf(weighted, particlesInCell, cellWeight, nDomains);
    report(method + " (plain)", plainLoad);
    report(method + " (weighted)", weightedLoad);

    labelIOList cellDecomposition
    (
        IOobject
        (
            "cellDecomposition", mesh.facesInstance(), mesh,
            IOobject::NO_READ, IOobject::NO_WRITE, false
        ),
        weighted
    );
    cellDecomposition.write();
    Info<< "Wrote " << cellDecomposition.objectPath()
        << " (method manual; manualCoeffs { dataFile \"cellDecomposition\"; })" << nl;

    mkDir(runTime.path()/"postProcessing");
    OFstream os(runTime.path()/"postProcessing"/"superellipsoidDecompose.json");
    os  << "{\n  \"time\": " << runTime.value() << ",\n  \"cloud\": \"" << cloudName
        << "\",\n  \"method\": \"" << method << "\",\n  \"particleWeight\": " << particleWeight
        << ",\n  \"subdomains\": " << nDomains << ",\n";
    writeJson(os, "plain", plainLoad);
    os  << ",\n";
    writeJson(os, "weighted", weightedLoad);
    os  << "\n}\n";

    Info<< "End" << nl;
    return 0;
}
