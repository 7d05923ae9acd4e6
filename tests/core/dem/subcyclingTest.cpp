// automaticSubcycles (dem/step/Subcycling.hpp): the count that keeps each
// particle's travel per substep within the fraction of its d_eq, by hand.
#include "dem/step/Subcycling.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace sef::dem {
namespace {

ParticleSystem twoSpheres(double speed) {
    ParticleSystem ps;
    ps.types.emplace_back(Superellipsoid(0.005, 0.005, 0.005, 1.0, 1.0), 1000.0); // d_eq 0.01
    ps.types.emplace_back(Superellipsoid(0.001, 0.001, 0.001, 1.0, 1.0), 1000.0); // d_eq 0.002
    ps.add(0, 1, Vec3::Zero(), Quat::Identity(), Vec3(speed, 0, 0));
    ps.add(1, 2, Vec3(1, 0, 0), Quat::Identity(), Vec3(0, 0.5 * speed, 0));
    return ps;
}

TEST(Subcycling, TravelPerSubstepWithinTheFractionOfDeq) {
    // 2 m/s for 1e-3 s: 0.2 d_eq of the large sphere; the small one moves
    // 1 mm = 0.5 of its d_eq: ceil(0.5 / 0.1) = 5 substeps.
    const ParticleSystem ps = twoSpheres(2.0);
    const SubcycleChoice c = automaticSubcycles(ps, 1e-3, Vec3::Zero());
    EXPECT_NEAR(c.largestTravel, 0.5, 1e-12);
    EXPECT_EQ(c.subcycles, 5);
    EXPECT_FALSE(c.capped);
    EXPECT_EQ(automaticSubcycles(ps, 1e-3, Vec3::Zero(), 0.05).subcycles, 10);
}

TEST(Subcycling, AccelerationOverTheStepCounts) {
    // at rest under gravity: speed bound g dt = 9.81 m/s after 1 s; travel
    // 9.81 m / 0.002 m = 4905 d_eq of the small sphere, capped at 1000
    const ParticleSystem ps = twoSpheres(0.0);
    const SubcycleChoice c = automaticSubcycles(ps, 1.0, Vec3(0, 0, -9.81));
    EXPECT_TRUE(c.capped);
    EXPECT_EQ(c.subcycles, 1000);
    EXPECT_EQ(automaticSubcycles(ps, 1e-6, Vec3(0, 0, -9.81)).subcycles, 1);
}

TEST(Subcycling, AtLeastTheMinimum) {
    // the floor applies where the travel asks for fewer substeps (at rest:
    // 1), not where it asks for more (5, as above); the cap still wins
    const ParticleSystem rest = twoSpheres(0.0), moving = twoSpheres(2.0);
    EXPECT_EQ(automaticSubcycles(rest, 1e-3, Vec3::Zero(), 0.1, 1000, 3).subcycles, 3);
    EXPECT_EQ(automaticSubcycles(moving, 1e-3, Vec3::Zero(), 0.1, 1000, 3).subcycles, 5);
    EXPECT_EQ(automaticSubcycles(moving, 1e-3, Vec3::Zero(), 0.1, 4, 2).subcycles, 4);
    EXPECT_THROW(automaticSubcycles(rest, 1e-3, Vec3::Zero(), 0.1, 1000, 0), std::invalid_argument);
    EXPECT_THROW(automaticSubcycles(rest, 1e-3, Vec3::Zero(), 0.1, 4, 5), std::invalid_argument);
}

TEST(Subcycling, AtRestOneSubstepAndBadInputRejected) {
    ParticleSystem ps = twoSpheres(0.0);
    EXPECT_EQ(automaticSubcycles(ps, 1e-3, Vec3::Zero()).subcycles, 1);
    EXPECT_THROW(automaticSubcycles(ps, 0.0, Vec3::Zero()), std::invalid_argument);
    EXPECT_THROW(automaticSubcycles(ps, 1e-3, Vec3::Zero(), 0.0), std::invalid_argument);
    EXPECT_THROW(automaticSubcycles(ps, 1e-3, Vec3::Zero(), 0.1, 0), std::invalid_argument);
    ps.externalForce[1] = Vec3(INFINITY, 0, 0);
    EXPECT_THROW(automaticSubcycles(ps, 1e-3, Vec3::Zero()), std::invalid_argument);
}

} // namespace
} // namespace sef::dem
