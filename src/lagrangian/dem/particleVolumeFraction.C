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
    const List<boundBox>& processorBoxes,
    const sef::dem::PeriodicLattice& lattice
)
:
    mesh_(mesh),
    meshBox_(mesh.points(), false),
    lattice_(lattice),
    planeStart_(mesh.nCells() + 1, 0)
{
    for (const sef::dem::ParticleType& t : types)
    {
        samples_.push_back(sef::volumeSamples(t.shape, pointsPerDiameter));
        // as OpenFOAM vectors, so that the per-point loop stays in one type
        const sef::VolumeSamples& v = samples_.back();
        vectorField points(label(v.points.size()));
        forAll(points, j)
        {
            points[j] = toFoam(v.points[j]);
        }
        vectorField centres(label(v.clusters.size()));
        forAll(centres, k)
        {
            centres[k] = toFoam(v.clusters[k].centre);
        }
        bodyPoints_.append(points);
        clusterCentres_.append(centres);
    }
    forAll(processorBoxes, proci)
    {
        if (proci != Pstream::myProcNo())
        {
            otherBoxes_.append(processorBoxes[proci]);
        }
    }
    // every cell's face planes, outward, with the cell beyond each
    const labelList& owner = mesh.faceOwner();
    const labelList& neighbour = mesh.faceNeighbour();
    const polyBoundaryMesh& patches = mesh.boundaryMesh();
    const vectorField normals(mesh.faceAreas()/mag(mesh.faceAreas()));
    const cellList& cells = mesh.cells();
    forAll(cells, c)
    {
        planeStart_[c + 1] = planeStart_[c] + cells[c].size();
    }
    planeNormals_.setSize(planeStart_[mesh.nCells()]);
    planeOffsets_.setSize(planeNormals_.size());
    planeNeighbours_.setSize(planeNormals_.size());
    forAll(cells, c)
    {
        label k = planeStart_[c];
        for (const label f : cells[c])
        {
            const bool own = owner[f] == c;
            planeNormals_[k] = own ? normals[f] : -normals[f];
            planeOffsets_[k] = planeNormals_[k] & mesh.faceCentres()[f];
            planeNeighbours_[k] =
                f < mesh.nInternalFaces() ? (own ? neighbour[f] : owner[f])
              : patches[patches.whichPatch(f)].coupled() ? coupledPlane
              : keepsPlane;
            ++k;
        }
    }
}


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

void Foam::particleVolumeFraction::volumeSink::add(const label c, const scalar v)
{
    cellVolumes[c] += v;
    if (!shares) return;
    // a particle meets a few cells: a linear search
    for (cellShare& s : *shares)
    {
        if (s.cell == c)
        {
            s.volume += v;
            return;
        }
    }
    shares->push_back({c, v});
}


Foam::scalar Foam::particleVolumeFraction::clearance(const point& p, const label c) const
{
    scalar nearest = GREAT;
    for (label k = planeStart_[c]; k < planeStart_[c + 1]; ++k)
    {
        nearest = min(nearest, planeOffsets_[k] - (planeNormals_[k] & p));
    }
    return nearest;
}


Foam::scalar Foam::particleVolumeFraction::passingClearance
(
    const point& p,
    const label c
) const
{
    scalar nearest = GREAT;
    for (label k = planeStart_[c]; k < planeStart_[c + 1]; ++k)
    {
        if (planeNeighbours_[k] == keepsPlane) continue;
        nearest = min(nearest, planeOffsets_[k] - (planeNormals_[k] & p));
    }
    return nearest;
}


Foam::label Foam::particleVolumeFraction::walk
(
    const point& p,
    label c,
    scalar& inside
) const
{
    // from cell c across the face whose plane p lies farthest beyond, until
    // p is inside (a few steps for neighbouring points); -1 at the boundary.
    // inside: p's distance inside the nearest face plane of its cell that
    // passes volume on (a wall keeps a point's cube in its cell)
    for (label step = 0; step < 32; ++step)
    {
        scalar worst = GREAT;
        scalar passing = GREAT;
        label exit = -1;
        for (label k = planeStart_[c]; k < planeStart_[c + 1]; ++k)
        {
            const scalar d = planeOffsets_[k] - (planeNormals_[k] & p);
            if (d < worst)
            {
                worst = d;
                exit = k;
            }
            if (planeNeighbours_[k] != keepsPlane && d < passing)
            {
                passing = d;
            }
        }
        if (worst >= 0)
        {
            inside = passing;
            return c;
        }
        c = planeNeighbours_[exit];
        if (c < 0) return -1;
    }
    return -1;
}


Foam::label Foam::particleVolumeFraction::search
(
    const point& p,
    const treeBoundBox& box,
    labelList& candidates,
    bool& searched
) const
{
    if (!searched)
    {
        candidates = mesh_.cellTree().findBox(box);
        searched = true;
    }
    for (const label c : candidates)
    {
        if (clearance(p, c) >= 0) return c;
    }
    return -1;
}


void Foam::particleVolumeFraction::cubeSplit::add
(
    const label cell,
    const scalar d,
    const scalar h
)
{
    if (d >= h || n == across.size()) return;
    across[n] = cell;
    share[n] = 0.5*(h - max(d, scalar(0)))/h;
    total += share[n];
    ++n;
}


void Foam::particleVolumeFraction::addSplit
(
    const label c,
    const scalar w,
    const cubeSplit& split,
    volumeSink& sink
) const
{
    const scalar scale = split.total > 1 ? 1/split.total : 1;
    scalar kept = w;
    for (label k = 0; k < split.n; ++k)
    {
        const scalar part = w*split.share[k]*scale;
        sink.add(split.across[k], part);
        kept -= part;
    }
    sink.add(c, kept);
}


void Foam::particleVolumeFraction::addPoint
(
    const point& p,
    const label c,
    const scalar w,
    const scalar halfWidth,
    volumeSink& sink
) const
{
    // the point's cube of side 2 halfWidth: its part beyond each near
    // internal face (boundary and processor faces keep it)
    cubeSplit split;
    for (label k = planeStart_[c]; k < planeStart_[c + 1]; ++k)
    {
        if (planeNeighbours_[k] < 0) continue;
        split.add(planeNeighbours_[k], planeOffsets_[k] - (planeNormals_[k] & p), halfWidth);
    }
    addSplit(c, w, split, sink);
}


void Foam::particleVolumeFraction::deposit
(
    const sef::dem::ParticleSystem& ps,
    const std::size_t i,
    const bool owned,
    const label startCell,
    volumeSink& sink
) const
{
    const sef::VolumeSamples& samples = samples_[ps.type[i]];
    const point x0 = toFoam(ps.position[i]);
    const double R = ps.types[ps.type[i]].boundingRadius;
    const treeBoundBox box(x0 - vector::one*R, x0 + vector::one*R);
    // the cells the particle's box meets: only when a walk fails (a halo
    // copy's centre outside this mesh, a non-convex boundary)
    labelList candidates;
    bool searched = false;
    const tensor rotation = toFoam(sef::Mat3(ps.orientation[i].toRotationMatrix()));
    const vectorField& bodyPoints = bodyPoints_[ps.type[i]];
    const vectorField& clusterCentres = clusterCentres_[ps.type[i]];
    const scalar w = samples.weight;
    const scalar halfWidth = 0.5*std::cbrt(w);
    // the previous point's cell (walks start there); the centre's first
    scalar inside = 0;   // the located point's distance inside its cell
    label last = -1;
    if (owned || meshBox_.contains(x0))
    {
        last = startCell >= 0 ? walk(x0, startCell, inside) : -1;
        // (OpenFOAM's findInside tests the cells of the nearest octree
        // leaf even for a point outside the mesh)
        if (last < 0 && meshBox_.contains(x0)) last = mesh_.cellTree().findInside(x0);
    }
    else if (startCell >= 0)
    {
        // a periodic image beyond this mesh: its points here are found by
        // walks from the cell at the nearest point of the mesh box, reached
        // from its source's cell (startCell); otherwise by the box search
        boundBox inner(meshBox_);
        inner.inflate(-1e-6);   // (a point on the box may be on no cell's side)
        last = walk(inner.nearest(x0), startCell, inside);
    }
    const auto locate = [&](const point& p)
    {
        const label c = last >= 0 ? walk(p, last, inside) : -1;
        if (c >= 0) return c;
        const label found = search(p, box, candidates, searched);
        if (found >= 0) inside = passingClearance(p, found);
        return found;
    };
    // a point outside this mesh that another copy of the particle
    // deposits: a halo copy's point is its owner's, an owned particle's
    // point beyond a periodic boundary its image's
    const auto anotherCopys = [&](const point& p)
    {
        sef::Vec3 wrapped = toEigen(p);
        return !owned || lattice_.wrap(wrapped);
    };
    // one point, wherever it lies
    const auto depositPoint = [&](const point& p)
    {
        // beyond this mesh's box: what the search below would conclude,
        // without searching
        if (!meshBox_.contains(p) && anotherCopys(p)) return;
        label found = locate(p);
        // its cube lies in the cell (or, outside the mesh, it goes whole
        // to the nearest cell)
        bool whole = found >= 0 && inside >= halfWidth;
        if (found < 0)
        {
            whole = true;
            // not in this mesh: another copy's, or an owned particle's
            // point is another processor's if it lies in its mesh box,
            // otherwise outside the domain (a particle within the contact
            // tolerance of a wall): kept in the nearest cell, so no volume
            // is lost
            if (anotherCopys(p)) return;
            bool elsewhere = false;
            for (const boundBox& b : otherBoxes_)
            {
                elsewhere = elsewhere || b.contains(p);
            }
            if (elsewhere || candidates.empty()) return;
            scalar nearest = GREAT;
            for (const label c : candidates)
            {
                const scalar d = magSqr(mesh_.cellCentres()[c] - p);
                if (d < nearest)
                {
                    nearest = d;
                    found = c;
                }
            }
        }
        last = found;
        if (whole)
        {
            sink.add(found, w);
        }
        else
        {
            addPoint(p, found, w, halfWidth, sink);
        }
    };

    // An owned particle whose centre's cell (home) was found: each point
    // is placed by the planes of home's faces that the ball reaches
    // (internal, processor and cyclic: the others lie farther than the
    // ball, and walls keep the volume in home), and its cube is split
    // across the internal ones as addPoint splits it. Points beyond one of
    // them take the walk. (Cells larger than the particles: most points
    // never leave home.)
    const label home = last;
    if (home >= 0 && owned)
    {
        FixedList<label, 12> reached;
        label nReached = 0;
        bool simple = true;
        for (label k = planeStart_[home]; k < planeStart_[home + 1]; ++k)
        {
            if (planeNeighbours_[k] == keepsPlane) continue;
            if (planeOffsets_[k] - (planeNormals_[k] & x0) > R + halfWidth) continue;
            if (nReached == reached.size())
            {
                simple = false;
                break;
            }
            reached[nReached++] = k;
        }
        if (simple && nReached == 0)
        {
            // well inside one cell (or beyond its walls only) at once
            sink.add(home, w*scalar(samples.points.size()));
            return;
        }
        if (simple)
        {
            // the clusters' and points' distances inside the reached planes
            FixedList<scalar, 12> offset;
            FixedList<vector, 12> normal;
            for (label r = 0; r < nReached; ++r)
            {
                const label k = reached[r];
                normal[r] = planeNormals_[k];
                offset[r] = planeOffsets_[k] - (normal[r] & x0);
            }
            label inHome = 0;   // points whose cubes lie in home
            forAll(clusterCentres, clusteri)
            {
                const sef::VolumeSampleCluster& cluster = samples.clusters[clusteri];
                const vector centre = rotation & clusterCentres[clusteri];
                scalar nearest = GREAT;
                for (label r = 0; r < nReached; ++r)
                {
                    nearest = min(nearest, offset[r] - (normal[r] & centre));
                }
                if (nearest > cluster.radius + halfWidth)
                {
                    inHome += label(cluster.end - cluster.begin);
                    continue;
                }
                for (std::size_t j = cluster.begin; j < cluster.end; ++j)
                {
                    const vector q = rotation & bodyPoints[label(j)];
                    cubeSplit split;
                    bool beyond = false;
                    for (label r = 0; r < nReached; ++r)
                    {
                        const scalar d = offset[r] - (normal[r] & q);
                        beyond = beyond || d < 0;
                        // (a cube keeps its part beyond a processor or
                        // cyclic face, as addPoint does: the point's
                        // cell is its own)
                        const label across = planeNeighbours_[reached[r]];
                        if (across >= 0) split.add(across, d, halfWidth);
                    }
                    if (beyond)
                    {
                        last = home;
                        depositPoint(x0 + q);
                    }
                    else if (split.n == 0)
                    {
                        ++inHome;
                    }
                    else
                    {
                        addSplit(home, w, split, sink);
                    }
                }
            }
            if (inHome > 0) sink.add(home, w*scalar(inHome));
            return;
        }
    }

    // the general case: a halo copy, or an owned particle whose centre no
    // walk found
    forAll(clusterCentres, clusteri)
    {
        const sef::VolumeSampleCluster& cluster = samples.clusters[clusteri];
        const point centre = x0 + (rotation & clusterCentres[clusteri]);
        // a halo copy's cluster beyond the mesh box is all its owner's
        if (!owned && !meshBox_.overlaps(centre, sqr(cluster.radius))) continue;
        // a cluster well inside one cell (no point near a face) goes at once
        const label k = locate(centre);
        // (a halo copy's points beyond a wall are its owner's: only a
        // cluster inside every face of the cell)
        if
        (
            k >= 0 && inside > cluster.radius + halfWidth
         && (owned || clearance(centre, k) > cluster.radius + halfWidth)
        )
        {
            sink.add(k, w*scalar(cluster.end - cluster.begin));
            last = k;
            continue;
        }
        for (std::size_t j = cluster.begin; j < cluster.end; ++j)
        {
            depositPoint(x0 + (rotation & bodyPoints[label(j)]));
        }
    }
}


void Foam::particleVolumeFraction::addParticleVolumes
(
    const sef::dem::ParticleSystem& ps,
    const std::size_t owned,
    scalarField& cellVolumes,
    const labelUList& startCells,
    std::vector<cellShares>* shares
) const
{
    if (shares)
    {
        shares->assign(owned, cellShares());
    }
    for (std::size_t i = 0; i < ps.size(); ++i)
    {
        const label start =
            i < std::size_t(startCells.size()) ? startCells[label(i)] : -1;
        volumeSink sink{cellVolumes, shares && i < owned ? &(*shares)[i] : nullptr};
        deposit(ps, i, i < owned, start, sink);
    }
}


// ************************************************************************* //
