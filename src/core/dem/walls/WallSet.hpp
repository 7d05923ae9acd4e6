#pragma once
// Walls are data: planar convex faces (from the mesh wall patches, or built
// by hand) with a spatial index, built once at start-up.
#include "contact/PolygonWallContact.hpp"
#include "geometry/Types.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace sef::dem {

struct WallFace {
    std::vector<Vec3> vertices;   // convex polygon, ordered (either orientation)
    Vec3 outwardNormal;           // unit, pointing OUT of the particle domain
                                  // (OpenFOAM boundary-face normal direction)
    int patch = -1;               // user tag (mesh patch index)
};

// A validated face set with a uniform-grid index over face bounding boxes
// ([Polyhedra-DEM], sec. 2.5: linked cells; faces are binned once, particles query
// the cells their bounding sphere covers).
//
// Input faces are checked (>= 3 finite vertices, non-zero area, outward normal
// not perpendicular to the polygon). Warped or non-convex faces (they occur
// in snappyHexMesh meshes) are split into triangles around their centroid so
// that every stored face is planar and convex; `sourceFace` maps back.
// The stored outward normal is the polygon's own normal, oriented like the
// given one.
class WallSet {
public:
    WallSet() = default;
    // periodicShifts: the lattice shifts of a periodic domain
    // (PeriodicLattice::shifts()); a wall running through a periodic
    // boundary then has no edges there (markActiveFeatures).
    explicit WallSet(std::vector<WallFace> faces, const std::vector<Vec3>& periodicShifts = {});

    std::size_t size() const { return faces_.size(); }
    bool empty() const { return faces_.empty(); }
    const WallFace& face(std::size_t f) const { return faces_[f]; }
    const std::vector<WallFace>& faces() const { return faces_; }
    // Face f as a contact-module polygon with its active/owned features.
    const WallPolygon& polygon(std::size_t f) const { return polygons_[f]; }
    int sourceFace(std::size_t f) const { return source_[f]; }
    // Faces in one plane (unit outward normal and offset equal to 1e-9 of
    // the wall set's size) share a plane index.
    int planeOf(std::size_t f) const { return plane_[f]; }
    // No active edge or vertex (every edge shared with a coplanar or concave
    // neighbour): the face's only possible contact is a face-interior one,
    // which it gives iff it claims the projection of the particle's deepest
    // point below its plane. So when another face of the same plane has
    // claimed it, this face has no contact (DemEngine skips the query).
    bool interiorFace(std::size_t f) const { return interior_[f] != 0; }
    int splitFaces() const { return splitFaces_; }  // input faces that were triangulated

    // Appends to `out` the indices (ascending, unique) of faces whose polygon
    // comes within `radius` of `centre` (exact point-polygon distance).
    void facesNear(const Vec3& centre, double radius, std::vector<int>& out) const;
    // True only if no face comes within `radius` of `centre` (then facesNear
    // finds none), from one cell's distance to the nearest face-holding cell:
    // most particles are far from every wall, and this answers them without
    // touching per-particle data. False answers nothing.
    bool noFaceWithin(const Vec3& centre, double radius) const;
    // True if face f comes within `radius` of `centre` (the exact test of facesNear).
    bool faceWithin(std::size_t f, const Vec3& centre, double radius) const {
        // Exact cheap rejections first (the plane and the face's bounding box
        // are no farther than the face): most faces near a settled particle
        // fail one of them.
        const double r2 = radius * radius, plane = planeDistance(f, centre);
        if (plane * plane > r2) return false;
        const Vec3 outside = (faceLower_[f] - centre).cwiseMax(centre - faceUpper_[f]).cwiseMax(0.0);
        if (outside.squaredNorm() > r2) return false;
        return (closestPoint(f, centre) - centre).squaredNorm() <= r2;
    }

    // Closest point of face f to x.
    Vec3 closestPoint(std::size_t f, const Vec3& x) const;

    // Signed distance of x to the plane of face f (> 0: outside, along the
    // outward normal).
    double planeDistance(std::size_t f, const Vec3& x) const {
        return normal_[f].dot(x) - planeOffset_[f];
    }
    const Vec3& outwardNormalOf(std::size_t f) const { return normal_[f]; }

    // The first face the segment a -> b leaves the domain through (from its
    // inner side to its outer side), or face = -1.
    struct Crossing {
        int face = -1;
        double t = 0.0;               // a + t (b - a)
        Vec3 point = Vec3::Zero();
    };
    Crossing firstOutwardCrossing(const Vec3& a, const Vec3& b) const;
    // The same among the given faces: facesNear(midpoint, |b - a|/2) (or a
    // superset of it).
    Crossing firstOutwardCrossing(const Vec3& a, const Vec3& b, const std::vector<int>& near) const;

    // True if x lies inside the closed surface the faces form (ray parity;
    // for start-up checks, O(faces)). Meaningless for open face sets.
    bool contains(const Vec3& x) const;

    // True if the projection of x onto the plane of face f lies inside the
    // polygon (tolerance: distance outside the edges that still counts).
    bool faceContainsProjection(std::size_t f, const Vec3& x, double tolerance) const {
        return insidePolygon(f, x - planeDistance(f, x) * outwardNormalOf(f), tolerance);
    }

    // Bounding box of all faces.
    double cellSize() const { return cellSize_; } // of the face index
    const Vec3& lower() const { return lower_; }
    const Vec3& upper() const { return upper_; }

private:
    bool insidePolygon(std::size_t f, const Vec3& pointInPlane, double tolerance) const;
    std::array<int, 3> cellOf(const Vec3& x) const;
    std::size_t cellIndex(int i, int j, int k) const { // x fastest
        return (static_cast<std::size_t>(k) * static_cast<std::size_t>(dims_[1]) + static_cast<std::size_t>(j)) *
                   static_cast<std::size_t>(dims_[0]) +
               static_cast<std::size_t>(i);
    }
    void indexPlanes();
    void computeClearance();

    std::vector<WallFace> faces_;
    std::vector<WallPolygon> polygons_;   // same faces, for the narrow phase
    std::vector<int> source_;
    std::vector<int> plane_;
    std::vector<char> interior_;
    std::vector<Vec3> faceLower_, faceUpper_;
    std::vector<Vec3> vertex_;            // all faces' vertices, face f's from vertexStart_[f]
    std::vector<int> vertexStart_;        // size() + 1 entries
    std::vector<Vec3> normal_;            // outward, per face
    std::vector<double> planeOffset_;     // n . (a vertex), per face
    int splitFaces_ = 0;

    // Uniform grid (CSR layout: faces of cell c are cellFaces_[cellStart_[c] .. cellStart_[c+1]) ).
    Vec3 lower_ = Vec3::Zero(), upper_ = Vec3::Zero();
    Vec3 origin_ = Vec3::Zero();
    double cellSize_ = 1.0;
    std::array<int, 3> dims_{{0, 0, 0}};
    std::vector<int> cellStart_;
    std::vector<int> cellFaces_;
    std::vector<std::uint8_t> clearance_; // per cell: cells to the nearest cell holding a face (<= 255)
    double lengthScale_ = 1.0;
};

} // namespace sef::dem
