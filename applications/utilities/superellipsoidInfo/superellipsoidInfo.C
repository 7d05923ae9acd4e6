/*---------------------------------------------------------------------------*\
Application
    superellipsoidInfo

Group
    superellipsoidFoam utilities

Description
    Prints the properties of one superellipsoid, one quantity per line with
    its name first (easy to grep and to parse):
        volume <V>
        dEq <d>            diameter of the sphere of equal volume
        inertia <Ix> <Iy> <Iz>   principal moments about body x, y, z for
                           the density given by -rho (default 1)
        boundingRadius <R> radius of the minimal bounding sphere

    The shape comes from the command line
        superellipsoidInfo -a A -b B -c C -eps1 E1 -eps2 E2
        superellipsoidInfo -a A -b B -c C -n1 N1 -n2 N2     (n = 2/eps)
    or, with no shape options, from the case dictionary
    constant/superellipsoidProperties (entries a, b, c, eps1, eps2 or n1, n2).
    Invalid or missing input ends with a non-zero exit status and a message
    naming the offending entry: also nan, numbers beyond the double range,
    and shapes or densities whose volume, inertia, bounding radius or
    curvature fall outside [sqrt(DBL_MIN), sqrt(DBL_MAX)] (core/geometry/
    Superellipsoid.hpp, "Representable range").
\*---------------------------------------------------------------------------*/

#include "argList.H"
#include "IFstream.H"
#include "IOstreams.H"

#include <cfenv>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <string>
#include "superellipsoidShapeIO.H"

using namespace Foam;

namespace
{

const wordList shapeOptions{"a", "b", "c", "eps1", "eps2", "n1", "n2"};

// The option text as typed, cut to a readable length
std::string shortened(const std::string& text)
{
    if (text.size() <= 40) return text;
    return text.substr(0, 20) + "... (" + std::to_string(text.size()) + " characters)";
}

// Value of a scalar option. OpenFOAM's own parser raises SIGFPE under its FP
// traps for "nan" and for numbers beyond the double range, so
// the text is parsed here with the traps held; anything but one finite
// number is a FatalError naming the option.
scalar scalarOption(const argList& args, const word& opt)
{
    const std::string& text = args[opt];
    char* end = nullptr;
    std::fenv_t saved;
    std::feholdexcept(&saved);
    const double value = std::strtod(text.c_str(), &end);
    std::fesetenv(&saved); // traps back on, this parse's flags dropped
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(value))
    {
        FatalErrorInFunction
            << "Invalid option -" << opt << " '" << shortened(text).c_str()
            << "': must be one finite number within the range of a double"
            << exit(FatalError);
    }
    return value;
}

sef::Superellipsoid shapeFromOptions(const argList& args)
{
    const bool nForm = args.found("n1") || args.found("n2");
    if (nForm && (args.found("eps1") || args.found("eps2")))
    {
        FatalErrorInFunction
            << "Give either -eps1/-eps2 or -n1/-n2, not both" << exit(FatalError);
    }
    const wordList needed
    {
        "a", "b", "c", nForm ? "n1" : "eps1", nForm ? "n2" : "eps2"
    };
    for (const word& opt : needed)
    {
        if (!args.found(opt))
        {
            FatalErrorInFunction
                << "Missing option -" << opt << " (the shape needs -a -b -c "
                << "and -eps1 -eps2 or -n1 -n2)" << exit(FatalError);
        }
    }
    return makeSuperellipsoid
    (
        scalarOption(args, "a"), scalarOption(args, "b"), scalarOption(args, "c"),
        scalarOption(args, needed[3]), scalarOption(args, needed[4]),
        nForm, "command-line option -<name>"
    );
}

sef::Superellipsoid shapeFromCase(const argList& args)
{
    const fileName dictPath =
        args.path()/"constant"/"superellipsoidProperties";
    IFstream is(dictPath);
    if (!is.good())
    {
        FatalErrorInFunction
            << "No shape options given and cannot read " << dictPath << nl
            << "Give -a -b -c -eps1 -eps2 (or -n1 -n2), or run inside a case"
            << " with constant/superellipsoidProperties" << exit(FatalError);
    }
    const dictionary dict(is);
    return readSuperellipsoid(dict);
}

} // End anonymous namespace


int main(int argc, char *argv[])
{
    argList::addNote
    (
        "Print volume, equivalent diameter (and more) of a superellipsoid"
    );
    argList::noBanner();
    argList::noParallel();
    argList::noFunctionObjects();
    argList::addOption("a", "scalar", "half-axis along body x");
    argList::addOption("b", "scalar", "half-axis along body y");
    argList::addOption("c", "scalar", "half-axis along body z");
    argList::addOption("eps1", "scalar", "squareness in z, 0 < eps1 <= 2");
    argList::addOption("eps2", "scalar", "squareness in x-y, 0 < eps2 <= 2");
    argList::addOption("n1", "scalar", "blockiness 2/eps1 (instead of -eps1)");
    argList::addOption("n2", "scalar", "blockiness 2/eps2 (instead of -eps2)");
    argList::addOption("rho", "scalar", "density for mass properties (default 1)");

    argList args(argc, argv);

    bool anyShapeOption = false;
    for (const word& opt : shapeOptions)
    {
        anyShapeOption = anyShapeOption || args.found(opt);
    }
    const sef::Superellipsoid shape =
        anyShapeOption ? shapeFromOptions(args) : shapeFromCase(args);

    const scalar rho = args.found("rho") ? scalarOption(args, "rho") : 1.0;
    try
    {
        // Finite, > 0, and mass and inertia in the representable range
        shape.requireDensity(rho);
    }
    catch (const sef::ParameterError& err)
    {
        FatalErrorInFunction
            << "Invalid option -rho " << rho << ": " << err.what()
            << exit(FatalError);
    }

    // Plain stdout with 12 significant digits: meant for scripts
    std::cout.precision(12);
    const sef::Vec3 inertia = shape.principalInertia(rho);
    std::cout
        << "volume " << shape.volume() << '\n'
        << "dEq " << shape.equivalentDiameter() << '\n'
        << "inertia " << inertia.x() << ' ' << inertia.y() << ' ' << inertia.z() << '\n'
        << "boundingRadius " << shape.boundingRadius() << '\n';

    return 0;
}

// ************************************************************************* //
