#include "processorCollectives.H"
#include "particleFeeder.H"
#include "Time.H"
#include "demCloudProperties.H"
#include "processorHalo.H"
#include "foamEigen.H"
#include "dem/injection/RegionFit.hpp"
#include "kinematics/StateChecks.hpp"

#include <cmath>
#include <ostream>


bool Foam::particleFeeder::countable(const scalar rate, const scalar span)
{
    // rate span <= 2^53, formed without overflow
    return rate <= kMaxFedCount && (span <= 1 || rate <= kMaxFedCount/span);
}


Foam::particleFeeder::particleFeeder
(
    const polyMesh& mesh,
    const dictionary& cloudDict,
    const wordList& typeNames,
    const std::vector<sef::dem::ParticleType>& types,
    const std::vector<double>& fractions
)
:
    mesh_(mesh)
{
    if (!cloudDict.found("feeding")) return;
    const dictionary& d = cloudDict.subDict("feeding");
    wordList keys(injectionRegionKeywords(d));
    keys.append(wordList({"rate", "massRate", "start", "end", "seed", "U0", "maxAttempts"}));
    checkKeywords(d, keys);
    active_ = true;
    spec_.region = readInjectionRegion(d);
    spec_.typeFractions = fractions;
    const label seed = d.lookupOrDefault<label>("seed", 1);
    if (seed < 0) invalidEntry(d, "seed", "must be >= 0");
    spec_.seed = static_cast<std::uint64_t>(seed);
    spec_.velocity = toEigen(d.lookupOrDefault<vector>("U0", Zero));
    if (!(spec_.velocity.cwiseAbs().maxCoeff() <= sef::kSpeedLimit))
    {
        invalidEntry(d, "U0", "must be finite and below the speed of light");
    }
    spec_.maxAttemptsPerParticle = d.lookupOrDefault<label>("maxAttempts", 1000);
    if (spec_.maxAttemptsPerParticle < 1) invalidEntry(d, "maxAttempts", "must be >= 1");
    if (d.found("rate") == d.found("massRate"))
    {
        invalidEntry(d, "rate", "give either 'rate' (particles per second) or 'massRate' (kg/s)");
    }
    checkFeedable(d, typeNames, types, fractions);
    start_ = d.lookupOrDefault<scalar>("start", 0);
    end_ = d.lookupOrDefault<scalar>("end", GREAT);
    if (!std::isfinite(start_) || std::abs(start_) > 0.01*GREAT) invalidEntry(d, "start", "must be a finite time");
    if (!(end_ > start_)) invalidEntry(d, "end", "must be later than 'start'");
    // the longest feeding the case asks for (to endTime if no end)
    const scalar duration = min(end_, max(mesh.time().endTime().value(), start_)) - start_;
    const word rateKey = d.found("rate") ? "rate" : "massRate";
    if (d.found("rate"))
    {
        rate_ = d.get<scalar>("rate");
        if (!(rate_ > 0)) invalidEntry(d, "rate", "must be positive");
    }
    else
    {
        const scalar massRate = d.get<scalar>("massRate");
        if (!(massRate > 0)) invalidEntry(d, "massRate", "must be positive");
        // the mean mass of a fed particle, by the types' fractions
        double total = 0, mass = 0;
        for (std::size_t t = 0; t < types.size(); ++t)
        {
            total += fractions[t];
            mass += fractions[t]*types[t].mass;
        }
        // (compared before dividing: a huge rate would overflow)
        if (!(massRate <= kMaxFedCount*(mass/total)))
        {
            invalidEntry(d, "massRate", "feeds more than 2^53 particles per second");
        }
        rate_ = massRate/(mass/total);
    }
    if (!countable(rate_, duration))
    {
        invalidEntry
        (
            d, rateKey,
            "feeds " + Foam::name(rate_) + " particles per second for " + Foam::name(duration)
          + " s: more than the 2^53 particles a run can count"
        );
    }
    dict_ = d;
}


void Foam::particleFeeder::checkFeedable
(
    const dictionary& d,
    const wordList& typeNames,
    const std::vector<sef::dem::ParticleType>& types,
    const std::vector<double>& fractions
) const
{
    double smallest = GREAT;
    bool anyType = false;
    for (std::size_t t = 0; t < types.size(); ++t)
    {
        if (!(fractions[t] > 0)) continue;
        anyType = true;
        smallest = min(smallest, types[t].boundingRadius);
        if (types[t].held)
        {
            FatalIOErrorInFunction(d)
                << "Cannot feed in " << d.name() << ": particle type '"
                << typeNames[t] << "' is held (it never moves) and has a"
                << " positive fraction, so fed particles of it would hang"
                << " where they are placed. Give it 'fraction 0', or feed"
                << " a type that is not held" << exit(FatalIOError);
        }
    }
    if (!anyType)
    {
        FatalIOErrorInFunction(d)
            << "Cannot feed in " << d.name() << ": no particle type has a"
            << " positive 'fraction', so no particle can ever be fed"
            << exit(FatalIOError);
    }
    // Centres the feeding could draw: at least one must lie in the mesh
    // (on some processor). A region wholly outside it, or beyond a
    // periodic pair, would feed nothing while the run goes on.
    sef::dem::PortableRandom rng(spec_.seed);
    bool drawable = true, inside = false;
    for (int k = 0; k < 4096 && drawable && !inside; ++k)
    {
        sef::Vec3 x;
        drawable = sef::dem::sampleCentre(spec_.region, smallest, rng, x);
        inside = drawable && mesh_.findCell(toFoam(x)) >= 0;
    }
    reduce(inside, orOp<bool>());
    if (!drawable)
    {
        invalidEntry(d, "region", "narrower than the particles fed (their bounding spheres)");
    }
    if (!inside)
    {
        FatalIOErrorInFunction(d)
            << "Cannot feed in " << d.name() << ": none of 4096 centres drawn"
            << " in the feeding region lies inside the mesh (bounds "
            << mesh_.bounds() << "). The region must overlap the domain"
            << " (a periodic domain: between its periodic patches)"
            << exit(FatalIOError);
    }
}


std::int64_t Foam::particleFeeder::owed(scalar t) const
{
    if (!active_ || t < start_) return 0;
    // (the rounding guard keeps floor(rate (t - start)) from losing a
    // particle to the sum of the time steps)
    const scalar span = min(t, end_) - start_;
    if (!countable(rate_, span))
    {
        FatalIOErrorInFunction(dict_)
            << "Invalid entry 'rate' (or 'massRate') in " << dict_.name()
            << ": at time " << t << " the count due passes the 2^53"
            << " particles a run can count" << exit(FatalIOError);
    }
    const scalar due = rate_*span;
    return std::max(std::int64_t(std::floor(due + 1e-9*max(due, 1.0))) - fed_, std::int64_t(0));
}


void Foam::particleFeeder::feed
(
    sef::dem::ParticleSystem& particles,
    scalar t,
    const sef::dem::PeriodicLattice& periodic,
    const sef::dem::SphereAdmissible& admissible,
    const sef::dem::BodyAdmissible& admissibleBody
)
{
    const std::int64_t due = owed(t);
    if (due == 0 || t < retryAt_) return;
    if (nextId_ < 0)
    {
        std::int64_t largest = -1;
        for (const std::int64_t id : particles.id) largest = std::max(largest, id);
        nextId_ = returnReduce(label(largest), maxOp<label>()) + 1;
    }
    // every processor places the same particles among the same particles:
    // all those that can meet one placed in the region (a centre within
    // R_i + R_max of the region's box: the placement only looks at
    // bounding spheres that meet the candidate's); through periodic
    // boundaries, all of them
    const sef::dem::InjectionRegion& r = spec_.region;
    const bool isBox = r.kind == sef::dem::InjectionRegion::Kind::box;
    const sef::Vec3 radius = sef::Vec3::Constant(r.radius);
    const double largest = sef::dem::largestBoundingRadius(particles.types);
    const sef::Vec3 lo =
        (isBox ? r.min : sef::Vec3(r.point1.cwiseMin(r.point2) - radius)) - sef::Vec3::Constant(2*largest);
    const sef::Vec3 hi =
        (isBox ? r.max : sef::Vec3(r.point1.cwiseMax(r.point2) + radius)) + sef::Vec3::Constant(2*largest);
    const auto nearRegion = [&](const std::size_t i)
    {
        const sef::Vec3& x = particles.position[i];
        return !periodic.empty() || ((x.array() >= lo.array()).all() && (x.array() <= hi.array()).all());
    };
    sef::dem::ParticleSystem all =
        Pstream::parRun()
      ? gatherParticles(particles, gatherTarget::everyProcessor, nearRegion)
      : sef::dem::ParticleSystem();
    sef::dem::ParticleSystem& into = Pstream::parRun() ? all : particles;
    const std::size_t before = into.size();
    std::int64_t placed = 0;
    for (; placed < due; ++placed)
    {
        // one particle at a time, seeded by its number: the same particles
        // whatever the steps, restarts and processors
        sef::dem::InjectionSpec one = spec_;
        one.count = 1;
        one.periodic = periodic;
        one.seed = spec_.seed ^ (0x9E3779B97F4A7C15ull*std::uint64_t(fed_ + placed + 1));
        try
        {
            sef::dem::injectRandom(into, one, nextId_, admissible, admissibleBody);
        }
        catch (const sef::dem::InjectionError&)
        {
            break;      // no room now: owed
        }
        ++nextId_;
    }
    fed_ += placed;
    // without room, look again after one feeding interval (trials cost)
    retryAt_ = placed < due ? t + 1/rate_ : -GREAT;
    if (placed < due && ++warnings_ <= 10)
    {
        WarningInFunction
            << "Feeding at time " << t << ": room for " << placed << " of the "
            << due << " particles due; the rest are fed when there is room (the"
            << " first 10 such steps are reported; demSummary.json counts what is"
            << " owed at the end)" << endl;
    }
    if (!Pstream::parRun()) return;
    sef::dem::ParticleSystem fresh;
    fresh.types = particles.types;
    for (std::size_t k = before; k < all.size(); ++k)
    {
        fresh.add
        (
            all.type[k], all.id[k], all.position[k], all.orientation[k], all.velocity[k],
            all.angularVelocity[k]
        );
    }
    keepOwnedParticles(mesh_, fresh);
    for (std::size_t k = 0; k < fresh.size(); ++k)
    {
        particles.add
        (
            fresh.type[k], fresh.id[k], fresh.position[k], fresh.orientation[k],
            fresh.velocity[k], fresh.angularVelocity[k]
        );
    }
}


void Foam::particleFeeder::writeRecord(std::ostream& os) const
{
    if (!active_) return;
    os  << "fed " << fed_ << ";\n"
        << "nextParticleId " << nextId_ << ";\n"
        << "feedingRate " << rate_ << ";\n"
        << "feedingStart " << start_ << ";\n";
}


void Foam::particleFeeder::readRecord(const dictionary& record)
{
    fed_ = record.lookupOrDefault<int64_t>("fed", 0);
    nextId_ = record.lookupOrDefault<int64_t>("nextParticleId", -1);
    // The count due follows the current rate and start from the start on:
    // a changed rate feeds a burst (or nothing for a while) at the restart
    if (!active_ || !record.found("feedingRate")) return;
    const scalar rate = record.get<scalar>("feedingRate");
    const scalar start = record.lookupOrDefault<scalar>("feedingStart", start_);
    if (std::abs(rate - rate_) <= 1e-9*rate_ && start == start_) return;
    const scalar t = mesh_.time().value();
    WarningInFunction
        << "Feeding changed at the restart from time " << t << ": the run"
        << " record holds rate " << rate << " /s from " << start << " s, "
        << dict_.name() << " gives " << rate_ << " /s from " << start_ << " s."
        << " The count due is floor(rate (t - start)) with the new values: "
        << fed_ << " fed so far against " << fed_ + owed(t) << " due now"
        << (owed(t) > 0 ? " (the difference is fed at once)" : "")
        << (rate_*(min(t, end_) - start_) < fed_ ? " (nothing is fed until the count due passes the count fed)" : "")
        << ". To continue at the new rate from now, set 'start' so that"
        << " rate (t - start) equals the count fed" << endl;
}
