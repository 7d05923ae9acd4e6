#include "demCloudProperties.H"
#include "superellipsoidShapeIO.H"
#include "foamEigen.H"
#include "error.H"
#include "Switch.H"
#include "Pstream.H"
#include "collision/CollisionParameters.hpp"
#include "geometry/ParameterError.hpp"

namespace
{

using namespace Foam;

[[noreturn]] void badEntry(const dictionary& dict, const word& key, const string& why)
{
    invalidEntry(dict, key, why);
}

scalar readInRange
(
    const dictionary& dict, const word& key, scalar lo, scalar hi, scalar deflt
)
{
    const scalar v = dict.lookupOrDefault<scalar>(key, deflt);
    if (!(v >= lo && v <= hi))
    {
        badEntry(dict, key, "must lie in [" + name(lo) + ", " + name(hi) + "], got " + name(v));
    }
    return v;
}

string joined(const wordList& words)
{
    string s;
    forAll(words, i)
    {
        s += (i ? " " : "") + words[i];
    }
    return s;
}

wordList concatenated(wordList a, const wordList& b)
{
    a.append(b);
    return a;
}

} // End anonymous namespace


void Foam::invalidEntry(const dictionary& dict, const word& key, const string& why)
{
    FatalIOErrorInFunction(dict)
        << "Invalid entry '" << key << "' in " << dict.name() << ": "
        << why.c_str() << exit(FatalIOError);
    std::abort(); // not reached
}


bool Foam::readSwitch(const dictionary& dict, const word& key, const bool deflt)
{
    if (!dict.found(key)) return deflt;
    ITstream& is = dict.lookup(key);
    const token t(is);
    if (t.isBool()) return t.boolToken();
    if (t.isLabel() && (t.labelToken() == 0 || t.labelToken() == 1))
    {
        return t.labelToken() == 1;
    }
    if (t.isWord())
    {
        const Switch sw(t.wordToken(), true);
        if (sw.valid()) return bool(sw);
    }
    invalidEntry(dict, key, "must be true or false (on/off, yes/no, 1/0)");
}


void Foam::checkKeywords(const dictionary& dict, const wordList& valid, bool fatal)
{
    wordList unknown;
    for (const entry& e : dict)
    {
        const word& key = e.keyword();
        if (!key.starts_with('#') && !valid.found(key))
        {
            unknown.append(key);
        }
    }
    if (unknown.empty()) return;

    string names;
    for (const word& key : unknown)
    {
        names += (names.empty() ? "'" : " '") + key + "'";
    }
    const string what =
        "Unknown keyword" + word(unknown.size() > 1 ? "s " : " ") + names
      + " in " + dict.name();
    const string validList = "Valid keywords: (" + joined(valid) + ")";
    if (fatal)
    {
        FatalIOErrorInFunction(dict)
            << what.c_str() << nl << validList.c_str() << exit(FatalIOError);
    }
    IOWarningInFunction(dict)
        << what.c_str() << " (ignored)" << nl << validList.c_str() << endl;
}


Foam::wordList Foam::subcycleKeywords()
{
    return {"subCycles", "subCycleTravel", "maxSubCycles", "minSubCycles"};
}


Foam::wordList Foam::collisionKeywords()
{
    return
    {
        "pair", "wall", "maxSweeps", "onePartnerPerStep", "patchRimPoints",
        "sweepTolerance", "contactReuseTolerance", "flatContactReuseTolerance",
        "flatContactReuseTranslation", "flatPatchSlideTolerance",
        "allowedPenetration", "sweepStagnationWindow", "overlapPasses",
        "sleepTime", "sleepSpeed", "sleepDrift", "wakeForceChange", "speculativeWallContacts",
        "speculativePairContacts", "correctionWithinPayment", "paidCorrectionDepth"
    };
}


Foam::wordList Foam::injectionRegionKeywords(const dictionary& dict)
{
    const word kind = dict.lookupOrDefault<word>("region", "");
    if (kind == "box") return {"region", "min", "max"};
    if (kind == "cylinder") return {"region", "point1", "point2", "radius"};
    return {"region"};  // readInjectionRegion names an unknown region
}


Foam::wordList Foam::randomInjectionKeywords()
{
    return {"count", "seed", "U0", "maxAttempts"};
}


Foam::wordList Foam::demCloudPropertiesKeywords()
{
    return concatenated
    (
        {"cloudName", "particleTypes", "injection", "collision"},
        subcycleKeywords()
    );
}


sef::dem::ContactLaw Foam::readContactLaw(const dictionary& dict)
{
    checkKeywords
    (
        dict,
        // friction is read by the models that use it, known to all
        {"model", "restitution", "tangentialRestitution", "friction", "rollingFriction", "twistingFriction"}
    );
    // Names and ranges are the core's (collision/CollisionParameters.hpp);
    // its errors name the parameter, which is the dictionary keyword here.
    sef::dem::ContactLaw law;
    law.model = dict.get<word>("model");
    sef::CollisionParameters params;
    try
    {
        params.model = sef::collisionModelFromName(law.model);
    }
    catch (const sef::CollisionParameterError& err)
    {
        badEntry(dict, "model", err.what());
    }
    const bool coulomb = params.model == sef::CollisionModel::coulomb;
    const bool needsFriction = coulomb || params.model == sef::CollisionModel::schwager;

    law.restitution = dict.get<scalar>("restitution");
    // eps_t: the paper model's tangential restitution; for coulomb the
    // sticking target (0 = full stick)
    law.tangentialRestitution =
        dict.lookupOrDefault<scalar>("tangentialRestitution", coulomb ? 0 : 1);
    law.friction = needsFriction ? dict.get<scalar>("friction") : 0;
    law.rollingFriction = dict.lookupOrDefault<scalar>("rollingFriction", 0);
    law.twistingFriction = dict.lookupOrDefault<scalar>("twistingFriction", 0);

    params.restitution = law.restitution;
    params.tangentialRestitution = law.tangentialRestitution;
    params.friction = law.friction;
    params.rollingFriction = law.rollingFriction;
    params.twistingFriction = law.twistingFriction;
    try
    {
        sef::validateCollisionParameters(params);
    }
    catch (const sef::CollisionParameterError& err)
    {
        badEntry(dict, err.parameter(), err.what());
    }
    return law;
}


sef::dem::InjectionRegion Foam::readInjectionRegion(const dictionary& dict)
{
    sef::dem::InjectionRegion region;
    const word kind = dict.get<word>("region");
    if (kind == "box")
    {
        region.kind = sef::dem::InjectionRegion::Kind::box;
        region.min = toEigen(dict.get<vector>("min"));
        region.max = toEigen(dict.get<vector>("max"));
        if (!((region.max - region.min).array() > 0).all())
        {
            badEntry(dict, "max", "needs max > min in every component");
        }
    }
    else if (kind == "cylinder")
    {
        region.kind = sef::dem::InjectionRegion::Kind::cylinder;
        region.point1 = toEigen(dict.get<vector>("point1"));
        region.point2 = toEigen(dict.get<vector>("point2"));
        region.radius = dict.get<scalar>("radius");
        if (!(region.radius > 0)) badEntry(dict, "radius", "must be > 0");
        if (!((region.point2 - region.point1).norm() > 0))
        {
            badEntry(dict, "point2", "must differ from point1");
        }
    }
    else
    {
        badEntry(dict, "region", "unknown region '" + kind + "' (valid: box cylinder list)");
    }
    return region;
}

// region list: particles ( { type <name>; position (x y z);
//   orientation (w x y z); U (ux uy uz); omega (wx wy wz); } ... );
std::vector<sef::dem::ListedParticle> Foam::readListedParticles
(
    const dictionary& inj,
    const wordList& typeNames
)
{
    std::vector<sef::dem::ListedParticle> list;
    const PtrList<dictionary> entries(inj.lookup("particles"));
    forAll(entries, n)
    {
        const dictionary& pd = entries[n];
        checkKeywords(pd, {"type", "position", "orientation", "U", "omega"});
        sef::dem::ListedParticle p;
        const word typeName = pd.get<word>("type");
        p.type = typeNames.find(typeName);
        if (p.type < 0)
        {
            badEntry(pd, "type", "unknown particle type '" + typeName + "'");
        }
        p.position = toEigen(pd.get<vector>("position"));
        const FixedList<scalar, 4> q =
            pd.lookupOrDefault<FixedList<scalar, 4>>("orientation", FixedList<scalar, 4>({1, 0, 0, 0}));
        p.orientation = sef::Quat(q[0], q[1], q[2], q[3]);
        if (std::abs(p.orientation.norm() - 1) > 1e-6)
        {
            badEntry(pd, "orientation", "quaternion (w x y z) must be unit");
        }
        p.velocity = toEigen(pd.lookupOrDefault<vector>("U", Zero));
        p.angularVelocity = toEigen(pd.lookupOrDefault<vector>("omega", Zero));
        list.push_back(p);
    }
    return list;
}


Foam::subcycleSettings Foam::readSubcycleSettings(const dictionary& dict)
{
    // A bound that still lets the paper's 10 % travel rule subcycle a
    // particle crossing 1e4 diameters in one step; beyond it a step takes
    // hours without a word (a billion substeps)
    constexpr label maxSubCycleCount = 100000;
    subcycleSettings s;
    // subCycles: a count, or 'auto' (dem/step/Subcycling.hpp: each particle
    // travels at most subCycleTravel of its d_eq per substep, [Superellipsoid-OpenFOAM] sec. 5)
    s.subCycles = 1;
    if (dict.found("subCycles"))
    {
        ITstream& is = dict.lookup("subCycles");
        const token t(is);
        if (t.isWord() && t.wordToken() == "auto")
        {
            s.subCycles = 0;
        }
        else if (t.isLabel() && t.labelToken() >= 1 && t.labelToken() <= maxSubCycleCount)
        {
            s.subCycles = t.labelToken();
        }
        else
        {
            badEntry
            (
                dict, "subCycles",
                "must be a count in [1, " + name(maxSubCycleCount) + "] or 'auto'"
                " (more substeps than that per step: reduce deltaT instead)"
            );
        }
    }
    s.subCycleTravel = dict.lookupOrDefault<scalar>("subCycleTravel", 0.1);
    if (!(s.subCycleTravel > 0)) badEntry(dict, "subCycleTravel", "must be > 0");
    s.maxSubCycles = dict.lookupOrDefault<label>("maxSubCycles", 1000);
    if (s.maxSubCycles < 1 || s.maxSubCycles > maxSubCycleCount)
    {
        badEntry
        (
            dict, "maxSubCycles",
            "must lie in [1, " + name(maxSubCycleCount) + "] (reduce deltaT instead)"
        );
    }
    // the fewest automatic substeps: a deep bed at rest may need more than
    // the one its speeds ask for to hold up (doc/superellipsoidCloudProperties.md)
    s.minSubCycles = dict.lookupOrDefault<label>("minSubCycles", 1);
    if (s.minSubCycles < 1 || s.minSubCycles > s.maxSubCycles)
    {
        badEntry(dict, "minSubCycles", "must lie in [1, maxSubCycles]");
    }

    return s;
}


Foam::particleTypeTable Foam::readParticleTypes(const dictionary& typesDict)
{
    particleTypeTable table;
    // Particle types: one sub-dictionary each (shape, density, fraction,
    // held)
    for (const entry& e : typesDict)
    {
        if (!e.isDict()) continue;
        const dictionary& td = e.dict();
        checkKeywords
        (
            td,
            {
                "a", "b", "c", "eps1", "eps2", "n1", "n2", "dEq", "density",
                "fraction", "held"
            }
        );
        const sef::Superellipsoid shape = readSuperellipsoid(td);
        const scalar rho = td.get<scalar>("density");
        if (!(rho > 0)) badEntry(td, "density", "must be > 0");
        table.names.append(e.keyword());
        try
        {
            table.types.emplace_back(shape, rho);
        }
        catch (const sef::ParameterError& err)
        {
            // mass or inertia outside the range a double can hold
            badEntry(td, err.parameter(), err.what());
        }
        // held: never moved, still feels the fluid and is an immovable
        // obstacle in collisions (sef::dem::ParticleType::held)
        table.types.back().held = readSwitch(td, "held", false);
        table.fractions.push_back(readInRange(td, "fraction", 0, GREAT, 1));
    }
    if (table.types.empty())
    {
        badEntry(typesDict, "particleTypes", "needs at least one type sub-dictionary");
    }

    return table;
}


void Foam::readCollisionSettings(const dictionary& coll, sef::dem::EngineSettings& engine)
{
    // Collision
    engine.pair = readContactLaw(coll.subDict("pair"));
    engine.wall = readContactLaw(coll.subDict("wall"));
    engine.maxSweeps = coll.lookupOrDefault<label>("maxSweeps", sef::dem::EngineSettings().maxSweeps);
    if (engine.maxSweeps < 1) badEntry(coll, "maxSweeps", "must be >= 1");
    engine.onePartnerPerStep = readSwitch(coll, "onePartnerPerStep", false);
    engine.patchRimPoints =
        readSwitch(coll, "patchRimPoints", sef::dem::EngineSettings().patchRimPoints);
    engine.speculativeWallContacts =
        readSwitch(coll, "speculativeWallContacts", sef::dem::EngineSettings().speculativeWallContacts);
    if (engine.speculativeWallContacts && Pstream::parRun())
    {
        // A body near a processor boundary is solved on both processors,
        // its wall rows on its owner only: with speculative rows there a
        // decomposed bed settled 7 % lower than the serial one.
        engine.speculativeWallContacts = false;
        Info<< "speculativeWallContacts: off in a decomposed run" << nl;
    }
    // (pairs across a processor boundary are solved once, on the
    // processor that resolves the pair, gap or not)
    engine.speculativePairContacts =
        readSwitch(coll, "speculativePairContacts", sef::dem::EngineSettings().speculativePairContacts);
    engine.correctionWithinPayment =
        readSwitch(coll, "correctionWithinPayment", sef::dem::EngineSettings().correctionWithinPayment);
    // Solver tolerances (defaults: sef::dem::EngineSettings; doc/dem.md)
    const sef::dem::EngineSettings defaults;
    engine.sweepTolerance =
        readInRange(coll, "sweepTolerance", 1e-12, 1, defaults.sweepTolerance);
    engine.contactReuseTolerance =
        readInRange(coll, "contactReuseTolerance", 0, 1e-2, defaults.contactReuseTolerance);
    engine.flatContactReuseTolerance =
        readInRange(coll, "flatContactReuseTolerance", 0, 1e-2, defaults.flatContactReuseTolerance);
    if (coll.found("flatContactReuseTranslation")) // (default: the flat tolerance for the whole move)
        engine.flatContactReuseTranslation =
            readInRange(coll, "flatContactReuseTranslation", 0, 1e-2, defaults.flatContactReuseTranslation);
    engine.flatPatchSlideTolerance =
        readInRange(coll, "flatPatchSlideTolerance", 0, 0.1, defaults.flatPatchSlideTolerance);
    engine.allowedPenetration =
        readInRange(coll, "allowedPenetration", 0, 1e-3, defaults.allowedPenetration);
    engine.paidCorrectionDepth =
        readInRange(coll, "paidCorrectionDepth", 0, 1e-2, defaults.paidCorrectionDepth);
    engine.sweepStagnationWindow =
        coll.lookupOrDefault<label>("sweepStagnationWindow", defaults.sweepStagnationWindow);
    if (engine.sweepStagnationWindow < 0)
        badEntry(coll, "sweepStagnationWindow", "must be >= 0 (0: off)");
    engine.overlapPasses = coll.lookupOrDefault<label>("overlapPasses", defaults.overlapPasses);
    if (engine.overlapPasses < 0)
        badEntry(coll, "overlapPasses", "must be >= 0 (0: no overlap removal)");
    // Sleeping (doc/dem.md, "Sleeping"): sleepSpeed is automatic unless given
    engine.sleepTime = readInRange(coll, "sleepTime", 0, GREAT, defaults.sleepTime);
    if (coll.found("sleepSpeed"))
        engine.sleepSpeed = readInRange(coll, "sleepSpeed", 0, GREAT, defaults.sleepSpeed);
    engine.sleepDrift = readInRange(coll, "sleepDrift", 0, 1, defaults.sleepDrift);
    engine.wakeForceChange = readInRange(coll, "wakeForceChange", 0, GREAT, defaults.wakeForceChange);
}


Foam::demCloudProperties Foam::readDemCloudProperties(const dictionary& dict)
{
    demCloudProperties props;
    props.cloudName = dict.lookupOrDefault<word>("cloudName", "superellipsoidCloud");
    props.subcycling = readSubcycleSettings(dict);
    const particleTypeTable table = readParticleTypes(dict.subDict("particleTypes"));
    props.typeNames = table.names;
    props.types = table.types;
    const std::vector<double>& fractions = table.fractions;
    props.typeFractions = fractions;
    // Injection (optional: a restart or a hand-made cloud needs none)
    props.inject = dict.found("injection");
    props.injectListed =
        props.inject && dict.subDict("injection").lookupOrDefault<word>("region", "") == "list";
    if (props.inject)
    {
        const dictionary& inj = dict.subDict("injection");
        checkKeywords
        (
            inj,
            props.injectListed
          ? wordList({"region", "particles"})
          : concatenated(injectionRegionKeywords(inj), randomInjectionKeywords())
        );
    }
    if (props.injectListed)
    {
        props.listed = readListedParticles(dict.subDict("injection"), props.typeNames);
    }
    else if (props.inject)
    {
        const dictionary& inj = dict.subDict("injection");
        props.injection.region = readInjectionRegion(inj);
        props.injection.count = inj.get<label>("count");
        if (props.injection.count < 0) badEntry(inj, "count", "must be >= 0");
        const label seed = inj.lookupOrDefault<label>("seed", 1);
        if (seed < 0) badEntry(inj, "seed", "must be >= 0");
        props.injection.seed = static_cast<std::uint64_t>(seed);
        props.injection.velocity = toEigen(inj.lookupOrDefault<vector>("U0", Zero));
        props.injection.maxAttemptsPerParticle =
            inj.lookupOrDefault<label>("maxAttempts", 10000);
        props.injection.typeFractions = fractions;
    }

    checkKeywords(dict.subDict("collision"), collisionKeywords());
    readCollisionSettings(dict.subDict("collision"), props.engine);
    // The solver keeps nothing by particle index: large systems may stay
    // in the engine's spatial order (faster; ids are what identify them).
    props.engine.reorderParticles = true;

    return props;
}
