#include "particleTrace.H"
#include "Pstream.H"
#include "OStringStream.H"
#include "Tuple2.H"

#include <algorithm>
#include <utility>
#include <vector>

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
    if (ids_.size() && Pstream::master())
    {
        const fileName dir = runTime.globalPath()/"postProcessing";
        mkDir(dir);
        os_.reset(new OFstream(dir/"particleTrace.dat"));
        os_().precision(15);
        os_() << "# time id x y z Ux Uy Uz wx wy wz qw qx qy qz" << nl;
    }
}


Foam::wordList Foam::particleTrace::keywords()
{
    return {"traceParticles", "traceInterval"};
}


void Foam::particleTrace::warnUnknownIds
(
    const Time& runTime,
    const sef::dem::ParticleSystem& ps
) const
{
    // The traced ids each processor holds, and the id range, over all
    labelList held;
    label lo = labelMax, hi = labelMin;
    for (std::size_t i = 0; i < ps.size(); ++i)
    {
        const label id = label(ps.id[i]);
        if (ids_.found(id)) held.append(id);
        lo = min(lo, id);
        hi = max(hi, id);
    }
    List<labelList> all(Pstream::nProcs());
    all[Pstream::myProcNo()] = held;
    Pstream::gatherList(all);
    reduce(lo, minOp<label>());
    reduce(hi, maxOp<label>());
    const label total = returnReduce(label(ps.size()), sumOp<label>());
    if (!Pstream::master()) return;

    labelHashSet unknown(ids_);
    for (const labelList& procHeld : all)
    {
        unknown.erase(procHeld);
    }
    if (unknown.empty()) return;
    string missing;
    for (const label id : unknown.sortedToc())
    {
        missing += (missing.empty() ? "(" : " ") + name(id);
    }
    const string range = total ? ", ids " + name(lo) + " to " + name(hi) : "";
    WarningInFunction
        << "traceParticles: no particle has the id"
        << (unknown.size() > 1 ? "s " : " ") << missing.c_str() << ")"
        << " at time " << runTime.timeName() << " (" << total << " particles"
        << range.c_str() << "); not traced" << endl;
}


void Foam::particleTrace::write
(
    const Time& runTime,
    const sef::dem::ParticleSystem& ps,
    bool force
)
{
    if (ids_.empty()) return;
    // once the trace starts: the first forced write, or the first with
    // particles (a cloud injects during its first steps)
    if (!idsChecked_ && (force || returnReduce(ps.size() > 0, orOp<bool>())))
    {
        warnUnknownIds(runTime, ps);
        idsChecked_ = true;
    }
    if (!force && runTime.timeIndex() % interval_ != 0) return;
    // This processor's traced particles by id; in a decomposed run the
    // master writes every processor's, in id order as in serial
    std::vector<std::pair<label, std::string>> lines;
    for (std::size_t i = 0; i < ps.size(); ++i)
    {
        if (!ids_.found(label(ps.id[i]))) continue;
        const sef::Vec3& x = ps.position[i];
        const sef::Vec3& u = ps.velocity[i];
        const sef::Vec3& w = ps.angularVelocity[i];
        const sef::Quat& q = ps.orientation[i];
        OStringStream line;
        line.precision(15);
        line<< runTime.value() << ' ' << label(ps.id[i])
            << ' ' << x.x() << ' ' << x.y() << ' ' << x.z()
            << ' ' << u.x() << ' ' << u.y() << ' ' << u.z()
            << ' ' << w.x() << ' ' << w.y() << ' ' << w.z()
            << ' ' << q.w() << ' ' << q.x() << ' ' << q.y() << ' ' << q.z() << nl;
        lines.emplace_back(label(ps.id[i]), line.str());
    }
    if (Pstream::parRun())
    {
        List<List<Tuple2<label, string>>> all(Pstream::nProcs());
        for (const auto& l : lines)
        {
            all[Pstream::myProcNo()].append(Tuple2<label, string>(l.first, l.second));
        }
        Pstream::gatherList(all);
        lines.clear();
        for (const auto& procLines : all)
        {
            for (const auto& l : procLines)
            {
                lines.emplace_back(l.first(), l.second());
            }
        }
    }
    if (!os_.valid()) return;
    std::stable_sort
    (
        lines.begin(), lines.end(),
        [](const auto& a, const auto& b) { return a.first < b.first; }
    );
    for (const auto& l : lines)
    {
        os_() << l.second.c_str();
    }
}
