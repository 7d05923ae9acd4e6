#include "particleFeeder.H"
#include "demCloudProperties.H"
#include "processorHalo.H"
#include "foamEigen.H"

#include <cmath>
#include <ostream>


Foam::particleFeeder::particleFeeder
(
    const polyMesh& mesh,
    const dictionary& cloudDict,
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
    spec_.maxAttemptsPerParticle = d.lookupOrDefault<label>("maxAttempts", 1000);
    if (spec_.maxAttemptsPerParticle < 1) invalidEntry(d, "maxAttempts", "must be >= 1");
    if (d.found("rate") == d.found("massRate"))
    {
        invalidEntry(d, "rate", "give either 'rate' (particles per second) or 'massRate' (kg/s)");
    }
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
        rate_ = massRate/(mass/total);
    }
    start_ = d.lookupOrDefault<scalar>("start", 0);
    end_ = d.lookupOrDefault<scalar>("end", GREAT);
    if (!(end_ > start_)) invalidEntry(d, "end", "must be later than 'start'");
}


Foam::label Foam::particleFeeder::owed(scalar t) const
{
    if (!active_ || t < start_) return 0;
    // (the rounding guard keeps floor(rate (t - start)) from losing a
    // particle to the sum of the time steps)
    const scalar due = rate_*(min(t, end_) - start_);
    return max(label(std::floor(due + 1e-9*max(due, 1.0))) - fed_, label(0));
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
    const label due = owed(t);
    if (due == 0 || t < retryAt_) return;
    if (nextId_ < 0)
    {
        std::int64_t largest = -1;
        for (const std::int64_t id : particles.id) largest = std::max(largest, id);
        nextId_ = returnReduce(label(largest), maxOp<label>()) + 1;
    }
    // every processor places the same particles among all particles
    sef::dem::ParticleSystem all =
        Pstream::parRun() ? gatherParticles(particles) : sef::dem::ParticleSystem();
    sef::dem::ParticleSystem& into = Pstream::parRun() ? all : particles;
    const std::size_t before = into.size();
    label placed = 0;
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
        << "nextParticleId " << nextId_ << ";\n";
}


void Foam::particleFeeder::readRecord(const dictionary& record)
{
    fed_ = record.lookupOrDefault<label>("fed", 0);
    nextId_ = record.lookupOrDefault<label>("nextParticleId", -1);
}
