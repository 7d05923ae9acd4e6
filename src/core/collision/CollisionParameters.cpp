#include "collision/CollisionParameters.hpp"

#include <cmath>

namespace sef {

CollisionModel collisionModelFromName(const std::string& name) {
    if (name == "frictionless") return CollisionModel::frictionless;
    if (name == "paper" || name == "frictional") return CollisionModel::paper;
    if (name == "schwager") return CollisionModel::schwager;
    if (name == "coulomb") return CollisionModel::coulomb;
    throw CollisionParameterError("model", "unknown collision model '" + name +
                                               "'; valid: frictionless, paper (= frictional), "
                                               "schwager, coulomb");
}

std::string collisionModelName(CollisionModel model) {
    switch (model) {
    case CollisionModel::frictionless: return "frictionless";
    case CollisionModel::paper: return "paper";
    case CollisionModel::schwager: return "schwager";
    case CollisionModel::coulomb: return "coulomb";
    }
    return "unknown";
}

void validateCollisionParameters(const CollisionParameters& p) {
    if (!(std::isfinite(p.restitution) && p.restitution >= 0.0 && p.restitution <= 1.0))
        throw CollisionParameterError("restitution", "must lie in [0, 1], got " +
                                                         std::to_string(p.restitution));
    if (!(std::isfinite(p.tangentialRestitution) && p.tangentialRestitution >= -1.0 &&
          p.tangentialRestitution <= 1.0))
        throw CollisionParameterError("tangentialRestitution", "must lie in [-1, 1], got " +
                                                                   std::to_string(p.tangentialRestitution));
    if (!(std::isfinite(p.friction) && p.friction >= 0.0))
        throw CollisionParameterError("friction", "must be finite and >= 0, got " +
                                                      std::to_string(p.friction));
    if (!(std::isfinite(p.rollingFriction) && p.rollingFriction >= 0.0 && p.rollingFriction <= 1.0))
        throw CollisionParameterError("rollingFriction", "must lie in [0, 1], got " +
                                                             std::to_string(p.rollingFriction));
    if (!(std::isfinite(p.twistingFriction) && p.twistingFriction >= 0.0 && p.twistingFriction <= 1.0))
        throw CollisionParameterError("twistingFriction", "must lie in [0, 1], got " +
                                                              std::to_string(p.twistingFriction));
}

} // namespace sef
