#include "dem/walls/WallSet.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace sef::dem {

namespace {

[[noreturn]] void badFace(std::size_t k, const std::string& why) {
    throw std::invalid_argument("wall face " + std::to_string(k) + ": " + why);
}

// Newell's method: twice the area vector of a (possibly warped) polygon.
Vec3 newellNormal(const std::vector<Vec3>& v) {
    Vec3 n = Vec3::Zero();
    for (std::size_t i = 0; i < v.size(); ++i) n += v[i].cross(v[(i + 1) % v.size()]);
    return n;
}

Vec3 centroidOf(const std::vector<Vec3>& v) {
    Vec3 c = Vec3::Zero();
    for (const Vec3& p : v) c += p;
    return c / static_cast<double>(v.size());
}

// Closest point to x on the segment p -> q.
Vec3 closestOnSegment(const Vec3& p, const Vec3& q, const Vec3& x) {
    const Vec3 e = q - p;
    const double ee = e.squaredNorm();
    if (ee == 0.0) return p;
    const double t = std::clamp(e.dot(x - p) / ee, 0.0, 1.0);
    return p + t * e;
}

// Stores a planar convex polygon with vertices counter-clockwise about its
// outward normal (so inside tests need no orientation flag).
WallFace orientedFace(std::vector<Vec3> vertices, const Vec3& unitNormal, int patch) {
    if (newellNormal(vertices).dot(unitNormal) < 0.0) std::reverse(vertices.begin(), vertices.end());
    return WallFace{std::move(vertices), unitNormal, patch};
}

// Input face k, checked, to faces (as it is if planar and convex, else as a
// fan of triangles), each with its source index.
void addCheckedFace(std::size_t k, const WallFace& in, std::vector<WallFace>& faces, std::vector<int>& source,
                    int& splitFaces) {
    const auto& v = in.vertices;
    if (v.size() < 3) badFace(k, "needs at least 3 vertices (has " + std::to_string(v.size()) + ")");
    for (const Vec3& p : v)
        if (!isFinite(p)) badFace(k, "vertex is not finite");
    if (!isFinite(in.outwardNormal) || in.outwardNormal.norm() == 0.0)
        badFace(k, "outwardNormal must be finite and non-zero");
    const Vec3 given = in.outwardNormal.normalized();

    double size = 0.0;
    const Vec3 c = centroidOf(v);
    for (const Vec3& p : v) size = std::max(size, (p - c).norm());
    const Vec3 area2 = newellNormal(v);
    if (area2.norm() <= 1e-12 * size * size) badFace(k, "has zero area");
    Vec3 n = area2.normalized();
    // A normal far from the polygon's own means the caller mixed up faces.
    if (std::abs(n.dot(given)) < 0.5)
        badFace(k, "outwardNormal is not (nearly) perpendicular to the polygon");
    if (n.dot(given) < 0.0) n = -n;

    // Planar and convex within a relative tolerance -> keep as it is.
    const double tol = 1e-9 * size;
    bool planar = true, convex = true;
    for (const Vec3& p : v) planar = planar && std::abs(n.dot(p - c)) <= tol;
    const std::size_t m = v.size();
    const int turn = newellNormal(v).dot(n) > 0 ? 1 : -1;
    for (std::size_t i = 0; i < m && convex; ++i) {
        const Vec3 e1 = v[(i + 1) % m] - v[i], e2 = v[(i + 2) % m] - v[(i + 1) % m];
        convex = turn * e1.cross(e2).dot(n) >= -tol * (e1.norm() + e2.norm());
    }
    if (planar && convex) {
        faces.push_back(orientedFace(v, n, in.patch));
        source.push_back(static_cast<int>(k));
        return;
    }
    // Warped or non-convex: fan of triangles around the centroid.
    ++splitFaces;
    for (std::size_t i = 0; i < m; ++i) {
        std::vector<Vec3> tri{c, v[i], v[(i + 1) % m]};
        const Vec3 t2 = newellNormal(tri);
        if (t2.norm() <= 1e-12 * size * size) continue;
        Vec3 tn = t2.normalized();
        if (tn.dot(given) < 0.0) tn = -tn;
        faces.push_back(orientedFace(std::move(tri), tn, in.patch));
        source.push_back(static_cast<int>(k));
    }
}

} // namespace

WallSet::WallSet(std::vector<WallFace> input, const std::vector<Vec3>& periodicShifts) {
    for (std::size_t k = 0; k < input.size(); ++k) addCheckedFace(k, input[k], faces_, source_, splitFaces_);
    if (faces_.empty()) return;

    // Face boxes and the overall box.
    lower_ = upper_ = faces_[0].vertices[0];
    std::vector<double> faceSizes;
    for (const WallFace& f : faces_) {
        Vec3 lo = f.vertices[0], hi = f.vertices[0];
        for (const Vec3& p : f.vertices) {
            lo = lo.cwiseMin(p);
            hi = hi.cwiseMax(p);
        }
        faceLower_.push_back(lo);
        faceUpper_.push_back(hi);
        lower_ = lower_.cwiseMin(lo);
        upper_ = upper_.cwiseMax(hi);
        faceSizes.push_back((hi - lo).maxCoeff());
    }
    lengthScale_ = std::max((upper_ - lower_).norm(), 1e-300);
    const double pad = 1e-9 * lengthScale_;
    // The vertices of all faces in one array, with each face's normal and
    // plane offset: the distance tests of every substep read these instead
    // of the faces' own (separately allocated) vertex lists.
    vertexStart_.assign(1, 0);
    for (const WallFace& f : faces_) {
        vertex_.insert(vertex_.end(), f.vertices.begin(), f.vertices.end());
        vertexStart_.push_back(static_cast<int>(vertex_.size()));
        normal_.push_back(f.outwardNormal);
        planeOffset_.push_back(f.outwardNormal.dot(f.vertices[0]));
    }

    // The contact module's polygons (normal into the domain), with the
    // convex edges/vertices marked and each shared feature owned by one face,
    // so floors of many faces and concave rims never double count.
    polygons_.reserve(faces_.size());
    for (const WallFace& f : faces_) {
        WallPolygon poly;
        poly.vertices = f.vertices;
        poly.normal = -f.outwardNormal;
        polygons_.push_back(std::move(poly));
    }
    markActiveFeatures(polygons_, pad, periodicShifts);
    indexPlanes();
    for (std::size_t f = 0; f < faces_.size(); ++f) {
        faceLower_[f].array() -= pad;
        faceUpper_[f].array() += pad;
    }

    // Cell size: the median face size (each face then covers O(1) cells in
    // its plane), not finer than 1/256 of the domain, and at most ~4e6 cells.
    std::nth_element(faceSizes.begin(), faceSizes.begin() + faceSizes.size() / 2, faceSizes.end());
    const Vec3 extent = (upper_ - lower_).array() + 2.0 * pad;
    cellSize_ = std::max(faceSizes[faceSizes.size() / 2], extent.maxCoeff() / 256.0);
    auto countCells = [&](double h) {
        double n = 1.0;
        for (int d = 0; d < 3; ++d) n *= std::floor(extent[d] / h) + 1.0;
        return n;
    };
    while (countCells(cellSize_) > 4e6) cellSize_ *= 1.25;
    origin_ = lower_.array() - pad;
    for (int d = 0; d < 3; ++d) dims_[d] = static_cast<int>(std::floor(extent[d] / cellSize_)) + 1;

    const std::size_t nCells = static_cast<std::size_t>(dims_[0]) * dims_[1] * dims_[2];
    cellStart_.assign(nCells + 1, 0);
    auto forCells = [&](std::size_t f, auto&& visit) {
        const auto lo = cellOf(faceLower_[f]), hi = cellOf(faceUpper_[f]);
        for (int k = lo[2]; k <= hi[2]; ++k)
            for (int j = lo[1]; j <= hi[1]; ++j)
                for (int i = lo[0]; i <= hi[0]; ++i)
                    visit(cellIndex(i, j, k));
    };
    for (std::size_t f = 0; f < faces_.size(); ++f)
        forCells(f, [&](std::size_t c) { ++cellStart_[c + 1]; });
    for (std::size_t c = 0; c < nCells; ++c) cellStart_[c + 1] += cellStart_[c];
    cellFaces_.resize(cellStart_[nCells]);
    std::vector<int> fill(cellStart_.begin(), cellStart_.end() - 1);
    for (std::size_t f = 0; f < faces_.size(); ++f)
        forCells(f, [&](std::size_t c) { cellFaces_[fill[c]++] = static_cast<int>(f); });
    computeClearance();
}

// Breadth-first from the cells that hold faces over the 26 neighbours of
// each cell: the Chebyshev distance in cells (capped at 255).
void WallSet::computeClearance() {
    const std::size_t nCells = cellStart_.size() - 1;
    clearance_.assign(nCells, 255);
    std::vector<int> front, next;
    for (std::size_t c = 0; c < nCells; ++c)
        if (cellStart_[c + 1] > cellStart_[c]) {
            clearance_[c] = 0;
            front.push_back(static_cast<int>(c));
        }
    const int nx = dims_[0], ny = dims_[1], nz = dims_[2];
    for (int distance = 1; distance < 255 && !front.empty(); ++distance) {
        next.clear();
        for (const int c : front) {
            const int i = c % nx, j = (c / nx) % ny, k = c / (nx * ny);
            for (int dk = -1; dk <= 1; ++dk)
                for (int dj = -1; dj <= 1; ++dj)
                    for (int di = -1; di <= 1; ++di) {
                        const int a = i + di, b = j + dj, e = k + dk;
                        if (a < 0 || b < 0 || e < 0 || a >= nx || b >= ny || e >= nz) continue;
                        const std::size_t q = cellIndex(a, b, e);
                        if (clearance_[q] != 255) continue;
                        clearance_[q] = static_cast<std::uint8_t>(distance);
                        next.push_back(static_cast<int>(q));
                    }
        }
        front.swap(next);
    }
}

bool WallSet::noFaceWithin(const Vec3& centre, double radius) const {
    if (faces_.empty()) return true;
    // A face within radius has its (padded) box in a cell of the query box,
    // at most ceil(radius / cell size) cells from the centre's cell in every
    // direction (floor(a) - floor(a - b) <= ceil(b); clamping to the grid
    // only brings cells closer).
    const double reach = std::ceil(radius / cellSize_);
    if (!(reach < 255.0)) return false;
    const auto c = cellOf(centre);
    return clearance_[cellIndex(c[0], c[1], c[2])] > static_cast<int>(reach);
}

void WallSet::indexPlanes() {
    // Plane key: the normal and the offset rounded to 1e-9 (relative);
    // faces whose keys round differently only lose the query skip.
    using Key = std::array<long long, 4>;
    std::vector<std::pair<Key, std::size_t>> keys(faces_.size());
    const auto round9 = [](double x) { return static_cast<long long>(std::llround(x * 1e9)); };
    for (std::size_t f = 0; f < faces_.size(); ++f) {
        const Vec3& n = faces_[f].outwardNormal;
        const double offset = n.dot(faces_[f].vertices[0]) / lengthScale_;
        keys[f] = {Key{round9(n.x()), round9(n.y()), round9(n.z()), round9(offset)}, f};
    }
    std::sort(keys.begin(), keys.end());
    plane_.assign(faces_.size(), 0);
    int plane = -1;
    for (std::size_t k = 0; k < keys.size(); ++k) {
        if (k == 0 || keys[k].first != keys[k - 1].first) ++plane;
        plane_[keys[k].second] = plane;
    }
    interior_.assign(faces_.size(), 0);
    for (std::size_t f = 0; f < faces_.size(); ++f) {
        const WallPolygon& p = polygons_[f];
        const auto none = [](const std::vector<bool>& flags) {
            return !flags.empty() && std::none_of(flags.begin(), flags.end(), [](bool b) { return b; });
        };
        interior_[f] = none(p.activeEdges) && none(p.activeVertices);
    }
}

std::array<int, 3> WallSet::cellOf(const Vec3& x) const {
    std::array<int, 3> c{};
    for (int d = 0; d < 3; ++d) {
        const double s = std::floor((x[d] - origin_[d]) / cellSize_);
        c[d] = static_cast<int>(std::clamp(s, 0.0, static_cast<double>(dims_[d] - 1)));
    }
    return c;
}

bool WallSet::insidePolygon(std::size_t f, const Vec3& p, double tolerance) const {
    const Vec3* v = &vertex_[static_cast<std::size_t>(vertexStart_[f])];
    const Vec3& n = normal_[f];
    const std::size_t m = static_cast<std::size_t>(vertexStart_[f + 1] - vertexStart_[f]);
    for (std::size_t i = 0; i < m; ++i) {
        const Vec3 e = v[(i + 1) % m] - v[i];
        // counter-clockwise about n: the inside is to the left of every edge
        if (e.cross(p - v[i]).dot(n) < -tolerance * e.norm()) return false;
    }
    return true;
}

Vec3 WallSet::closestPoint(std::size_t f, const Vec3& x) const {
    const Vec3 inPlane = x - planeDistance(f, x) * normal_[f];
    if (insidePolygon(f, inPlane, 0.0)) return inPlane;
    const Vec3* v = &vertex_[static_cast<std::size_t>(vertexStart_[f])];
    const std::size_t m = static_cast<std::size_t>(vertexStart_[f + 1] - vertexStart_[f]);
    Vec3 best = v[0];
    double bestD2 = (x - best).squaredNorm();
    for (std::size_t i = 0; i < m; ++i) {
        const Vec3 q = closestOnSegment(v[i], v[(i + 1) % m], x);
        const double d2 = (x - q).squaredNorm();
        if (d2 < bestD2) {
            bestD2 = d2;
            best = q;
        }
    }
    return best;
}

void WallSet::facesNear(const Vec3& centre, double radius, std::vector<int>& out) const {
    if (faces_.empty()) return;
    const Vec3 qLo = centre.array() - radius, qHi = centre.array() + radius;
    if ((qHi.array() < origin_.array()).any() || (qLo.array() > upper_.array() + cellSize_).any())
        return;
    const std::size_t first = out.size();
    const auto lo = cellOf(qLo), hi = cellOf(qHi);
    for (int k = lo[2]; k <= hi[2]; ++k)
        for (int j = lo[1]; j <= hi[1]; ++j)
            for (int i = lo[0]; i <= hi[0]; ++i) {
                const std::size_t c = cellIndex(i, j, k);
                for (int s = cellStart_[c]; s < cellStart_[c + 1]; ++s) {
                    const int f = cellFaces_[s];
                    if ((faceUpper_[f].array() < qLo.array()).any() ||
                        (faceLower_[f].array() > qHi.array()).any())
                        continue;
                    out.push_back(f);
                }
            }
    std::sort(out.begin() + first, out.end());
    out.erase(std::unique(out.begin() + first, out.end()), out.end());
    // exact sphere-polygon test on the unique candidates
    out.erase(std::remove_if(out.begin() + first, out.end(),
                             [&](int f) { return !faceWithin(static_cast<std::size_t>(f), centre, radius); }),
              out.end());
}

WallSet::Crossing WallSet::firstOutwardCrossing(const Vec3& a, const Vec3& b) const {
    thread_local std::vector<int> near;
    near.clear();
    facesNear(0.5 * (a + b), 0.5 * (b - a).norm(), near);
    return firstOutwardCrossing(a, b, near);
}

WallSet::Crossing WallSet::firstOutwardCrossing(const Vec3& a, const Vec3& b,
                                                const std::vector<int>& near) const {
    Crossing best;
    const double tol = 1e-9 * lengthScale_;
    for (int f : near) {
        const double da = planeDistance(f, a), db = planeDistance(f, b);
        if (!(da <= 0.0 && db > 0.0)) continue;
        const double t = da / (da - db);
        const Vec3 p = a + t * (b - a);
        if (!insidePolygon(f, p, tol)) continue;
        if (best.face < 0 || t < best.t) best = Crossing{f, t, p};
    }
    return best;
}

bool WallSet::contains(const Vec3& x) const {
    // A direction unlikely to graze mesh edges (no rational relation to axes).
    const Vec3 d = Vec3(0.2718281828459045, 0.3141592653589793, 0.9159655941772190).normalized();
    int crossings = 0;
    for (std::size_t f = 0; f < faces_.size(); ++f) {
        const double dd = faces_[f].outwardNormal.dot(d);
        if (dd == 0.0) continue;
        const double t = -planeDistance(f, x) / dd;
        if (t <= 0.0) continue;
        if (insidePolygon(f, x + t * d, 0.0)) ++crossings;
    }
    return crossings % 2 == 1;
}

} // namespace sef::dem
