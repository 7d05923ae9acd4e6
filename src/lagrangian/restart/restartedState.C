#include "restartedState.H"
#include "error.H"
#include "Pstream.H"
#include "PstreamReduceOps.H"
#include "ListOps.H"
#include "foamEigen.H"

#include <algorithm>

sef::Quat Foam::storedRotation
(
    const tensor& R,
    const label particleId,
    const fileName& file,
    label& repaired
)
{
    const sef::RotationReading r = sef::readRotation(toEigen(R));
    if (r.status == sef::RotationReading::Status::invalid)
    {
        FatalErrorInFunction
            << "Cannot restart: the orientation of particle " << particleId
            << " in " << file << " is " << r.problem.c_str() << nl
            << "An orientation is a rotation tensor (orthonormal, det +1)"
            << exit(FatalError);
    }
    if (r.status == sef::RotationReading::Status::repaired)
    {
        ++repaired;
    }
    return r.rotation;
}


void Foam::warnRepairedRotations(const label repaired, const fileName& file)
{
    // (not collective: processors without particles read no tensors)
    if (repaired > 0)
    {
        WarningInFunction
            << repaired << " orientation tensors in " << file << " were off a rotation by more than the"
            << " writing's round-off (" << sef::kRotationRoundOff << "): each"
            << " replaced by its nearest rotation" << endl;
    }
}


void Foam::checkRestartedState
(
    const sef::Vec3& position,
    const sef::Quat& orientation,
    const sef::Vec3& velocity,
    const sef::Vec3& angularVelocity,
    const double boundingRadius,
    const label particleId,
    const fileName& cloudDir
)
{
    const std::string problem = sef::particleStateProblem
    (
        position, orientation, velocity, angularVelocity, boundingRadius
    );
    if (!problem.empty())
    {
        FatalErrorInFunction
            << "Cannot restart: particle " << particleId << " in " << cloudDir
            << ": " << problem.c_str() << exit(FatalError);
    }
}


void Foam::checkUniqueIds(const labelUList& ids, const fileName& file)
{
    List<labelList> all(Pstream::nProcs());
    all[Pstream::myProcNo()] = ids;
    Pstream::gatherList(all);
    label duplicate = -1, count = 0;
    if (Pstream::master())
    {
        std::vector<label> sorted;
        for (const labelList& part : all)
        {
            sorted.insert(sorted.end(), part.begin(), part.end());
        }
        std::sort(sorted.begin(), sorted.end());
        for (std::size_t i = 1; i < sorted.size(); ++i)
        {
            if (sorted[i] == sorted[i - 1])
            {
                if (count++ == 0) duplicate = sorted[i];
            }
        }
    }
    Pstream::scatter(duplicate);
    Pstream::scatter(count);
    if (count > 0)
    {
        FatalErrorInFunction
            << "Cannot restart: particle id " << duplicate << " appears more"
            << " than once in " << file << (Pstream::parRun() ? " (over all processors)" : "")
            << "; " << count << " repeated ids in all. Every particle needs its"
            << " own particleId (contacts are remembered by id pairs)"
            << exit(FatalError);
    }
}
