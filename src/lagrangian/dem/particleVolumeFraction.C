/*---------------------------------------------------------------------------*\
Description
    particleVolumeFraction (see the header).
\*---------------------------------------------------------------------------*/
#include "particleVolumeFraction.H"
#include "foamEigen.H"
#include "treeBoundBox.H"
#include "indexedOctree.H"
#include "treeDataCell.H"
#include "FixedList.H"

// * * * * * * * * * * * * * * * * Constructors  * * * * * * * * * * * * * * //

Foam::particleVolumeFraction::particleVolumeFraction
(
    const polyMesh& mesh,
    const std::vector<sef::dem::ParticleType>& types,
    const label pointsPerDiameter,
    const List<boundBox>& processorBoxes
)
:
    mesh_(mesh),
    faceNormals_(mesh.faceAreas()/mag(mesh.faceAreas()))
{
    for (const sef::dem::ParticleType& t : types)
    {
        samples_.push_back(sef::volumeSamples(t.shape, pointsPerDiameter));
    }
    forAll(processorBoxes, proci)
    {
        if (proci != Pstream::myProcNo())
        {
            otherBoxes_.append(processorBoxes[proci]);
        }
    }
}


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

bool Foam::particleVolumeFraction::inCell(const point& p, const label c) const
{
    const labelList& faces = mesh_.cells()[c];
    const labelList& owner = mesh_.faceOwner();
    const vectorField& centres = mesh_.faceCentres();
    for (const label f : faces)
    {
        // distance inside the face plane (outward normal: owner's side)
        const scalar d = (centres[f] - p) & faceNormals_[f];
        if (owner[f] == c ? d < 0 : d > 0) return false;
    }
    return true;
}


void Foam::particleVolumeFraction::addPoint
(
    const point& p,
    const label c,
    const scalar w,
    const scalar halfWidth,
    scalarField& cellVolumes
) const
{
    const labelList& faces = mesh_.cells()[c];
    const labelList& owner = mesh_.faceOwner();
    const labelList& neighbour = mesh_.faceNeighbour();
    const vectorField& centres = mesh_.faceCentres();
    // the point's cube of side 2 halfWidth: its part beyond each near face
    FixedList<label, 12> across;
    FixedList<scalar, 12> share;
    label n = 0;
    scalar total = 0;
    for (const label f : faces)
    {
        if (f >= mesh_.nInternalFaces()) continue;  // boundary, processor
        const bool own = owner[f] == c;
        const scalar d = own ? (centres[f] - p) & faceNormals_[f] : (p - centres[f]) & faceNormals_[f];
        if (d >= halfWidth || n == across.size()) continue;
        across[n] = own ? neighbour[f] : owner[f];
        share[n] = 0.5*(halfWidth - max(d, scalar(0)))/halfWidth;
        total += share[n];
        ++n;
    }
    const scalar scale = total > 1 ? 1/total : 1;
    scalar kept = w;
    for (label k = 0; k < n; ++k)
    {
        const scalar part = w*share[k]*scale;
        cellVolumes[across[k]] += part;
        kept -= part;
    }
    cellVolumes[c] += kept;
}


Foam::scalar Foam::particleVolumeFraction::clearance(const point& p, const label c) const
{
    const labelList& owner = mesh_.faceOwner();
    const vectorField& centres = mesh_.faceCentres();
    scalar nearest = GREAT;
    for (const label f : mesh_.cells()[c])
    {
        const scalar d = (centres[f] - p) & faceNormals_[f];
        nearest = min(nearest, owner[f] == c ? d : -d);
    }
    return nearest;
}


Foam::label Foam::particleVolumeFraction::locate
(
    const point& p,
    const labelList& candidates,
    const label last
) const
{
    if (inCell(p, candidates[last])) return last;
    forAll(candidates, k)
    {
        if (k != last && inCell(p, candidates[k])) return k;
    }
    return -1;
}


void Foam::particleVolumeFraction::deposit
(
    const sef::dem::ParticleSystem& ps,
    const std::size_t i,
    const bool owned,
    scalarField& cellVolumes
) const
{
    const sef::VolumeSamples& samples = samples_[ps.type[i]];
    const sef::Vec3& x = ps.position[i];
    const double R = ps.types[ps.type[i]].boundingRadius;
    const treeBoundBox box(toFoam(x) - vector::one*R, toFoam(x) + vector::one*R);
    const labelList candidates(mesh_.cellTree().findBox(box));
    if (candidates.empty())
    {
        return;     // a halo copy away from this processor's cells
    }
    const sef::Mat3 rotation = ps.orientation[i].toRotationMatrix();
    const scalar w = samples.weight;
    const scalar halfWidth = 0.5*std::cbrt(w);
    label last = 0;     // index in candidates of the previous point's cell
    for (const sef::VolumeSampleCluster& cluster : samples.clusters)
    {
        // a cluster well inside one cell (no point near a face) goes at once
        const point centre = toFoam(sef::Vec3(x + rotation*cluster.centre));
        const label k = locate(centre, candidates, last);
        if (k >= 0 && clearance(centre, candidates[k]) > cluster.radius + halfWidth)
        {
            cellVolumes[candidates[k]] += w*scalar(cluster.end - cluster.begin);
            last = k;
            continue;
        }
        for (std::size_t j = cluster.begin; j < cluster.end; ++j)
        {
            const point p = toFoam(sef::Vec3(x + rotation*samples.points[j]));
            label found = locate(p, candidates, last);
            if (found < 0)
            {
                // not in this mesh: a halo copy's point belongs to its
                // owner's (or another) processor; an owned particle's point
                // is another processor's if it lies in its mesh box,
                // otherwise outside the domain (a particle within the
                // contact tolerance of a wall): kept in the nearest cell, so
                // no volume is lost
                if (!owned) continue;
                bool elsewhere = false;
                for (const boundBox& b : otherBoxes_)
                {
                    elsewhere = elsewhere || b.contains(p);
                }
                if (elsewhere) continue;
                scalar nearest = GREAT;
                forAll(candidates, c)
                {
                    const scalar d = magSqr(mesh_.cellCentres()[candidates[c]] - p);
                    if (d < nearest)
                    {
                        nearest = d;
                        found = c;
                    }
                }
            }
            last = found;
            addPoint(p, candidates[found], w, halfWidth, cellVolumes);
        }
    }
}


void Foam::particleVolumeFraction::addParticleVolumes
(
    const sef::dem::ParticleSystem& ps,
    const std::size_t owned,
    scalarField& cellVolumes
) const
{
    for (std::size_t i = 0; i < ps.size(); ++i)
    {
        deposit(ps, i, i < owned, cellVolumes);
    }
}


std::vector<Foam::label> Foam::particleVolumeFraction::pointsPerType() const
{
    std::vector<label> n;
    for (const sef::VolumeSamples& s : samples_)
    {
        n.push_back(label(s.points.size()));
    }
    return n;
}

// ************************************************************************* //
