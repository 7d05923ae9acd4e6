#pragma once
// Random, reproducible, non-overlapping placement of particles in a region
// (box or finite cylinder), with random orientations. Shared by both solvers.
// Non-overlap is guaranteed conservatively: bounding spheres do not intersect.
#include "dem/ParticleSystem.hpp"

#include <cstdint>
#include <functional>
#include <random>
#include <stdexcept>

namespace sef::dem {

struct InjectionRegion {
    enum class Kind { box, cylinder } kind = Kind::box;
    Vec3 min = Vec3::Zero(), max = Vec3::Zero();           // box corners
    Vec3 point1 = Vec3::Zero(), point2 = Vec3::Zero();     // cylinder axis end points
    double radius = 0;                                     // cylinder radius
};

struct InjectionSpec {
    InjectionRegion region;
    long count = 0;
    std::vector<double> typeFractions;   // one per ParticleSystem::types entry (normalised here)
    std::uint64_t seed = 1;
    Vec3 velocity = Vec3::Zero();
    long maxAttemptsPerParticle = 10000;
};

// Thrown when the region cannot hold the requested particles without overlap.
class InjectionError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Why injectRandom could not place a particle: its trial positions and how
// each was rejected (the message alone cannot tell a region outside the mesh
// from a region too full).
struct InjectionRejections {
    long placed = 0;             // particles placed before the one that failed
    long trials = 0;             // trial positions drawn for that one
    long overlapping = 0;        // its bounding sphere met a particle already placed
    long inadmissible = 0;       // clear of particles, refused by admissible()
    bool regionTooSmall = false; // the region cannot hold its bounding sphere at all
};

class RandomInjectionError : public InjectionError {
public:
    RandomInjectionError(const std::string& message, const InjectionRejections& rejections)
        : InjectionError(message), rejections_(rejections) {}
    const InjectionRejections& rejections() const noexcept { return rejections_; }

private:
    InjectionRejections rejections_;
};

// Places spec.count particles into `particles` (appending; ids continue from
// firstId). `admissible(centre, boundingRadius)` lets the caller reject
// positions (e.g. outside the mesh or cutting a wall); may be empty.
// Existing particles are respected. Throws RandomInjectionError saying how
// many could be placed and why the next one's trial positions were rejected
// (outside the domain or cutting a wall, overlapping, region too small);
// the system is left unchanged in that case.
void injectRandom(ParticleSystem& particles, const InjectionSpec& spec, std::int64_t firstId,
                  const std::function<bool(const Vec3&, double)>& admissible = {});

// One particle placed by hand (validation cases, restarts from other tools).
struct ListedParticle {
    int type = 0;
    Vec3 position = Vec3::Zero();
    Quat orientation = Quat::Identity();
    Vec3 velocity = Vec3::Zero();
    Vec3 angularVelocity = Vec3::Zero();
};

// Appends the listed particles (ids continue from firstId). Throws
// InjectionError naming the particles if two of them overlap (exact narrow
// phase, not bounding spheres) by more than allowedOverlap times the smaller
// volume-equivalent diameter (0: any overlap; a bed settled by the DEM step
// rests with overlaps of order 1e-4 d_eq), if one overlaps an existing
// particle, or if `admissible(centre, listIndex)` rejects one; the system is
// left unchanged then. std::invalid_argument for a negative allowedOverlap.
void injectListed(ParticleSystem& particles, const std::vector<ListedParticle>& list,
                  std::int64_t firstId,
                  const std::function<bool(const Vec3&, std::size_t listIndex)>& admissible = {},
                  double allowedOverlap = 0.0);

// Portable uniform random numbers (std distributions differ between
// standard libraries; these do not), so a seed gives the same packing everywhere.
class PortableRandom {
public:
    explicit PortableRandom(std::uint64_t seed) : engine_(seed) {}
    double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; } // [0, 1)
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
    Quat orientation(); // uniformly distributed over SO(3) (Shoemake 1992)

private:
    std::mt19937_64 engine_;
};

} // namespace sef::dem
