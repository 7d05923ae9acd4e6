#pragma once
// Walls of an axis-aligned closed box: the simplest container, for tests,
// benchmarks and users building a case without a mesh.
#include "dem/walls/WallSet.hpp"

#include <vector>

namespace sef::dem {

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

} // namespace sef::dem
