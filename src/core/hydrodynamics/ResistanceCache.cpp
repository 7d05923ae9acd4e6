#include "hydrodynamics/ResistanceCache.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

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

bool readVec(std::istream& in, const char* name, Vec3& v) {
    std::string label;
    return static_cast<bool>(in >> label >> v[0] >> v[1] >> v[2]) && label == name;
}

} // namespace

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
    std::snprintf(key, sizeof key, "v1 a/c=%.17g b/c=%.17g c/c=%.17g eps1=%.17g eps2=%.17g n=%d blob=%.17g",
                  shape.a() / lc, shape.b() / lc, shape.c() / lc, shape.eps1(), shape.eps2(),
                  options.resolution, options.blobFactor);
    return key;
}

std::optional<NumericalResistance> loadCachedResistance(const Superellipsoid& shape,
                                                        const ResistanceSolverOptions& options,
                                                        const std::string& directory) {
    const std::string key = resistanceCacheKey(shape, options);
    std::ifstream in(entryPath(directory, key));
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
    return r;
}

bool storeCachedResistance(const Superellipsoid& shape, const ResistanceSolverOptions& options,
                           const NumericalResistance& result, const std::string& directory) {
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
