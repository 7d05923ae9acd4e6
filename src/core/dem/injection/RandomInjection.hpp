#pragma once
// Random, reproducible, non-overlapping placement of particles in a region
// (box or finite cylinder), with random orientations. Shared by both solvers.
// Non-overlap is decided by the true shapes: a candidate whose bounding
// sphere is clear is taken at once; one whose bounding sphere meets others
// is posed in a few random orientations and taken in the first that the
// exact narrow phase finds clear of them (and of the walls); if none is,
// in the orientation of its nearest neighbour, where it is and moved to
// touch that neighbour (alignWithNeighbours). Where a particle still finds
// no place among those placed, the injection starts again from the seed with every body of its
// type in one orientation (turned alike: translates of one body pack far
// denser than randomly turned bodies); an injection that succeeds without
// this is unchanged by it.
// Periodic boundaries (InjectionSpec::periodic): a particle must also be
// clear of the others' images, so a candidate near a periodic boundary is
// tested again at x + s for the lattice shifts s that bring it within reach
// of the particles; the region does not bound bodies at faces the lattice
// opens (RegionFit.hpp), and centres are brought back into the periodic box.
#include "dem/particles/ParticleSystem.hpp"
#include "dem/boundaries/PeriodicLattice.hpp"
#include "geometry/Pose.hpp"

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
    long maxAttemptsPerParticle = 10000;   // trial positions per particle
    // Orientations tried at a trial position whose bounding sphere meets
    // other particles or a wall before the position is given up (spheres:
    // one; their orientation does not change the fit).
    int orientationsPerPosition = 4;
    // From a particle's 17th trial position on, where those fail, the
    // nearest particle's orientation is tried at the position and (same
    // type) on the line of centres where it touches that particle: aligned
    // bodies stack far denser than randomly turned ones (plates, bars), so
    // a region fills beyond what random orientations reach. At low fill one
    // of the first 16 positions fits, and every orientation is random.
    // Where a particle of a non-spherical type still finds no place, crowded
    // out by the particles placed (some of its positions overlapped them), the
    // whole injection is done again with every body of that type in one
    // orientation, body axes along the coordinate axes (plates lying flat in
    // z), then of the next type that finds no place, ...; the error
    // (counts of the random injection) says how many fitted turned alike.
    // false: every orientation random, no injection turned alike.
    bool alignWithNeighbours = true;
    // Translational periodic boundaries of the domain (empty: none). Every
    // shift must exceed twice the largest bounding diameter (PeriodicError).
    PeriodicLattice periodic;
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
    long overlapping = 0;        // it overlapped a particle already placed in every orientation tried
    long inadmissible = 0;       // clear of particles in some orientation, refused by the domain
    long outsideRegion = 0;      // its body crossed the region's boundary in every orientation tried
    bool regionTooSmall = false; // the region is narrower than the particle's thinnest side
};

class RandomInjectionError : public InjectionError {
public:
    RandomInjectionError(const std::string& message, const InjectionRejections& rejections)
        : InjectionError(message), rejections_(rejections) {}
    const InjectionRejections& rejections() const noexcept { return rejections_; }

private:
    InjectionRejections rejections_;
};

// Where the caller's domain lets a particle go (each may be empty: anywhere).
// `admissible(centre, boundingRadius)`: the bounding sphere lies in the
// domain, clear of its walls (conservative; asked first, and the only test of
// spheres). `admissibleBody(type, pose)`: the posed body itself lies in the
// domain, clear of its walls (exact); asked for a non-sphere posed clear of
// the other particles where `admissible` refused its bounding sphere (empty:
// the refusal stands). In a decomposed run both may be collective: injectRandom
// asks them in the same order with the same arguments for the same seed.
using SphereAdmissible = std::function<bool(const Vec3& centre, double boundingRadius)>;
using BodyAdmissible = std::function<bool(int type, const Pose& pose)>;

// Places spec.count particles into `particles` (appending; ids continue from
// firstId); their bodies lie in the region (RegionFit.hpp). Existing particles are
// respected (with spec.periodic, their images too; their centres are
// expected in the periodic box). Throws RandomInjectionError saying how many
// could be placed and why the next one's trial positions were rejected
// (outside the domain or cutting a wall, overlapping, region too small); the
// system is left unchanged in that case. PeriodicError when the periodic box
// is too short for the largest type.
void injectRandom(ParticleSystem& particles, const InjectionSpec& spec, std::int64_t firstId,
                  const SphereAdmissible& admissible = {},
                  const BodyAdmissible& admissibleBody = {});

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
// With periodic boundaries the overlaps through them count too (a particle
// against the others' images; positions are taken as given, not wrapped),
// and PeriodicError says when the periodic box is too short for the largest type.
void injectListed(ParticleSystem& particles, const std::vector<ListedParticle>& list,
                  std::int64_t firstId,
                  const std::function<bool(const Vec3&, std::size_t listIndex)>& admissible = {},
                  double allowedOverlap = 0.0, const PeriodicLattice& periodic = {});

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
