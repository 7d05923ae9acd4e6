#include "meshPeriodicity.H"
#include "cyclicPolyPatch.H"
#include "processorCyclicPolyPatch.H"
#include "foamEigen.H"

namespace
{

using namespace Foam;

// A cyclic patch's faces on this processor: its own and those of the
// processorCyclic patches that refer to it
template<class Visit>
void forEachFaceOf(const polyMesh& mesh, const label patchi, Visit visit)
{
    const polyBoundaryMesh& patches = mesh.boundaryMesh();
    forAll(patches, p)
    {
        const polyPatch& pp = patches[p];
        const bool own = p == patchi;
        const bool referred =
            isA<processorCyclicPolyPatch>(pp)
         && refCast<const processorCyclicPolyPatch>(pp).referPatchID() == patchi;
        if (!own && !referred) continue;
        forAll(pp, facei)
        {
            visit(mesh.faceCentres()[pp.start() + facei], mesh.faceAreas()[pp.start() + facei]);
        }
    }
}

// The plane of a patch over all processors: area-weighted centroid and
// mean unit normal (out of the domain); fails when its faces do not share
// one plane
struct patchPlane
{
    vector centroid;
    vector normal;
};

patchPlane planeOf(const polyMesh& mesh, const label patchi)
{
    scalar area = 0;
    vector sumS = Zero, moment = Zero;
    forEachFaceOf(mesh, patchi, [&](const vector& c, const vector& S)
    {
        area += mag(S);
        sumS += S;
        moment += mag(S)*c;
    });
    reduce(area, sumOp<scalar>());
    reduce(sumS, sumOp<vector>());
    reduce(moment, sumOp<vector>());
    const word& name = mesh.boundaryMesh()[patchi].name();
    if (area <= 0)
    {
        FatalErrorInFunction
            << "Periodic patch " << name << " has no faces" << exit(FatalError);
    }
    const patchPlane plane{moment/area, sumS/mag(sumS)};
    // every face centre on the plane, every face normal along it
    const scalar length = Foam::sqrt(area);
    scalar offPlane = 0, tilt = 0;
    forEachFaceOf(mesh, patchi, [&](const vector& c, const vector& S)
    {
        offPlane = max(offPlane, mag((c - plane.centroid) & plane.normal));
        tilt = max(tilt, 1 - ((S/mag(S)) & plane.normal));
    });
    reduce(offPlane, maxOp<scalar>());
    reduce(tilt, maxOp<scalar>());
    if (offPlane > 1e-6*length || tilt > 1e-9)
    {
        FatalErrorInFunction
            << "Periodic patch " << name << " is not planar (face centres up to "
            << offPlane << " m off its mean plane): particles support planar,"
            << " translational cyclic patches only" << exit(FatalError);
    }
    return plane;
}

} // End anonymous namespace


sef::dem::PeriodicLattice Foam::meshPeriodicity(const polyMesh& mesh)
{
    const polyBoundaryMesh& patches = mesh.boundaryMesh();
    std::vector<sef::dem::PeriodicDirection> directions;
    forAll(patches, patchi)
    {
        const polyPatch& pp = patches[patchi];
        // (cyclicAMI, cyclicACMI: coupled, neither cyclic nor processor)
        if
        (
            isA<coupledPolyPatch>(pp) && !isA<cyclicPolyPatch>(pp)
         && !isA<processorPolyPatch>(pp)
        )
        {
            FatalErrorInFunction
                << "Patch " << pp.name() << " is " << pp.type() << ": particles"
                << " cross periodic boundaries only through plain 'cyclic' patches"
                << " (translational, conformal)" << exit(FatalError);
        }
        if (!isA<cyclicPolyPatch>(pp)) continue;
        const cyclicPolyPatch& cpp = refCast<const cyclicPolyPatch>(pp);
        if (!cpp.owner()) continue;     // one direction per pair
        const patchPlane near = planeOf(mesh, patchi);
        const patchPlane far = planeOf(mesh, cpp.neighbPatchID());
        if ((near.normal & far.normal) > -1 + 1e-9)
        {
            FatalErrorInFunction
                << "Cyclic patches " << pp.name() << " and "
                << patches[cpp.neighbPatchID()].name() << " are not parallel"
                << " (normals " << near.normal << ", " << far.normal << "): a"
                << " rotational cyclic; particles support translational"
                << " cyclic patches only" << exit(FatalError);
        }
        vector t = far.centroid - near.centroid;
        // (the centroids' rounding leaves components of ~1e-16 |t| across
        // an axis-aligned translation: a box's lattice stays exactly
        // axis-aligned)
        for (direction k = 0; k < vector::nComponents; ++k)
        {
            if (mag(t[k]) < 1e-12*mag(t)) t[k] = 0;
        }
        // the same translation twice (a periodic side split into patches)
        bool repeated = false;
        for (const sef::dem::PeriodicDirection& d : directions)
        {
            repeated = repeated || (d.translation - toEigen(t)).norm() <= 1e-9*mag(t);
        }
        if (repeated) continue;
        directions.push_back
        (
            sef::dem::PeriodicDirection{toEigen(t), toEigen(near.centroid), toEigen(-near.normal)}
        );
    }
    try
    {
        return sef::dem::PeriodicLattice(directions);
    }
    catch (const sef::dem::PeriodicError& err)
    {
        FatalErrorInFunction << err.what() << exit(FatalError);
    }
    return {};
}


void Foam::checkPeriodicRoom
(
    const sef::dem::PeriodicLattice& lattice,
    const std::vector<sef::dem::ParticleType>& types
)
{
    try
    {
        lattice.requireRoomFor(sef::dem::largestBoundingRadius(types));
    }
    catch (const sef::dem::PeriodicError& err)
    {
        FatalErrorInFunction << err.what() << exit(FatalError);
    }
}
