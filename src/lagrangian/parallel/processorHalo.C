#include "processorHalo.H"
#include "particleWire.H"
#include "clockTime.H"
#include "foamEigen.H"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace
{

using namespace Foam;
using namespace Foam::particleWire;

// Wall-clock of one exchange, added to the halo's total
class stopwatch
{
    double& total_;
    clockTime clock_;
public:
    explicit stopwatch(double& total) : total_(total) {}
    ~stopwatch() { total_ += clock_.elapsedTime(); }
};

// Squared distance from x to the box [lo, hi] (0 inside)
double squaredDistanceToBox(const sef::Vec3& x, const sef::Vec3& lo, const sef::Vec3& hi)
{
    return ((lo - x).cwiseMax(0.0) + (x - hi).cwiseMax(0.0)).squaredNorm();
}


// Point to point with the given processors only (a relation both sides
// know): first the sizes, then the bytes, non-blocking. outgoing[k] goes
// to procs[k]; returns what procs[k] sent; adds the messages sent to
// `messages`.
List<std::string> exchangeBytes
(
    const labelList& procs,
    const List<std::string>& outgoing,
    label& messages
)
{
    labelList incomingSize(procs.size(), 0);
    labelList outgoingSize(procs.size(), 0);
    label start = UPstream::nRequests();
    forAll(procs, k)
    {
        outgoingSize[k] = label(outgoing[k].size());
        UIPstream::read
        (
            UPstream::commsTypes::nonBlocking, procs[k],
            reinterpret_cast<char*>(&incomingSize[k]), sizeof(label)
        );
    }
    forAll(procs, k)
    {
        UOPstream::write
        (
            UPstream::commsTypes::nonBlocking, procs[k],
            reinterpret_cast<const char*>(&outgoingSize[k]), sizeof(label)
        );
        ++messages;
    }
    UPstream::waitRequests(start);
    List<std::string> incoming(procs.size());
    start = UPstream::nRequests();
    forAll(procs, k)
    {
        if (!incomingSize[k]) continue;
        incoming[k].resize(std::size_t(incomingSize[k]));
        UIPstream::read
        (
            UPstream::commsTypes::nonBlocking, procs[k],
            &incoming[k][0], incomingSize[k]
        );
    }
    forAll(procs, k)
    {
        if (!outgoingSize[k]) continue;
        UOPstream::write
        (
            UPstream::commsTypes::nonBlocking, procs[k],
            outgoing[k].data(), outgoingSize[k]
        );
        ++messages;
    }
    UPstream::waitRequests(start);
    return incoming;
}

} // End anonymous namespace


Foam::processorHalo::processorHalo
(
    const polyMesh& mesh,
    const sef::dem::PeriodicLattice& lattice
)
:
    boxes_(Pstream::nProcs()),
    lattice_(lattice),
    sendTo_(Pstream::nProcs()),
    shiftTo_(Pstream::nProcs()),
    receivedFrom_(Pstream::nProcs(), 0)
{
    boxes_[Pstream::myProcNo()] = boundBox(mesh.points(), false);
    Pstream::gatherList(boxes_);
    Pstream::scatterList(boxes_);
}


bool Foam::processorHalo::canReach
(
    const label from,
    const label to,
    const double reach
) const
{
    const boundBox& a = boxes_[from];
    const boundBox& b = boxes_[to];
    const vector gap =
        max(b.min() - a.max(), vector::zero) + max(a.min() - b.max(), vector::zero);
    if (magSqr(gap) <= reach*reach) return true;
    if (lattice_.empty()) return false;
    // through a periodic boundary: a sphere around `from`'s box, shifted
    std::vector<int> shifts;
    lattice_.shiftsWithinReach
    (
        toEigen(a.centre()), reach + 0.5*a.mag(), toEigen(b.min()), toEigen(b.max()), shifts
    );
    return !shifts.empty();
}


void Foam::processorHalo::findPartners(const sef::dem::ParticleSystem& ps, const double travel)
{
    // Every owned centre lies in its cells, so in this processor's box;
    // the distance beyond it is still measured (a reduction, log P), so
    // the partners can never miss a copy
    const label me = Pstream::myProcNo();
    const sef::Vec3 lo = toEigen(boxes_[me].min()), hi = toEigen(boxes_[me].max());
    double outside2 = 0;
    for (std::size_t i = 0; i < firstHalo_; ++i)
    {
        outside2 = std::max(outside2, squaredDistanceToBox(ps.position[i], lo, hi));
    }
    const double outside = returnReduce(std::sqrt(outside2), maxOp<double>());
    // a copy goes from p to q when a centre of p lies within
    // R_i + R_max + 2 travel of q's box; tested both ways, so both
    // processors of a pair find each other
    const double reach =
        2*sef::dem::largestBoundingRadius(ps.types) + 2*travel + outside;
    partners_.clear();
    forAll(boxes_, proci)
    {
        if (proci != me && (canReach(me, proci, reach) || canReach(proci, me, reach)))
        {
            partners_.append(proci);
        }
    }
}


void Foam::processorHalo::build(sef::dem::ParticleSystem& ps, double travel)
{
    stopwatch watch(seconds_);
    const double largest = sef::dem::largestBoundingRadius(ps.types);

    firstHalo_ = ps.size();
    sent_.clear();
    sentShift_.clear();
    forAll(sendTo_, proci)
    {
        sendTo_[proci].clear();
        shiftTo_[proci].clear();
        receivedFrom_[proci] = 0;
    }
    findPartners(ps, travel);
    std::vector<int> shifts;
    List<std::string> outgoing(partners_.size());
    forAll(partners_, n)
    {
        const label proci = partners_[n];
        std::vector<std::size_t>& send = sendTo_[proci];
        std::vector<sef::Vec3>& shiftTo = shiftTo_[proci];
        const boundBox& box = boxes_[proci];
        const sef::Vec3 lo = toEigen(box.min()), hi = toEigen(box.max());
        for (std::size_t i = 0; i < firstHalo_; ++i)
        {
            const double reach =
                ps.types[ps.type[i]].boundingRadius + largest + 2*travel;
            if (squaredDistanceToBox(ps.position[i], lo, hi) <= reach*reach)
            {
                send.push_back(i);
                shiftTo.push_back(sef::Vec3::Zero());
            }
            shifts.clear();
            lattice_.shiftsWithinReach(ps.position[i], reach, lo, hi, shifts);
            for (const int s : shifts)
            {
                send.push_back(i);
                shiftTo.push_back(lattice_.shifts()[std::size_t(s)]);
            }
        }
        if (send.empty()) continue;
        scalarList b(label(send.size())*(kinematicsSize + 2));
        label k = 0;
        for (std::size_t j = 0; j < send.size(); ++j)
        {
            appendParticle(b, k, ps, send[j], shiftTo[j]);
        }
        outgoing[n].assign(reinterpret_cast<const char*>(b.cdata()), std::size_t(b.byteSize()));
    }
    // (in processor order: the substep exchanges pack and unpack in it)
    forAll(sendTo_, proci)
    {
        sent_.insert(sent_.end(), sendTo_[proci].begin(), sendTo_[proci].end());
        sentShift_.insert(sentShift_.end(), shiftTo_[proci].begin(), shiftTo_[proci].end());
    }
    const List<std::string> incoming = exchangeBytes(partners_, outgoing, setUpMessages_);

    forAll(partners_, n)
    {
        const label proci = partners_[n];
        const std::string& bytes = incoming[n];
        scalarList b(label(bytes.size()/sizeof(scalar)));
        std::copy(bytes.begin(), bytes.end(), reinterpret_cast<char*>(b.data()));
        label k = 0;
        while (k < b.size())
        {
            const packedParticle p = takeParticle(b, k);
            const sef::dem::BodyKinematics& s = p.state;
            ps.add(p.type, p.id, s.position, s.orientation, s.velocity, s.angularVelocity);
            ++receivedFrom_[proci];
        }
    }
    ++builds_;
    ++exchanges_;
}


template<class Pack, class Unpack>
void Foam::processorHalo::exchange
(
    const labelList& sendCounts,
    const labelList& receiveCounts,
    const label doublesPerBody,
    Pack pack,
    Unpack unpack
)
{
    // Point to point with the neighbours only: the counts are the step's
    // (build), so no processor asks the others what they send
    stopwatch watch(seconds_);
    const label startOfRequests = UPstream::nRequests();
    List<scalarList> received(receiveCounts.size());
    forAll(receiveCounts, proci)
    {
        if (!receiveCounts[proci]) continue;
        scalarList& b = received[proci];
        b.setSize(receiveCounts[proci]*doublesPerBody);
        UIPstream::read
        (
            UPstream::commsTypes::nonBlocking, proci,
            reinterpret_cast<char*>(b.data()), b.byteSize()
        );
    }
    List<scalarList> sent(sendCounts.size());
    std::size_t next = 0;
    forAll(sendCounts, proci)
    {
        if (!sendCounts[proci]) continue;
        scalarList& b = sent[proci];
        b.setSize(sendCounts[proci]*doublesPerBody);
        label k = 0;
        for (label j = 0; j < sendCounts[proci]; ++j)
        {
            pack(b, k, next++);
        }
        UOPstream::write
        (
            UPstream::commsTypes::nonBlocking, proci,
            reinterpret_cast<const char*>(b.cdata()), b.byteSize()
        );
        ++messagesSent_;
        bytesSent_ += double(b.byteSize());
    }
    UPstream::waitRequests(startOfRequests);
    next = 0;
    forAll(receiveCounts, proci)
    {
        label k = 0;
        for (label j = 0; j < receiveCounts[proci]; ++j)
        {
            unpack(received[proci], k, next++);
        }
    }
    ++exchanges_;
    ++substepExchanges_;
}


Foam::labelList Foam::processorHalo::sendCounts() const
{
    labelList counts(sendTo_.size());
    forAll(sendTo_, proci)
    {
        counts[proci] = label(sendTo_[proci].size());
    }
    return counts;
}


void Foam::processorHalo::exchangeStates
(
    const std::vector<sef::dem::BodyKinematics>& sent,
    std::vector<sef::dem::BodyKinematics>& halo
)
{
    exchange
    (
        sendCounts(), receivedFrom_, kinematicsSize,
        [&](scalarList& b, label& k, std::size_t j)
        {
            sef::dem::BodyKinematics s = sent[j];
            s.position += sentShift_[j];
            append(b, k, s);
        },
        [&](const scalarList& b, label& k, std::size_t h) { halo[h] = takeKinematics(b, k); }
    );
}


void Foam::processorHalo::exchangeCorrections
(
    const std::vector<sef::dem::BodyCorrection>& halo,
    std::vector<sef::dem::BodyCorrection>& sent
)
{
    // the reverse way: to the owners of the halo copies
    exchange
    (
        receivedFrom_, sendCounts(), correctionSize,
        [&](scalarList& b, label& k, std::size_t h)
        {
            append(b, k, halo[h].velocity);
            append(b, k, halo[h].angularVelocity);
            append(b, k, halo[h].shift);
        },
        [&](const scalarList& b, label& k, std::size_t j)
        {
            sent[j].velocity = take(b, k);
            sent[j].angularVelocity = take(b, k);
            sent[j].shift = take(b, k);
        }
    );
}


double Foam::processorHalo::maximum(double value)
{
    stopwatch watch(seconds_);
    return returnReduce(value, maxOp<double>());
}


std::vector<char> Foam::ownedFlags(const std::vector<std::int64_t>& ids)
{
    std::int64_t largest = -1;
    for (const std::int64_t id : ids) largest = std::max(largest, id);
    std::vector<char> flags(std::size_t(largest + 1), 0);
    for (const std::int64_t id : ids) if (id >= 0) flags[std::size_t(id)] = 1;
    return flags;
}


Foam::labelList Foam::processorHalo::neighbours() const
{
    // (symmetric: p sends copies to q exactly when q receives them from p)
    labelList result;
    forAll(sendTo_, proci)
    {
        if (!sendTo_[proci].empty() || receivedFrom_[proci] > 0) result.append(proci);
    }
    return result;
}


void Foam::moveContactMemory
(
    sef::dem::DemEngine& engine,
    const std::vector<char>& ownedFlag,
    const processorHalo& halo
)
{
    const auto owned = [&ownedFlag](std::int64_t id)
    {
        return id >= 0 && std::size_t(id) < ownedFlag.size() && ownedFlag[std::size_t(id)];
    };
    std::stringstream moved;
    engine.extractState(owned, moved);
    const std::string outgoing = moved.str();

    // A particle changes processor only to one that held its copy in the
    // step (the halo's reach covers its travel), so the memory goes to the
    // step's neighbours only
    const labelList neighbours = halo.neighbours();
    label messages = 0;
    const List<std::string> incoming =
        exchangeBytes(neighbours, List<std::string>(neighbours.size(), outgoing), messages);
    forAll(neighbours, k)
    {
        if (incoming[k].empty()) continue;
        std::stringstream received(incoming[k]);
        engine.mergeState(received, owned);   // what belongs to our particles
    }
}
