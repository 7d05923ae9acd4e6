#include "timeWriteGuard.H"
#include "OSspecific.H"
#include "PstreamReduceOps.H"

#include <cstdio>
#include <fstream>

namespace
{

// In the case (or processor) directory, not in the time's: it is in place,
// atomically, before the time directory exists, so no kill can leave a
// time directory without it
Foam::fileName markerPath(const Foam::Time& runTime)
{
    return runTime.path()/"writeInProgress";
}

// The time the marker names ("" without a marker)
Foam::word markedTime(const Foam::Time& runTime)
{
    std::ifstream is(markerPath(runTime));
    std::string keyword, time;
    is >> keyword >> time;
    return keyword == "time" ? Foam::word(time) : Foam::word();
}

} // End anonymous namespace


void Foam::beginTimeWrite(const Time& runTime)
{
    writeFileAtomically
    (
        markerPath(runTime),
        [&](std::ostream& os)
        {
            os  << "time " << runTime.timeName()
                << "\n// being written; a restart refuses this time while"
                << " this file names it\n";
        }
    );
}


void Foam::endTimeWrite(const Time& runTime)
{
    rm(markerPath(runTime));
}


void Foam::checkStartTimeComplete(const Time& runTime)
{
    const fileName marker = markerPath(runTime);
    bool incomplete = markedTime(runTime) == runTime.timeName();
    // The initial time with the run's lagrangian/ and uniform/ folders
    // removed (as the message below advises) holds only what the user
    // prepared: the run starts afresh from it and the marker is stale.
    // (findTimes lists constant/ as well)
    word firstTime;
    for (const instant& t : Time::findTimes(runTime.path()))
    {
        if (t.name() != runTime.constant())
        {
            firstTime = t.name();
            break;
        }
    }
    const bool initialTime = firstTime == runTime.timeName();
    const bool cleared =
        incomplete && initialTime
     && !isDir(runTime.timePath()/"lagrangian")
     && !isDir(runTime.timePath()/"uniform");
    if (returnReduce(cleared, orOp<bool>()))
    {
        if (cleared)
        {
            rm(marker);
            incomplete = false;
        }
        Info<< "Starting afresh from the initial time " << runTime.timeName()
            << " (its half-written particles were removed)" << nl << endl;
    }
    const bool anyIncomplete = returnReduce(incomplete, orOp<bool>());
    // a run killed while creating the processor directories of a time can
    // leave some processors without it
    const bool present = isDir(runTime.timePath());
    const bool allPresent = returnReduce(present, andOp<bool>());
    const bool anyPresent = returnReduce(present, orOp<bool>());
    const scalar t = runTime.value();
    const bool sameStart =
        returnReduce(t, minOp<scalar>()) == returnReduce(t, maxOp<scalar>());
    if (!anyIncomplete && (allPresent || !anyPresent) && sameStart)
    {
        return;
    }
    FatalError
        << "Cannot start from time " << runTime.timeName() << ": ";
    if (anyIncomplete)
    {
        FatalError
            << "its write was not completed (the run stopped while writing"
            << " it; " << (incomplete ? marker : fileName("a processor's marker"))
            << " names it).";
    }
    else if (!sameStart)
    {
        FatalError
            << "the processors start from different times (one of them lacks"
            << " the latest time).";
    }
    else
    {
        FatalError
            << "it is missing in some processor directories (the run stopped"
            << " while creating it).";
    }
    FatalError
        << nl << "The times before it are complete: delete time "
        << runTime.timeName()
        << (Pstream::parRun() ? " in every processor directory" : "")
        << " to restart from the latest complete one (if it is the initial"
        << " time, delete its lagrangian/ and uniform/ folders instead)."
        << exit(FatalError);
}


void Foam::writeFileAtomically
(
    const fileName& path,
    const std::function<void(std::ostream&)>& write
)
{
    mkDir(path.path());
    const fileName aside = path + ".writing";
    {
        std::ofstream os(aside, std::ios::binary | std::ios::trunc);
        write(os);
        os.flush();
        if (!os)
        {
            FatalErrorInFunction
                << "Cannot write " << aside << " (disk full or no permission?)"
                << exit(FatalError);
        }
    }
    if (std::rename(aside.c_str(), path.c_str()) != 0)
    {
        FatalErrorInFunction
            << "Cannot rename " << aside << " to " << path << exit(FatalError);
    }
}
