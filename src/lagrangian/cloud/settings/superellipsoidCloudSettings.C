/*---------------------------------------------------------------------------*\
Description
    Reader of SuperellipsoidCloud's entries (superellipsoidCloudSettings.H).
\*---------------------------------------------------------------------------*/
#include "superellipsoidCloudSettings.H"
#include "error.H"
#include "particleVolumeFraction.H"
#include "hydrodynamics/IncidenceMapping.hpp"

#include <cstdlib>
#include <stdexcept>

namespace
{
using namespace Foam;

[[noreturn]] void badEntry(const dictionary& dict, const word& key, const string& why)
{
    invalidEntry(dict, key, why);
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

// Stock submodels whose work the core does must be 'none' (otherwise they
// would be silently ignored or act twice).
void requireNone(const dictionary& subModels, const word& key)
{
    const word model = subModels.lookupOrDefault<word>(key, "none");
    if (model != "none")
    {
        badEntry
        (
            subModels, key,
            "must be 'none' for superellipsoid particles, got '" + model + "'"
        );
    }
}

// The resistance tensors of the type read from typeDict: a failure (the
// solve, or a refused cache entry, whose message names the file) names the
// type and its entry
sef::HydrodynamicShape hydrodynamicShape
(
    const dictionary& typeDict,
    const sef::Superellipsoid& shape,
    const sef::ResistanceSolverOptions& options
)
{
    try
    {
        return sef::makeHydrodynamicShape(shape, options);
    }
    catch (const std::exception& err)
    {
        FatalIOErrorInFunction(typeDict)
            << "Resistance tensors of particle type '" << typeDict.dictName()
            << "' (entry " << typeDict.name() << ", resistanceResolution "
            << options.resolution << ") failed: " << err.what() << exit(FatalIOError);
    }
    std::abort(); // not reached
}

sef::FluidForceModel readForces(const dictionary& dict)
{
    // a misspelt force name would otherwise be silently on (or off)
    checkKeywords
    (
        dict,
        {
            "drag", "dragCorrection", "rotationalDrag", "strainTorque",
            "buoyancy", "pressureGradient", "addedMass", "addedMassCoefficient",
            "resistanceResolution", "voidageCorrection", "rotationalDragCorrection"
        }
    );
    sef::FluidForceModel m;
    m.drag = readSwitch(dict, "drag", true);
    m.rotationalDrag = readSwitch(dict, "rotationalDrag", true);
    m.strainTorque = readSwitch(dict, "strainTorque", true);
    m.buoyancy = readSwitch(dict, "buoyancy", true);
    m.pressureGradient = readSwitch(dict, "pressureGradient", true);
    m.addedMass = readSwitch(dict, "addedMass", true);
    // Given: an isotropic C_a for every shape; otherwise each shape's own
    // added mass and inertia per body axis (a sphere's C_a = 1/2)
    m.directionalAddedMass = !dict.found("addedMassCoefficient");
    m.addedMassCoefficient = dict.lookupOrDefault<scalar>("addedMassCoefficient", 0.5);
    if (!(m.addedMassCoefficient >= 0 && m.addedMassCoefficient <= 10))
    {
        badEntry(dict, "addedMassCoefficient", "must lie in [0, 10]");
    }
    const word correction = dict.lookupOrDefault<word>("dragCorrection", "stokes");
    try
    {
        m.dragCorrection = sef::dragCorrectionModelFromName(correction);
    }
    catch (const std::invalid_argument& err)
    {
        badEntry(dict, "dragCorrection", err.what());
    }
    const word rotational = dict.lookupOrDefault<word>("rotationalDragCorrection", "stokes");
    try
    {
        m.rotationalDragCorrection = sef::rotationalDragModelFromName(rotational);
    }
    catch (const std::invalid_argument& err)
    {
        badEntry(dict, "rotationalDragCorrection", err.what());
    }
    const word voidage = dict.lookupOrDefault<word>("voidageCorrection", "none");
    try
    {
        m.voidage = sef::voidageModelFromName(voidage);
    }
    catch (const std::invalid_argument& err)
    {
        badEntry(dict, "voidageCorrection", err.what());
    }
    return m;
}


// solution { volumeFraction, volumeFractionModel, volumeFractionPointsPerDiameter,
//            volumeFractionSmoothing }
void readVolumeFraction(const dictionary& solution, superellipsoidCloudSettings& s)
{
    s.volumeFraction = readSwitch(solution, "volumeFraction", false);
    const word model = solution.lookupOrDefault<word>("volumeFractionModel", "divided");
    if (model != "divided" && model != "centre")
    {
        badEntry
        (
            solution, "volumeFractionModel",
            "unknown model '" + model + "' (valid: divided centre)"
        );
    }
    s.dividedVolumeFraction = model == "divided";
    // the fluid equations then hold -alphac grad p: the particles take the
    // rest of the pressure gradient (FluidForces.hpp)
    s.forces.pressureFromField = s.volumeFraction;
    s.volumeFractionPoints = solution.lookupOrDefault<label>
    (
        "volumeFractionPointsPerDiameter", particleVolumeFraction::defaultPointsPerDiameter
    );
    if (s.volumeFractionPoints < 1 || s.volumeFractionPoints > 100)
    {
        badEntry(solution, "volumeFractionPointsPerDiameter", "must lie in [1, 100]");
    }
    s.volumeFractionSmoothing = solution.lookupOrDefault<scalar>("volumeFractionSmoothing", 0);
    if (!(s.volumeFractionSmoothing >= 0))
    {
        badEntry(solution, "volumeFractionSmoothing", "must be >= 0 [m]");
    }
    // the voidage laws need the local fluid fraction, which the fluid
    // equations then must see too (the drag's reaction acts on that fluid)
    if (s.forces.voidage != sef::VoidageModel::none && !s.volumeFraction)
    {
        badEntry
        (
            solution, "volumeFraction",
            "must be true with voidageCorrection "
          + word(sef::voidageModelName(s.forces.voidage))
          + " (the hindered drag needs the local fluid fraction)"
        );
    }
}

} // End anonymous namespace


Foam::label Foam::particleTypeIndex
(
    const particleTypeTable& types,
    const dictionary& dict,
    const word& keyword
)
{
    const word name = dict.get<word>(keyword);
    const label i = types.names.find(name);
    if (i < 0)
    {
        badEntry
        (
            dict, keyword,
            "unknown particle type '" + name + "' (valid: " + joined(types.names) + ")"
        );
    }
    return i;
}


Foam::superellipsoidCloudSettings Foam::readSuperellipsoidCloudSettings
(
    const dictionary& cloudProperties
)
{
    superellipsoidCloudSettings s;

    const dictionary& constProps = cloudProperties.subDict("constantProperties");
    s.types = readParticleTypes(constProps.subDict("particleTypes"));

    const dictionary& subModels = cloudProperties.subDict("subModels");
    const dictionary& particleForces = subModels.subDict("particleForces");
    if (particleForces.size())
    {
        badEntry
        (
            subModels, "particleForces",
            "must be empty for superellipsoid particles (the fluid forces are"
            " set in superellipsoidForces)"
        );
    }
    for (const word key : {"dispersionModel", "stochasticCollisionModel", "surfaceFilmModel"})
    {
        requireNone(subModels, key);
    }

    const dictionary& forcesDict = subModels.subDict("superellipsoidForces");
    s.forces = readForces(forcesDict);
    s.anyFluidForce =
        s.forces.drag || s.forces.rotationalDrag || s.forces.buoyancy || s.forces.pressureGradient
     || s.forces.addedMass;

    // (read before the resistance solve, which may take minutes)
    const dictionary& coll = subModels.subDict("superellipsoidCollision");
    wordList collValid(subcycleKeywords());
    collValid.append(collisionKeywords());
    collValid.append("walls");   // moving walls (wallSchedule.H)
    collValid.append("feeding"); // particles fed at a rate (particleFeeder.H)
    checkKeywords(coll, collValid);
    s.subcycling = readSubcycleSettings(coll);
    readCollisionSettings(coll, s.engine);
    // The cloud keeps parcels by index during a step
    s.engine.reorderParticles = false;

    // The resistance tensors of every type, once: exact for ellipsoids,
    // otherwise the boundary-integral solve (cached per shape and machine)
    sef::ResistanceSolverOptions options;
    options.resolution = forcesDict.lookupOrDefault<label>
    (
        "resistanceResolution", sef::ResistanceSolverOptions::defaultResolution
    );
    if (options.resolution < 4 || options.resolution > 40)
    {
        badEntry(forcesDict, "resistanceResolution", "must lie in [4, 40]");
    }
    options.estimateError = false;
    const dictionary& typesDict = constProps.subDict("particleTypes");
    forAll(s.types.names, i)
    {
        s.hydrodynamics.push_back
        (
            hydrodynamicShape(typesDict.subDict(s.types.names[i]), s.types.types[i].shape, options)
        );
        // The incidence correlation covers ellipsoid-like shapes only: say
        // which type it cannot take before the run starts
        if (s.forces.dragCorrection == sef::DragCorrectionModel::zastawny)
        {
            try
            {
                // (the coefficients refuse what the mapping only classifies)
                sef::incidenceCoefficients(sef::incidenceMapping(s.types.types[i].shape), 1.0, 0.0);
            }
            catch (const std::invalid_argument& err)
            {
                badEntry
                (
                    forcesDict, "dragCorrection",
                    "zastawny cannot take particle type '" + s.types.names[i] + "': " + err.what()
                );
            }
        }
    }

    readVolumeFraction(cloudProperties.subDict("solution"), s);

    return s;
}

// ************************************************************************* //
