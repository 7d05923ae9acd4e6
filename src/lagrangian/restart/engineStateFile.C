#include "engineStateFile.H"
#include "timeWriteGuard.H"
#include "Pstream.H"
#include "List.H"

#include <sstream>
#include <string>
#include <vector>

void Foam::writeEngineState(const sef::dem::DemEngine& engine, const fileName& path)
{
    if (!Pstream::parRun())
    {
        writeFileAtomically(path, [&](std::ostream& os) { engine.writeState(os); });
        return;
    }
    std::ostringstream mine;
    engine.writeState(mine);
    const std::string bytes = mine.str();
    List<List<char>> states(Pstream::nProcs());
    states[Pstream::myProcNo()] = List<char>(bytes.begin(), bytes.end());
    Pstream::gatherList(states);
    if (!Pstream::master())
    {
        writeFileAtomically(path, [&](std::ostream& os) { os.write(bytes.data(), bytes.size()); });
        return;
    }
    std::vector<std::string> others;
    for (label proci = 1; proci < states.size(); ++proci)
    {
        others.emplace_back(states[proci].begin(), states[proci].end());
    }
    writeFileAtomically(path, [&](std::ostream& os) { engine.writeState(os, others); });
}
