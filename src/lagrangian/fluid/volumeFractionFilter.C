#include "volumeFractionFilter.H"
#include "volFields.H"
#include "fvm.H"
#include "fvMatrices.H"
#include "zeroGradientFvPatchFields.H"

Foam::tmp<Foam::scalarField> Foam::volumeFractionFilter
(
    const fvMesh& mesh,
    const scalarField& source,
    const scalar L
)
{
    volScalarField x
    (
        IOobject("volumeFractionFilter", mesh.time().timeName(), mesh),
        mesh,
        dimensionedScalar(dimless, Zero),
        zeroGradientFvPatchScalarField::typeName
    );
    x.primitiveFieldRef() = source;
    x.correctBoundaryConditions();
    volScalarField::Internal b
    (
        IOobject("volumeFractionFilterSource", mesh.time().timeName(), mesh),
        mesh,
        dimensionedScalar(dimless, Zero)
    );
    b.field() = source;
    fvScalarMatrix filter
    (
        fvm::Sp(dimensionedScalar("one", dimless, 1.0), x)
      - fvm::laplacian(dimensionedScalar("L2", dimArea, sqr(L)), x)
     ==
        b
    );
    dictionary controls;
    controls.add("solver", "PCG");
    controls.add("preconditioner", "DIC");
    controls.add("tolerance", 1e-10);
    controls.add("relTol", 0.0);
    filter.solve(controls);
    return tmp<scalarField>::New(x.primitiveField());
}
