#include "superellipsoidShapeIO.H"
#include "error.H"

// * * * * * * * * * * * * * * * Global Functions  * * * * * * * * * * * * * //

sef::Superellipsoid Foam::readSuperellipsoid(const dictionary& dict)
{
    const bool epsForm = dict.found("eps1") || dict.found("eps2");
    const bool nForm = dict.found("n1") || dict.found("n2");
    if (epsForm && nForm)
    {
        FatalIOErrorInFunction(dict)
            << "Give either (eps1, eps2) or (n1, n2) in " << dict.name()
            << ", not both" << exit(FatalIOError);
    }

    // dictionary::get names a missing entry in its FatalIOError
    const scalar a = dict.get<scalar>("a");
    const scalar b = dict.get<scalar>("b");
    const scalar c = dict.get<scalar>("c");
    const scalar e1 = dict.get<scalar>(nForm ? "n1" : "eps1");
    const scalar e2 = dict.get<scalar>(nForm ? "n2" : "eps2");

    try
    {
        const sef::Superellipsoid shape =
            nForm
          ? sef::Superellipsoid::fromExponents(a, b, c, e1, e2)
          : sef::Superellipsoid(a, b, c, e1, e2);

        // Optional: a, b, c give the aspect ratios only, scaled so that the
        // volume-equivalent diameter is dEq
        if (!dict.found("dEq"))
        {
            return shape;
        }
        const scalar dEq = dict.get<scalar>("dEq");
        if (!(dEq > 0))
        {
            FatalIOErrorInFunction(dict)
                << "Invalid entry 'dEq' in " << dict.name()
                << ": must be > 0, got " << dEq << exit(FatalIOError);
        }
        const scalar k = dEq/shape.equivalentDiameter();
        return sef::Superellipsoid(k*a, k*b, k*c, shape.eps1(), shape.eps2());
    }
    catch (const sef::ShapeError& err)
    {
        FatalIOErrorInFunction(dict)
            << "Invalid entry '" << err.parameter().c_str() << "' in "
            << dict.name() << ": " << err.what() << exit(FatalIOError);
    }
    return sef::Superellipsoid(1, 1, 1, 1, 1); // not reached
}


sef::Superellipsoid Foam::makeSuperellipsoid
(
    scalar a, scalar b, scalar c, scalar e1, scalar e2,
    bool exponentForm,
    const string& source
)
{
    try
    {
        return
            exponentForm
          ? sef::Superellipsoid::fromExponents(a, b, c, e1, e2)
          : sef::Superellipsoid(a, b, c, e1, e2);
    }
    catch (const sef::ShapeError& err)
    {
        string where(source);
        where.replace("<name>", err.parameter());
        FatalErrorInFunction
            << "Invalid shape parameter '" << err.parameter().c_str()
            << "' (" << where.c_str()
            << "): " << err.what()
            << exit(FatalError);
    }
    return sef::Superellipsoid(1, 1, 1, 1, 1); // not reached
}

// ************************************************************************* //
