#include "meshWallFaces.H"
#include "wallPolyPatch.H"
#include "foamEigen.H"

std::vector<sef::dem::WallFace> Foam::meshWallFaces(const polyMesh& mesh)
{
    std::vector<sef::dem::WallFace> walls;
    const pointField& points = mesh.points();
    for (const polyPatch& patch : mesh.boundaryMesh())
    {
        if (!isA<wallPolyPatch>(patch))
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
        }
    }
    return walls;
}
