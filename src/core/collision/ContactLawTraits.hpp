#pragma once
// What a contact solver may know of a law without evaluating it, asked of
// the law: the DEM engine and the sequential-impulse solver
// (dem/engine/DemImpulseStage.cpp, dem/engine/SequentialImpulseSolver.cpp) take their
// shortcuts from these answers and never from the model's name. A new law
// (collision/CollisionParameters.hpp) answers each of them here, next to
// its impulse (collision/ContactImpulseLaw.cpp); the switches have no
// default, so the compiler names a law that was forgotten.
#include "collision/CollisionParameters.hpp"

namespace sef {

// Whether the law's impulse can have a part across the normal (friction or
// tangential restitution). When it cannot, J = j n with j from u'_n =
// target alone: the law reads n.K n and nothing else of the compliance, so
// a solver may skip K and K^-1, solve the contact as one scalar row on its
// accumulated normal impulse, and keep only the normal part of a stored
// impulse when it warm-starts the contact.
constexpr bool usesTangentialImpulse(CollisionModel model) {
    switch (model) {
    case CollisionModel::frictionless: return false;
    case CollisionModel::paper:
    case CollisionModel::schwager:
    case CollisionModel::coulomb: return true;
    }
    return true;
}

// Whether the law solves K J = du for a whole impulse (restitution or
// sticking): a solver that evaluates it in every sweep then inverts K once
// per substep (ContactFrame::inverseCompliance) instead of factorising it
// at each evaluation.
constexpr bool needsInverseCompliance(CollisionModel model) {
    switch (model) {
    case CollisionModel::frictionless: return false;
    case CollisionModel::paper:
    case CollisionModel::schwager:
    case CollisionModel::coulomb: return true;
    }
    return true;
}

// Whether the law bounds the impulse by a Coulomb cone |J_t| <= mu J_n
// (mu > 0) with a sticking target eps_t u_t. Inside a cluster of contacts
// the sequential-impulse solver then solves the contact as its normal row
// and its tangential block projected onto the friction disc, which
// converges where the law's stick/slide switch does not
// (dem/engine/SequentialImpulseSolver.hpp); a contact on its own takes the law.
constexpr bool solvedAsClusterFriction(const CollisionParameters& law) {
    switch (law.model) {
    case CollisionModel::coulomb: return law.friction > 0.0;
    case CollisionModel::frictionless:
    case CollisionModel::paper:
    case CollisionModel::schwager: return false;
    }
    return false;
}

} // namespace sef
