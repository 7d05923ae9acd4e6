#include "hydrodynamics/ResistanceCache.hpp"

#include <algorithm>
#include <cfenv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <utility>

namespace sef {

namespace fs = std::filesystem;

namespace {

std::string entryPath(const std::string& directory, const std::string& key) {
    std::uint64_t h = 1469598103934665603ULL; // FNV-1a 64
    for (unsigned char ch : key) {
        h ^= ch;
        h *= 1099511628211ULL;
    }
    char name[64];
    std::snprintf(name, sizeof name, "resistance-%016llx.txt", static_cast<unsigned long long>(h));
    const std::string dir = directory.empty() ? defaultResistanceCacheDirectory() : directory;
    return (fs::path(dir) / name).string();
}

void writeVec(std::ostream& out, const char* name, const Vec3& v) {
    out << name << ' ' << v[0] << ' ' << v[1] << ' ' << v[2] << '\n';
}

// One number token; strtod (unlike operator>>) reads "nan", "inf" and
// out-of-range values, so that an edited entry holding them is refused by
// validateResistance instead of passing as a miss and being overwritten.
// The FP traps of the solvers are held during the parse: "1e400" becomes
// inf (refused) instead of raising SIGFPE.
bool readNumber(std::istream& in, double& x) {
    std::string token;
    if (!(in >> token)) return false;
    char* end = nullptr;
    std::fenv_t saved;
    std::feholdexcept(&saved);
    x = std::strtod(token.c_str(), &end);
    std::fesetenv(&saved); // traps back on, this parse's overflow flag dropped
    return end == token.c_str() + token.size();
}

bool readVec(std::istream& in, const char* name, Vec3& v) {
    std::string label;
    return static_cast<bool>(in >> label) && label == name && readNumber(in, v[0])
           && readNumber(in, v[1]) && readNumber(in, v[2]);
}

std::string component(const char* name, int k) { return std::string(name) + "[" + std::to_string(k) + "]"; }

std::string number(double x) {
    std::ostringstream out;
    out.precision(6);
    out << x;
    return out.str();
}

// First component of v outside [lo, hi] (or not finite), as a problem.
ResistanceProblem outside(const char* name, const Vec3& v, double lo, double hi, const char* why) {
    for (int k = 0; k < 3; ++k)
        if (!(v[k] >= lo && v[k] <= hi))
            return {component(name, k), number(v[k]) + " is outside [" + number(lo) + ", "
                                             + number(hi) + "] (" + why + ")"};
    return {};
}

ResistanceProblem notFinite(const char* name, const Vec3& v) {
    for (int k = 0; k < 3; ++k)
        if (!std::isfinite(v[k])) return {component(name, k), number(v[k]) + " is not finite"};
    return {};
}

} // namespace

ResistanceProblem validateResistance(const Superellipsoid& shape, const NumericalResistance& r) {
    const ResistanceTensors& t = r.tensors;
    const ResistanceTensors& e = r.errorEstimate;
    for (const auto& [name, v] : {std::pair<const char*, const Vec3&>{"K", t.K}, {"Omega", t.Omega},
                                  {"Pi", t.Pi}, {"dK", e.K}, {"dOmega", e.Omega}, {"dPi", e.Pi}})
        if (auto p = notFinite(name, v); !p.valid()) return p;
    const double big = std::numeric_limits<double>::max();
    for (const auto& [name, v] : {std::pair<const char*, const Vec3&>{"dK", e.K}, {"dOmega", e.Omega},
                                  {"dPi", e.Pi}})
        if (auto p = outside(name, v, 0.0, big, "an error estimate is >= 0"); !p.valid()) return p;
    if (r.nodes <= 0) return {"nodes", std::to_string(r.nodes) + " is not > 0"};

    // Hill & Power: inscribed sphere <= body <= bounding sphere, lengths in
    // units of the smallest half-axis (the tensors' normalisation).
    const Vec3 h = shape.halfAxes();
    const double lc = h.minCoeff();
    const double rIn = 1.0 / std::sqrt(h.cwiseInverse().squaredNorm()) / lc;
    const double rOut = shape.boundingRadius() / lc;
    const double lo = 1.0 - resistanceBoundTolerance, hi = 1.0 + resistanceBoundTolerance;
    const char* spd = "positive definite, between the inscribed and the bounding sphere";
    if (auto p = outside("K", t.K, lo * 6.0 * rIn, hi * 6.0 * rOut, spd); !p.valid()) return p;
    if (auto p = outside("Omega", t.Omega, lo * 8.0 * rIn * rIn * rIn, hi * 8.0 * rOut * rOut * rOut, spd);
        !p.valid())
        return p;
    for (int k = 0; k < 3; ++k)
        if (!(std::abs(t.Pi[k]) <= hi * t.Omega[k]))
            return {component("Pi", k), number(t.Pi[k]) + " exceeds Omega[" + std::to_string(k)
                                             + "] = " + number(t.Omega[k])
                                             + " (|Pi / Omega| is Bretherton's parameter, <= 1)"};
    return {};
}

std::string defaultResistanceCacheDirectory() {
    if (const char* env = std::getenv("SEF_RESISTANCE_CACHE"); env && *env) return env;
    fs::path base;
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        base = xdg;
    else if (const char* home = std::getenv("HOME"); home && *home)
        base = fs::path(home) / ".cache";
    else
        base = "superellipsoidFoam-cache";
    return (base / "superellipsoidFoam" / "resistance").string();
}

std::string resistanceCacheKey(const Superellipsoid& shape, const ResistanceSolverOptions& options) {
    const double lc = std::min({shape.a(), shape.b(), shape.c()});
    char key[256];
    std::snprintf(key, sizeof key, "v3-cdl a/c=%.17g b/c=%.17g c/c=%.17g eps1=%.17g eps2=%.17g n=%d",
                  shape.a() / lc, shape.b() / lc, shape.c() / lc, shape.eps1(), shape.eps2(),
                  options.resolution);
    return key;
}

std::optional<NumericalResistance> loadCachedResistance(const Superellipsoid& shape,
                                                        const ResistanceSolverOptions& options,
                                                        const std::string& directory) {
    const std::string key = resistanceCacheKey(shape, options);
    const std::string path = entryPath(directory, key);
    std::ifstream in(path);
    if (!in) return std::nullopt;
    std::string storedKey;
    if (!std::getline(in, storedKey) || storedKey != key) return std::nullopt;
    NumericalResistance r;
    const bool ok = readVec(in, "K", r.tensors.K) && readVec(in, "Omega", r.tensors.Omega)
                    && readVec(in, "Pi", r.tensors.Pi) && readVec(in, "dK", r.errorEstimate.K)
                    && readVec(in, "dOmega", r.errorEstimate.Omega)
                    && readVec(in, "dPi", r.errorEstimate.Pi);
    std::string label;
    if (!ok || !(in >> label >> r.nodes >> r.seconds) || label != "nodes") return std::nullopt;
    r.resolution = options.resolution;
    if (const ResistanceProblem p = validateResistance(shape, r); !p.valid())
        throw ResistanceCacheError(path, p.component,
                                   "resistance cache entry " + path + " (" + key + ") is invalid: "
                                       + p.component + " = " + p.reason
                                       + "; delete the file to recompute it");
    return r;
}

bool storeCachedResistance(const Superellipsoid& shape, const ResistanceSolverOptions& options,
                           const NumericalResistance& result, const std::string& directory) {
    if (!validateResistance(shape, result).valid()) return false;
    const std::string key = resistanceCacheKey(shape, options);
    const std::string path = entryPath(directory, key);
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    // Write to a temporary name and rename, so parallel runs never read a
    // half-written entry.
    const std::string tmp = path + ".tmp" + std::to_string(std::rand());
    {
        std::ofstream out(tmp);
        if (!out) return false;
        out.precision(17);
        out << key << '\n';
        writeVec(out, "K", result.tensors.K);
        writeVec(out, "Omega", result.tensors.Omega);
        writeVec(out, "Pi", result.tensors.Pi);
        writeVec(out, "dK", result.errorEstimate.K);
        writeVec(out, "dOmega", result.errorEstimate.Omega);
        writeVec(out, "dPi", result.errorEstimate.Pi);
        out << "nodes " << result.nodes << ' ' << result.seconds << '\n';
        if (!out) return false;
    }
    fs::rename(tmp, path, ec);
    return !ec;
}

NumericalResistance cachedResistance(const Superellipsoid& shape,
                                     const ResistanceSolverOptions& options,
                                     const std::string& directory, bool* fromCache) {
    if (auto hit = loadCachedResistance(shape, options, directory)) {
        if (fromCache) *fromCache = true;
        return *hit;
    }
    if (fromCache) *fromCache = false;
    NumericalResistance r = computeResistance(shape, options);
    storeCachedResistance(shape, options, r, directory); // a failed write only costs time
    return r;
}

} // namespace sef
