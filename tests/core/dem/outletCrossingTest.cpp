// OutletCrossing: which centres passed through an outlet face in a step.
// A slot outlet in the floor z = 0 of a domain periodic in y (the
// cylinder-discharge hopper: x 0-11 mm, the slot 3.7-7.3 mm, period 4.3 mm):
// a centre that passes through the periodic plane in the same step as
// through the slot is found, in the image where its path meets the face;
// the move across the periodic plane is the short one, not the jump the
// wrap made; and a particle's start is found by its id when the engine
// reordered the particles.
#include <gtest/gtest.h>

#include "dem/boundaries/OutletCrossing.hpp"

using namespace sef;
using namespace sef::dem;

namespace {

constexpr double mm = 1e-3;
constexpr double period = 4.3 * mm;

// The floor's outlet: x in [x0, x1], y in [y0, y1] at z = 0, outward -z.
WallSet slot(double y0, double y1, double x0 = 3.7 * mm, double x1 = 7.3 * mm) {
    WallFace f;
    f.vertices = {Vec3(x0, y0, 0), Vec3(x1, y0, 0), Vec3(x1, y1, 0), Vec3(x0, y1, 0)};
    f.outwardNormal = -Vec3::UnitZ();
    f.patch = 0;
    return WallSet({f});
}

PeriodicLattice periodicInY() {
    return PeriodicLattice({PeriodicDirection{Vec3(0, period, 0), Vec3::Zero(), Vec3::UnitY()}});
}

} // namespace

TEST(OutletCrossing, FindsCentresLeavingThroughTheFaceAndNoOthers) {
    const WallSet outlet = slot(0, period);
    const PeriodicLattice lattice = periodicInY();
    OutletCrossing crossing(outlet);
    const Vec3 above(5.5 * mm, 2 * mm, 0.01 * mm), below(5.5 * mm, 2 * mm, -0.01 * mm);
    EXPECT_EQ(crossing.facePassed(above, below, lattice), 0);
    EXPECT_EQ(crossing.facePassed(below, above, lattice), -1); // coming in
    EXPECT_EQ(crossing.facePassed(above, above + Vec3(0, 0.1 * mm, 0), lattice), -1);
    // beside the slot (the floor is a wall, not an outlet)
    EXPECT_EQ(crossing.facePassed(above - Vec3(3 * mm, 0, 0), below - Vec3(3 * mm, 0, 0), lattice), -1);
}

// The path seen in a run: 0.3 um below the far periodic plane at 9.8 um
// above the slot, then 2.1 um beyond the plane (not yet wrapped) and 1.7 um
// below the slot's plane. It meets that plane 1.7 um beyond the domain,
// where the slot is in the image at y - period.
TEST(OutletCrossing, FindsTheFaceInThePeriodicImageWhereThePathMeetsIt) {
    const WallSet outlet = slot(0, period);
    const Vec3 a(5.487 * mm, 4.29967 * mm, 9.8e-6), b(5.487 * mm, 4.30207 * mm, -1.68e-6);
    const PeriodicLattice none;
    EXPECT_EQ(OutletCrossing(outlet).facePassed(a, b, none), -1); // without the images: missed
    const PeriodicLattice lattice = periodicInY();
    EXPECT_EQ(OutletCrossing(outlet).facePassed(a, b, lattice), 0);
}

// A start taken before the wrap (just beyond the far plane) and an end
// after it (just past the near plane): the centre moved 0.5 um, not the
// 4.3 mm between the two points. Slots covering part of the period tell
// the two paths apart: the short path meets the plane at y = 0.2 um.
TEST(OutletCrossing, TakesTheShortMoveAcrossThePeriodicPlane) {
    const PeriodicLattice lattice = periodicInY();
    const Vec3 a(5.5 * mm, period + 0.0001 * mm, 1e-5), b(5.5 * mm, 0.0004 * mm, -1e-5);
    const WallSet nearPlane = slot(0, 1 * mm);          // holds the true crossing
    const WallSet middle = slot(1.5 * mm, 2.5 * mm);    // holds the long path's
    EXPECT_EQ(OutletCrossing(nearPlane).facePassed(a, b, lattice), 0);
    EXPECT_EQ(OutletCrossing(middle).facePassed(a, b, lattice), -1);
    // leaving through the near plane (not yet wrapped): the path meets the
    // slot's plane at y = -0.05 um, the far end of the period
    const Vec3 c(5.5 * mm, 0.0001 * mm, 1e-5), d(5.5 * mm, -0.0002 * mm, -1e-5);
    const WallSet farPlane = slot(3.3 * mm, period);
    EXPECT_EQ(OutletCrossing(farPlane).facePassed(c, d, lattice), 0);
    EXPECT_EQ(OutletCrossing(nearPlane).facePassed(c, d, lattice), -1);
    EXPECT_EQ(OutletCrossing(middle).facePassed(c, d, lattice), -1);
}

// The engine may hand the particles back in another order: each start is
// found by the particle's id, a particle without a start is skipped.
TEST(OutletCrossing, FindsEachParticlesStartByItsId) {
    const WallSet outlet = slot(0, period);
    const PeriodicLattice none;
    OutletCrossing crossing(outlet);
    ParticleSystem before;
    before.types.emplace_back(Superellipsoid(0.5 * mm, 0.5 * mm, 0.5 * mm, 1.0, 1.0), 2500.0);
    const Vec3 overSlot(5.5 * mm, 2 * mm, 0.01 * mm), overFloor(1.5 * mm, 2 * mm, 0.01 * mm);
    before.add(0, 10, overSlot, Quat::Identity());
    before.add(0, 11, overFloor, Quat::Identity());
    before.add(0, 12, overSlot + Vec3(1 * mm, 0, 1 * mm), Quat::Identity());
    const StepStart start = StepStart::of(before);
    // after the step, reordered: 11 moved over the slot's plane beside it
    // (its start pairs with 10's end in the old order: a path through the
    // slot), 10 passed through the slot, 12 is still above, 13 is new
    ParticleSystem after;
    after.types = before.types;
    after.add(0, 12, overSlot + Vec3(1 * mm, 0, 0.9 * mm), Quat::Identity());
    after.add(0, 13, overSlot - Vec3(0, 0, 0.02 * mm), Quat::Identity());
    after.add(0, 10, overSlot - Vec3(0, 0, 0.02 * mm), Quat::Identity());
    after.add(0, 11, overFloor - Vec3(0, 0, 0.005 * mm), Quat::Identity());
    const std::vector<LeavingParticle> left = crossing.leaving(start, after, none);
    ASSERT_EQ(left.size(), 1u);
    EXPECT_EQ(after.id[left[0].index], 10);
    EXPECT_EQ(left[0].face, 0);
    // in the same order, by index as by id
    const std::vector<LeavingParticle> same = crossing.leaving(start, before, none);
    EXPECT_TRUE(same.empty());
}
