/*---------------------------------------------------------------------------*\
Description
    Type names of the superellipsoid parcel and cloud, and the run-time
    selection tables of the KinematicCloud submodels it uses (injection
    models, patch interaction, function objects; forces, dispersion,
    stochastic collision and surface film must be none/empty, but
    KinematicCloud constructs them, so their tables exist).
\*---------------------------------------------------------------------------*/

#include "basicSuperellipsoidCloud.H"

#include "makeParcelCloudFunctionObjects.H"
#include "makeParcelForces.H"
#include "makeParcelDispersionModels.H"
#include "makeParcelInjectionModels.H"
#include "makeParcelPatchInteractionModels.H"
#include "makeParcelStochasticCollisionModels.H"
#include "makeParcelSurfaceFilmModels.H"
#include "SuperellipsoidInjection.H"

namespace Foam
{
    defineTemplateTypeNameAndDebug(basicSuperellipsoidParcel, 0);
    defineTemplateTypeNameAndDebug(Cloud<basicSuperellipsoidParcel>, 0);
}

makeParcelCloudFunctionObjects(basicSuperellipsoidCloud);
makeParcelForces(basicSuperellipsoidCloud);
makeParcelDispersionModels(basicSuperellipsoidCloud);
makeParcelInjectionModels(basicSuperellipsoidCloud);
makeParcelPatchInteractionModels(basicSuperellipsoidCloud);
makeParcelStochasticCollisionModels(basicSuperellipsoidCloud);
makeParcelSurfaceFilmModels(basicSuperellipsoidCloud);
makeInjectionModelType(SuperellipsoidInjection, basicSuperellipsoidCloud);

// ************************************************************************* //
