#pragma once
// Collision models selectable by name, and their parameters.
//
//   "frictionless"         zero tangential impulse; eps_n only.
//   "paper" / "frictional" [Superellipsoid-OpenFOAM] eqs. (65)-(72), (75)-(81): relative
//                          contact velocity after = -eps_n (normal part)
//                          + eps_t (tangential part) of the one before.
//   "schwager"             as "paper", with eps_t from the friction
//                          coefficient by [Superellipsoid-OpenFOAM] eqs. (87)-(88),
//                          generalised with the actual contact arms and
//                          inertia tensors (see ImpulseResolution.hpp).
//   "coulomb"              sticking impulse (target tangential velocity
//                          eps_t * before; eps_t = 0: full stick), limited
//                          to the Coulomb cone |J_t| <= mu J_n; outside it
//                          the contact slides with |J_t| = mu J_n.
//
// Rolling resistance (any model; dem/engine/SequentialImpulseSolver.hpp): an
// angular impulse opposing the relative angular velocity perpendicular to
// the normal, at most mu_r R_eff J_n per substep (constant directional
// torque; Ai et al., Powder Technol. 206 (2011) 269, model A).
#include "geometry/ParameterError.hpp"

#include <string>

namespace sef {

enum class CollisionModel { frictionless, paper, schwager, coulomb };

struct CollisionParameters {
    CollisionModel model = CollisionModel::frictionless;
    double restitution = 1.0;            // eps_n in [0, 1]
    double tangentialRestitution = 0.0;  // eps_t in [-1, 1]: "paper"; sticking target of "coulomb"
    double friction = 0.0;               // mu >= 0: "schwager", "coulomb"
    double rollingFriction = 0.0;        // mu_r in [0, 1]: rolling resistance (all models)
    double twistingFriction = 0.0;       // mu_t in [0, 1]: resistance to spin about the normal (all models)
};

// Invalid collision input (model, restitution, tangentialRestitution,
// friction); parameter() names the entry.
class CollisionParameterError : public ParameterError {
public:
    using ParameterError::ParameterError;
};

// "frictionless", "paper", "frictional" (= paper), "schwager", "coulomb".
// Throws CollisionParameterError("model", ...) listing the valid names.
CollisionModel collisionModelFromName(const std::string& name);
// Canonical name ("frictionless", "paper", "schwager", "coulomb").
std::string collisionModelName(CollisionModel model);

// Throws CollisionParameterError naming restitution, tangentialRestitution,
// friction, rollingFriction or twistingFriction when out of range or not finite.
void validateCollisionParameters(const CollisionParameters& parameters);

} // namespace sef
