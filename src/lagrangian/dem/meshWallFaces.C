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


bool Foam::clearOfWalls
(
    const polyMesh& mesh,
    const std::vector<sef::dem::WallFace>& walls,
    const sef::Vec3& x,
    double R
)
{
    if (mesh.findCell(toFoam(x)) < 0) return false;
    for (const sef::dem::WallFace& w : walls)
    {
        sef::Vec3 centroid = sef::Vec3::Zero();
        for (const sef::Vec3& v : w.vertices) centroid += v;
        centroid /= double(w.vertices.size());
        double extent = 0;
        for (const sef::Vec3& v : w.vertices) extent = std::max(extent, (v - centroid).norm());
        const double height = std::abs(w.outwardNormal.dot(x - centroid));
        if (height < R && (x - centroid).norm() < R + extent) return false;
    }
    return true;
}
