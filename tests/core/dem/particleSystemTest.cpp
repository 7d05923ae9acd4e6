// ParticleSystem: derived mass properties, add/remove bookkeeping, input checks.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>
#include <stdexcept>

#include "dem/particles/ParticleSystem.hpp"

using namespace sef;
using namespace sef::dem;

TEST(ParticleType, SphereMassInertiaAndBoundingRadius) {
    const double r = 0.005, rho = 1000.0;
    const ParticleType t(Superellipsoid(r, r, r, 1.0, 1.0), rho);
    const double pi = 3.14159265358979323846;
    const double mass = rho * 4.0 / 3.0 * pi * r * r * r;
    // analytic sphere values; the geometry kernel computes them by Beta functions
    EXPECT_NEAR(t.mass, mass, 1e-12 * mass);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(t.principalInertia[k], 0.4 * mass * r * r, 1e-10 * mass * r * r);
    EXPECT_NEAR(t.boundingRadius, r, 1e-12 * r);
}

TEST(ParticleType, RejectsNonPositiveDensity) {
    EXPECT_THROW(ParticleType(Superellipsoid(1, 1, 1, 1, 1), 0.0), std::invalid_argument);
    EXPECT_THROW(ParticleType(Superellipsoid(1, 1, 1, 1, 1), -5.0), std::invalid_argument);
    EXPECT_THROW(ParticleType(Superellipsoid(1, 1, 1, 1, 1), NAN), std::invalid_argument);
}

TEST(ParticleType, DensityOutsideTheRepresentableRangeNamesDensity) {
    // Density 1e-300 would give a subnormal mass (null velocities after
    // a collision); the type is refused with a ParameterError naming it.
    const Superellipsoid s(0.005, 0.005, 0.005, 1.0, 1.0);
    for (const double rho : {1e-300, 1e300, double(NAN), -1.0}) {
        try {
            ParticleType(s, rho);
            ADD_FAILURE() << "density " << rho << " accepted";
        } catch (const ParameterError& e) {
            EXPECT_EQ(e.parameter(), "density") << rho;
        }
    }
    const ParticleType light(s, 1e-130); // mass ~5e-137: small but representable
    EXPECT_TRUE(std::isnormal(light.mass) && std::isnormal(1.0 / light.principalInertia.minCoeff()));
}

TEST(ParticleSystem, AddAndRemoveKeepArraysConsistent) {
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(1, 1, 1, 1, 1), 1.0);
    for (int k = 0; k < 5; ++k)
        EXPECT_EQ(ps.add(0, 100 + k, Vec3(k, 0, 0), Quat::Identity(), Vec3(0, k, 0)), std::size_t(k));
    ps.externalForce[4] = Vec3(4, 4, 4);
    ps.remove(1); // last (id 104) moves into slot 1
    ASSERT_EQ(ps.size(), 4u);
    EXPECT_EQ(ps.id[1], 104);
    EXPECT_EQ(ps.position[1], Vec3(4, 0, 0));
    EXPECT_EQ(ps.velocity[1], Vec3(0, 4, 0));
    EXPECT_EQ(ps.externalForce[1], Vec3(4, 4, 4));
    for (auto* v : {&ps.velocity, &ps.angularVelocity, &ps.externalForce, &ps.externalTorque})
        EXPECT_EQ(v->size(), 4u);
    EXPECT_EQ(ps.type.size(), 4u);
    EXPECT_EQ(ps.orientation.size(), 4u);
    ps.remove(3); // removing the last entry
    std::set<std::int64_t> ids(ps.id.begin(), ps.id.end());
    EXPECT_EQ(ids, (std::set<std::int64_t>{100, 102, 104}));
    EXPECT_THROW(ps.remove(3), std::out_of_range);
}

TEST(ParticleSystem, AddRejectsBadInput) {
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(1, 1, 1, 1, 1), 1.0);
    EXPECT_THROW(ps.add(1, 0, Vec3::Zero(), Quat::Identity()), std::invalid_argument);
    EXPECT_THROW(ps.add(-1, 0, Vec3::Zero(), Quat::Identity()), std::invalid_argument);
    EXPECT_THROW(ps.add(0, 0, Vec3(NAN, 0, 0), Quat::Identity()), std::invalid_argument);
    EXPECT_THROW(ps.add(0, 0, Vec3::Zero(), Quat(2, 0, 0, 0)), std::invalid_argument);
    EXPECT_THROW(ps.add(0, 0, Vec3::Zero(), Quat::Identity(), Vec3(INFINITY, 0, 0)),
                 std::invalid_argument);
    EXPECT_EQ(ps.size(), 0u);
    // round-off in a file-read quaternion is accepted and normalised
    ps.add(0, 7, Vec3::Zero(), Quat(1.0 + 1e-9, 0, 0, 0));
    EXPECT_NEAR(ps.orientation[0].norm(), 1.0, 1e-15);
}

// A quaternion that is unit to round-off (as the engine writes them for a
// restart) is stored bit for bit; one that is not quite unit is normalised.
TEST(ParticleSystem, UnitQuaternionsAreKeptBitForBit) {
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(0.002, 0.0015, 0.001, 0.5, 0.5), 2500.0);
    std::mt19937 rng(8);
    std::normal_distribution<double> g;
    int renormalisedWouldDiffer = 0;
    for (int k = 0; k < 200; ++k) {
        const Quat q = Quat(g(rng), g(rng), g(rng), g(rng)).normalized();
        ps.add(0, k, Vec3::Zero(), q);
        EXPECT_EQ(ps.orientation.back().coeffs(), q.coeffs()) << k;
        renormalisedWouldDiffer += q.normalized().coeffs() != q.coeffs();
    }
    EXPECT_GT(renormalisedWouldDiffer, 0); // the case this protects against occurs
    const Quat off(1.0 + 1e-9, 0.0, 0.0, 0.0);
    ps.add(0, 1000, Vec3::Zero(), off);
    EXPECT_NEAR(ps.orientation.back().norm(), 1.0, 1e-15);
    EXPECT_NE(ps.orientation.back().w(), off.w());
}

// keepWhere keeps the flagged particles in their order, with every
// per-particle array (the fluid-coupling ones when they have an entry per
// particle), and refuses a flag list of the wrong length.
TEST(ParticleSystem, KeepWhereKeepsTheFlaggedParticlesInOrder) {
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(0.002, 0.0015, 0.001, 0.5, 0.5), 2500.0);
    for (int k = 0; k < 6; ++k) {
        ps.add(0, 10 + k, Vec3(k, 0, 0), Quat::Identity(), Vec3(0, k, 0), Vec3(0, 0, k));
        ps.externalForce[static_cast<std::size_t>(k)] = Vec3(k, k, 0);
    }
    ps.dragImpulse.assign(6, Vec3::Zero());
    for (int k = 0; k < 6; ++k) ps.dragImpulse[static_cast<std::size_t>(k)] = Vec3(0, 0, -k);
    ps.keepWhere({1, 0, 1, 1, 0, 1});
    ASSERT_EQ(ps.size(), 4u);
    const int kept[] = {0, 2, 3, 5};
    for (std::size_t i = 0; i < 4; ++i) {
        const int k = kept[i];
        EXPECT_EQ(ps.id[i], 10 + k);
        EXPECT_EQ(ps.position[i], Vec3(k, 0, 0));
        EXPECT_EQ(ps.velocity[i], Vec3(0, k, 0));
        EXPECT_EQ(ps.angularVelocity[i], Vec3(0, 0, k));
        EXPECT_EQ(ps.externalForce[i], Vec3(k, k, 0));
        EXPECT_EQ(ps.dragImpulse[i], Vec3(0, 0, -k));
    }
    EXPECT_EQ(ps.externalTorque.size(), 4u);
    EXPECT_THROW(ps.keepWhere({1, 1}), std::invalid_argument);
}
