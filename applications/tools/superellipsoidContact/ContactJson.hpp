#pragma once
// JSON <-> core types for the superellipsoidContact tool.
// Reusable by later tools (a "collide" block): parse bodies and the
// wall here, add new blocks in their own functions.
#include "contact/ContactResult.hpp"
#include "contact/WallContact.hpp"
#include "geometry/Pose.hpp"
#include "geometry/Superellipsoid.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace sef::tools {

// Bad input: message names the offending field (e.g. "bodies[1].orientation").
struct InputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct BodyInput {
    Superellipsoid shape;
    Pose pose;
    double density;
    Vec3 velocity;
    Vec3 angularVelocity; // world frame
};

BodyInput parseBody(const nlohmann::json& j, const std::string& where);
std::vector<BodyInput> parseBodies(const nlohmann::json& root);
std::optional<WallPlane> parseWall(const nlohmann::json& root);
nlohmann::json toJson(const ContactResult& r);

} // namespace sef::tools
