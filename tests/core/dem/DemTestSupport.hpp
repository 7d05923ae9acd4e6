#pragma once
// Small helpers for the DEM tests: walls of an axis-aligned box.
#include "dem/WallSet.hpp"

#include <cmath>
#include <vector>

namespace sef::dem::test {

// The six faces of the box [lo, hi], outward normals (optionally each face
// split into k x k coplanar quads so that edges between coplanar faces occur).
inline std::vector<WallFace> boxWalls(const Vec3& lo, const Vec3& hi, int k = 1) {
    std::vector<WallFace> faces;
    for (int axis = 0; axis < 3; ++axis) {
        const int u = (axis + 1) % 3, v = (axis + 2) % 3;
        for (int side = 0; side < 2; ++side) {
            const double c = side == 0 ? lo[axis] : hi[axis];
            Vec3 n = Vec3::Zero();
            n[axis] = side == 0 ? -1.0 : 1.0;
            for (int a = 0; a < k; ++a)
                for (int b = 0; b < k; ++b) {
                    const double u0 = lo[u] + (hi[u] - lo[u]) * a / k, u1 = lo[u] + (hi[u] - lo[u]) * (a + 1) / k;
                    const double v0 = lo[v] + (hi[v] - lo[v]) * b / k, v1 = lo[v] + (hi[v] - lo[v]) * (b + 1) / k;
                    auto point = [&](double pu, double pv) {
                        Vec3 p;
                        p[axis] = c;
                        p[u] = pu;
                        p[v] = pv;
                        return p;
                    };
                    faces.push_back(WallFace{{point(u0, v0), point(u1, v0), point(u1, v1), point(u0, v1)}, n, axis * 2 + side});
                }
        }
    }
    return faces;
}

// Closed cylinder of radius R around the z axis, z in [0, L]: N planar side
// quads and two N-gon caps (the concave bottom rim is where faces meet).
inline std::vector<WallFace> cylinderWalls(double R, double L, int N) {
    const double pi = 3.14159265358979323846;
    std::vector<WallFace> faces;
    std::vector<Vec3> bottom, top;
    for (int k = 0; k < N; ++k) {
        const double a0 = 2 * pi * k / N, a1 = 2 * pi * (k + 1) / N, am = 0.5 * (a0 + a1);
        const Vec3 p0(R * std::cos(a0), R * std::sin(a0), 0), p1(R * std::cos(a1), R * std::sin(a1), 0);
        faces.push_back(WallFace{{p0, p1, p1 + Vec3(0, 0, L), p0 + Vec3(0, 0, L)},
                                 Vec3(std::cos(am), std::sin(am), 0), 0});
        bottom.push_back(p0);
        top.push_back(p0 + Vec3(0, 0, L));
    }
    faces.push_back(WallFace{bottom, Vec3(0, 0, -1), 1});
    faces.push_back(WallFace{top, Vec3(0, 0, 1), 2});
    return faces;
}

} // namespace sef::dem::test
