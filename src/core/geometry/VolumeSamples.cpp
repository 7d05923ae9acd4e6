#include "geometry/VolumeSamples.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace sef {

namespace {

// The radical inverse of i in base b (the Halton sequence's coordinate)
double radicalInverse(unsigned i, unsigned base) {
    double inverse = 0.0, digit = 1.0 / base;
    for (; i > 0; i /= base, digit /= base) inverse += digit * (i % base);
    return inverse;
}

// How many boxes per axis of [-h, h] group the points into clusters. A
// particle cut by a cell face costs one location per cluster plus one per
// point of the clusters near the face: about N_c + N sqrt(3) / k for N
// points in N_c ~ (pi / 6) k^3 clusters of k per axis, least at
// k ~ (1.1 N)^(1/4) (4 for 268 points, 7 for 2100). The boxes are about
// cubes, so an elongated body gets more of them along its long axis.
Eigen::Vector3i clusterBoxes(const Vec3& h, std::size_t points) {
    const double perAxis = std::pow(1.1 * static_cast<double>(points), 0.25);
    const double side = std::cbrt(8.0 * h.prod()) / perAxis;
    Eigen::Vector3i k;
    for (int i = 0; i < 3; ++i) k[i] = std::clamp(static_cast<int>(std::lround(2.0 * h[i] / side)), 1, 16);
    return k;
}

// Orders the points by the box of the clusterBoxes partition of [-h, h]
// they fall in, and records each non-empty box as a cluster.
void groupIntoClusters(const Vec3& h, VolumeSamples& s) {
    const Eigen::Vector3i k = clusterBoxes(h, s.points.size());
    auto box = [&](const Vec3& x) {
        int index = 0;
        for (int i = 0; i < 3; ++i) {
            const int j = std::clamp(static_cast<int>((x[i] / h[i] + 1.0) * 0.5 * k[i]), 0, k[i] - 1);
            index = index * k[i] + j;
        }
        return index;
    };
    std::stable_sort(s.points.begin(), s.points.end(),
                     [&](const Vec3& p, const Vec3& q) { return box(p) < box(q); });
    for (std::size_t begin = 0; begin < s.points.size();) {
        std::size_t end = begin + 1;
        while (end < s.points.size() && box(s.points[end]) == box(s.points[begin])) ++end;
        VolumeSampleCluster c;
        c.begin = begin;
        c.end = end;
        for (std::size_t i = begin; i < end; ++i) c.centre += s.points[i];
        c.centre /= static_cast<double>(end - begin);
        for (std::size_t i = begin; i < end; ++i) c.radius = std::max(c.radius, (s.points[i] - c.centre).norm());
        s.clusters.push_back(c);
        begin = end;
    }
}

} // namespace

VolumeSamples volumeSamples(const Superellipsoid& shape, int pointsPerDiameter) {
    if (pointsPerDiameter < 1 || pointsPerDiameter > 100)
        throw std::invalid_argument("volumeSamples: pointsPerDiameter must lie in [1, 100], got " +
                                    std::to_string(pointsPerDiameter));
    const Vec3 h = shape.halfAxes();
    // as many points as cubes of side d_eq / pointsPerDiameter fill the body
    const double m = pointsPerDiameter;
    const double target = M_PI / 6.0 * m * m * m;
    const double boxOverBody = 8.0 * h.prod() / shape.volume();
    const unsigned pairs = static_cast<unsigned>(std::ceil(0.5 * target * boxOverBody));
    VolumeSamples s;
    s.points.reserve(static_cast<std::size_t>(2.0 * pairs / boxOverBody) + 2);
    for (unsigned i = 1; i <= pairs; ++i) {
        // Halton points in the bounding box: no lattice planes, so a cell
        // face sweeping over the particle in any pose meets the points one
        // by one, never a whole plane of them at once
        const Vec3 u(radicalInverse(i, 2), radicalInverse(i, 3), radicalInverse(i, 5));
        const Vec3 x = (2.0 * u - Vec3::Ones()).cwiseProduct(h);
        if (shape.implicitFunction(x) <= 0.0) {
            // with its mirror image through the centre (the body is
            // centrally symmetric): the points' centroid is the centre
            s.points.push_back(x);
            s.points.push_back(-x);
        }
    }
    // a body too small for the resolution still has its volume somewhere
    if (s.points.empty()) s.points.push_back(Vec3::Zero());
    s.weight = shape.volume() / static_cast<double>(s.points.size());
    groupIntoClusters(h, s);
    return s;
}

} // namespace sef
