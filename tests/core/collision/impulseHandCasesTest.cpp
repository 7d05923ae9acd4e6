// Hand-computed small cases of the impulse resolution.
#include <gtest/gtest.h>

#include <cmath>

#include "collision/ImpulseResolution.hpp"
#include "kinematics/OrientationUpdate.hpp"

using namespace sef;

namespace {
RigidBodyState sphere(double m, double R, const Vec3& x, const Vec3& v) {
    RigidBodyState s;
    s.mass = m;
    s.principalInertia = Vec3::Constant(0.4 * m * R * R);
    s.position = x;
    s.velocity = v;
    return s;
}
CollisionParameters params(CollisionModel model, double en, double et = 0.0, double mu = 0.0) {
    CollisionParameters p;
    p.model = model;
    p.restitution = en;
    p.tangentialRestitution = et;
    p.friction = mu;
    return p;
}
} // namespace

TEST(ImpulseHandCases, SphereOnWallFrictionless) {
    // wall below (normal from the particle into the wall = -z): v_z -2 -> +1 for e = 0.5
    const RigidBodyState s = sphere(1.0, 1.0, Vec3(0, 0, 1), Vec3(3, 0, -2));
    const auto r = resolveWallCollision(s, Vec3::Zero(), -Vec3::UnitZ(),
                                        params(CollisionModel::frictionless, 0.5));
    EXPECT_EQ(r.regime, CollisionRegime::frictionless);
    EXPECT_LT((r.velocityChange1 - Vec3(0, 0, 3)).norm(), 1e-15);
    EXPECT_LT(r.angularVelocityChange1.norm(), 1e-15);
    EXPECT_LT((r.impulse - Vec3(0, 0, -3)).norm(), 1e-15); // on the wall
    EXPECT_NEAR(r.kineticEnergyBefore - r.kineticEnergyAfter, 0.5 * (4 - 1), 1e-14);
}

TEST(ImpulseHandCases, SpherePairMatchesOneDimensionalTextbook) {
    // v1' = ((m1 - e m2) v1 + (1+e) m2 v2)/(m1+m2), v2' = ((m2 - e m1) v2 + (1+e) m1 v1)/(m1+m2)
    const double m1 = 2.0, m2 = 0.5, v1 = 1.5, v2 = -0.7, e = 0.8;
    const RigidBodyState a = sphere(m1, 0.3, Vec3(0, 0, 0), Vec3(v1, 0, 0));
    const RigidBodyState b = sphere(m2, 0.2, Vec3(0.5, 0, 0), Vec3(v2, 0, 0));
    for (auto model : {CollisionModel::frictionless, CollisionModel::paper,
                       CollisionModel::schwager, CollisionModel::coulomb}) {
        const auto r = resolvePairCollision(a, b, Vec3(0.3, 0, 0), Vec3::UnitX(),
                                            params(model, e, 0.3, 0.5));
        const double v1After = ((m1 - e * m2) * v1 + (1 + e) * m2 * v2) / (m1 + m2);
        const double v2After = ((m2 - e * m1) * v2 + (1 + e) * m1 * v1) / (m1 + m2);
        EXPECT_NEAR(v1 + r.velocityChange1.x(), v1After, 1e-15);
        EXPECT_NEAR(v2 + r.velocityChange2.x(), v2After, 1e-15);
        EXPECT_LT(r.velocityChange1.tail<2>().norm() + r.velocityChange2.tail<2>().norm(), 1e-15);
        EXPECT_LT(r.angularVelocityChange1.norm() + r.angularVelocityChange2.norm(), 1e-15);
        const double lost = 0.5 * m1 * m2 / (m1 + m2) * (1 - e * e) * (v1 - v2) * (v1 - v2);
        EXPECT_NEAR(r.kineticEnergyBefore - r.kineticEnergyAfter, lost, 1e-14);
    }
}

TEST(ImpulseHandCases, SeparatingContactIsLeftAlone) {
    const RigidBodyState a = sphere(1, 0.5, Vec3(0, 0, 0), Vec3(-1, 0, 0));
    const RigidBodyState b = sphere(1, 0.5, Vec3(1, 0, 0), Vec3(0, 0, 0));
    const auto r = resolvePairCollision(a, b, Vec3(0.5, 0, 0), Vec3::UnitX(),
                                        params(CollisionModel::paper, 1.0, 1.0));
    EXPECT_EQ(r.regime, CollisionRegime::separating);
    EXPECT_EQ(r.impulse, Vec3::Zero());
    EXPECT_EQ(r.kineticEnergyBefore, r.kineticEnergyAfter);
}

// Sphere (m = 1, R = 1, I = 0.4) sliding on a wall: v = (3, 0, -1), e = 0.5.
// J_n = 1.5. Stopping the slip needs J_t = 3 / (1 + R^2/I) = 3/3.5.
TEST(ImpulseHandCases, CoulombSphereSliding) {
    const RigidBodyState s = sphere(1.0, 1.0, Vec3(0, 0, 1), Vec3(3, 0, -1));
    const auto r = resolveWallCollision(s, Vec3::Zero(), -Vec3::UnitZ(),
                                        params(CollisionModel::coulomb, 0.5, 0.0, 0.1));
    EXPECT_EQ(r.regime, CollisionRegime::sliding);
    // particle impulse (-mu J_n, 0, J_n) = (-0.15, 0, 1.5); arm (0,0,-1):
    // dw = (arm x J)/I = (0, 0.15, 0)/0.4
    EXPECT_LT((r.velocityChange1 - Vec3(-0.15, 0, 1.5)).norm(), 1e-14);
    EXPECT_LT((r.angularVelocityChange1 - Vec3(0, 0.375, 0)).norm(), 1e-14);
    // still slipping: u_x of the particle 2.85 - 0.375
    EXPECT_NEAR(-r.relativeContactVelocityAfter.x(), 2.475, 1e-14);
}

TEST(ImpulseHandCases, CoulombSphereSticksToRolling) {
    const RigidBodyState s = sphere(1.0, 1.0, Vec3(0, 0, 1), Vec3(3, 0, -1));
    const auto r = resolveWallCollision(s, Vec3::Zero(), -Vec3::UnitZ(),
                                        params(CollisionModel::coulomb, 0.5, 0.0, 1.0));
    EXPECT_EQ(r.regime, CollisionRegime::sticking);
    const double Jt = 3.0 / 3.5;
    EXPECT_NEAR(r.velocityChange1.x(), -Jt, 1e-14);
    EXPECT_NEAR(r.angularVelocityChange1.y(), Jt / 0.4, 1e-14);
    // rolling: v_x = w_y R
    EXPECT_NEAR(3.0 + r.velocityChange1.x(), r.angularVelocityChange1.y() * 1.0, 1e-14);
}

TEST(ImpulseHandCases, SchwagerForSpheresEqualsCoulombSliding) {
    // eq. (88): alpha = 2/7 for a sphere on a wall; eq. (87):
    // eps_t = 1 - 0.1 * 1.5 * 3.5 * (1/3) = 0.825, and the resulting slip
    // 0.825 * 3 = 2.475 equals the Coulomb sliding result above.
    const RigidBodyState s = sphere(1.0, 1.0, Vec3(0, 0, 1), Vec3(3, 0, -1));
    const auto r = resolveWallCollision(s, Vec3::Zero(), -Vec3::UnitZ(),
                                        params(CollisionModel::schwager, 0.5, 0.0, 0.1));
    EXPECT_NEAR(r.tangentialRestitution, 0.825, 1e-15);
    EXPECT_NEAR(-r.relativeContactVelocityAfter.x(), 2.475, 1e-14);
    // equal spheres: alpha = 2/7 too (1/alpha = 1 + (m/2)(2 R^2/I) = 7/2)
    const RigidBodyState a = sphere(2.0, 0.5, Vec3(0, 0, 0), Vec3(1, 2, 0));
    const RigidBodyState b = sphere(2.0, 0.5, Vec3(1, 0, 0), Vec3(0, 0, 0));
    const Mat3 K = contactCompliance(a, &b, Vec3(0.5, 0, 0));
    const Vec3 u(-1, -2, 0);
    EXPECT_NEAR(schwagerTangentialRestitution(K, u, Vec3::UnitX(), 0.2, 0.25),
                1.0 - 0.25 * 1.2 * 3.5 * 0.5, 1e-15);
    EXPECT_EQ(schwagerTangentialRestitution(K, Vec3(-1, 0, 0), Vec3::UnitX(), 0.2, 0.25), 0.0);
}

TEST(ImpulseHandCases, CentricHeadOnIdenticalAlignedShapesGiveNoSpin) {
    // Identical ellipsoids, same (generic) orientation, centres along body x:
    // the contact point lies on the line of centres and the normal along it.
    const Quat q = quaternionFromRotationVector(Vec3(0.4, -0.9, 0.3));
    const Vec3 axis = q * Vec3::UnitX();
    RigidBodyState a, b;
    a.mass = b.mass = 1.3;
    a.principalInertia = b.principalInertia = Vec3(0.2, 0.5, 0.6);
    a.orientation = b.orientation = q;
    a.position = Vec3(0.1, 0.2, 0.3);
    b.position = a.position + 2.0 * axis;
    a.velocity = 1.5 * axis;
    b.velocity = -0.5 * axis;
    for (auto model : {CollisionModel::frictionless, CollisionModel::paper,
                       CollisionModel::schwager, CollisionModel::coulomb}) {
        const auto r = resolvePairCollision(a, b, a.position + axis, axis,
                                            params(model, 0.7, 0.4, 0.3));
        EXPECT_LT(r.angularVelocityChange1.norm() + r.angularVelocityChange2.norm(), 1e-14)
            << collisionModelName(model);
        EXPECT_NEAR(r.velocityChange1.dot(axis), -0.5 * 1.7 * 2.0, 1e-14);
    }
}

TEST(ImpulseHandCases, InvalidInputThrows) {
    const RigidBodyState s = sphere(1.0, 1.0, Vec3(0, 0, 1), Vec3(0, 0, -1));
    const CollisionParameters p = params(CollisionModel::frictionless, 0.5);
    EXPECT_THROW(resolveWallCollision(s, Vec3::Zero(), Vec3(0, 0, -2), p), std::invalid_argument);
    EXPECT_THROW(resolveWallCollision(s, Vec3(0, std::nan(""), 0), -Vec3::UnitZ(), p),
                 std::invalid_argument);
    RigidBodyState bad = s;
    bad.mass = -1.0;
    EXPECT_THROW(resolveWallCollision(bad, Vec3::Zero(), -Vec3::UnitZ(), p),
                 std::invalid_argument);
    CollisionParameters badP = p;
    badP.restitution = 2.0;
    EXPECT_THROW(resolveWallCollision(s, Vec3::Zero(), -Vec3::UnitZ(), badP),
                 CollisionParameterError);
}
