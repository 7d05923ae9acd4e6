#pragma once
// Narrow phase superellipsoid - planar convex polygon (one face of a wall
// mesh), built so that a mesh of faces counts every contact once.
//
// Per face, in this order (ContactResult.feature says which one answered):
//  1. face: the particle's deepest point w.r.t. the face plane (closed form,
//     [Superellipsoid-OpenFOAM] sec. 3.4, as in WallContact.hpp) projects inside the polygon
//     -> the plane answer, status closedForm. A projection on the polygon
//     boundary (within 1e-10 of the polygon size) counts only for the face
//     that owns that edge / vertex (ownedEdges / ownedVertices), so a point
//     on a shared edge or vertex of a flat floor is claimed exactly once.
//     If the particle does not cross the face plane there is no contact.
//  2. otherwise the deepest of the ACTIVE edges and vertices of this face:
//     - edge (a segment as a degenerate convex body): the common normal m
//       minimises f(m) = h_edge(m) + h_particle(-m) (CommonNormalNewton.hpp);
//       for an edge m is perpendicular to it, so f is minimised over the arc
//       m(theta) = cos(theta) n + sin(theta) b (b: in-plane outward normal of
//       the edge) by a safeguarded 1-D Newton. The arc is the edge's normal
//       cone: theta in (0, angle of the neighbour face normal) for a shared
//       convex edge, (0, 90 deg) for a boundary edge; a minimum on the cone
//       boundary belongs to a face (this one or the neighbour) and gives no
//       edge contact. The contact point on the edge must lie in [0, L).
//     - vertex: the point's depth inside the particle (common normal with a
//       point body); m must lie strictly in the cone spanned by this face's
//       normal and beyond both incident edges.
//  Inactive edges / vertices (coplanar or concave neighbours, or owned by
//  another face) never answer, so a flat floor of many faces and concave
//  corners (the bottom rim of a cylinder: each face counts on its own) give
//  no double contacts; markActiveFeatures() computes the flags.
//
// Result convention (ContactResult.hpp): body 1 = wall, body 2 = particle;
// normal from the wall into the domain (towards the particle); surfacePoint1
// on the polygon, surfacePoint2 = the particle's deepest point; depth > 0 is
// penetration; featureIndex = edge k (v_k, v_k+1) or vertex k, -1 for the face.
// Face contacts of flat-faced particles: point (and both surface points) at
// the centre of the part of the particle below the plane, cut by the active
// edges of the face (where the floor ends; ContactPatch.hpp).
#include "contact/ContactResult.hpp"
#include "geometry/Pose.hpp"
#include "geometry/Superellipsoid.hpp"

#include <vector>

namespace sef {

struct WallPolygon {
    std::vector<Vec3> vertices;        // convex, planar, either orientation
    Vec3 normal = Vec3::UnitZ();       // unit, into the particle domain
    std::vector<bool> activeEdges;     // edge k = (v_k, v_k+1) may produce edge contacts; empty = all
    std::vector<bool> activeVertices;  // same for vertices; empty = all
    // Filled by markActiveFeatures (empty = defaults for an isolated polygon):
    std::vector<bool> ownedEdges;      // face-interior tie-break on edge k; empty = all owned
    std::vector<bool> ownedVertices;   // same on vertex k; empty = all owned
    std::vector<Vec3> edgeNeighbourNormals; // normal of the face across edge k; zero/empty = none
};

// Throws std::invalid_argument for fewer than 3 vertices, a zero or
// non-finite normal or flag vectors of the wrong size.
// patchGuess (optional, in and out): the searches of the face contact's
// flat patch start there and leave theirs (PatchGuess, ContactResult.hpp).
// kept (optional, out): the outlines of a face answer's flat patch
// (KeptPatch; valid = false for any other answer).
ContactResult detectPolygonWallContact(const Superellipsoid& shape, const Pose& pose,
                                       const WallPolygon& polygon,
                                       const Vec3* warmNormal = nullptr,
                                       PatchGuess* patchGuess = nullptr, KeptPatch* kept = nullptr);

// The same for a polygon already checked (by markActiveFeatures, as a wall
// set does once when it is built): no per-query validation.
ContactResult detectValidatedPolygonWallContact(const Superellipsoid& shape, const Pose& pose,
                                                const WallPolygon& polygon,
                                                const Vec3* warmNormal = nullptr,
                                                PatchGuess* patchGuess = nullptr,
                                                KeptPatch* kept = nullptr);

// The face answer of a particle that has slid across the face normal and
// turned about it since its kept patch was found (the caller bounds the
// motion, dem/engine/PairGeometryReuse.hpp): its deepest point is the kept one
// moved with it, its depth that point's below the plane now, and its patch
// the kept outlines moved with it and cut by the floor's edges
// (ContactPatch.hpp, keptWallPatch), as the face branch of
// detectPolygonWallContact would answer along the same normal. False where
// the face no longer claims that point, the particle no longer reaches the
// plane or the outlines give no patch (the caller queries afresh).
bool keptPolygonFaceContact(const Superellipsoid& shape, const Pose& pose, const WallPolygon& polygon,
                            const KeptPatch& kept, ContactResult& r);

// Sets activeEdges, activeVertices, ownedEdges, ownedVertices and
// edgeNeighbourNormals of every face. Vertices closer than `tolerance` [m]
// are the same point; an edge is shared when both end points match.
//  - edge active: boundary edge (no neighbour), or shared and convex seen
//    from the domain (the neighbour bends away: dihedral angle > 180 deg,
//    beyond an angle tolerance of 1e-6 rad), and then only on the lowest face
//    index sharing it; coplanar and concave shared edges are inactive;
//  - vertex active: at least one incident edge (of any face) is active; only
//    on the lowest face index incident to the vertex;
//  - owned edge / vertex: the lowest face index sharing it.
// periodicShifts (the lattice shifts of a periodic domain, each with its
// negative): a vertex v is also the same point as v + s, so a wall running
// through a periodic boundary (a floor) is one surface there: its edges on
// the boundary are shared with their partners on the other side, coplanar
// and inactive, and owned once. Throws std::invalid_argument for a
// tolerance that is not positive and finite, and for a shift that is not
// finite or not longer than the tolerance.
void markActiveFeatures(std::vector<WallPolygon>& faces, double tolerance,
                        const std::vector<Vec3>& periodicShifts = {});

} // namespace sef
