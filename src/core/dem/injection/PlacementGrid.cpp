#include "dem/injection/PlacementGrid.hpp"

#include "contact/PairContact.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace sef::dem {

bool isSphere(const Superellipsoid& s) {
    return s.a() == s.b() && s.b() == s.c() && s.eps1() == 1.0 && s.eps2() == 1.0;
}

// Every convex superellipsoid (eps <= 2) holds the octahedron through its six
// vertices (+-a, 0, 0) ..., whose inscribed ball has radius
// 1/sqrt(a^-2 + b^-2 + c^-2); with eps1, eps2 <= 1 the body holds the
// ellipsoid of its half-axes, hence the ball of radius min(a, b, c).
double inscribedRadius(const Superellipsoid& s) {
    if (s.eps1() <= 1.0 && s.eps2() <= 1.0) return std::min({s.a(), s.b(), s.c()});
    return 1.0 / std::sqrt(1.0 / (s.a() * s.a()) + 1.0 / (s.b() * s.b()) + 1.0 / (s.c() * s.c()));
}

namespace {

// Whether a point of body 1 on its axes lies strictly inside body 2 (then
// they overlap): its centre, its vertices (+-a, 0, 0), (0, +-b, 0),
// (0, 0, +-c), and the midpoints to the vertices of its longest axis
// (crossed elongated bodies hold none of the others' vertices).
bool axisPointInside(const Superellipsoid& s1, const Pose& pose1, const Superellipsoid& s2,
                     const Pose& pose2) {
    // margin: a point on the surface of body 2 does not count
    constexpr double inside = -1e-6;
    const auto insideBody2 = [&](const Vec3& xBody1) {
        return s2.implicitFunction(pose2.toBody(pose1.toWorld(xBody1))) < inside;
    };
    if (insideBody2(Vec3::Zero())) return true;
    const Vec3 half = s1.halfAxes();
    int longest = 0;
    half.maxCoeff(&longest);
    for (int k = 0; k < 3; ++k)
        for (double sign : {-1.0, 1.0}) {
            if (insideBody2(sign * half[k] * Vec3::Unit(k))) return true;
            if (k == longest && insideBody2(0.5 * sign * half[k] * Vec3::Unit(k))) return true;
        }
    return false;
}

} // namespace

PlacementGrid::PlacementGrid(const ParticleSystem& ps) {
    double largest = 0.0;
    for (const ParticleType& type : ps.types) {
        largest = std::max(largest, type.boundingRadius);
        inscribedRadius_.push_back(inscribedRadius(type.shape));
    }
    cell_ = 2.0 * largest;
    for (std::size_t j = 0; j < ps.size(); ++j) insert(ps, static_cast<int>(j));
}

void PlacementGrid::insert(const ParticleSystem& ps, int index) {
    const Vec3& x = ps.position[index];
    cells_[key(x, 0, 0, 0)].push_back({x, ps.types[ps.type[index]].boundingRadius, index});
}

void PlacementGrid::sphereNeighbours(const Vec3& x, double R, std::vector<int>& out) const {
    out.clear();
    thread_local std::vector<std::pair<double, int>> found;
    found.clear();
    for (int i = -1; i <= 1; ++i)
        for (int j = -1; j <= 1; ++j)
            for (int k = -1; k <= 1; ++k) {
                const auto it = cells_.find(key(x, i, j, k));
                if (it == cells_.end()) continue;
                for (const Entry& e : it->second) {
                    const double d2 = (e.x - x).squaredNorm();
                    if (!(d2 > (R + e.R) * (R + e.R))) found.emplace_back(d2, e.index);
                }
            }
    std::sort(found.begin(), found.end()); // by distance, then index: deterministic
    for (const auto& f : found) out.push_back(f.second);
}

namespace {

// Identical bodies turned alike (the neighbour whose orientation a body
// took) need no narrow phase: they overlap exactly when the offset lies
// inside twice the body (twinsOverlap).
bool alignedTwins(const Pose& pose, const Pose& other, bool sameType) {
    return sameType && pose.orientation.coeffs() == other.orientation.coeffs();
}

// A gauge within 1e-6 of touching counts as overlapping, so the answer
// never contradicts the narrow phase.
bool twinsOverlap(const Superellipsoid& shape, const Pose& pose, const Pose& other) {
    return shape.gaugeFunction(0.5 * other.toBody(pose.position)) <= 1.0 + 1e-6;
}

// The narrow phase in both orders. Near rim-to-rim contact of pointed
// shapes (eps near 2) it can report a contact that the gauge of aligned
// twins rules out (4:4:1, eps 1.8/0.2, 0.6 % apart by the gauge: depth
// 0.02 a); where every body of a type is turned alike such pairs are many,
// and the DEM step would push them apart, so the narrow phase decides.
bool narrowPhaseContact(const Superellipsoid& s1, const Pose& pose1, const Superellipsoid& s2, const Pose& pose2) {
    return detectPairContact(s1, pose1, s2, pose2).contact || detectPairContact(s2, pose2, s1, pose1).contact;
}

} // namespace

bool PlacementGrid::overlapsAny(const ParticleSystem& ps, int t, const Pose& pose,
                                const std::vector<int>& neighbours, bool confirmByNarrowPhase) const {
    const Superellipsoid& shape = ps.types[t].shape;
    // Cheap certain overlaps first, over every neighbour: near saturation
    // most candidates overlap one, and these find it without a narrow phase.
    for (int p : neighbours) {
        const int tp = ps.type[p];
        const double rIn = inscribedRadius_[t] + inscribedRadius_[tp];
        if ((ps.position[p] - pose.position).squaredNorm() < rIn * rIn) return true;
        const Pose other{ps.position[p], ps.orientation[p]};
        if (alignedTwins(pose, other, tp == t)) {
            if (twinsOverlap(shape, pose, other)) return true;
            continue;
        }
        if (axisPointInside(shape, pose, ps.types[tp].shape, other)
            || axisPointInside(ps.types[tp].shape, other, shape, pose))
            return true;
    }
    for (int p : neighbours) {
        const Pose other{ps.position[p], ps.orientation[p]};
        if (confirmByNarrowPhase) {
            if (narrowPhaseContact(shape, pose, ps.types[ps.type[p]].shape, other)) return true;
            continue;
        }
        if (alignedTwins(pose, other, ps.type[p] == t)) continue; // decided above, clear
        if (detectPairContact(shape, pose, ps.types[ps.type[p]].shape, other).contact) return true;
    }
    return false;
}

std::int64_t PlacementGrid::key(const Vec3& x, int di, int dj, int dk) const {
    // 21 bits per axis: 2 million cells per direction
    const auto index = [&](double c, int d) {
        return (static_cast<std::int64_t>(std::floor(c / cell_)) + d) & 0x1FFFFF;
    };
    return (index(x.x(), di) << 42) | (index(x.y(), dj) << 21) | index(x.z(), dk);
}

} // namespace sef::dem
