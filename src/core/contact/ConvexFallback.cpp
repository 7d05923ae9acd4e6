#include "contact/ConvexFallback.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

namespace sef {

namespace {

constexpr int maxGjkIterations = 64;
constexpr int maxEpaIterations = 200;

struct Simplex {
    std::array<Vec3, 4> p; // p[0] is the newest point
    int size = 0;
    void pushFront(const Vec3& a) {
        for (int i = std::min(size, 3); i > 0; --i) p[i] = p[i - 1];
        p[0] = a;
        size = std::min(size + 1, 4);
    }
};

Vec3 tripleCross(const Vec3& a, const Vec3& b, const Vec3& c) { return a.cross(b).cross(c); }

// Reduce the simplex to the feature closest to the origin and set the next
// search direction; true if the tetrahedron contains the origin.
bool updateSimplex(Simplex& s, Vec3& d) {
    const Vec3 a = s.p[0], ao = -a;
    if (s.size == 2) {
        const Vec3 ab = s.p[1] - a;
        if (ab.dot(ao) > 0.0) {
            d = tripleCross(ab, ao, ab);
        } else {
            s.size = 1;
            d = ao;
        }
        return false;
    }
    if (s.size == 3) {
        const Vec3 b = s.p[1], c = s.p[2];
        const Vec3 ab = b - a, ac = c - a, abc = ab.cross(ac);
        if (abc.cross(ac).dot(ao) > 0.0) {
            if (ac.dot(ao) > 0.0) {
                s.p[1] = c;
                s.size = 2;
                d = tripleCross(ac, ao, ac);
            } else {
                s.size = 2;
                return updateSimplex(s, d);
            }
        } else if (ab.cross(abc).dot(ao) > 0.0) {
            s.size = 2;
            return updateSimplex(s, d);
        } else if (abc.dot(ao) > 0.0) {
            d = abc;
        } else {
            std::swap(s.p[1], s.p[2]);
            d = -abc;
        }
        return false;
    }
    // Tetrahedron: is the origin outside one of the three faces through a?
    const std::array<std::array<int, 3>, 3> faces{{{0, 1, 2}, {0, 2, 3}, {0, 3, 1}}};
    const std::array<int, 3> opposite{3, 1, 2};
    for (int f = 0; f < 3; ++f) {
        const Vec3& p0 = s.p[faces[f][0]];
        const Vec3& p1 = s.p[faces[f][1]];
        const Vec3& p2 = s.p[faces[f][2]];
        Vec3 n = (p1 - p0).cross(p2 - p0);
        if (n.dot(s.p[opposite[f]] - p0) > 0.0) n = -n; // outward
        if (n.dot(-p0) > 0.0) {
            const Vec3 q1 = p1, q2 = p2;
            s.p[1] = q1;
            s.p[2] = q2;
            s.size = 3;
            return updateSimplex(s, d); // locate the origin on that triangle
        }
    }
    return true;
}

struct Face {
    std::array<int, 3> v;
    Vec3 normal;
    double distance;
    bool alive;
};

bool makeFace(const std::vector<Vec3>& vertices, int i, int j, int k, Face& face) {
    const Vec3 n = (vertices[j] - vertices[i]).cross(vertices[k] - vertices[i]);
    const double norm = n.norm();
    if (!(norm > 0.0)) return false;
    face.v = {i, j, k};
    face.normal = n / norm;
    face.distance = face.normal.dot(vertices[i]);
    face.alive = true;
    return true;
}

// GJK: does K contain the origin? True with the enclosing tetrahedron in
// `simplex`; false with the answer in `result` (separated, or undecided for
// a grazing configuration).
bool gjkEnclosesOrigin(const std::function<Vec3(const Vec3&)>& supportK, const Vec3& interiorPoint,
                       Simplex& simplex, ConvexFallbackResult& result) {
    Vec3 d = interiorPoint.squaredNorm() > 0.0 ? Vec3(-interiorPoint) : Vec3(Vec3::UnitX());
    simplex.pushFront(supportK(d));
    d = -simplex.p[0];
    bool contains = false;
    // The smallest overlap h_K(d) met on the way and its direction: the
    // answer of a grazing (undecided) configuration. Every h_K(d) bounds the
    // depth from above, and GJK's directions close in on the contact normal;
    // an arbitrary default direction instead would report the overlap along
    // it, a depth of order the body size for two barely touching bodies.
    double bestSupport = std::numeric_limits<double>::infinity();
    for (int it = 0; it < maxGjkIterations; ++it) {
        ++result.iterations;
        if (!(d.squaredNorm() > 0.0)) break; // origin on the simplex: grazing
        const Vec3 a = supportK(d);
        const double support = a.dot(d) / d.norm();
        if (support < bestSupport) {
            bestSupport = support;
            result.normal = d.normalized();
            result.overlap = support;
        }
        if (support < 0.0) { // separating axis: h_K(d) < 0
            result.outcome = ConvexFallbackResult::Outcome::separated;
            // h_K(m) = h1(m) + h2(-m) is the overlap along m (body 1 -> 2).
            result.normal = d.normalized();
            result.overlap = support;
            return false;
        }
        simplex.pushFront(a);
        if (updateSimplex(simplex, d)) {
            contains = true;
            break;
        }
    }
    return contains && simplex.size == 4; // else undecided (grazing)
}

// Removes the faces that see w, keeping their boundary (the horizon: the
// edges of exactly one removed face).
void removeVisibleFaces(std::vector<Face>& faces, const std::vector<Vec3>& vertices, const Vec3& w,
                        std::vector<std::pair<int, int>>& horizon) {
    horizon.clear();
    for (auto& f : faces) {
        if (!f.alive || f.normal.dot(w - vertices[f.v[0]]) <= 0.0) continue;
        f.alive = false;
        for (int e = 0; e < 3; ++e) {
            const std::pair<int, int> edge{f.v[e], f.v[(e + 1) % 3]};
            const auto reverse = std::find(horizon.begin(), horizon.end(),
                                           std::pair<int, int>{edge.second, edge.first});
            if (reverse != horizon.end()) {
                horizon.erase(reverse);
            } else {
                horizon.push_back(edge);
            }
        }
    }
}

// EPA from GJK's tetrahedron: the closest face of the polytope in K to the
// origin, grown towards K's boundary until its support distance is within
// `tolerance` of the face's.
void expandPolytope(const std::function<Vec3(const Vec3&)>& supportK, const Simplex& simplex,
                    double tolerance, ConvexFallbackResult& result) {
    std::vector<Vec3> vertices(simplex.p.begin(), simplex.p.end());
    const Vec3 centroid = 0.25 * (vertices[0] + vertices[1] + vertices[2] + vertices[3]);
    std::vector<Face> faces;
    const std::array<std::array<int, 3>, 4> tetra{{{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}}};
    for (const auto& t : tetra) {
        Face f;
        if (!makeFace(vertices, t[0], t[1], t[2], f)) return;
        if (f.normal.dot(vertices[t[0]] - centroid) < 0.0) {
            makeFace(vertices, t[0], t[2], t[1], f);
        }
        faces.push_back(f);
    }
    result.outcome = ConvexFallbackResult::Outcome::intersecting;
    std::vector<std::pair<int, int>> horizon;
    for (int it = 0; it < maxEpaIterations; ++it) {
        ++result.iterations;
        int best = -1;
        double bestDistance = std::numeric_limits<double>::infinity();
        for (int i = 0; i < static_cast<int>(faces.size()); ++i) {
            if (faces[i].alive && faces[i].distance < bestDistance) {
                bestDistance = faces[i].distance;
                best = i;
            }
        }
        if (best < 0) break;
        const Face face = faces[best];
        const Vec3 w = supportK(face.normal);
        const double supportDistance = w.dot(face.normal);
        result.normal = face.normal;
        result.overlap = supportDistance; // = h_K(normal), an upper bound of the depth
        if (supportDistance - face.distance <= tolerance) return;

        const int wIndex = static_cast<int>(vertices.size());
        vertices.push_back(w);
        removeVisibleFaces(faces, vertices, w, horizon);
        for (const auto& e : horizon) {
            Face f;
            if (makeFace(vertices, e.first, e.second, wIndex, f)) faces.push_back(f);
        }
        // Compact occasionally so the linear scans stay short.
        if (faces.size() > 256) {
            faces.erase(std::remove_if(faces.begin(), faces.end(),
                                       [](const Face& f) { return !f.alive; }),
                        faces.end());
        }
    }
    // (iteration budget spent: the best estimate so far)
}

} // namespace

ConvexFallbackResult gjkEpa(const std::function<Vec3(const Vec3&)>& supportK,
                            const Vec3& interiorPoint, double tolerance) {
    ConvexFallbackResult result;
    Simplex simplex;
    if (gjkEnclosesOrigin(supportK, interiorPoint, simplex, result))
        expandPolytope(supportK, simplex, tolerance, result);
    return result;
}

} // namespace sef
