// Halo synchronisation of decomposed runs (dem/boundaries/HaloExchange.hpp): which
// bodies are halo copies, their state from their owners, their corrections
// back, and which processor resolves a pair.
#include "dem/engine/DemEngineImpl.hpp"

#include <stdexcept>

namespace sef::dem {

// Which bodies are halo copies, and the body of every sent and received
// particle. The scales of the substep (resting speed, sweep tolerance) come
// from the largest acceleration of ALL processors, so every side classifies
// a contact as serial would.
void DemEngine::Impl::setUpHalo(std::size_t n) {
    haloBody.assign(n, 0);
    sentBodies.clear();
    haloBodies.clear();
    anyLocalImage = false;
    if (!exchange) return;
    sourceBody.assign(n, -1);
    for (std::size_t i = exchange->firstHalo(); i < n; ++i) {
        haloBody[bodyOf[i]] = 1;
        haloBodies.push_back(bodyOf[i]);
        const long source = exchange->localSource(i - exchange->firstHalo());
        if (source < 0) continue;
        if (static_cast<std::size_t>(source) >= exchange->firstHalo())
            throw std::invalid_argument("DemEngine::step: a periodic image's source is not an own particle");
        sourceBody[bodyOf[i]] = static_cast<long>(bodyOf[static_cast<std::size_t>(source)]);
        anyLocalImage = true;
    }
    for (const std::size_t i : exchange->sentParticles()) {
        if (i >= exchange->firstHalo())
            throw std::invalid_argument("DemEngine::step: a halo particle is listed as sent");
        sentBodies.push_back(bodyOf[i]);
    }
    accelerationScale = exchange->maximum(accelerationScale);
}

// The halo copies take their owners' state of the start of the substep
// (after the first half kick), with the centres and poses of the detection.
void DemEngine::Impl::refreshHalo() {
    if (!exchange) return;
    sentStates.resize(sentBodies.size());
    for (std::size_t k = 0; k < sentBodies.size(); ++k) {
        const RigidBodyState& b = bodies[sentBodies[k]];
        sentStates[k] = BodyKinematics{b.position, b.orientation, b.velocity, b.angularVelocity};
    }
    haloStates.resize(haloBodies.size());
    exchange->exchangeStates(sentStates, haloStates);
    for (std::size_t h = 0; h < haloBodies.size(); ++h) {
        const std::size_t k = haloBodies[h];
        RigidBodyState& b = bodies[k];
        const BodyKinematics& s = haloStates[h];
        b.position = s.position;
        b.orientation = s.orientation;
        b.velocity = s.velocity;
        b.angularVelocity = s.angularVelocity;
        if (!finiteState(b)) throwNonFinite(k, "as received from its owner");
        centres[k] = b.position;
        poses[k] = PairPose{b.position, b.orientation.toRotationMatrix(), b.orientation};
    }
}

// What the impulses and the overlap removal did to the halo copies goes to
// their owners; what the neighbours did to this processor's particles is
// added to them (before the drift).
void DemEngine::Impl::returnHaloCorrections() {
    if (!exchange) return;
    haloCorrections.resize(haloBodies.size());
    for (std::size_t h = 0; h < haloBodies.size(); ++h) {
        const RigidBodyState& b = bodies[haloBodies[h]];
        const BodyKinematics& s = haloStates[h];
        haloCorrections[h] = BodyCorrection{b.velocity - s.velocity, b.angularVelocity - s.angularVelocity,
                                            b.position - s.position};
    }
    sentCorrections.resize(sentBodies.size());
    exchange->exchangeCorrections(haloCorrections, sentCorrections);
    for (std::size_t k = 0; k < sentBodies.size(); ++k) {
        const BodyCorrection& c = sentCorrections[k];
        if (c.velocity.isZero(0.0) && c.angularVelocity.isZero(0.0) && c.shift.isZero(0.0)) continue;
        if (held(sentBodies[k])) continue; // (its copies are held too: immovable there)
        RigidBodyState& b = bodies[sentBodies[k]];
        b.velocity += c.velocity;
        b.angularVelocity += c.angularVelocity;
        b.position += c.shift;
    }
}

// Whether this processor resolves the contact of bodies i and j
// (dem/boundaries/HaloExchange.hpp): both owned, or the smaller id owned.
bool DemEngine::Impl::resolvesPair(int i, int j) const {
    if (!exchange) return true;
    const bool haloI = haloBody[static_cast<std::size_t>(i)], haloJ = haloBody[static_cast<std::size_t>(j)];
    if (haloI == haloJ) return !haloI;
    return ids[static_cast<std::size_t>(i)] < ids[static_cast<std::size_t>(j)] ? !haloI : !haloJ;
}

} // namespace sef::dem
