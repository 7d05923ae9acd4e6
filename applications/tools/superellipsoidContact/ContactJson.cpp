#include "ContactJson.hpp"

#include <cmath>

namespace sef::tools {

namespace {

const nlohmann::json& field(const nlohmann::json& j, const char* name, const std::string& where) {
    if (!j.is_object() || !j.contains(name))
        throw InputError(where + "." + name + ": missing");
    return j.at(name);
}

double number(const nlohmann::json& j, const char* name, const std::string& where) {
    const auto& v = field(j, name, where);
    if (!v.is_number() || !std::isfinite(v.get<double>()))
        throw InputError(where + "." + name + ": must be a finite number");
    return v.get<double>();
}

double numberOr(const nlohmann::json& j, const char* name, const std::string& where, double fallback) {
    return j.contains(name) ? number(j, name, where) : fallback;
}

template <int N> Eigen::Matrix<double, N, 1> vector(const nlohmann::json& v, const std::string& where) {
    if (!v.is_array() || v.size() != N)
        throw InputError(where + ": must be an array of " + std::to_string(N) + " numbers");
    Eigen::Matrix<double, N, 1> x;
    for (int i = 0; i < N; ++i) {
        if (!v[i].is_number() || !std::isfinite(v[i].get<double>()))
            throw InputError(where + ": must be an array of " + std::to_string(N) + " numbers");
        x[i] = v[i].get<double>();
    }
    return x;
}

Vec3 vec3Or(const nlohmann::json& j, const char* name, const std::string& where) {
    return j.contains(name) ? Vec3(vector<3>(j.at(name), where + "." + name)) : Vec3(Vec3::Zero());
}

nlohmann::json array(const Vec3& v) { return {v.x(), v.y(), v.z()}; }

} // namespace

BodyInput parseBody(const nlohmann::json& j, const std::string& where) {
    const double a = number(j, "a", where), b = number(j, "b", where), c = number(j, "c", where);
    const double eps1 = number(j, "eps1", where), eps2 = number(j, "eps2", where);
    const std::string problem = validateShape(a, b, c, eps1, eps2);
    if (!problem.empty()) throw InputError(where + ": " + problem);
    Pose pose;
    pose.position = vector<3>(field(j, "position", where), where + ".position");
    const Eigen::Vector4d q = vector<4>(field(j, "orientation", where), where + ".orientation");
    if (std::abs(q.norm() - 1.0) > 1e-6)
        throw InputError(where + ".orientation: quaternion [w,x,y,z] is not unit (|q| = " +
                         std::to_string(q.norm()) + ")");
    pose.orientation = Quat(q[0], q[1], q[2], q[3]).normalized();
    const Superellipsoid shape(a, b, c, eps1, eps2);
    const double density = numberOr(j, "density", where, 1000.0);
    try {
        shape.requireDensity(density); // mass and inertia representable
    } catch (const ParameterError& e) {
        throw InputError(where + "." + e.what());
    }
    return {shape, pose, density, vec3Or(j, "velocity", where), vec3Or(j, "angularVelocity", where)};
}

std::vector<BodyInput> parseBodies(const nlohmann::json& root) {
    const auto& list = field(root, "bodies", "input");
    if (!list.is_array()) throw InputError("input.bodies: must be an array");
    std::vector<BodyInput> bodies;
    for (std::size_t i = 0; i < list.size(); ++i)
        bodies.push_back(parseBody(list[i], "bodies[" + std::to_string(i) + "]"));
    return bodies;
}

std::optional<WallPlane> parseWall(const nlohmann::json& root) {
    if (!root.contains("wall")) return std::nullopt;
    const auto& w = root.at("wall");
    WallPlane plane;
    plane.point = vector<3>(field(w, "point", "wall"), "wall.point");
    const Vec3 n = vector<3>(field(w, "normal", "wall"), "wall.normal");
    if (!(n.norm() > 0.0)) throw InputError("wall.normal: must be non-zero");
    plane.normal = n.normalized();
    return plane;
}

nlohmann::json toJson(const ContactResult& r) {
    return {{"contact", r.contact},
            {"depth", r.depth},
            {"point", array(r.point)},
            {"normal", array(r.normal)},
            {"surfacePoints", {array(r.surfacePoint1), array(r.surfacePoint2)}},
            {"iterations", r.iterations},
            {"status", toString(r.status)}};
}

} // namespace sef::tools
