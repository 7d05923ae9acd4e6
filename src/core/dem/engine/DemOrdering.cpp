// Ordering and slots: the memory order of the bodies, the gather of the
// particles into it at the start of a step and the scatter at its end.
#include "dem/engine/DemEngineImpl.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace sef::dem {

// Memory order of the bodies. Particles injected at random sit in random
// spatial order, and the candidate-pair loop then jumps through memory: the
// detection loop's own time grew 19.5x for 10x the particles (1e3 -> 1e4,
// benchmarks/README.md). Large systems are therefore processed sorted by
// grid cell (x fastest, cells of twice the largest bounding radius),
// recomputed from the positions at every call, so the order is no hidden
// state (restarts continue exactly). Small systems keep the particle order:
// they fit in cache, and their results stay bit-for-bit what they were.
void DemEngine::Impl::computeOrder(const ParticleSystem& ps) {
    const std::size_t n = ps.size();
    bool hadOrder = order.size() == n && n > 0; // the last call's order, as a first guess
    const long threshold = settings.spatialSortThreshold;
    spatiallySorted = !(threshold <= 0 || n < static_cast<std::size_t>(threshold));
    if (!spatiallySorted) {
        order.resize(n);
        for (std::size_t i = 0; i < n; ++i) order[i] = i;
        return;
    }
    // The last call's order names particles by index. When the particles
    // changed (a decomposed run: some left, some arrived, the halo changed),
    // the guess is that order followed through the ids (ids: the last
    // call's, by body), the new particles after it: still a permutation,
    // and nearly sorted, where a guess by index would need a full sort.
    bool sameParticles = hadOrder && ids.size() == n;
    for (std::size_t k = 0; sameParticles && k < n; ++k) sameParticles = ps.id[order[k]] == ids[k];
    if (!sameParticles && !ids.empty() && n > 0) {
        std::int64_t largest = -1;
        for (const std::int64_t id : ps.id) largest = std::max(largest, id);
        for (const std::int64_t id : ids) largest = std::max(largest, id);
        if (largest < static_cast<std::int64_t>(8 * n + 1024)) { // compact ids (the usual case)
            std::vector<long>& indexOfId = guessIndex;
            indexOfId.assign(static_cast<std::size_t>(largest + 1), -1);
            for (std::size_t i = 0; i < n; ++i)
                if (ps.id[i] >= 0) indexOfId[static_cast<std::size_t>(ps.id[i])] = static_cast<long>(i);
            order.clear();
            for (const std::int64_t id : ids) {
                if (id < 0) continue;
                long& i = indexOfId[static_cast<std::size_t>(id)];
                if (i >= 0) order.push_back(static_cast<std::size_t>(i));
                i = -1; // taken (a repeated id is taken once)
            }
            for (std::size_t i = 0; i < n; ++i)
                if (ps.id[i] < 0 || indexOfId[static_cast<std::size_t>(ps.id[i])] >= 0) order.push_back(i);
            hadOrder = order.size() == n;
        } else {
            hadOrder = false;
        }
    }
    if (!hadOrder) {
        order.resize(n);
        for (std::size_t i = 0; i < n; ++i) order[i] = i;
    }
    const double cell = 2.0 * largestBoundingRadius(ps.types);
    Vec3 lo = ps.position[0], hi = ps.position[0];
    for (const Vec3& x : ps.position) {
        lo = lo.cwiseMin(x);
        hi = hi.cwiseMax(x);
    }
    const auto cells = [&](double extent) {
        return static_cast<std::uint64_t>(std::min(extent / cell, 2.0e6)) + 1;
    };
    const std::uint64_t nx = cells(hi.x() - lo.x()), ny = cells(hi.y() - lo.y());
    // Keys listed in the last call's order: between steps only a few
    // particles change cell, so an insertion sort finishes in O(n); past a
    // budget of moves (a first call, a shaken system) a full sort. The keys
    // (cell, index) are unique, so both give the same order.
    // (cells computed in particle order: the positions are read in sequence)
    cellKey.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const Vec3 c = ((ps.position[i] - lo) / cell).cwiseMin(2.0e6);
        const auto ix = static_cast<std::uint64_t>(c.x()), iy = static_cast<std::uint64_t>(c.y()),
                   iz = static_cast<std::uint64_t>(c.z());
        cellKey[i] = (iz * ny + iy) * nx + ix;
    }
    orderKeys.resize(n);
    for (std::size_t k = 0; k < n; ++k) orderKeys[k] = {cellKey[order[k]], order[k]};
    std::size_t budget = hadOrder ? 8 * n : 0;
    bool sorted = hadOrder;
    for (std::size_t k = 1; k < n && sorted; ++k) {
        const auto key = orderKeys[k];
        std::size_t m = k;
        for (; m > 0 && key < orderKeys[m - 1]; --m) {
            orderKeys[m] = orderKeys[m - 1];
            if (budget-- == 0) {
                sorted = false;
                break;
            }
        }
        orderKeys[m] = key;
    }
    if (!sorted) std::sort(orderKeys.begin(), orderKeys.end());
    for (std::size_t k = 0; k < n; ++k) order[k] = orderKeys[k].second;
}

// The wall-face cache is kept per body slot (read in slot order): carry
// its entries to the slots their particles moved to. In a large falling
// system a particle crossing a cell layer shifts the slots of a whole
// layer, every step; without this every particle missed its entry.
void DemEngine::Impl::carryFaceCache(std::size_t n) {
    if (bodyOf.size() == n && n > 0) {
        fromSlot.resize(n);
        bool moved = false;
        for (std::size_t k = 0; k < n; ++k) {
            fromSlot[k] = bodyOf[order[k]];
            moved = moved || fromSlot[k] != k;
        }
        if (moved) faceCache.permute(fromSlot);
    }
}

// The gather: the particles of ps into the bodies, body k from particle
// order[k] (computeOrder), with the scales of the step, the fluid drag's
// propagators and the start of the first substep.
void DemEngine::Impl::gatherBodies(const ParticleSystem& ps, double h) {
    const std::size_t n = ps.size();
    bodies.resize(n);
    typeOf.resize(n);
    ids.resize(n);
    radius.resize(n);
    diameter.resize(n);
    force.resize(n);
    torque.resize(n);
    if (hasDrag) {
        for (auto* v : {&kickT, &kickR}) v->resize(n);
        for (auto* v : {&dragImpulse, &dragAngular}) v->assign(n, Vec3::Zero());
        drag.resize(n);
        inertiaWorld.resize(n);
        kickTorque.resize(n);
    }
    std::vector<double> typeDiameter(ps.types.size());
    anyHeld = false;
    for (std::size_t t = 0; t < ps.types.size(); ++t) {
        typeDiameter[t] = ps.types[t].shape.equivalentDiameter();
        anyHeld = anyHeld || ps.types[t].held;
    }
    anyHeld = anyHeld || anyAsleep; // (a sleeping body is held: Sleeping.cpp)
    if (anyHeld) heldBody.resize(n);
    // Read the particle arrays in their own order and write each body to its
    // place (bodyOf, the inverse of order): scattered stores wait on nothing,
    // scattered loads from ten arrays did (1e5 falling particles: a third of
    // the step's own time, perf). With reorderParticles both orders are
    // nearly the same and this streams.
    // The same pass begins the first substep (Impl::beginBody).
    bodyOf.resize(n);
    for (std::size_t k = 0; k < n; ++k) bodyOf[order[k]] = k;
    centres.resize(n);
    poses.resize(n);
    accelerationScale = 0.0;
    bool finite = true;
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t k = bodyOf[i];
        const ParticleType& type = ps.types.at(static_cast<std::size_t>(ps.type[i]));
        RigidBodyState& b = bodies[k];
        b.position = ps.position[i];
        b.orientation = ps.orientation[i];
        b.velocity = ps.velocity[i];
        b.angularVelocity = ps.angularVelocity[i];
        b.mass = type.mass;
        b.principalInertia = type.principalInertia;
        typeOf[k] = ps.type[i];
        ids[k] = ps.id[i];
        if (!finiteState(b)) throwNonFinite(k, "at the start of the step");
        if (anyHeld) {
            heldBody[k] = type.held || asleep(k);
            if (heldBody[k]) b.velocity = b.angularVelocity = Vec3::Zero(); // at rest, whatever it was given
        }
        radius[k] = type.boundingRadius;
        diameter[k] = typeDiameter[static_cast<std::size_t>(ps.type[i])];
        const Vec3& f = force[k] = ps.externalForce[i];
        torque[k] = ps.externalTorque[i];
        if (!isFinite(f) || !isFinite(torque[k]))
            throw std::runtime_error("DEM step: external force or torque of particle id " +
                                     std::to_string(ps.id[i]) + " is not finite");
        // (a held body does not accelerate: it sets no resting speed)
        if (!held(k))
            accelerationScale = std::max(accelerationScale, (settings.gravity + f / type.mass).norm());
        if (hasDrag) {
            drag[k] = ps.fluidDrag[i];
            if (!drag[k].turnsWithBody || held(k)) setUpDrag(k, h);
        }
        finite = beginBody(k, h) && finite;
    }
    if (!finite) checkFinite("after integration"); // names the particle
}

// The scatter: the bodies back into ps (kinetic energy of the owned ones to
// stats); with reorderParticles the particles take the bodies' order.
void DemEngine::Impl::scatterBodies(ParticleSystem& ps, StepStatistics& stats) {
    const std::size_t n = ps.size();
    // (halo copies are not reordered: the caller finds them at the end)
    const bool reorder = settings.reorderParticles && spatiallySorted && !exchange;
    for (std::size_t k = 0; k < n; ++k) {
        const RigidBodyState& b = bodies[k];
        const std::size_t i = reorder ? k : order[k];
        ps.position[i] = b.position;
        ps.orientation[i] = b.orientation;
        ps.velocity[i] = b.velocity;
        ps.angularVelocity[i] = b.angularVelocity;
        if (!(exchange && haloBody[k])) stats.kineticEnergy += b.kineticEnergy();
    }
    if (hasDrag) {
        ps.dragImpulse.resize(n);
        ps.dragAngularImpulse.resize(n);
        for (std::size_t k = 0; k < n; ++k) {
            const std::size_t i = reorder ? k : order[k];
            ps.dragImpulse[i] = dragImpulse[k];
            ps.dragAngularImpulse[i] = dragAngular[k];
        }
    }
    if (reorder) {
        // the rest of the particle arrays in body order; body k is particle k
        // (swapped: the engine's copies are rewritten by the next gather)
        ps.type.swap(typeOf);
        ps.id.swap(ids);
        ps.externalForce.swap(force);
        ps.externalTorque.swap(torque);
        if (hasDrag) ps.fluidDrag.swap(drag);
        for (std::size_t k = 0; k < n; ++k) order[k] = bodyOf[k] = k;
    }
}

} // namespace sef::dem
