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


Foam::particleVolumeFraction::particleDeposit::particleDeposit
(
    const particleVolumeFraction& fraction,
    const sef::dem::ParticleSystem& ps,
    const std::size_t i,
    const bool owned,
    volumeSink& sink
)
:
    samples(fraction.samples_[ps.type[i]]),
    bodyPoints(fraction.bodyPoints_[ps.type[i]]),
    clusterCentres(fraction.clusterCentres_[ps.type[i]]),
    x0(toFoam(ps.position[i])),
    R(ps.types[ps.type[i]].boundingRadius),
    box(x0 - vector::one*R, x0 + vector::one*R),
    rotation(toFoam(sef::Mat3(ps.orientation[i].toRotationMatrix()))),
    w(samples.weight),
    halfWidth(0.5*std::cbrt(w)),
    owned(owned),
    sink(sink)
{}


Foam::label Foam::particleVolumeFraction::locateCentre
(
    particleDeposit& pd,
    const label startCell
) const
{
    if (pd.owned || meshBox_.contains(pd.x0))
    {
        label c = startCell >= 0 ? walk(pd.x0, startCell, pd.inside) : -1;
        // (OpenFOAM's findInside tests the cells of the nearest octree
        // leaf even for a point outside the mesh)
        if (c < 0 && meshBox_.contains(pd.x0)) c = mesh_.cellTree().findInside(pd.x0);
        return c;
    }
    if (startCell >= 0)
    {
        // a periodic image beyond this mesh: its points here are found by
        // walks from the cell at the nearest point of the mesh box, reached
        // from its source's cell (startCell); otherwise by the box search
        boundBox inner(meshBox_);
        inner.inflate(-1e-6);   // (a point on the box may be on no cell's side)
        return walk(inner.nearest(pd.x0), startCell, pd.inside);
    }
    return -1;
}


Foam::label Foam::particleVolumeFraction::locate
(
    particleDeposit& pd,
    const point& p
) const
{
    const label c = pd.last >= 0 ? walk(p, pd.last, pd.inside) : -1;
    if (c >= 0) return c;
    const label found = search(p, pd.box, pd.candidates, pd.searched);
    if (found >= 0) pd.inside = passingClearance(p, found);
    return found;
}


bool Foam::particleVolumeFraction::anotherCopys
(
    const particleDeposit& pd,
    const point& p
) const
{
    sef::Vec3 wrapped = toEigen(p);
    return !pd.owned || lattice_.wrap(wrapped);
}


bool Foam::particleVolumeFraction::inOtherMeshBox(const point& p) const
{
    for (const boundBox& b : otherBoxes_)
    {
        if (b.contains(p)) return true;
    }
    return false;
}


Foam::label Foam::particleVolumeFraction::nearestCandidate
(
    const labelList& candidates,
    const point& p
) const
{
    label found = -1;
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
    return found;
}


void Foam::particleVolumeFraction::depositPoint
(
    particleDeposit& pd,
    const point& p
) const
{
    // beyond this mesh's box: what the search below would conclude,
    // without searching
    if (!meshBox_.contains(p) && anotherCopys(pd, p)) return;
    label found = locate(pd, p);
    // its cube lies in the cell (or, outside the mesh, it goes whole
    // to the nearest cell)
    bool whole = found >= 0 && pd.inside >= pd.halfWidth;
    if (found < 0)
    {
        whole = true;
        // not in this mesh: another copy's, or an owned particle's
        // point is another processor's if it lies in its mesh box,
        // otherwise outside the domain (a particle within the contact
        // tolerance of a wall): kept in the nearest cell, so no volume
        // is lost
        if (anotherCopys(pd, p) || inOtherMeshBox(p) || pd.candidates.empty()) return;
        found = nearestCandidate(pd.candidates, p);
    }
    pd.last = found;
    if (whole)
    {
        pd.sink.add(found, pd.w);
    }
    else
    {
        addPoint(p, found, pd.w, pd.halfWidth, pd.sink);
    }
}


bool Foam::particleVolumeFraction::reachPlanes
(
    const particleDeposit& pd,
    const label home,
    reachedPlanes& planes
) const
{
    for (label k = planeStart_[home]; k < planeStart_[home + 1]; ++k)
    {
        if (planeNeighbours_[k] == keepsPlane) continue;
        const scalar offset = planeOffsets_[k] - (planeNormals_[k] & pd.x0);
        if (offset > pd.R + pd.halfWidth) continue;
        if (planes.n == planes.plane.size()) return false;
        planes.plane[planes.n] = k;
        planes.normal[planes.n] = planeNormals_[k];
        planes.offset[planes.n] = offset;
        ++planes.n;
    }
    return true;
}


bool Foam::particleVolumeFraction::depositHomePoint
(
    particleDeposit& pd,
    const label home,
    const reachedPlanes& planes,
    const vector& q
) const
{
    cubeSplit split;
    bool beyond = false;
    for (label r = 0; r < planes.n; ++r)
    {
        const scalar d = planes.offset[r] - (planes.normal[r] & q);
        beyond = beyond || d < 0;
        // (a cube keeps its part beyond a processor or cyclic face, as
        // addPoint does: the point's cell is its own)
        const label across = planeNeighbours_[planes.plane[r]];
        if (across >= 0) split.add(across, d, pd.halfWidth);
    }
    if (beyond)
    {
        pd.last = home;
        depositPoint(pd, pd.x0 + q);
        return false;
    }
    if (split.n == 0) return true;
    addSplit(home, pd.w, split, pd.sink);
    return false;
}


bool Foam::particleVolumeFraction::depositFromHome
(
    particleDeposit& pd,
    const label home
) const
{
    reachedPlanes planes;
    if (!reachPlanes(pd, home, planes)) return false;
    if (planes.n == 0)
    {
        // well inside one cell (or beyond its walls only) at once
        pd.sink.add(home, pd.w*scalar(pd.samples.points.size()));
        return true;
    }
    label inHome = 0;   // points whose cubes lie in home
    forAll(pd.clusterCentres, clusteri)
    {
        const sef::VolumeSampleCluster& cluster = pd.samples.clusters[clusteri];
        const vector centre = pd.rotation & pd.clusterCentres[clusteri];
        scalar nearest = GREAT;
        for (label r = 0; r < planes.n; ++r)
        {
            nearest = min(nearest, planes.offset[r] - (planes.normal[r] & centre));
        }
        if (nearest > cluster.radius + pd.halfWidth)
        {
            inHome += label(cluster.end - cluster.begin);
            continue;
        }
        for (std::size_t j = cluster.begin; j < cluster.end; ++j)
        {
            const vector q = pd.rotation & pd.bodyPoints[label(j)];
            if (depositHomePoint(pd, home, planes, q)) ++inHome;
        }
    }
    if (inHome > 0) pd.sink.add(home, pd.w*scalar(inHome));
    return true;
}


void Foam::particleVolumeFraction::depositClusters(particleDeposit& pd) const
{
    forAll(pd.clusterCentres, clusteri)
    {
        const sef::VolumeSampleCluster& cluster = pd.samples.clusters[clusteri];
        const point centre = pd.x0 + (pd.rotation & pd.clusterCentres[clusteri]);
        // a halo copy's cluster beyond the mesh box is all its owner's
        if (!pd.owned && !meshBox_.overlaps(centre, sqr(cluster.radius))) continue;
        // a cluster well inside one cell (no point near a face) goes at once
        const label k = locate(pd, centre);
        // (a halo copy's points beyond a wall are its owner's: only a
        // cluster inside every face of the cell)
        if
        (
            k >= 0 && pd.inside > cluster.radius + pd.halfWidth
         && (pd.owned || clearance(centre, k) > cluster.radius + pd.halfWidth)
        )
        {
            pd.sink.add(k, pd.w*scalar(cluster.end - cluster.begin));
            pd.last = k;
            continue;
        }
        for (std::size_t j = cluster.begin; j < cluster.end; ++j)
        {
            depositPoint(pd, pd.x0 + (pd.rotation & pd.bodyPoints[label(j)]));
        }
    }
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
    particleDeposit pd(*this, ps, i, owned, sink);
    pd.last = locateCentre(pd, startCell);

    // An owned particle whose centre's cell (home) was found: each point
    // is placed by the planes of home's faces that the ball reaches
    // (internal, processor and cyclic: the others lie farther than the
    // ball, and walls keep the volume in home), and its cube is split
    // across the internal ones as addPoint splits it. Points beyond one of
    // them take the walk. (Cells larger than the particles: most points
    // never leave home.)
    if (pd.last >= 0 && owned && depositFromHome(pd, pd.last)) return;

    // the general case: a halo copy, or an owned particle whose centre no
    // walk found (or whose home has more faces within reach than listed)
    depositClusters(pd);
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
