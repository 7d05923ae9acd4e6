#include "CollideJson.hpp"

#include "collision/ImpulseResolution.hpp"
#include "geometry/RepresentableRange.hpp"
#include "kinematics/RigidBodyState.hpp"

#include <cmath>
#include <sstream>
#include <string>

namespace sef::tools {

namespace {

nlohmann::json array(const Vec3& v) { return {v.x(), v.y(), v.z()}; }

double numberField(const nlohmann::json& block, const char* name) {
    const auto& v = block.at(name);
    if (!v.is_number() || !std::isfinite(v.get<double>()))
        throw InputError(std::string("collide.") + name + ": must be a finite number");
    return v.get<double>();
}

RigidBodyState rigidBody(const BodyInput& b) {
    RigidBodyState s;
    s.position = b.pose.position;
    s.orientation = b.pose.orientation;
    s.velocity = b.velocity;
    s.angularVelocity = b.angularVelocity;
    s.mass = b.density * b.shape.volume();
    s.principalInertia = b.shape.principalInertia(b.density);
    return s;
}

// The kinetic energies must stay in the representable range of
// Superellipsoid.hpp (a speed of 1e155 m/s would give
// "kineticEnergyBefore": null). Checked in log space; zero motion is fine.
void requireRepresentableMotion(const BodyInput& b, const std::string& where) {
    const double logRho = std::log(b.density);
    auto require = [&](const char* name, double speed, double logInertia) {
        if (speed == 0.0) return;
        const double logEnergy = std::log(0.5) + logInertia + 2.0 * std::log(speed);
        if (logEnergy <= Superellipsoid::logRepresentableMax) return;
        std::ostringstream msg;
        msg << where << "." << name << ": |" << name << "| = " << speed << " gives a kinetic energy "
            << detail::formatLogValue(logEnergy) << ", " << detail::representableRangeText();
        throw InputError(msg.str());
    };
    require("velocity", b.velocity.stableNorm(), logRho + b.shape.logVolume());
    require("angularVelocity", b.angularVelocity.stableNorm(), logRho + b.shape.logSecondMoments().maxCoeff());
}

nlohmann::json motion(const RigidBodyState& s) {
    return {{"velocity", array(s.velocity)}, {"angularVelocity", array(s.angularVelocity)}};
}

} // namespace

std::optional<CollisionParameters> parseCollide(const nlohmann::json& root) {
    if (!root.contains("collide")) return std::nullopt;
    const auto& block = root.at("collide");
    if (!block.is_object()) throw InputError("collide: must be an object");
    if (!block.contains("restitution")) throw InputError("collide.restitution: missing");
    CollisionParameters p;
    p.restitution = numberField(block, "restitution");
    const bool hasEt = block.contains("tangentialRestitution");
    if (hasEt) p.tangentialRestitution = numberField(block, "tangentialRestitution");
    if (block.contains("friction")) p.friction = numberField(block, "friction");
    try {
        if (block.contains("model")) {
            if (!block.at("model").is_string()) throw InputError("collide.model: must be a string");
            p.model = collisionModelFromName(block.at("model").get<std::string>());
        } else {
            p.model = hasEt ? CollisionModel::paper : CollisionModel::frictionless;
        }
        if ((p.model == CollisionModel::coulomb || p.model == CollisionModel::schwager)
            && !block.contains("friction"))
            throw InputError("collide.friction: missing (needed by model " +
                             collisionModelName(p.model) + ")");
        validateCollisionParameters(p);
    } catch (const CollisionParameterError& e) {
        throw InputError(std::string("collide.") + e.what());
    }
    return p;
}

nlohmann::json collide(const std::vector<BodyInput>& bodies, bool wall,
                       const ContactResult& contact, const CollisionParameters& parameters) {
    for (std::size_t i = 0; i < bodies.size(); ++i)
        requireRepresentableMotion(bodies[i], "bodies[" + std::to_string(i) + "]");
    std::vector<RigidBodyState> states;
    for (const BodyInput& b : bodies) states.push_back(rigidBody(b));

    CollisionResult r;
    if (contact.contact) {
        if (wall) {
            // The tool's wall normal points from the wall into the particle;
            // the collision module wants it from the particle into the wall.
            r = resolveWallCollision(states[0], contact.point, -contact.normal, parameters);
            applyWallCollision(r, states[0]);
        } else {
            r = resolvePairCollision(states[0], states[1], contact.point, contact.normal, parameters);
            applyCollision(r, states[0], states[1]);
        }
    }
    double before = 0, after = 0;
    nlohmann::json afterList = nlohmann::json::array();
    for (std::size_t i = 0; i < states.size(); ++i) {
        before += rigidBody(bodies[i]).kineticEnergy();
        after += states[i].kineticEnergy();
        afterList.push_back(motion(states[i]));
    }
    // "impulse" acts on the second body: the particle for a wall (which is
    // the collision module's body 1, receiving -impulse).
    const Vec3 impulse = wall ? Vec3(-r.impulse) : r.impulse;
    return {{"after", afterList},
            {"impulse", array(impulse)},
            {"model", collisionModelName(parameters.model)},
            {"kineticEnergyBefore", before},
            {"kineticEnergyAfter", after}};
}

} // namespace sef::tools
