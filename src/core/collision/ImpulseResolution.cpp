#include "collision/ImpulseResolution.hpp"

#include <cmath>
#include <stdexcept>

namespace sef {

namespace {


// -[r]x I^-1 [r]x: contribution of one body's rotation to K.
Mat3 rotationalCompliance(const RigidBodyState& b, const Vec3& contactPoint) {
    const Mat3 R = skew(contactPoint - b.position);
    return -R * b.worldInverseInertia() * R;
}

// The shared law with u_free = u and target u'_n = -eps_n u_n (u_n < 0).
ImpulseLawResult isolatedCollisionImpulse(const Mat3& K, const Vec3& u, const Vec3& n,
                                          const CollisionParameters& p) {
    const double un = n.dot(u);
    const double target = un < 0.0 ? -p.restitution * un : 0.0; // un >= 0: no impulse
    return contactImpulse(p, makeContactFrame(K, n, target, false), u);
}

Vec3 checkedNormal(const Vec3& normal, const char* name) {
    const double length = normal.norm();
    if (!std::isfinite(length) || std::abs(length - 1.0) > 1e-6)
        throw std::invalid_argument(std::string(name) + ": must be a unit vector (norm " +
                                    std::to_string(length) + ")");
    return normal / length;
}

void checkPoint(const Vec3& p) {
    if (!isFinite(p)) throw std::invalid_argument("contactPoint: must be finite");
}

} // namespace

Mat3 contactCompliance(const RigidBodyState& b1, const RigidBodyState* b2, const Vec3& p) {
    const double inverseMass = 1.0 / b1.mass + (b2 ? 1.0 / b2->mass : 0.0);
    Mat3 K = inverseMass * Mat3::Identity() + rotationalCompliance(b1, p);
    if (b2) K += rotationalCompliance(*b2, p);
    return 0.5 * (K + K.transpose()); // exact symmetry for the LDLT solve
}

CollisionResult resolvePairCollision(const RigidBodyState& b1, const RigidBodyState& b2,
                                     const Vec3& p, const Vec3& normal,
                                     const CollisionParameters& params) {
    validateRigidBodyState(b1, "body1");
    validateRigidBodyState(b2, "body2");
    validateCollisionParameters(params);
    checkPoint(p);
    const Vec3 n = checkedNormal(normal, "normal");

    CollisionResult r;
    const Mat3 K = contactCompliance(b1, &b2, p);
    const Vec3 u = b2.velocityAt(p) - b1.velocityAt(p);
    const ImpulseLawResult sol = isolatedCollisionImpulse(K, u, n, params);
    r.regime = sol.regime;
    r.tangentialRestitution = sol.tangentialRestitution;
    r.impulse = sol.impulse;
    r.velocityChange2 = sol.impulse / b2.mass;
    r.angularVelocityChange2 = b2.worldInverseInertia() * (p - b2.position).cross(sol.impulse);
    r.velocityChange1 = -sol.impulse / b1.mass;
    r.angularVelocityChange1 = -(b1.worldInverseInertia() * (p - b1.position).cross(sol.impulse));
    r.relativeContactVelocityBefore = u;
    r.relativeContactVelocityAfter = u + K * sol.impulse;

    RigidBodyState a1 = b1, a2 = b2;
    applyCollision(r, a1, a2);
    r.kineticEnergyBefore = b1.kineticEnergy() + b2.kineticEnergy();
    r.kineticEnergyAfter = a1.kineticEnergy() + a2.kineticEnergy();
    return r;
}

CollisionResult resolveWallCollision(const RigidBodyState& b, const Vec3& p, const Vec3& normal,
                                     const CollisionParameters& params, const Vec3& wallVelocity) {
    validateRigidBodyState(b, "particle");
    validateCollisionParameters(params);
    checkPoint(p);
    if (!isFinite(wallVelocity)) throw std::invalid_argument("wallVelocity: must be finite");
    const Vec3 n = checkedNormal(normal, "normalTowardsWall");

    CollisionResult r;
    const Mat3 K = contactCompliance(b, nullptr, p);
    const Vec3 u = wallVelocity - b.velocityAt(p);
    const ImpulseLawResult sol = isolatedCollisionImpulse(K, u, n, params);
    r.regime = sol.regime;
    r.tangentialRestitution = sol.tangentialRestitution;
    r.impulse = sol.impulse;
    r.velocityChange1 = -sol.impulse / b.mass;
    r.angularVelocityChange1 = -(b.worldInverseInertia() * (p - b.position).cross(sol.impulse));
    r.relativeContactVelocityBefore = u;
    r.relativeContactVelocityAfter = u + K * sol.impulse;

    RigidBodyState after = b;
    applyWallCollision(r, after);
    r.kineticEnergyBefore = b.kineticEnergy();
    r.kineticEnergyAfter = after.kineticEnergy();
    return r;
}

void applyCollision(const CollisionResult& r, RigidBodyState& b1, RigidBodyState& b2) {
    b1.velocity += r.velocityChange1;
    b1.angularVelocity += r.angularVelocityChange1;
    b2.velocity += r.velocityChange2;
    b2.angularVelocity += r.angularVelocityChange2;
}

void applyWallCollision(const CollisionResult& r, RigidBodyState& particle) {
    particle.velocity += r.velocityChange1;
    particle.angularVelocity += r.angularVelocityChange1;
}

} // namespace sef
