// Sleeping: islands of touching bodies at rest on a wall are neither
// integrated nor queried until something wakes them.
//
// A resting bed still costs a full step: every contact is detected and
// solved every substep, only to give back zero velocities, and the
// round-off of that answer keeps blocky bodies rocking by a few 1e-3 rad/s.
// Rigid-body engines put such bodies to sleep (Box2D: islands whose bodies
// stayed below a sleep speed for a sleep time; Bullet: deactivation). Here:
//   - a body is still while it stays within a small drift of where its
//     still time began (a fraction of its size, a small angle);
//   - at the end of a step, the bodies joined by the last substep's contacts
//     form islands; an island that touches a wall or a held body and whose
//     bodies have all been still for sleepTime falls asleep: its velocities
//     become zero and its bodies are held (DemEngine::Impl::held) from the
//     next step on: no kicks, no drift, no contacts among themselves or with
//     walls (their contact memory waits in the warm-start cache);
//   - an awake body moving (faster than the sleep speed) towards a sleeping
//     one, within two substeps' travel of it, or touching it wakes that
//     body's island at the next substep; until then the sleeping body is
//     immovable, as a held one;
//   - the force at rest on a sleeping body (gravity, external force and
//     torque, fluid drag at zero velocity) is watched: a change beyond
//     wakeForceChange of it wakes the island (a flow that starts to lift a
//     bed); new walls wake everything; halo copies, the bodies sent as such
//     and periodic images never sleep.
// The records (still time, asleep, island, rest force) are carried by id
// from step to step and written in the engine's state, so a restart
// continues exactly.
#include "dem/engine/DemEngineImpl.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace sef::dem {

namespace {
// The angle of the rotation from a to b [rad]
double turnBetween(const Quat& a, const Quat& b) {
    const double c = std::min(1.0, std::abs(a.dot(b)));
    return 2.0 * std::acos(c);
}
} // namespace

// The force and torque on particle i at rest: what its contacts hold
// while it sleeps.
void DemEngine::Impl::restForceOf(const ParticleSystem& ps, std::size_t i, Vec3& f, Vec3& t) const {
    const ParticleType& type = ps.types[static_cast<std::size_t>(ps.type[i])];
    f = type.mass * settings.gravity + ps.externalForce[i];
    t = ps.externalTorque[i];
    if (!ps.fluidDrag.empty()) {
        const FluidDrag& d = ps.fluidDrag[i];
        f += d.translation * d.fluidVelocity;
        t += d.rotation * d.fluidRotationRate;
    }
}

// Before the gather: each body's record by id (body k is particle order[k];
// the last step's body of particle i, bodyOf[i], is the first guess), the
// sleeping ones found, and the islands woken whose force at rest changed.
void DemEngine::Impl::carrySleepState(const ParticleSystem& ps) {
    const std::size_t n = ps.size();
    anyAsleep = false;
    forceWake.clear();
    if (!sleeping()) {
        sleep.clear();
        return;
    }
    std::unordered_map<std::int64_t, std::size_t> byId;
    bool mapped = false;
    sleepScratch.assign(n, SleepRecord{});
    asleepBody.assign(n, 0);
    std::vector<std::int64_t> woken;
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t i = order[k];
        const std::int64_t id = ps.id[i];
        const SleepRecord* found = nullptr;
        if (i < bodyOf.size() && bodyOf[i] < sleep.size() && sleep[bodyOf[i]].id == id) found = &sleep[bodyOf[i]];
        if (!found && !sleep.empty()) {
            if (!mapped) {
                for (std::size_t m = 0; m < sleep.size(); ++m) byId.emplace(sleep[m].id, m);
                mapped = true;
            }
            const auto it = byId.find(id);
            if (it != byId.end()) found = &sleep[it->second];
        }
        SleepRecord& r = sleepScratch[k];
        if (found) {
            r = *found;
        } else {
            r.id = id;
            r.windowPosition = ps.position[i];
            r.windowOrientation = ps.orientation[i];
            r.driftSpeed = ps.velocity[i].norm() +
                           ps.angularVelocity[i].norm() * ps.types[static_cast<std::size_t>(ps.type[i])].boundingRadius;
        }
        if (!r.asleep) continue;
        asleepBody[k] = 1;
        anyAsleep = true;
        Vec3 f, t;
        restForceOf(ps, i, f, t);
        const double allowed = settings.wakeForceChange * r.restForce.norm();
        const double reach = ps.types[static_cast<std::size_t>(ps.type[i])].boundingRadius;
        if ((f - r.restForce).norm() > allowed || (t - r.restTorque).norm() > allowed * reach)
            woken.push_back(r.island);
    }
    sleep.swap(sleepScratch);
    freshWake.insert(freshWake.end(), woken.begin(), woken.end());
    std::sort(woken.begin(), woken.end());
    forceWake.swap(woken);
}

// Wakes every body of the islands keyed in keys (cleared). fresh: their
// still time starts again (a new force or new walls: they must show that
// they rest under them); else it goes on (a body touching them: it did not
// move them, and the two islands, now one, may sleep as soon as the newcomer
// has been still long enough). kick: within the first substep, whose half
// kick the gather did not give them (they were held), so it is given now.
void DemEngine::Impl::wakeIslands(std::vector<std::int64_t>& keys, bool fresh, bool kick, double h,
                                  StepStatistics& stats) {
    if (keys.empty() || !anyAsleep) {
        keys.clear();
        return;
    }
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    bool stillAsleep = false;
    for (std::size_t k = 0; k < bodies.size(); ++k) {
        if (!asleepBody[k]) continue;
        SleepRecord& r = sleep[k];
        if (!std::binary_search(keys.begin(), keys.end(), r.island)) {
            stillAsleep = true;
            continue;
        }
        const bool byForce = fresh && std::binary_search(forceWake.begin(), forceWake.end(), r.island);
        r.asleep = 0;
        r.island = -1;
        if (fresh) {
            r.stillTime = 0.0;
            r.windowPosition = bodies[k].position;
            r.windowOrientation = bodies[k].orientation;
        }
        asleepBody[k] = 0;
        heldBody[k] = system->types[static_cast<std::size_t>(typeOf[k])].held;
        if (!(exchange && haloBody[k])) {
            ++stats.wokenUp;
            if (byForce) ++stats.wokenByForce;
        }
        if (kick) {
            if (hasDrag) { // the gather held it: take back the held half kick's drag (holdBody)
                const FluidDrag& d = drag[k];
                dragImpulse[k] -= (0.5 * h) * (d.translation * d.fluidVelocity);
                dragAngular[k] -= (0.5 * h) * (d.rotation * d.fluidRotationRate);
            }
            beginBody(k, h);
        }
    }
    anyAsleep = stillAsleep;
    keys.clear();
}

// New walls or settings: every island wakes at the next step, its still
// time starting again.
void DemEngine::Impl::wakeAll() {
    for (SleepRecord& r : sleep)
        if (r.asleep) freshWake.push_back(r.island);
}

// After the gather and the halo set-up: the sleep speed of each body, the
// islands woken at the end of the last step, and halo copies, the bodies
// sent as copies, periodic images and their sources kept awake: another
// processor (or image) moves them too.
void DemEngine::Impl::prepareSleeping(double h, StepStatistics& stats) {
    const std::size_t n = bodies.size();
    sleepSpeedOf.resize(n);
    const double g = settings.gravity.norm();
    for (std::size_t k = 0; k < n; ++k)
        sleepSpeedOf[k] = settings.sleepSpeed >= 0.0 ? settings.sleepSpeed : 1e-2 * std::sqrt(g * diameter[k]);
    noSleepBody.assign(n, 0);
    wakeIslands(freshWake, true, true, h, stats);
    wakeIslands(pendingWake, false, true, h, stats);
    if (!exchange) return;
    for (std::size_t k = 0; k < bodies.size(); ++k) {
        if (haloBody[k]) noSleepBody[k] = 1;
        if (anyLocalImage && sourceBody[k] >= 0) noSleepBody[static_cast<std::size_t>(sourceBody[k])] = 1;
    }
    for (const std::size_t k : sentBodies) noSleepBody[k] = 1;
    std::vector<std::int64_t> keys;
    for (std::size_t k = 0; k < bodies.size(); ++k)
        if (noSleepBody[k] && asleep(k)) keys.push_back(sleep[k].island);
    wakeIslands(keys, true, true, h, stats);
}

// The detection met a candidate pair of an awake body and a sleeping one:
// the sleeping island wakes at the next substep if they touch, or if the
// awake body moves and their gap along the line of centres is within two
// substeps' travel.
void DemEngine::Impl::noteSleeperNear(int awake, int sleeper, bool touching) {
    const std::size_t a = static_cast<std::size_t>(awake), s = static_cast<std::size_t>(sleeper);
    if (!touching) {
        // no point of the awake body moves faster than speed; their gap
        // along the line of centres (support values) bounds their distance
        // (its speed at the last drift: at the detection a resting body
        // carries the half kicks of gravity, which its contacts take back)
        const double speed = sleep[a].driftSpeed;
        if (!(speed > sleepSpeedOf[a])) return;
        const Vec3 d = centres[s] - centres[a];
        const double distance = d.norm();
        if (distance - radius[a] - radius[s] > 2.0 * speed * substepLength) return;
        if (distance > 0.0) {
            const Vec3 n = d / distance;
            const auto reach = [this](std::size_t k, const Vec3& direction) {
                return system->types[static_cast<std::size_t>(typeOf[k])].shape.supportValue(
                    poses[k].orientation.conjugate() * direction);
            };
            if (distance - reach(a, n) - reach(s, -n) > 2.0 * speed * substepLength) return;
        }
    }
    pendingWake.push_back(sleep[s].island);
}

// In the drift: the speed of body i's fastest point, for noteSleeperNear.
void DemEngine::Impl::noteMotion(std::size_t i) {
    const RigidBodyState& b = bodies[i];
    sleep[i].driftSpeed = b.velocity.norm() + b.angularVelocity.norm() * radius[i];
}

// After each substep's impulses: its contacts join bodies into islands
// (union-find over the step), and flag them: 1 anchored (a wall or a held
// body), 2 not to sleep in this step (a moving wall; a sleeping body, which
// wakes at the next substep, the two then sleeping as one). Over the whole
// step, not its last substep: a contact that flickers still joins.
void DemEngine::Impl::linkIslands(bool first) {
    const std::size_t n = bodies.size();
    std::vector<std::size_t>& root = islandRoot;
    if (first) {
        root.resize(n);
        for (std::size_t k = 0; k < n; ++k) root[k] = k;
        bodyFlags.assign(n, 0);
    }
    const auto find = [&root](std::size_t i) {
        while (root[i] != i) i = root[i] = root[root[i]];
        return i;
    };
    const auto anchorOf = [this](int body) -> char { return asleep(std::size_t(body)) ? 2 : 1; };
    for (const DemContact& c : active) {
        const std::size_t i = std::size_t(c.i);
        if (c.isWall()) {
            const bool movingWall = !faceMotion.empty() && faceMotion[std::size_t(c.face)] >= 0;
            bodyFlags[i] |= movingWall ? 2 : 1;
            continue;
        }
        const std::size_t j = std::size_t(c.j);
        if (held(j)) {
            bodyFlags[i] |= anchorOf(c.j);
        } else if (held(i)) {
            bodyFlags[j] |= anchorOf(c.i);
        } else {
            const std::size_t a = find(i), b = find(j);
            if (a != b) root[std::max(a, b)] = std::min(a, b);
        }
    }
}

// At the end of a step: still times, then the islands that fall asleep.
void DemEngine::Impl::putIslandsToSleep(double dt, StepStatistics& stats) {
    const std::size_t n = bodies.size();
    for (std::size_t k = 0; k < n; ++k) {
        SleepRecord& r = sleep[k];
        if (r.asleep || held(k)) continue;
        const RigidBodyState& b = bodies[k];
        // (not its speed: a resting block may chatter by 1e-3 rad from step
        // to step, a swing that goes nowhere)
        const bool drifted = (b.position - r.windowPosition).norm() > settings.sleepDrift * diameter[k] ||
                             turnBetween(b.orientation, r.windowOrientation) > settings.sleepDrift;
        if (drifted) {
            r.stillTime = 0.0;
            r.windowPosition = b.position;
            r.windowOrientation = b.orientation;
        } else {
            r.stillTime += dt;
        }
    }
    // islands: the substeps' links (linkIslands), their flags at their roots
    std::vector<std::size_t>& root = islandRoot;
    const auto find = [&root](std::size_t i) {
        while (root[i] != i) i = root[i] = root[root[i]];
        return i;
    };
    std::vector<char>& flags = islandFlags;
    flags.assign(n, 0);
    for (std::size_t k = 0; k < n; ++k) flags[find(k)] |= bodyFlags[k];
    for (std::size_t k = 0; k < n; ++k)
        if (!held(k) && (sleep[k].stillTime < settings.sleepTime || noSleepBody[k])) flags[find(k)] |= 2;
    std::vector<std::int64_t>& key = sleepKeys;
    key.assign(n, -1);
    for (std::size_t k = 0; k < n; ++k) {
        if (held(k) || flags[find(k)] != 1) continue;
        std::int64_t& island = key[find(k)];
        island = island < 0 ? ids[k] : std::min(island, ids[k]);
    }
    for (std::size_t k = 0; k < n; ++k) {
        if (held(k) || flags[find(k)] != 1) continue;
        SleepRecord& r = sleep[k];
        RigidBodyState& b = bodies[k];
        r.asleep = 1;
        r.island = key[find(k)];
        const std::size_t i = order[k];
        restForceOf(*system, i, r.restForce, r.restTorque);
        r.driftSpeed = 0.0;
        b.velocity = b.angularVelocity = Vec3::Zero();
        ++stats.fellAsleep;
    }
    for (const SleepRecord& r : sleep) stats.sleepingParticles += r.asleep ? 1 : 0;
}

// The records for the state file: the asleep and the still ones.
void DemEngine::Impl::recordSleep(std::vector<SleepRecord>& out) const {
    out.clear();
    for (const SleepRecord& r : sleep)
        if (r.asleep || r.stillTime > 0.0) out.push_back(r);
}

} // namespace sef::dem
