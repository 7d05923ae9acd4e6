// The two traps of [Superellipsoid-OpenFOAM] (see collision/ImpulseResolution.hpp).
#include <gtest/gtest.h>

#include <Eigen/Dense>

#include "collision/ImpulseResolution.hpp"
#include "kinematics/OrientationUpdate.hpp"

using namespace sef;

namespace {
// A prolate body (inertia of an ellipsoid 0.2 x 0.1 x 0.1, m = 1) tilted so
// that its inertia tensor couples the wall normal (-z) to the tangents, and
// hitting the wall with the contact point off the line of the normal.
RigidBodyState tiltedProlate() {
    RigidBodyState s;
    s.mass = 1.0;
    s.principalInertia = 0.2 * Vec3(0.02, 0.05, 0.05);
    s.orientation = quaternionFromRotationVector(Vec3(0.3, 0.8, 0.2));
    s.position = Vec3(0.05, -0.02, 0.15);
    s.velocity = Vec3(0.4, -0.3, -1.0);
    s.angularVelocity = Vec3(2.0, -1.0, 3.0);
    return s;
}
const Vec3 contact(0.0, 0.0, 0.0);
const Vec3 intoWall(0.0, 0.0, -1.0);
} // namespace

TEST(PaperTraps, FrictionlessSystemOfPaperViolatesAngularMomentumWithCoupledInertia) {
    // Trap 1: [Superellipsoid-OpenFOAM], eq. (86) fixes psi_x'' = w_x''. Solve it literally
    // in the collision frame (e1'' = n) and compare the x-row of eq. (80).
    const RigidBodyState s = tiltedProlate();
    const double e = 0.6;
    Mat3 R0; // rows: collision-frame axes in world coordinates
    const Vec3 t1 = intoWall.unitOrthogonal(), t2 = intoWall.cross(t1);
    R0.row(0) = intoWall.transpose();
    R0.row(1) = t1.transpose();
    R0.row(2) = t2.transpose();
    const Vec3 r = R0 * (s.position - contact); // paper's r*: contact -> centre
    const Vec3 v = R0 * s.velocity, w = R0 * s.angularVelocity;
    const Mat3 I = R0 * s.worldInertia() * R0.transpose();
    ASSERT_GT(std::abs(I(0, 1)) + std::abs(I(0, 2)), 1e-3 * I.norm()); // coupled
    const double m = s.mass;
    Mat3 A;
    A << 1.0, -r.z(), r.y(), m * r.z(), I(1, 1), I(1, 2), -m * r.y(), I(2, 1), I(2, 2);
    const Vec3 b(-e * (v.x() + r.y() * w.z() - r.z() * w.y()),
                 I(1, 1) * w.y() + I(1, 2) * w.z() + m * r.z() * v.x(),
                 I(2, 1) * w.y() + I(2, 2) * w.z() - m * r.y() * v.x());
    const Vec3 x = A.partialPivLu().solve(b); // (c_x, psi_y, psi_z), eq. (86)
    const Vec3 c(x[0], v.y(), v.z()), psi(w.x(), x[1], x[2]);
    const Vec3 dLpaper = I * (psi - w) + r.cross(m * (c - v)); // eq. (80), change
    EXPECT_LT(std::abs(dLpaper.y()) + std::abs(dLpaper.z()), 1e-14); // the rows it keeps
    EXPECT_GT(std::abs(dLpaper.x()), 1e-3);                          // the row it drops

    // Ours: same normal restitution, all three rows of eq. (70) hold.
    CollisionParameters p;
    p.model = CollisionModel::frictionless;
    p.restitution = e;
    const auto res = resolveWallCollision(s, contact, intoWall, p);
    RigidBodyState after = s;
    applyWallCollision(res, after);
    const Vec3 dL = after.angularMomentumAbout(contact) - s.angularMomentumAbout(contact);
    EXPECT_LT(dL.norm(), 1e-15);
    // conserved is n.(I w), not n.w: the normal spin component changes
    EXPECT_NEAR(intoWall.dot(after.angularMomentum()), intoWall.dot(s.angularMomentum()), 1e-15);
    EXPECT_GT(std::abs(intoWall.dot(after.angularVelocity - s.angularVelocity)), 1e-3);
    std::printf("[ measured ] trap 1: paper eq. (86) |dL_x| = %.3e, ours |dL| = %.1e\n",
                std::abs(dLpaper.x()), dL.norm());
}

TEST(PaperTraps, TangentialRestitutionOneIsNotFrictionless) {
    // Trap 2: eps_t = 1 keeps the tangential contact velocity, which for a
    // non-sphere needs a tangential impulse, and can ADD energy; the true
    // frictionless impulse is normal and conserves energy for eps_n = 1.
    CollisionParameters paper, frictionless;
    paper.model = CollisionModel::paper;
    paper.restitution = frictionless.restitution = 1.0;
    paper.tangentialRestitution = 1.0;
    frictionless.model = CollisionModel::frictionless;
    double maxGain = 0.0;
    for (double sign : {1.0, -1.0}) {
        RigidBodyState s = tiltedProlate();
        s.velocity.x() *= sign;
        s.velocity.y() *= sign;
        const auto rp = resolveWallCollision(s, contact, intoWall, paper);
        const auto rf = resolveWallCollision(s, contact, intoWall, frictionless);
        const Vec3 Jt = rp.impulse - rp.impulse.dot(intoWall) * intoWall;
        EXPECT_GT(Jt.norm(), 1e-2 * rp.impulse.norm());   // paper: friction needed
        const Vec3 Jtf = rf.impulse - rf.impulse.dot(intoWall) * intoWall;
        EXPECT_LT(Jtf.norm(), 1e-16 * rf.impulse.norm()); // ours: none
        EXPECT_NEAR(rf.kineticEnergyAfter, rf.kineticEnergyBefore, 1e-14);
        // frictionless lets the tangential contact velocity change
        const Vec3 ut0 = rf.relativeContactVelocityBefore -
                         rf.relativeContactVelocityBefore.dot(intoWall) * intoWall;
        const Vec3 ut1 = rf.relativeContactVelocityAfter -
                         rf.relativeContactVelocityAfter.dot(intoWall) * intoWall;
        EXPECT_GT((ut1 - ut0).norm(), 1e-3);
        maxGain = std::max(maxGain, (rp.kineticEnergyAfter - rp.kineticEnergyBefore) /
                                        rp.kineticEnergyBefore);
    }
    EXPECT_GT(maxGain, 1e-3); // eps_n = eps_t = 1 "paper" creates energy for one sign
    std::printf("[ measured ] trap 2: paper eps_n = eps_t = 1 energy gain %.3e (relative)\n",
                maxGain);
}
