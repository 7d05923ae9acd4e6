#include "contact/PolygonWallContact.hpp"

#include "contact/CommonNormalNewton.hpp"
#include "contact/ContactPatch.hpp"
#include "contact/PosedBody.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <unordered_map>
#include <cmath>
#include <stdexcept>

namespace sef {

namespace {

constexpr double kPi = 3.14159265358979323846;
// Strictness of the normal-cone tests of edges and vertices [rad]: a normal
// this close to the cone boundary belongs to the neighbouring feature.
constexpr double kConeMargin = 1e-9;

void validate(const WallPolygon& p) {
    const std::size_t n = p.vertices.size();
    if (n < 3) throw std::invalid_argument("WallPolygon: needs at least 3 vertices");
    if (!isFinite(p.normal) || !(p.normal.squaredNorm() > 0.0))
        throw std::invalid_argument("WallPolygon: normal must be finite and non-zero");
    for (const Vec3& v : p.vertices)
        if (!isFinite(v)) throw std::invalid_argument("WallPolygon: non-finite vertex");
    auto sizeOk = [n](std::size_t s) { return s == 0 || s == n; };
    if (!sizeOk(p.activeEdges.size()) || !sizeOk(p.activeVertices.size()) ||
        !sizeOk(p.ownedEdges.size()) || !sizeOk(p.ownedVertices.size()) ||
        !sizeOk(p.edgeNeighbourNormals.size()))
        throw std::invalid_argument(
            "WallPolygon: activeEdges/activeVertices/ownedEdges/ownedVertices/"
            "edgeNeighbourNormals must be empty or have one entry per vertex");
}

bool flag(const std::vector<bool>& flags, int k) { return flags.empty() || flags[k]; }

// Unit in-plane outward normals of the edges of a convex polygon.
struct PolygonFrame {
    std::vector<Vec3> outward; // b_k, unit
    std::vector<double> length;
    double size = 0.0;         // longest edge
};

// Fills f (its vectors keep their capacity: a query reuses one scratch frame
// instead of two heap allocations).
void frameOf(const WallPolygon& p, const Vec3& n, PolygonFrame& f) {
    const int m = static_cast<int>(p.vertices.size());
    Vec3 area = Vec3::Zero();
    for (int k = 0; k < m; ++k) area += p.vertices[k].cross(p.vertices[(k + 1) % m]);
    const double orientation = area.dot(n) >= 0.0 ? 1.0 : -1.0; // counter-clockwise about n: +1
    f.size = 0.0;
    f.outward.resize(m);
    f.length.resize(m);
    for (int k = 0; k < m; ++k) {
        const Vec3 e = p.vertices[(k + 1) % m] - p.vertices[k];
        f.length[k] = e.norm();
        f.size = std::max(f.size, f.length[k]);
        const Vec3 b = orientation * e.cross(n);
        const double norm = b.norm();
        f.outward[k] = norm > 0.0 ? Vec3(b / norm) : Vec3(Vec3::Zero());
    }
}

PolygonFrame frameOf(const WallPolygon& p, const Vec3& n) {
    PolygonFrame f;
    frameOf(p, n, f);
    return f;
}

// body.support(-n), remembered for the next query of the same body pose and
// normal: a particle on a floor meshed into many coplanar faces asks it of
// every face near it (the faces beside the one that claims the contact see
// it too), in a row. Exact: the same inputs bit for bit give the same point.
Vec3 supportAlongMinusNormal(const Superellipsoid& shape, const Pose& pose, const PosedBody& body,
                             const Vec3& n) {
    // keyed by the shape's parameters, not its address (a new shape may
    // live where an old one did)
    struct Memo {
        bool valid = false;
        double a = 0.0, b = 0.0, c = 0.0, eps1 = 0.0, eps2 = 0.0;
        Vec3 position, normal;
        Quat orientation;
        Vec3 point;
    };
    thread_local Memo memo;
    if (memo.valid && memo.position == pose.position && memo.normal == n &&
        memo.orientation.coeffs() == pose.orientation.coeffs() && memo.a == shape.a() &&
        memo.b == shape.b() && memo.c == shape.c() && memo.eps1 == shape.eps1() &&
        memo.eps2 == shape.eps2())
        return memo.point;
    memo.point = body.support(-n);
    memo.valid = true;
    memo.a = shape.a();
    memo.b = shape.b();
    memo.c = shape.c();
    memo.eps1 = shape.eps1();
    memo.eps2 = shape.eps2();
    memo.position = pose.position;
    memo.orientation = pose.orientation;
    memo.normal = n;
    return memo.point;
}

// A concave edge (the neighbour face turns back into the domain, like the
// wall above a floor): beyond it lies the neighbour's solid, so the face's
// plane continues there for the claim of the deepest point.
bool concaveEdge(const WallPolygon& p, const PolygonFrame& f, int k) {
    if (p.edgeNeighbourNormals.empty() || !(p.edgeNeighbourNormals[k].squaredNorm() > 0.0)) return false;
    return p.edgeNeighbourNormals[k].dot(f.outward[k]) < -std::sin(1e-6);
}

// Face-interior test with ownership tie-break on the boundary. Concave edges
// do not bound the face: a particle pressed into a concave corner can have
// its deepest point below the floor beyond the corner edge (a tilted
// elongated or pointed body reaching into the wall), and it still
// penetrates the floor. Clipping there left both faces of the corner without
// a contact: the stress campaign's prisms (eps 1.9/0.1) sank into a box's
// floor-wall corner unseen until 9.5 % of d_eq.
bool faceClaims(const WallPolygon& p, const PolygonFrame& f, const Vec3& q) {
    const int m = static_cast<int>(p.vertices.size());
    const double tol = 1e-10 * f.size;
    int onCount = 0;
    std::vector<char> on(m, 0);
    for (int k = 0; k < m; ++k) {
        if (concaveEdge(p, f, k)) continue;
        const double s = f.outward[k].dot(q - p.vertices[k]);
        if (s > tol) return false;
        if (s >= -tol) {
            on[k] = 1;
            ++onCount;
        }
    }
    if (onCount == 0) return true;
    for (int k = 0; k < m; ++k) {
        if (!on[k]) continue;
        const int next = (k + 1) % m;
        if (on[next]) { // vertex next = shared end of edges k and next
            if (!flag(p.ownedVertices, next)) return false;
        } else if (!on[(k + m - 1) % m] && !flag(p.ownedEdges, k)) {
            return false;
        }
    }
    return true;
}

ContactResult makeResult(const Vec3& normal, const Vec3& wallPoint, const Vec3& particlePoint,
                         WallFeature feature, int index, int iterations, ContactStatus status) {
    ContactResult r;
    r.normal = normal;
    r.surfacePoint1 = wallPoint;
    r.surfacePoint2 = particlePoint;
    r.depth = normal.dot(wallPoint - particlePoint);
    r.contact = r.depth > 0.0;
    r.point = 0.5 * (wallPoint + particlePoint);
    r.feature = feature;
    r.featureIndex = index;
    r.iterations = iterations;
    r.status = status;
    return r;
}

// Edge k from A (length L, unit direction e): minimise f over the arc
// m(theta) = cos(theta) n + sin(theta) b, theta in (0, thetaMax).
//   f(theta)   = m.(A - p),  p = support(-m),
//   f'(theta)  = m'.(A - p)                (envelope theorem),
//   f''(theta) = m'^T Rho m' - f           (Rho: radii of curvature at p).
// Returns false if the minimum is on the arc ends or outside the segment.
bool edgeContact(const PosedBody& body, const Vec3& A, const Vec3& e, double L, const Vec3& n,
                 const Vec3& b, double thetaMax, const Vec3* warm, double lengthScale,
                 ContactResult& out, int index) {
    auto arc = [&](double t) { return Vec3(std::cos(t) * n + std::sin(t) * b); };
    auto arcTangent = [&](double t) { return Vec3(-std::sin(t) * n + std::cos(t) * b); };
    auto slope = [&](double t, Vec3& p) {
        p = body.support(-arc(t));
        return arcTangent(t).dot(A - p);
    };
    Vec3 p;
    double lo = 0.0, hi = thetaMax;
    if (slope(lo, p) >= 0.0 || slope(hi, p) <= 0.0) return false; // minimum on a cone boundary
    // Start: warm normal, else the direction from the edge line to the centre.
    Vec3 guess = body.position - A;
    if (warm != nullptr && isFinite(*warm)) guess = *warm;
    guess -= guess.dot(e) * e;
    double theta = std::atan2(guess.dot(b), guess.dot(n));
    if (!(theta > lo && theta < hi)) theta = 0.5 * (lo + hi);
    const double tolerance = 1e-10 * lengthScale;
    int it = 0;
    for (; it < 100; ++it) {
        const double g = slope(theta, p);
        if (std::fabs(g) <= tolerance || hi - lo <= 1e-15) break;
        (g < 0.0 ? lo : hi) = theta;
        const Vec3 m = arc(theta), t = arcTangent(theta);
        const double curvatureTerm =
            radiiOfCurvature(body, body.toBody(p), t, e, lengthScale)(0, 0);
        const double second = curvatureTerm - m.dot(A - p);
        double next = second > 0.0 ? theta - g / second : 0.5 * (lo + hi);
        if (!(next > lo && next < hi)) next = 0.5 * (lo + hi); // safeguard: bisection
        theta = next;
    }
    const Vec3 m = arc(theta);
    p = body.support(-m);
    // Contact point on the edge line: A + t e. The closed interval (with a
    // 1e-12 L margin) may let two collinear edges both answer when the point
    // is exactly their shared vertex (measure zero; callers merge duplicates)
    // rather than letting neither answer.
    const double t = e.dot(p - A);
    if (!(t >= -1e-12 * L && t <= L * (1.0 + 1e-12))) return false;
    out = makeResult(m, A + t * e, p, WallFeature::edge, index, it + 1, ContactStatus::newton);
    return out.contact;
}

bool vertexContact(const PosedBody& body, const WallPolygon& poly, const Vec3& n, int k, const Vec3* warm, double lengthScale,
                   ContactResult& out) {
    const int count = static_cast<int>(poly.vertices.size());
    const Vec3& V = poly.vertices[k];
    const Vec3 xBody = body.toBody(V);
    if (!(body.shape.implicitFunction(xBody) < 0.0)) return false; // not inside: depth <= 0
    Vec3 cold = -(body.rotation * body.shape.gradient(xBody)); // outward normal at V, negated
    if (!(cold.squaredNorm() > 0.0) || !isFinite(cold)) cold = n;
    CommonNormalSettings settings;
    settings.gradientTolerance = 1e-10 * lengthScale;
    settings.depthTolerance = 1e-12 * lengthScale;
    const Vec3 ePrev = (poly.vertices[(k + count - 1) % count] - V).normalized();
    const Vec3 eNext = (poly.vertices[(k + 1) % count] - V).normalized();
    const auto attempt = [&](const Vec3& start) {
        const CommonNormalSolution s = solveCommonNormal(V, body, start, settings);
        if (!s.converged || !(s.overlap > 0.0)) return false;
        const Vec3& m = s.normal;
        if (!(m.dot(n) > kConeMargin && m.dot(ePrev) < -kConeMargin && m.dot(eNext) < -kConeMargin))
            return false;
        out = makeResult(m, V, s.point2, WallFeature::vertex, k, s.iterations, ContactStatus::newton);
        return out.contact;
    };
    // The vertex is inside the body. A warm start that fails or lands
    // outside the vertex's normal cone (a stale normal on a sharp-edged
    // body, eps near 2) must not decide: the cold start from the body's own
    // normal at V has the last word. Without it the stress campaign's prisms
    // (eps 1.9/0.1) sank into a wall corner unseen until a fresh query found
    // 9.5 % of d_eq.
    if (warm != nullptr && isFinite(*warm) && warm->squaredNorm() > 0.0 && attempt(*warm)) return true;
    return attempt(cold);
}

} // namespace

namespace {

// The edges where the floor ends (active: boundary or convex), which cut a
// face's patch; coplanar and concave neighbours continue the floor.
// (into the caller's thread-local vectors: no allocation per query)
void floorEdges(const WallPolygon& polygon, const PolygonFrame& frame, std::vector<Vec3>& cutPoints,
                std::vector<Vec3>& cutNormals) {
    cutPoints.clear();
    cutNormals.clear();
    for (int k = 0; k < static_cast<int>(polygon.vertices.size()); ++k) {
        if (!flag(polygon.activeEdges, k) || !(frame.length[k] > 0.0)) continue;
        cutPoints.push_back(polygon.vertices[k]);
        cutNormals.push_back(frame.outward[k]);
    }
}

} // namespace

bool keptPolygonFaceContact(const Superellipsoid& shape, const Pose& pose, const WallPolygon& polygon,
                            const KeptPatch& kept, ContactResult& r) {
    if (!kept.valid) return false;
    const PosedBody body(shape, pose);
    const Vec3 n = polygon.normal.normalized();
    const Vec3 deepest = body.toWorld(kept.deepestPoint());
    const double faceDepth = -n.dot(deepest - polygon.vertices[0]);
    if (!(faceDepth > 0.0)) return false;
    thread_local PolygonFrame frame;
    frameOf(polygon, n, frame);
    const Vec3 projection = deepest + faceDepth * n;
    if (!faceClaims(polygon, frame, projection)) return false;
    thread_local std::vector<Vec3> cutPoints, cutNormals;
    floorEdges(polygon, frame, cutPoints, cutNormals);
    PatchPoints points;
    if (!keptWallPatch(kept, body, n, 0.5 * (deepest + projection), body.rotation * kept.frameAxis(1),
                       body.toWorld(kept.frameOrigin(1)), &cutPoints, &cutNormals, points))
        return false;
    r = makeResult(n, projection, deepest, WallFeature::face, -1, 0, ContactStatus::closedForm);
    placeOnWallPatch(r, points);
    return true;
}

ContactResult detectPolygonWallContact(const Superellipsoid& shape, const Pose& pose,
                                       const WallPolygon& polygon, const Vec3* warmNormal,
                                       PatchGuess* patchGuess, KeptPatch* kept) {
    validate(polygon);
    return detectValidatedPolygonWallContact(shape, pose, polygon, warmNormal, patchGuess, kept);
}

ContactResult detectValidatedPolygonWallContact(const Superellipsoid& shape, const Pose& pose,
                                                const WallPolygon& polygon, const Vec3* warmNormal,
                                                PatchGuess* patchGuess, KeptPatch* kept) {
    if (kept != nullptr) kept->valid = false;
    const PosedBody body(shape, pose);
    const Vec3 n = polygon.normal.normalized();
    const double radius = shape.boundingRadius();
    const double lengthScale = body.smallestHalfAxis();
    const Vec3& v0 = polygon.vertices[0];

    ContactResult r;
    r.normal = n;
    const double height = n.dot(body.position - v0);
    if (height > radius) { // pre-evaluation: bounding sphere vs the face plane
        r.depth = radius - height;
        r.status = ContactStatus::boundingSphere;
        return r;
    }
    // 1. Face: [Superellipsoid-OpenFOAM], Part 2 (eqs. 43-50), the support point along -n.
    const Vec3 deepest = supportAlongMinusNormal(shape, pose, body, n);
    const double faceDepth = -n.dot(deepest - v0);
    if (!(faceDepth > 0.0)) { // the particle does not reach the plane: nor the polygon
        r = makeResult(n, deepest + faceDepth * n, deepest, WallFeature::none, -1, 0,
                       ContactStatus::closedForm);
        return r;
    }
    thread_local PolygonFrame frame;
    frameOf(polygon, n, frame);
    const Vec3 projection = deepest + faceDepth * n;
    if (faceClaims(polygon, frame, projection)) {
        ContactResult face = makeResult(n, projection, deepest, WallFeature::face, -1, 0,
                                        ContactStatus::closedForm);
        // Flat faces: the centre of the part of the particle below the
        // plane (ContactPatch.hpp), cut by the edges where the floor ends
        // (active: boundary or convex); coplanar and concave neighbours
        // continue the floor and do not cut the patch.
        thread_local std::vector<Vec3> cutPoints, cutNormals;
        floorEdges(polygon, frame, cutPoints, cutNormals);
        placeOnWallPatch(face, wallPatch(body, n, deepest, faceDepth, &cutPoints, &cutNormals, patchGuess, kept));
        return face;
    }

    // 2. Active edges and vertices: the deepest accepted one.
    const int count = static_cast<int>(polygon.vertices.size());
    ContactResult best;
    best.normal = n;
    best.depth = -radius; // "no contact" bound
    bool found = false;
    auto consider = [&](const ContactResult& c) {
        if (c.contact && (!found || c.depth > best.depth)) {
            best = c;
            found = true;
        }
    };
    for (int k = 0; k < count; ++k) {
        if (!flag(polygon.activeEdges, k) || !(frame.length[k] > 0.0)) continue;
        const Vec3& A = polygon.vertices[k];
        const Vec3 e = (polygon.vertices[(k + 1) % count] - A) / frame.length[k];
        // Bounding sphere vs the segment.
        const double t = std::clamp(e.dot(body.position - A), 0.0, frame.length[k]);
        if ((body.position - (A + t * e)).norm() > radius) continue;
        const Vec3& b = frame.outward[k];
        double thetaMax = 0.5 * kPi; // boundary edge
        if (!polygon.edgeNeighbourNormals.empty() &&
            polygon.edgeNeighbourNormals[k].squaredNorm() > 0.0) {
            const Vec3& g = polygon.edgeNeighbourNormals[k];
            thetaMax = std::atan2(g.dot(b), g.dot(n)); // convex edge: in (0, pi)
            if (!(thetaMax > 0.0)) continue;           // not convex: no edge contacts
        }
        ContactResult c;
        if (edgeContact(body, A, e, frame.length[k], n, b, thetaMax - kConeMargin, warmNormal,
                        lengthScale, c, k))
            consider(c);
    }
    for (int k = 0; k < count; ++k) {
        if (!flag(polygon.activeVertices, k)) continue;
        if ((polygon.vertices[k] - body.position).norm() > radius) continue;
        ContactResult c;
        if (vertexContact(body, polygon, n, k, warmNormal, lengthScale, c)) consider(c);
    }
    if (found) return best;
    // The plane is crossed, but beside this face: a neighbour's contact (or
    // none, behind an inactive feature). Depth 0: no penetration of this face.
    r = makeResult(n, projection, deepest, WallFeature::none, -1, 0, ContactStatus::closedForm);
    r.contact = false;
    r.depth = 0.0;
    return r;
}

// ---- markActiveFeatures ----------------------------------------------------

namespace {

// Merges vertex positions closer than `tolerance` (uniform hash grid with
// cell = tolerance, 27-cell neighbourhood), and a vertex with one a periodic
// shift away: returns global ids per face vertex.
std::vector<std::vector<int>> mergeVertices(const std::vector<WallPolygon>& faces,
                                            double tolerance, const std::vector<Vec3>& periodicShifts) {
    struct KeyHash {
        std::size_t operator()(const std::array<long long, 3>& k) const {
            return std::hash<long long>()(k[0] * 73856093LL ^ k[1] * 19349663LL ^ k[2] * 83492791LL);
        }
    };
    std::unordered_map<std::array<long long, 3>, std::vector<int>, KeyHash> grid;
    std::vector<Vec3> positions;
    std::vector<std::vector<int>> ids(faces.size());
    const auto cellOf = [tolerance](const Vec3& v) {
        return std::array<long long, 3>{static_cast<long long>(std::floor(v.x() / tolerance)),
                                        static_cast<long long>(std::floor(v.y() / tolerance)),
                                        static_cast<long long>(std::floor(v.z() / tolerance))};
    };
    const auto find = [&](const Vec3& v) {
        const std::array<long long, 3> cell = cellOf(v);
        for (int dx = -1; dx <= 1; ++dx)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dz = -1; dz <= 1; ++dz) {
                    const auto it = grid.find({cell[0] + dx, cell[1] + dy, cell[2] + dz});
                    if (it == grid.end()) continue;
                    for (int candidate : it->second)
                        if ((positions[candidate] - v).norm() <= tolerance) return candidate;
                }
        return -1;
    };
    for (std::size_t f = 0; f < faces.size(); ++f) {
        for (const Vec3& v : faces[f].vertices) {
            int id = find(v);
            // the same vertex of the periodic wall, seen across the boundary
            for (std::size_t s = 0; s < periodicShifts.size() && id < 0; ++s) id = find(v + periodicShifts[s]);
            if (id < 0) {
                id = static_cast<int>(positions.size());
                positions.push_back(v);
                grid[cellOf(v)].push_back(id);
            }
            ids[f].push_back(id);
        }
    }
    return ids;
}

} // namespace

void markActiveFeatures(std::vector<WallPolygon>& faces, double tolerance,
                        const std::vector<Vec3>& periodicShifts) {
    if (!(tolerance > 0.0) || !std::isfinite(tolerance))
        throw std::invalid_argument("markActiveFeatures: tolerance must be positive and finite");
    for (const Vec3& shift : periodicShifts)
        if (!isFinite(shift) || !(shift.norm() > tolerance))
            throw std::invalid_argument("markActiveFeatures: a periodic shift is not finite or not longer than the tolerance");
    for (const WallPolygon& p : faces) validate(p);
    const std::vector<std::vector<int>> ids = mergeVertices(faces, tolerance, periodicShifts);

    struct Use {
        int face, index;
    };
    // An edge is its two merged end points (lower id first) and the vector
    // between them: with periodic shifts two different edges can join the
    // same two points (a period two faces long), and only the vector tells
    // them apart. Equal ids (a period one face long): the vector with its
    // first clear component positive.
    struct EdgeUses {
        Vec3 vector;
        std::vector<Use> uses; // ascending face order
    };
    std::map<std::pair<int, int>, std::vector<EdgeUses>> edges;
    const double sameVector = 4.0 * tolerance; // each end merged within tolerance
    const auto edgeOf = [&](int f, int k, bool add) -> EdgeUses* {
        const std::vector<Vec3>& v = faces[static_cast<std::size_t>(f)].vertices;
        const int m = static_cast<int>(v.size());
        const int a = ids[f][k], b = ids[f][(k + 1) % m];
        Vec3 d = a <= b ? Vec3(v[(k + 1) % m] - v[k]) : Vec3(v[k] - v[(k + 1) % m]);
        if (a == b)
            for (int c = 0; c < 3; ++c)
                if (std::abs(d[c]) > sameVector) {
                    if (d[c] < 0.0) d = -d;
                    break;
                }
        std::vector<EdgeUses>& candidates = edges[{std::min(a, b), std::max(a, b)}];
        for (EdgeUses& e : candidates)
            if ((e.vector - d).norm() <= sameVector) return &e;
        if (!add) throw std::logic_error("markActiveFeatures: an edge was not registered");
        candidates.push_back({d, {}});
        return &candidates.back();
    };
    std::map<int, std::vector<Use>> vertices;
    std::vector<PolygonFrame> frames;
    frames.reserve(faces.size());
    for (std::size_t f = 0; f < faces.size(); ++f) {
        WallPolygon& p = faces[f];
        const int m = static_cast<int>(p.vertices.size());
        frames.push_back(frameOf(p, p.normal.normalized()));
        p.activeEdges.assign(m, false);
        p.activeVertices.assign(m, false);
        p.ownedEdges.assign(m, false);
        p.ownedVertices.assign(m, false);
        p.edgeNeighbourNormals.assign(m, Vec3::Zero());
        for (int k = 0; k < m; ++k) {
            edgeOf(static_cast<int>(f), k, true)->uses.push_back({static_cast<int>(f), k});
            vertices[ids[f][k]].push_back({static_cast<int>(f), k});
        }
    }
    // Convex seen from the domain: the neighbour's interior direction (-b_g,
    // in its own plane) points below this face's plane, n_f . b_g > 0.
    const double bendTolerance = std::sin(1e-6);
    for (const auto& [ends, sameEnds] : edges)
    for (const EdgeUses& edge : sameEnds) {
        const std::vector<Use>& uses = edge.uses;
        // Owner: lowest face index (uses are in ascending face order).
        const Use owner = uses.front();
        WallPolygon& p = faces[owner.face];
        p.ownedEdges[owner.index] = true;
        bool convex = true;
        for (std::size_t u = 1; u < uses.size(); ++u) {
            const Use& g = uses[u];
            const Vec3 nf = p.normal.normalized();
            const Vec3& bg = frames[g.face].outward[g.index];
            convex = convex && nf.dot(bg) > bendTolerance;
            faces[g.face].edgeNeighbourNormals[g.index] = nf;
            if (u == 1) p.edgeNeighbourNormals[owner.index] = faces[g.face].normal.normalized();
        }
        p.activeEdges[owner.index] = convex; // boundary edges (one use) are convex
    }
    for (const auto& [id, uses] : vertices) {
        bool anyActive = false;
        for (const Use& u : uses) {
            const WallPolygon& p = faces[u.face];
            const int m = static_cast<int>(p.vertices.size());
            // Edges k-1 and k of face u.face meet at its vertex k; an active
            // edge is active on its owner only, so look the owner up by key.
            for (int k : {(u.index + m - 1) % m, u.index}) {
                const Use& o = edgeOf(u.face, k, false)->uses.front();
                anyActive = anyActive || faces[o.face].activeEdges[o.index];
            }
        }
        const Use& owner = uses.front();
        faces[owner.face].ownedVertices[owner.index] = true;
        faces[owner.face].activeVertices[owner.index] = anyActive;
    }
}

} // namespace sef
