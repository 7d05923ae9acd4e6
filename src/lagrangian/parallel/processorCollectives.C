#include "processorCollectives.H"
#include "particleWire.H"
#include "foamEigen.H"

#include <algorithm>

using namespace Foam::particleWire;


void Foam::reduceStatistics(sef::dem::StepStatistics& s)
{
    if (!Pstream::parRun()) return;
    // counts and energies in one sum, the overlap in one max
    scalarList sums
    ({
        scalar(s.contacts), scalar(s.pairContacts), scalar(s.wallContacts),
        scalar(s.newtonIterations), scalar(s.fallbacks), scalar(s.pushedBack),
        scalar(s.candidatePairs), scalar(s.reusedPairs), scalar(s.reusedWalls),
        scalar(s.rimPoints), scalar(s.speculativeContacts), s.kineticEnergy, scalar(s.impulses), scalar(s.sweeps),
        scalar(s.sweepLimitReached), scalar(s.sweepsStagnated), s.impulseEnergyChange,
        s.projectionPotentialChange, s.correctionEnergyPaid, s.correctionEnergyUnpaid,
        scalar(s.sleepingParticles), scalar(s.fellAsleep), scalar(s.wokenUp),
        scalar(s.wokenByForce)
    });
    Pstream::listCombineGather(sums, plusEqOp<scalar>());
    Pstream::listCombineScatter(sums);
    label k = 0;
    s.contacts = long(sums[k++]);
    s.pairContacts = long(sums[k++]);
    s.wallContacts = long(sums[k++]);
    s.newtonIterations = long(sums[k++]);
    s.fallbacks = long(sums[k++]);
    s.pushedBack = long(sums[k++]);
    s.candidatePairs = long(sums[k++]);
    s.reusedPairs = long(sums[k++]);
    s.reusedWalls = long(sums[k++]);
    s.rimPoints = long(sums[k++]);
    s.speculativeContacts = long(sums[k++]);
    s.kineticEnergy = sums[k++];
    s.impulses = long(sums[k++]);
    s.sweeps = long(sums[k++]);
    s.sweepLimitReached = long(sums[k++]);
    s.sweepsStagnated = long(sums[k++]);
    s.impulseEnergyChange = sums[k++];
    s.projectionPotentialChange = sums[k++];
    s.correctionEnergyPaid = sums[k++];
    s.correctionEnergyUnpaid = sums[k++];
    s.sleepingParticles = long(sums[k++]);
    s.fellAsleep = long(sums[k++]);
    s.wokenUp = long(sums[k++]);
    s.wokenByForce = long(sums[k++]);
    reduce(s.maxOverlapOverDeq, maxOp<double>());
    // the pushed-back particles' ids, for the log (Info: the master's
    // list); only in the rare steps that have any (the sum above says)
    if (s.pushedBack == 0) return;
    List<labelList> ids(Pstream::nProcs());
    ids[Pstream::myProcNo()] = labelList(s.pushedBackIds.begin(), s.pushedBackIds.end());
    Pstream::gatherList(ids);
    s.pushedBackIds.clear();
    for (const labelList& part : ids)
    {
        for (const label id : part)
        {
            if (s.pushedBackIds.size() < s.kReportedPushBacks) s.pushedBackIds.push_back(id);
        }
    }
}


void Foam::keepOwnedParticles(const polyMesh& mesh, sef::dem::ParticleSystem& ps)
{
    if (!Pstream::parRun()) return;
    const label n = ps.size();
    labelList owner(n, Pstream::nProcs());
    for (label i = 0; i < n; ++i)
    {
        if (mesh.findCell(toFoam(ps.position[i])) >= 0)
        {
            owner[i] = Pstream::myProcNo();
        }
    }
    Pstream::listCombineGather(owner, minEqOp<label>());
    Pstream::listCombineScatter(owner);
    sef::dem::ParticleSystem kept;
    kept.types = ps.types;
    for (label i = 0; i < n; ++i)
    {
        if (owner[i] != Pstream::myProcNo()) continue;
        kept.add
        (
            ps.type[i], ps.id[i], ps.position[i], ps.orientation[i], ps.velocity[i],
            ps.angularVelocity[i]
        );
    }
    ps = std::move(kept);
}


sef::dem::ParticleSystem Foam::gatherParticles
(
    const sef::dem::ParticleSystem& ps,
    const gatherTarget target,
    const std::function<bool(std::size_t)>& wanted
)
{
    if (!Pstream::parRun()) return ps;
    // per particle: type, id, kinematics
    List<scalarList> all(Pstream::nProcs());
    scalarList& mine = all[Pstream::myProcNo()];
    std::vector<std::size_t> chosen;
    for (std::size_t i = 0; i < ps.size(); ++i)
    {
        if (!wanted || wanted(i)) chosen.push_back(i);
    }
    mine.setSize(label(chosen.size())*(kinematicsSize + 2));
    label k = 0;
    for (const std::size_t i : chosen)
    {
        appendParticle(mine, k, ps, i);
    }
    Pstream::gatherList(all);
    if (target == gatherTarget::everyProcessor)
    {
        Pstream::scatterList(all);
    }
    else if (!Pstream::master())
    {
        sef::dem::ParticleSystem none;
        none.types = ps.types;
        return none;
    }
    std::vector<packedParticle> bodies;
    for (const scalarList& b : all)
    {
        label j = 0;
        while (j < b.size())
        {
            bodies.push_back(takeParticle(b, j));
        }
    }
    std::sort
    (
        bodies.begin(), bodies.end(),
        [](const packedParticle& a, const packedParticle& b) { return a.id < b.id; }
    );
    sef::dem::ParticleSystem global;
    global.types = ps.types;
    for (const packedParticle& p : bodies)
    {
        const sef::dem::BodyKinematics& s = p.state;
        global.add(p.type, p.id, s.position, s.orientation, s.velocity, s.angularVelocity);
    }
    return global;
}
