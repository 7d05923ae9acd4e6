#include "recordedTypes.H"
#include "error.H"
#include "Pstream.H"
#include "PstreamReduceOps.H"
#include "dem/particles/TypeIdentity.hpp"

#include <ostream>

namespace
{

using namespace Foam;

const wordList shapeKeys{"a", "b", "c", "eps1", "eps2", "density"};

std::vector<double> shapeValues(const sef::dem::NamedType& t)
{
    return {t.a, t.b, t.c, t.eps1, t.eps2, t.density};
}

} // End anonymous namespace


Foam::dictionary Foam::recordedTypes
(
    const wordList& names,
    const std::vector<sef::dem::ParticleType>& types
)
{
    dictionary all;
    forAll(names, t)
    {
        const std::vector<double> v = shapeValues(sef::dem::namedType(names[t], types[t]));
        dictionary one;
        forAll(shapeKeys, k) one.add(shapeKeys[k], v[k]);
        all.add(names[t], one);
    }
    return all;
}


void Foam::writeRecordedTypes
(
    std::ostream& os,
    const wordList& names,
    const std::vector<sef::dem::ParticleType>& types
)
{
    const auto precision = os.precision(17);
    os  << "particleTypes\n{\n";
    forAll(names, t)
    {
        const std::vector<double> v = shapeValues(sef::dem::namedType(names[t], types[t]));
        os  << "    " << names[t].c_str() << " {";
        forAll(shapeKeys, k) os << " " << shapeKeys[k].c_str() << " " << v[k] << ";";
        os  << " }\n";
    }
    os  << "}\n";
    os.precision(precision);
}


Foam::labelList Foam::mapStoredTypes
(
    const dictionary& record,
    const fileName& recordPath,
    const word& timeName,
    const wordList& names,
    const std::vector<sef::dem::ParticleType>& types,
    const labelUList& stored
)
{
    if (!returnReduce(record.isDict("particleTypes"), orOp<bool>()))
    {
        return labelList(stored);
    }
    // (every processor holds the same record; decomposePar and
    // reconstructPar copy one processor's uniform/ to all)
    std::vector<sef::dem::NamedType> was, now;
    if (record.isDict("particleTypes"))
    {
        for (const entry& e : record.subDict("particleTypes"))
        {
            if (!e.isDict()) continue;
            sef::dem::NamedType t{e.keyword(), 0, 0, 0, 0, 0, 0};
            double* values[] = {&t.a, &t.b, &t.c, &t.eps1, &t.eps2, &t.density};
            forAll(shapeKeys, k) *values[k] = e.dict().get<scalar>(shapeKeys[k]);
            was.push_back(t);
        }
    }
    label recordedCount = label(was.size());
    reduce(recordedCount, maxOp<label>());
    forAll(names, t) now.push_back(sef::dem::namedType(names[t], types[t]));

    // particles of each recorded type over all processors; an index the
    // record does not have is a type of its own ("index k")
    labelList counts(recordedCount + 1, Zero);
    label outside = -1;
    for (const label k : stored)
    {
        if (k >= 0 && k < recordedCount) ++counts[k];
        else { ++counts[recordedCount]; outside = k; }
    }
    Pstream::listCombineGather(counts, plusEqOp<label>());
    Pstream::listCombineScatter(counts);
    reduce(outside, maxOp<label>());
    if (counts[recordedCount] > 0)
    {
        FatalErrorInFunction
            << "Cannot restart from time " << timeName << ": "
            << counts[recordedCount] << " particles carry type index " << outside
            << ", but the run record " << recordPath << " lists "
            << recordedCount << " particleTypes" << exit(FatalError);
    }
    std::vector<long long> perType(counts.begin(), counts.end() - 1);
    const sef::dem::TypeMapping mapping = sef::dem::mapRecordedTypes(was, now, perType);
    if (!mapping.problems.empty())
    {
        string problems;
        for (const std::string& p : mapping.problems)
        {
            problems += "    " + p + "\n";
        }
        FatalErrorInFunction
            << "Cannot restart from time " << timeName << ": the"
            << " particle types changed since the time was written:" << nl
            << problems.c_str()
            << "A restart keeps every particle's shape and density and finds"
            << " its type by name (the run record " << recordPath
            << " lists the types it was written with). Restore these"
            << " entries in particleTypes; types may be added or reordered"
            << " freely. To give the particles new shapes, start anew from"
            << " the case's first time" << exit(FatalError);
    }
    string moved;
    for (std::size_t k = 0; k < was.size(); ++k)
    {
        if (mapping.currentIndex[k] == label(k)) continue;
        moved += (moved.empty() ? "" : ", ") + was[k].name + " " + Foam::name(label(k)) + " -> "
            + (mapping.currentIndex[k] < 0 ? word("none") : Foam::name(mapping.currentIndex[k]));
    }
    if (!moved.empty())
    {
        Info<< "Restart: particle types found by name in particleTypes (type"
            << " index " << moved.c_str() << ")" << nl;
    }
    labelList current(stored.size());
    forAll(stored, i) current[i] = mapping.currentIndex[stored[i]];
    return current;
}
