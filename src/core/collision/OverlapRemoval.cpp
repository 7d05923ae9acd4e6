#include "collision/OverlapRemoval.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace sef {

namespace {
Vec3 unitNormal(const Vec3& n) {
    const double length = n.norm();
    if (!std::isfinite(length) || std::abs(length - 1.0) > 1e-6)
        throw std::invalid_argument("overlap removal: normal must be a unit vector (norm " +
                                    std::to_string(length) + ")");
    return n / length;
}
void checkDepth(double depth) {
    if (!std::isfinite(depth))
        throw std::invalid_argument("overlap removal: penetrationDepth must be finite");
}
} // namespace

OverlapDisplacement overlapDisplacement(double m1, double m2, const Vec3& normal, double depth) {
    checkDepth(depth);
    if (!(m1 > 0.0 && m2 > 0.0 && std::isfinite(m1) && std::isfinite(m2)))
        throw std::invalid_argument("overlap removal: masses must be positive and finite");
    const Vec3 n = unitNormal(normal);
    OverlapDisplacement d;
    if (depth <= 0.0) return d;
    // share of body i = (1/m_i) / (1/m_1 + 1/m_2) = m_j / (m_1 + m_2)
    d.body1 = -(depth * m2 / (m1 + m2)) * n;
    d.body2 = (depth * m1 / (m1 + m2)) * n;
    return d;
}

OverlapDisplacement wallOverlapDisplacement(const Vec3& normal, double depth) {
    checkDepth(depth);
    const Vec3 n = unitNormal(normal);
    OverlapDisplacement d;
    if (depth > 0.0) d.body1 = -depth * n; // away from the wall
    return d;
}

OverlapDisplacement removeOverlap(RigidBodyState& b1, RigidBodyState& b2, const Vec3& normal,
                                  double depth) {
    const OverlapDisplacement d = overlapDisplacement(b1.mass, b2.mass, normal, depth);
    b1.position += d.body1;
    b2.position += d.body2;
    return d;
}

OverlapDisplacement removeWallOverlap(RigidBodyState& particle, const Vec3& normal,
                                      double depth) {
    const OverlapDisplacement d = wallOverlapDisplacement(normal, depth);
    particle.position += d.body1;
    return d;
}

} // namespace sef
