#pragma once
// The optional "collide" block of superellipsoidContact:
//   "collide": {"restitution": e_n, "tangentialRestitution": e_t}
//   "collide": {"restitution": e_n, "friction": mu, "model": "coulomb"|"schwager"}
//   "collide": {"restitution": e_n}                       (frictionless)
// Resolves the detected contact by one impulse at the reported "point" and
// adds "after", "impulse" (on the second body) and the kinetic energies.
#include "ContactJson.hpp"
#include "collision/CollisionParameters.hpp"

#include <nlohmann/json.hpp>

#include <optional>

namespace sef::tools {

// Parameters of the "collide" block, or nothing if the input has none.
// Model when absent: "paper" if tangentialRestitution is given, else
// "frictionless". Throws InputError naming the bad field.
std::optional<CollisionParameters> parseCollide(const nlohmann::json& root);

// The collision outcome as JSON fields to merge into the contact output.
// A missing or separating contact leaves the bodies unchanged (zero impulse).
nlohmann::json collide(const std::vector<BodyInput>& bodies, bool wall,
                       const ContactResult& contact, const CollisionParameters& parameters);

} // namespace sef::tools
