#include "storedCloud.H"
#include "IFstream.H"
#include "cloud.H"
#include "PstreamReduceOps.H"

Foam::fileName Foam::cloudFilePath
(
    const polyMesh& mesh,
    const word& cloudName,
    const word& fileName
)
{
    return mesh.time().timePath()/cloud::prefix/cloudName/fileName;
}


void Foam::checkFieldReadable(const fileName& path)
{
    if (!isFile(path)) return;
    IFstream is(path);
    dictionary header;
    // a FoamFile header and at least the list size behind it
    token first;
    bool ok = is.good();
    if (ok)
    {
        is >> first;
        ok = first.isWord() && first.wordToken() == "FoamFile";
    }
    if (ok)
    {
        header.read(is);
        token size(is);
        ok = is.good() && (size.isLabel() || size.isPunctuation());
    }
    if (!ok)
    {
        FatalErrorInFunction
            << "Cannot restart: " << path << " is unreadable (truncated or"
            << " corrupt: no OpenFOAM header and list behind it)"
            << exit(FatalError);
    }
}


Foam::label Foam::storedParticleCount(const polyMesh& mesh, const word& cloudName)
{
    const fileName path = cloudFilePath(mesh, cloudName, "coordinates");
    if (!isFile(path)) return -1;
    checkFieldReadable(path);
    IFstream is(path);
    token first;
    is >> first;
    dictionary header(is);
    token size(is);
    // A list without its size (hand-made): count its entries when read
    return size.isLabel() ? size.labelToken() : -2;
}


void Foam::checkStoredCount
(
    const polyMesh& mesh,
    const word& cloudName,
    const label recorded,
    const fileName& record
)
{
    // Totals over all processors: reconstructPar and decomposePar copy one
    // processor's uniform/ to all, so only the total survives them
    const label stored = storedParticleCount(mesh, cloudName);
    // -2: a list without its size, checked when read
    const bool unsized = returnReduce(stored == -2, orOp<bool>());
    const label total = returnReduce(max(stored, label(0)), sumOp<label>());
    const label expected = returnReduce(recorded, maxOp<label>());
    if (unsized || expected < 0 || total == expected)
    {
        return;
    }
    // Every processor names every processor's file the same way: the
    // message does not depend on which processor's error is printed first
    labelList storedOn(Pstream::nProcs(), 0);
    storedOn[Pstream::myProcNo()] = stored;
    Pstream::gatherList(storedOn);
    Pstream::scatterList(storedOn);
    const Time& time = mesh.time();
    string files;
    forAll(storedOn, proci)
    {
        const fileName file = Pstream::parRun()
          ? time.rootPath()/time.globalCaseName()/("processor" + Foam::name(proci))
                /time.timeName()/cloud::prefix/cloudName/"coordinates"
          : cloudFilePath(mesh, cloudName, "coordinates");
        files += (proci ? ", " : "") + (storedOn[proci] < 0 ? "the particle file " + file + " is missing"
                                                              : file + " holds " + Foam::name(storedOn[proci]));
    }
    FatalErrorInFunction
        << "Cannot restart from time " << mesh.time().timeName() << ": "
        << record << " records " << expected << " particles of cloud "
        << cloudName << (Pstream::parRun() ? " over all processors" : "")
        << ", but the particle files hold " << total << ": " << files
        << "." << nl << "Particle files were deleted or replaced after the"
        << " run wrote them: restore them, or restart from an earlier time"
        << " (a restart never re-injects; to inject anew at the case's first"
        << " time, delete the record " << record.name() << " too)"
        << exit(FatalError);
}


Foam::List<Foam::point> Foam::readHandPositions
(
    const polyMesh& mesh,
    const word& cloudName,
    const label expected
)
{
    const fileName path = cloudFilePath(mesh, cloudName, "positions");
    if (!isFile(path)) return List<point>();
    checkFieldReadable(path);
    IFstream is(path);
    token first;
    is >> first;
    dictionary header(is);
    // the file's own format (the writer's writeFormat)
    if (header.found("format"))
    {
        is.format(header.get<word>("format"));
    }
    token size(is);
    if (!size.isLabel() || size.labelToken() != expected)
    {
        FatalErrorInFunction
            << "Cannot restart: " << path << " holds "
            << (size.isLabel() ? Foam::name(size.labelToken()) : word("an unsized list of"))
            << " positions for " << expected << " particles of the cloud's"
            << " coordinates file (edit positions without adding or removing"
            << " entries)" << exit(FatalError);
    }
    List<point> positions(expected);
    is.readBeginList(FUNCTION_NAME);
    for (point& x : positions)
    {
        // OpenFOAM's legacy format (particle::writePosition): the centre
        // and a cell hint; read as written (locating it would move a centre
        // edited outside the mesh onto the boundary)
        label celli = -1;
        if (is.format() == IOstream::ASCII)
        {
            is >> x >> celli;
        }
        else
        {
            struct { vector position; label celli; } raw;
            is.read(reinterpret_cast<char*>(&raw), sizeof(vector) + sizeof(label));
            x = raw.position;
        }
    }
    is.readEndList(FUNCTION_NAME);
    return positions;
}
