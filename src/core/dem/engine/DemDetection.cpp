// Detection: broad phase (Verlet list of bounding spheres), the pair narrow
// phase with its reuse of last substep's geometry, the wall narrow phase
// (near faces, duplicate wall contacts merged), rim points of flat faces.
#include "dem/engine/DemEngineImpl.hpp"

#include "contact/ContactPatch.hpp"
#include "contact/PairContact.hpp"
#include "dem/walls/WallFaceContact.hpp"
#include "kinematics/OrientationUpdate.hpp"

#include <algorithm>

namespace sef::dem {

// Pairs apart along their last exact normal by more than this times the
// smaller bounding radius skip the exact query (separatedAlongReference):
// rounding only, any gap along one axis proves the pair apart. (A margin of
// 1e-2 would leave the exact query to pairs about to touch: in the
// cube-like tutorial bed 54 exact queries per substep at 1.5 s, nearly all
// ending on their warm normal, ~6 % of the time.)
constexpr double kSeparatingAxisMargin = 1e-9;

// The key part of a speculative wall contact (after the rim points').
constexpr std::int64_t kSpeculativePart = 1 + kRimPoints;
// A body's deepest point after turning for two substeps is another part of
// it (a block's far edge) when it lies this far (times the bounding radius)
// from the deepest point now.
constexpr double kFarSide = 0.1;
// Contacts before penetration are sought only for approaches within two
// substeps above this fraction of the allowed penetration: a smaller one
// enters less than overlap removal leaves in place, and the exact contact
// then takes it. Resting bodies (the gravity kick's speed) stay below it,
// so a settled bed asks for no gaps (measured: the settled boxCase bed
// 1.44 times slower with every approach asked).
constexpr double kSpeculativeFloor = 0.1;

void DemEngine::Impl::detect(StepStatistics& stats) {
    contacts.clear();

    // Pairs: cell grid of bounding spheres, then the narrow phase (centres
    // and poses: substep()).
    contactSlot.clear();
    candidates.forEachCandidatePair(centres, radius, ids, [&](int i, int j) { detectPair(i, j, stats); });
    detectWalls(stats);
    stats.contacts = stats.pairContacts + stats.wallContacts;
}

// The narrow phase of candidate pair (i, j), in the order of its shortcuts:
// still apart by the stored bound, apart along the last exact normal, the
// reference reused, a kept flat patch re-intersected, separated along the
// reference, and last the exact query (warm-started); a contact found goes
// to contacts with its warm-start slot and rim points.
void DemEngine::Impl::detectPair(int i, int j, StepStatistics& stats) {
    // Two held bodies: neither can move (and their effective mass is zero)
    const bool heldI = held(static_cast<std::size_t>(i)), heldJ = held(static_cast<std::size_t>(j));
    if (heldI && heldJ) return;
    if (!resolvesPair(i, j)) return; // another processor's
    // an awake body near a sleeping one (Sleeping.cpp)
    const int sleeper = asleep(static_cast<std::size_t>(i)) ? i : asleep(static_cast<std::size_t>(j)) ? j : -1;
    if (sleeper >= 0) noteSleeperNear(sleeper == i ? j : i, sleeper, false);
    ++stats.candidatePairs;
    const PairFrame f = pairFrame(i, j);
    const WarmStartEntry* previous = warm.find(f.key);
    // how far the pair may close in two substeps (0: no contacts before
    // touching; also below kSpeculativeFloor); a pair proved apart by more
    // is not asked for its gap
    double reach = settings.speculativePairContacts ? pairReach(i, j) : 0.0;
    if (!(reach > kSpeculativeFloor * settings.allowedPenetration * std::min(diameter[i], diameter[j]))) reach = 0.0;
    if (previous && previous->separation > 0.0) {
        // apart by a bounding volume at the last query: still apart?
        if (pairStillSeparated(*previous, f.poseA, f.poseB, radius[f.b], reach)) {
            ++stats.reusedPairs;
            warm.recordCarried(*previous, previous->normal);
            return;
        }
        previous = nullptr; // a bound, not a contact: query afresh
    }
    ContactResult r; // normal from a to b
    int slot;
    bool carried = false;
    const PairReuse reuse =
        previous ? reusePairGeometry(f, *previous, reach, r, slot, carried, stats) : PairReuse::none;
    if (reuse == PairReuse::apart) return;
    if (reuse == PairReuse::none && !queryPair(f, previous, reach, r, slot, stats)) return;
    if (!f.ordered) r.normal = -r.normal;
    if (!r.contact && r.depth < 0.0 && -r.depth < reach) {
        addSpeculativePairContact(f, i, j, r, slot, stats);
        if (sleeper >= 0) noteSleeperNear(sleeper == i ? j : i, sleeper, true);
        return;
    }
    if (!r.contact || !(r.depth > 0.0)) return;
    r.point += f.origin; // back to the world (the rest of r is not read)
    for (int k = 0; k < r.rimCount; ++k) r.rim[static_cast<std::size_t>(k)] += f.origin;
    contacts.push_back(DemContact{i, j, -1, r.point, r.normal, r.depth});
    contactSlot.push_back(slot);
    if (sleeper >= 0) noteSleeperNear(sleeper == i ? j : i, sleeper, true);
    ++stats.pairContacts;
    stats.maxOverlapOverDeq =
        std::max(stats.maxOverlapOverDeq, r.depth / std::min(diameter[i], diameter[j]));
    addRimPoints(r, f.key, i, j, -1, carried, stats);
}

// Two substeps' travel of the pair's fastest points towards each other.
double DemEngine::Impl::pairReach(int i, int j) const {
    const RigidBodyState& a = bodies[static_cast<std::size_t>(i)];
    const RigidBodyState& b = bodies[static_cast<std::size_t>(j)];
    const double speed = (a.velocity - b.velocity).norm() + a.angularVelocity.norm() * radius[i] +
                         b.angularVelocity.norm() * radius[j];
    return 2.0 * substepLength * speed;
}

// A pair apart by a gap it closes within two substeps (r: the query's
// answer with its normal from i to j, in the frame of f): a contact at the
// gap (depth -gap), at the middle of the two points that bound it. The gap
// is a lower bound of the distance (the overlap along a separating axis),
// so the impulse stage may stop the pair short of touching, never let it
// enter; the next substep's query meets the rest. A flat face's support
// point is anywhere on the face (a cube meeting a cube face to face would
// be struck off-centre and set spinning): with flat faces, the point is
// where the pair would first touch, the centroid of the patch the exact
// query finds with b moved across the gap.
void DemEngine::Impl::addSpeculativePairContact(const PairFrame& f, int i, int j, const ContactResult& r,
                                                int slot, StepStatistics& stats) {
    const double gap = -r.depth;
    // (moved by the gap and a rounding-sized overlap along the axis)
    const double across = gap + 1e-9 * std::min(radius[f.a], radius[f.b]);
    const RigidBodyState& a = bodies[static_cast<std::size_t>(i)];
    const RigidBodyState& b = bodies[static_cast<std::size_t>(j)];
    // The approach at any point within a bounding radius and the gap of
    // both centres is at most this: a pair that cannot close its gap
    // anywhere is left before the point is sought.
    const double fastestApproach = -r.normal.dot(b.velocity - a.velocity) +
                                   a.angularVelocity.norm() * (radius[i] + across) +
                                   b.angularVelocity.norm() * (radius[j] + across);
    if (!(gap < 2.0 * substepLength * fastestApproach)) return;
    Vec3 point = 0.5 * (r.surfacePoint1 + r.surfacePoint2);
    const Superellipsoid& shapeA = system->types[typeOf[f.a]].shape;
    const Superellipsoid& shapeB = system->types[typeOf[f.b]].shape;
    if (hasFlatFaces(shapeA) || hasFlatFaces(shapeB)) {
        const Vec3 n = f.ordered ? r.normal : Vec3(-r.normal); // from a to b
        PairContactOptions exact;
        exact.boundingVolumeRejection = false;
        const ContactResult touching =
            detectPairContact(shapeA, Pose{f.positionA, bodies[f.a].orientation}, shapeB,
                              Pose{Vec3(f.positionB - across * n), bodies[f.b].orientation}, nullptr, exact);
        stats.newtonIterations += touching.iterations;
        if (touching.contact && touching.depth > 0.0) point = touching.point + (0.5 * across) * n;
    }
    point += f.origin;
    const Vec3 u = b.velocity + b.angularVelocity.cross(point - centres[j]) - a.velocity -
                   a.angularVelocity.cross(point - centres[i]);
    const double approach = -r.normal.dot(u);
    if (!(gap < 2.0 * substepLength * approach)) return;
    contacts.push_back(DemContact{i, j, -1, point, r.normal, -gap});
    contactSlot.push_back(slot);
    ++stats.speculativeContacts;
    ++stats.speculativePairContacts;
}

// The narrow phase sees the pair relative to A's centre, so its answer
// depends on the relative pose alone: the same pair gives the same
// answer wherever it is (across a periodic boundary, through an image,
// or in the interior; its Newton solve stops on an absolute tolerance,
// and would otherwise answer the rounding of the absolute coordinates),
// and far from the origin keeps the precision of the pair's size.
DemEngine::Impl::PairFrame DemEngine::Impl::pairFrame(int i, int j) const {
    PairFrame f;
    f.ordered = ids[i] < ids[j];
    f.a = f.ordered ? i : j;
    f.b = f.ordered ? j : i;
    f.key = ContactKey::pair(ids[i], ids[j]);
    f.origin = poses[static_cast<std::size_t>(f.a)].position;
    f.poseA = poses[static_cast<std::size_t>(f.a)];
    f.poseB = poses[static_cast<std::size_t>(f.b)];
    f.poseA.position = Vec3::Zero();
    f.poseB.position -= f.origin;
    f.positionA = bodies[f.a].position - f.origin;
    f.positionB = bodies[f.b].position - f.origin;
    return f;
}

PosedBody DemEngine::Impl::posedBody(const PairFrame& f, int body) const {
    const int k = body == 0 ? f.a : f.b;
    return PosedBody(system->types[typeOf[k]].shape,
                     Pose{body == 0 ? f.positionA : f.positionB, bodies[k].orientation});
}

// The shortcuts that answer the pair from its previous exact answer
// (dem/engine/PairGeometryReuse.hpp), in order. apart: no contact (the entry is
// carried); contact: r, slot and carried set; none: query afresh.
DemEngine::Impl::PairReuse DemEngine::Impl::reusePairGeometry(const PairFrame& f, const WarmStartEntry& previous,
                                                              double reach, ContactResult& r, int& slot,
                                                              bool& carried, StepStatistics& stats) {
    const int a = f.a, b = f.b;
    // apart by more than the pair closes in two substeps (reach)
    const double apartMargin = std::max(kSeparatingAxisMargin * std::min(radius[a], radius[b]), reach);
    if (apartWithinMotionBound(previous, f.poseA, f.poseB, radius[b], apartMargin)) {
        // apart along the last exact normal (PairGeometryReuse.hpp);
        // first: most candidate pairs of a bed, and the answer the reuse
        // below would give them (no contact) at a third of its work
        ++stats.reusedPairs;
        warm.recordCarried(previous, previous.normal); // keeps the reference
        return PairReuse::apart;
    }
    if (settings.contactReuseTolerance > 0.0 &&
        reusePairReference(previous, f.poseA, f.poseB, settings.contactReuseTolerance,
                           settings.flatContactReuseTolerance, std::min(radius[a], radius[b]), r,
                           settings.flatContactReuseTranslation)) {
        ++stats.reusedPairs;
        carried = true;
        slot = warm.recordCarried(previous, r.normal); // keeps the reference
        return PairReuse::contact;
    }
    const KeptPatch* keptPatch =
        previous.flatReference && settings.contactReuseTolerance > 0.0 ? warm.keptPatch(&previous) : nullptr;
    if (keptPatch != nullptr &&
        reuseKeptPatch(previous, *keptPatch, f.poseA, f.poseB, posedBody(f, 0), posedBody(f, 1),
                       settings.flatContactReuseTolerance, settings.flatPatchSlideTolerance,
                       std::min(radius[a], radius[b]), r)) {
        // a slide or spin of flat faces: the kept outlines re-intersected
        // (PairGeometryReuse.hpp), and the answer the new reference
        // (the flat gate above reuses it while the pair moves less than
        // its tolerance; the outlines stay with their own pose). Its
        // rim points are new points.
        ++stats.reusedPairs;
        slot = warm.recordCarried(previous, r.normal);
        storePairReference(warm.slot(slot), f.poseA, f.poseB, r);
        warm.compliance(slot).valid = false; // its point moved in A's frame
        return PairReuse::contact;
    }
    if (previous.hasReference && previous.referenceDepth < 0.0 &&
        separatedAlongReference(previous, posedBody(f, 0), posedBody(f, 1), apartMargin, r)) {
        // apart along the last exact normal, with the reference moved
        // to now (the motion bound above then holds for a while), and
        // that axis the warm-start normal: when the pair closes, Newton
        // starts from the last axis that separated it, not from the
        // older normal of its last exact query (fewer fallbacks: 180 ->
        // 164 in 0.03 s of the rocking cube bed)
        ++stats.reusedPairs;
        refreshApartReference(warm.slot(warm.recordCarried(previous, r.normal)), f.poseA, f.poseB, r);
        return PairReuse::apart;
    }
    return PairReuse::none;
}

// The exact query of the pair (contact/PairContact.hpp), warm-started from
// the previous entry if any, recorded with its reference. False when the
// bounding volumes answered (no contact; a gap is remembered for
// pairStillSeparated).
bool DemEngine::Impl::queryPair(const PairFrame& f, const WarmStartEntry* previous, double reach, ContactResult& r,
                                int& slot, StepStatistics& stats) {
    const ParticleSystem& ps = *system;
    // (a zero normal: cold, but the patch guesses still come out)
    PatchGuess patchGuess = previous ? previous->patchGuess : PatchGuess{};
    KeptPatch kept;
    PairWarmStart warmStart{previous ? previous->normal : Vec3::Zero(), &patchGuess, &kept};
    if (previous && previous->hasReference && previous->flatReference)
        warmStart.normal = flatPatchWarmNormal(*previous, posedBody(f, 0), posedBody(f, 1));
    const Superellipsoid& shapeA = ps.types[typeOf[f.a]].shape;
    const Superellipsoid& shapeB = ps.types[typeOf[f.b]].shape;
    const Pose poseA{f.positionA, bodies[f.a].orientation}, poseB{f.positionB, bodies[f.b].orientation};
    r = detectPairContact(shapeA, poseA, shapeB, poseB, &warmStart);
    if ((r.status == ContactStatus::boundingSphere || r.status == ContactStatus::orientedBox) && -r.depth < reach) {
        // a bounding volume's gap, but the pair may close it: the gap of the shapes
        PairContactOptions exact;
        exact.boundingVolumeRejection = false;
        r = detectPairContact(shapeA, poseA, shapeB, poseB, &warmStart, exact);
    }
    stats.newtonIterations += r.iterations;
    if (r.status == ContactStatus::fallback) ++stats.fallbacks;
    if (r.status == ContactStatus::boundingSphere || r.status == ContactStatus::orientedBox) {
        if (r.depth < 0.0) { // remember the bound (pairStillSeparated)
            WarmStartEntry entry;
            entry.key = f.key;
            entry.normal = r.normal;
            storeSeparatedPair(entry, f.poseA, f.poseB, -r.depth);
            warm.record(entry);
        }
        return false;
    }
    WarmStartEntry entry;
    entry.key = f.key;
    storePairReference(entry, f.poseA, f.poseB, r);
    entry.normal = r.normal;
    entry.patchGuess = patchGuess;
    slot = warm.record(entry);
    if (kept.valid) warm.keepPatch(slot, kept);
    return true;
}

void DemEngine::Impl::detectWalls(StepStatistics& stats) {
    const std::size_t n = bodies.size();
    // Walls: faces within the bounding sphere of each particle. A particle
    // on a floor of many coplanar faces reaches several of them, and all
    // but the one that claims its deepest point answer "no contact" (the
    // exact query, every substep). So the faces that held its face contact
    // in the last substep are queried first, and an interior face
    // (WallSet::interiorFace) of a plane that has given a face contact is
    // skipped: its answer is "no contact" without asking. Contacts are then
    // taken in face order, as if every face had been queried.
    nearWall.resize(n);
    for (std::size_t i = 0; i < n && !walls.empty(); ++i) {
        nearFaces.clear();
        // (most bodies; a halo copy's walls are its owner's, except a
        // periodic image's of an own particle: it meets the walls beyond
        // the boundary for its source; a held body and a wall cannot move
        // each other)
        const bool ownersWalls = exchange && haloBody[i] && !(anyLocalImage && sourceBody[i] >= 0);
        if (ownersWalls || held(i) || walls.noFaceWithin(centres[i], radius[i])) {
            nearWall[i] = 0;
            if (!ownersWalls && !held(i) && settings.speculativeWallContacts) addSpeculativeWallContacts(i, stats);
            continue;
        }
        faceCache.facesNear(walls, i, ids[i], radius[i], centres[i], radius[i], nearFaces);
        nearWall[i] = !nearFaces.empty();
        if (nearFaces.empty()) {
            if (settings.speculativeWallContacts) addSpeculativeWallContacts(i, stats);
            continue;
        }
        queryNearFaces(i, stats);
        if (!wallResults.empty()) addWallContacts(i, stats);
        if (settings.speculativeWallContacts) addSpeculativeWallContacts(i, stats, true);
    }
}

// Contacts before penetration: a point of body i that would reach the
// plane of a face within two substeps at its present approach speed, not
// touching it yet, gets a contact there with depth -gap. The impulse stage
// lets it close the gap and no more, or bounces an impact from there
// (setUpSolverContacts), so a falling body meets the wall with its
// restitution instead of entering it by up to a substep's travel and being
// projected out. Two points per face: the body's deepest point towards it
// (the support point along the face's outward normal), unless a contact
// already holds that plane, and the deepest point after the body has
// turned for two substeps (the far side of a block rocking on an edge).
// Both must project inside the face. near: nearFaces holds the faces
// within the bounding sphere; else the faces within the sphere grown by
// two substeps' travel are searched (a body about to reach a wall).
void DemEngine::Impl::addSpeculativeWallContacts(std::size_t i, StepStatistics& stats, bool near) {
    const RigidBodyState& b = bodies[i];
    const double speed = b.velocity.norm() + b.angularVelocity.norm() * radius[i];
    const double reach = 2.0 * substepLength * speed;
    // (below kSpeculativeFloor: the exact contact's)
    if (!(reach > kSpeculativeFloor * settings.allowedPenetration * diameter[i])) return;
    if (!near) {
        if (walls.noFaceWithin(centres[i], radius[i] + reach)) return;
        nearFaces.clear();
        walls.facesNear(centres[i], radius[i] + reach, nearFaces);
        claimedPlanes.clear();
    }
    const Superellipsoid& shape = system->types[static_cast<std::size_t>(typeOf[i])].shape;
    const Mat3& R = poses[i].rotation;
    // (a turn that moves no point by more than the floor within two
    // substeps leaves the far side where the deepest point is)
    const bool turning = 2.0 * substepLength * b.angularVelocity.norm() * radius[i] >
                         kSpeculativeFloor * settings.allowedPenetration * diameter[i];
    const Mat3 turned = turning ? Mat3(advanceOrientation(poses[i].orientation, b.angularVelocity,
                                                           2.0 * substepLength).toRotationMatrix())
                                : R;
    // (planes held by exact contacts: claimedPlanes; by a speculative
    // contact through another face of the plane: speculativePlanes)
    std::vector<int>& speculativePlanes = laterQueries; // (free scratch here)
    speculativePlanes.clear();
    const auto holds = [](const std::vector<int>& planes, int plane) {
        return std::find(planes.begin(), planes.end(), plane) != planes.end();
    };
    for (const int f : nearFaces) {
        const std::size_t face = static_cast<std::size_t>(f);
        const int plane = walls.planeOf(face);
        if (holds(speculativePlanes, plane)) continue;
        // (no point of the body is nearer the plane than its bounding sphere)
        if (-walls.planeDistance(face, centres[i]) - radius[i] > reach) continue;
        const bool claimed = holds(claimedPlanes, plane);
        if (claimed && !turning) continue;
        const Vec3& n = walls.outwardNormalOf(face); // from the particle into the wall
        Vec3 points[2];
        int parts[2];
        int count = 0;
        const Vec3 deepest = centres[i] + R * shape.supportPoint(R.transpose() * n);
        if (!claimed) {
            points[count] = deepest;
            parts[count++] = 0;
        }
        if (turning) {
            // (another part of the body only: on a rounded face the deepest
            // point rolls along, which its contact already follows)
            const Vec3 far = centres[i] + R * shape.supportPoint(turned.transpose() * n);
            if ((far - deepest).squaredNorm() > kFarSide * kFarSide * radius[i] * radius[i]) {
                points[count] = far;
                parts[count++] = 1;
            }
        }
        for (int m = 0; m < count; ++m) {
            const Vec3& point = points[m];
            const double gap = -walls.planeDistance(face, point);
            if (!(gap > 0.0)) continue; // touching: the exact query's
            const double approach = n.dot(b.velocity + b.angularVelocity.cross(point - centres[i]));
            if (!(gap < 2.0 * substepLength * approach)) continue;
            if (!walls.faceContainsProjection(face, point, 0.0)) continue;
            WarmStartEntry entry;
            entry.key = ContactKey::wall(ids[i], f);
            entry.key.part = kSpeculativePart + parts[m];
            entry.normal = n;
            contacts.push_back(DemContact{static_cast<int>(i), -1, f, point, n, -gap});
            contactSlot.push_back(warm.record(entry, warm.find(entry.key)));
            ++stats.speculativeContacts;
            if (!holds(speculativePlanes, plane)) speculativePlanes.push_back(plane);
        }
    }
}

// The exact queries (or reuse) of the faces near body i (nearFaces, in query
// order: faces that held a contact first, interior faces of a claimed plane
// skipped): its contacts to wallResults.
void DemEngine::Impl::queryNearFaces(std::size_t i, StepStatistics& stats) {
    const ParticleSystem& ps = *system;
    wallResults.clear();
    faceQueries.clear();
    laterQueries.clear();
    facePlaces.clear();
    for (std::size_t k = 0; k < nearFaces.size(); ++k) {
        const WarmStartEntry* e = warm.find(ContactKey::wall(ids[i], nearFaces[k]));
        facePlaces.push_back(warm.placeOf(e));
        (e && e->hasReference ? faceQueries : laterQueries).push_back(static_cast<int>(k));
    }
    faceQueries.insert(faceQueries.end(), laterQueries.begin(), laterQueries.end());
    claimedPlanes.clear();
    const Pose pose{poses[i].position, poses[i].orientation};
    const PairPose& particlePose = poses[i];
    for (const int position : faceQueries) {
        const int f = nearFaces[static_cast<std::size_t>(position)];
        const std::size_t face = static_cast<std::size_t>(f);
        if (walls.interiorFace(face) &&
            std::find(claimedPlanes.begin(), claimedPlanes.end(), walls.planeOf(face)) != claimedPlanes.end())
            continue;
        const ContactKey key = ContactKey::wall(ids[i], f);
        // (by its place: a record may move the cache's entries)
        const WarmStartEntry* e = warm.atPlace(facePlaces[static_cast<std::size_t>(position)]);
        ContactResult r;
        int slot;
        bool carried = false;
        if (e && settings.contactReuseTolerance > 0.0 &&
            reuseWallReference(*e, particlePose, settings.contactReuseTolerance,
                               settings.flatContactReuseTolerance, radius[i], r,
                               settings.flatContactReuseTranslation)) {
            ++stats.reusedWalls;
            carried = true;
            slot = warm.recordCarried(*e, r.normal); // keeps the reference
        } else if (const KeptPatch* keptPatch = e && e->flatReference && settings.contactReuseTolerance > 0.0
                                                    ? warm.keptPatch(e)
                                                    : nullptr;
                   keptPatch != nullptr &&
                   reuseKeptWallPatch(*e, *keptPatch, particlePose, ps.types[typeOf[i]].shape, walls, f,
                                      settings.flatContactReuseTolerance, settings.flatPatchSlideTolerance,
                                      radius[i], r)) {
            // a slide or spin on a face: as for pairs (above)
            ++stats.reusedWalls;
            slot = warm.recordCarried(*e, r.normal);
            storeWallReference(warm.slot(slot), particlePose, r);
            warm.compliance(slot).valid = false;
        } else {
            PatchGuess patchGuess = e ? e->patchGuess : PatchGuess{};
            KeptPatch kept;
            r = detectFaceContact(ps.types[typeOf[i]].shape, pose, walls, f, e ? &e->normal : nullptr,
                                  &patchGuess, &kept);
            stats.newtonIterations += r.iterations;
            if (r.status == ContactStatus::fallback) ++stats.fallbacks;
            if (r.status == ContactStatus::boundingSphere || r.status == ContactStatus::orientedBox)
                continue;
            WarmStartEntry entry;
            entry.key = key;
            storeWallReference(entry, particlePose, r);
            entry.normal = r.normal;
            entry.patchGuess = patchGuess;
            slot = warm.record(entry, e);
            if (kept.valid) warm.keepPatch(slot, kept);
        }
        if (!r.contact || !(r.depth > 0.0)) continue;
        if (r.feature == WallFeature::face) claimedPlanes.push_back(walls.planeOf(face));
        wallResults.push_back({position, slot, carried, key, r});
    }
}

// Body i's wall contacts in face order, duplicates merged, to contacts with
// their warm-start slots and rim points.
void DemEngine::Impl::addWallContacts(std::size_t i, StepStatistics& stats) {
    std::sort(wallResults.begin(), wallResults.end(),
              [](const WallResult& a, const WallResult& b) { return a.position < b.position; });
    wallContacts.clear();
    wallSlots.clear();
    for (std::size_t k = 0; k < wallResults.size(); ++k) {
        const ContactResult& r = wallResults[k].result;
        // contact module: normal from the wall into the domain; the
        // collision module wants it from the particle into the wall.
        wallContacts.push_back(DemContact{static_cast<int>(i), -1,
                                          nearFaces[static_cast<std::size_t>(wallResults[k].position)],
                                          r.surfacePoint2, Vec3(-r.normal), r.depth});
        // parallel to wallContacts through the merge: index of its result
        wallSlots.push_back(static_cast<int>(k));
    }
    mergeDuplicateWallContacts(wallContacts, wallSlots);
    for (std::size_t k = 0; k < wallContacts.size(); ++k) {
        const DemContact& c = wallContacts[k];
        const WallResult& w = wallResults[static_cast<std::size_t>(wallSlots[k])];
        contacts.push_back(c);
        contactSlot.push_back(w.slot);
        ++stats.wallContacts;
        stats.maxOverlapOverDeq = std::max(stats.maxOverlapOverDeq, c.depth / diameter[i]);
        addRimPoints(w.result, w.key, static_cast<int>(i), -1, c.face, w.carried, stats);
    }
}

// Rim points of a flat-face contact (contact/ContactPatch.hpp) become
// velocity constraints with the contact's normal, each with its own warm
// start (key part 1..kRimPoints). Of a carried contact (its narrow-phase
// reference reused) the rim points are the last ones, fixed in the same
// body frame: their entries are carried too, and with them their kept
// compliance (setUpKeepingCompliance), as the contact's own.
void DemEngine::Impl::addRimPoints(const ContactResult& r, const ContactKey& key, int i, int j,
                                   int face, bool carried, StepStatistics& stats) {
    if (!settings.patchRimPoints || settings.onePartnerPerStep) return;
    const Vec3 normal = contacts.back().normal; // as the solver wants it
    for (int k = 0; k < r.rimCount; ++k) {
        contacts.push_back(DemContact{i, j, face, r.rim[static_cast<std::size_t>(k)], normal, 0.0, true});
        const ContactKey rimKey = key.rimPoint(k);
        const WarmStartEntry* previous = carried ? warm.find(rimKey) : nullptr;
        if (previous) {
            contactSlot.push_back(warm.recordCarried(*previous, normal));
        } else {
            WarmStartEntry entry;
            entry.key = rimKey;
            entry.normal = normal;
            contactSlot.push_back(warm.record(entry));
        }
        ++stats.rimPoints;
    }
}

} // namespace sef::dem
