#include "meshWallFaces.H"
#include "wallPolyPatch.H"
#include "labelIOList.H"
#include "Pstream.H"
#include "foamEigen.H"
#include "dem/injection/WallClearance.hpp"

#include <algorithm>
#include <numeric>

namespace
{

using namespace Foam;

// This processor's wall faces, each with its label in the undecomposed mesh
// (faceProcAddressing: 1-based, signed) or, without that file, after the
// faces of the lower processors
std::vector<sef::dem::WallFace> localPatchFaces
(
    const polyMesh& mesh,
    const boolList& selected,
    std::vector<label>* globalLabels
);

// Flattened wall faces for the wire: label, patch, vertex count, vertices,
// normal
void pack(const sef::dem::WallFace& w, label key, DynamicList<scalar>& buffer)
{
    buffer.append(key);
    buffer.append(w.patch);
    buffer.append(label(w.vertices.size()));
    for (const sef::Vec3& v : w.vertices)
    {
        buffer.append(v.x());
        buffer.append(v.y());
        buffer.append(v.z());
    }
    buffer.append(w.outwardNormal.x());
    buffer.append(w.outwardNormal.y());
    buffer.append(w.outwardNormal.z());
}

} // End anonymous namespace


std::vector<sef::dem::WallFace> Foam::meshWallFaces(const polyMesh& mesh)
{
    boolList walls(mesh.boundaryMesh().size(), false);
    for (const polyPatch& patch : mesh.boundaryMesh())
    {
        walls[patch.index()] = isA<wallPolyPatch>(patch);
    }
    return meshPatchFaces(mesh, walls);
}


std::vector<sef::dem::WallFace> Foam::meshPatchFaces
(
    const polyMesh& mesh,
    const boolList& selected
)
{
    std::vector<label> keys;
    std::vector<sef::dem::WallFace> local = localPatchFaces(mesh, selected, &keys);
    if (!Pstream::parRun())
    {
        return local;
    }

    // Every processor's faces to every processor, then in global order
    List<scalarList> buffers(Pstream::nProcs());
    {
        DynamicList<scalar> mine;
        for (std::size_t i = 0; i < local.size(); ++i)
        {
            pack(local[i], keys[i], mine);
        }
        buffers[Pstream::myProcNo()].transfer(mine);
    }
    Pstream::gatherList(buffers);
    Pstream::scatterList(buffers);

    std::vector<std::pair<label, sef::dem::WallFace>> all;
    for (const scalarList& b : buffers)
    {
        label k = 0;
        while (k < b.size())
        {
            const label key = label(b[k++]);
            sef::dem::WallFace w;
            w.patch = int(b[k++]);
            const label nv = label(b[k++]);
            for (label v = 0; v < nv; ++v, k += 3)
            {
                w.vertices.emplace_back(b[k], b[k + 1], b[k + 2]);
            }
            w.outwardNormal = sef::Vec3(b[k], b[k + 1], b[k + 2]);
            k += 3;
            all.emplace_back(key, std::move(w));
        }
    }
    std::stable_sort
    (
        all.begin(), all.end(),
        [](const auto& a, const auto& b) { return a.first < b.first; }
    );
    std::vector<sef::dem::WallFace> walls;
    walls.reserve(all.size());
    for (auto& entry : all)
    {
        walls.push_back(std::move(entry.second));
    }
    return walls;
}


bool Foam::insideMesh(const polyMesh& mesh, const sef::Vec3& x)
{
    const bool here = mesh.findCell(toFoam(x)) >= 0;
    return Pstream::parRun() ? returnReduce(here, orOp<bool>()) : here;
}


namespace
{

std::vector<sef::dem::WallFace> localPatchFaces
(
    const polyMesh& mesh,
    const boolList& selected,
    std::vector<label>* globalLabels
)
{
    std::vector<sef::dem::WallFace> walls;
    const pointField& points = mesh.points();
    labelList addressing;
    if (Pstream::parRun())
    {
        IOobject io
        (
            "faceProcAddressing", mesh.facesInstance(), polyMesh::meshSubDir, mesh,
            IOobject::READ_IF_PRESENT, IOobject::NO_WRITE, false
        );
        if (io.typeHeaderOk<labelIOList>(true))
        {
            addressing = labelIOList(io);
        }
    }
    label offset = 0;   // without addressing: after the lower processors' faces
    if (Pstream::parRun() && addressing.empty())
    {
        labelList counts(Pstream::nProcs(), 0);
        counts[Pstream::myProcNo()] = mesh.nFaces();
        Pstream::gatherList(counts);
        Pstream::scatterList(counts);
        offset = std::accumulate(counts.begin(), counts.begin() + Pstream::myProcNo(), label(0));
    }
    for (const polyPatch& patch : mesh.boundaryMesh())
    {
        if (!selected[patch.index()])
        {
            continue;
        }
        forAll(patch, facei)
        {
            const face& f = patch[facei];
            sef::dem::WallFace wall;
            wall.vertices.reserve(f.size());
            for (const label pointi : f)
            {
                wall.vertices.push_back(toEigen(points[pointi]));
            }
            // OpenFOAM boundary-face normals point out of the domain
            const vector n = f.unitNormal(points);
            wall.outwardNormal = toEigen(n);
            wall.patch = patch.index();
            walls.push_back(std::move(wall));
            const label meshFace = patch.start() + facei;
            globalLabels->push_back
            (
                addressing.empty() ? offset + meshFace : mag(addressing[meshFace]) - 1
            );
        }
    }
    return walls;
}

} // End anonymous namespace


Foam::wallClearance::wallClearance(const std::vector<sef::dem::WallFace>& walls)
{
    discs_.reserve(walls.size());
    for (const sef::dem::WallFace& w : walls)
    {
        sef::Vec3 centroid = sef::Vec3::Zero();
        for (const sef::Vec3& v : w.vertices) centroid += v;
        centroid /= double(w.vertices.size());
        double extent = 0;
        for (const sef::Vec3& v : w.vertices) extent = std::max(extent, (v - centroid).norm());
        discs_.push_back(disc{centroid, w.outwardNormal, extent});
    }
}


bool Foam::wallClearance::clear(const polyMesh& mesh, const sef::Vec3& x, double R) const
{
    if (!insideMesh(mesh, x)) return false;
    for (const disc& d : discs_)
    {
        const sef::Vec3 offset = x - d.centre;
        const double reach = R + d.radius;
        if (std::abs(d.normal.dot(offset)) < R && offset.squaredNorm() < reach*reach) return false;
    }
    return true;
}


bool Foam::bodyClearOfWalls
(
    const polyMesh& mesh,
    const sef::dem::WallSet& walls,
    const sef::Superellipsoid& shape,
    const sef::Pose& pose
)
{
    return sef::dem::wallPenetration(walls, shape, pose) <= 0 && insideMesh(mesh, pose.position);
}
