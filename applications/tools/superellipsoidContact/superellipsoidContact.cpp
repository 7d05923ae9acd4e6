// superellipsoidContact: contact of two superellipsoids, or of one and a
// plane wall, for one configuration (JSON in and out).
//   superellipsoidContact [input.json]     (stdin if no file)
// With a "collide" block the contact is also resolved by an impulse
// (see CollideJson.hpp).
// Bad input: one line on stderr, exit status 2.
#include "CollideJson.hpp"
#include "ContactJson.hpp"
#include "contact/PairContact.hpp"

#include <fstream>
#include <iostream>

int main(int argc, char** argv) {
    using namespace sef;
    try {
        nlohmann::json root;
        // The last key read names the entry of a number too large for a
        // double (the parser stops before the tree has any path).
        std::string lastKey;
        const auto trackKeys = [&lastKey](int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
            if (event == nlohmann::json::parse_event_t::key) lastKey = parsed.get<std::string>();
            return true;
        };
        try {
            if (argc > 1) {
                std::ifstream in(argv[1]);
                if (!in) throw tools::InputError(std::string("cannot open ") + argv[1]);
                root = nlohmann::json::parse(in, trackKeys);
            } else {
                root = nlohmann::json::parse(std::cin, trackKeys);
            }
        } catch (const nlohmann::json::parse_error& e) {
            throw tools::InputError(std::string("invalid JSON: ") + e.what());
        } catch (const nlohmann::json::out_of_range& e) {
            throw tools::InputError("invalid JSON: entry '" + lastKey + "': " + e.what());
        }
        const auto bodies = tools::parseBodies(root);
        const auto wall = tools::parseWall(root);
        ContactResult r;
        if (wall && bodies.size() == 1) {
            r = detectWallContact(bodies[0].shape, bodies[0].pose, *wall);
        } else if (!wall && bodies.size() == 2) {
            r = detectPairContact(bodies[0].shape, bodies[0].pose, bodies[1].shape, bodies[1].pose);
        } else {
            throw tools::InputError("input: give either two bodies, or one body and a wall");
        }
        nlohmann::json out = tools::toJson(r);
        if (const auto parameters = tools::parseCollide(root)) {
            out.update(tools::collide(bodies, wall.has_value(), r, *parameters));
        }
        std::cout << out.dump(2) << "\n";
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "superellipsoidContact: " << e.what() << "\n";
        return 2;
    }
}
