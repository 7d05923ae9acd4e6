#pragma once
// File cache of numerically computed resistance tensors, so that a cloud with
// a few shapes pays the boundary-integral solve once per shape.
// Key: the shape normalised by its smallest half-axis (the tensors depend on
// the ratios only), eps1, eps2 and resolution (plus a method tag), printed with 17
// digits; one small text file per key (name = 64-bit FNV-1a hash of the key,
// the key itself is stored in the file and checked on reading).
// Location: the directory argument; empty -> defaultResistanceCacheDirectory().
//
// Entries are validated when read (validateResistance): an entry that parses
// but holds tensors no solve can give (an edited file, or one from a broken
// build) is REFUSED with a ResistanceCacheError naming the file and the
// component, never recomputed silently: overwriting it would hide the edit,
// and the cache has no channel for a warning. Delete the file to recompute.
// Entries that do not parse (or carry another key) are a miss, as before.
#include "hydrodynamics/BoundaryIntegralResistance.hpp"

#include <optional>
#include <stdexcept>
#include <string>

namespace sef {

// A cache entry that parses but fails validateResistance.
class ResistanceCacheError : public std::runtime_error {
public:
    ResistanceCacheError(std::string path, std::string component, const std::string& message)
        : std::runtime_error(message), path_(std::move(path)), component_(std::move(component)) {}
    const std::string& path() const noexcept { return path_; }
    const std::string& component() const noexcept { return component_; }

private:
    std::string path_, component_;
};

// The first problem of a resistance result for this shape, as
// {component, reason} (e.g. {"K[1]", "..."}), or {"", ""} if it is valid:
//  - every tensor and error-estimate component finite, the error estimates
//    >= 0, nodes > 0;
//  - K and Omega positive definite: they are diagonal in the body frame (the
//    shape's three reflection symmetries), hence symmetric by construction,
//    and each diagonal entry must lie within the minimum-dissipation bounds
//    of Hill & Power (1956): between the values of a sphere inscribed in the
//    body (radius >= 1/sqrt(1/a^2 + 1/b^2 + 1/c^2), the octahedron spanned
//    by the axis points) and of the bounding sphere:
//      6 r_in / c <= K_i <= 6 R / c,  8 (r_in / c)^3 <= Omega_i <= 8 (R / c)^3,
//    widened by resistanceBoundTolerance for the discretisation error;
//  - the coupling Pi (strain -> torque) consistent with the rotation block:
//    |Pi_i| <= (1 + tolerance) Omega_i, i.e. Bretherton's parameter
//    |lambda_i| = |Pi_i / Omega_i| <= 1 (Jeffery: (r^2 - 1)/(r^2 + 1) for
//    ellipsoids; below 1 for every shape computed, doc/hydrodynamics.md).
struct ResistanceProblem {
    std::string component, reason;
    bool valid() const { return component.empty(); }
};
ResistanceProblem validateResistance(const Superellipsoid& shape, const NumericalResistance& r);

// Relative widening of the bounds above for the discretisation error. The
// bounds are tight only for the sphere, which the solver gives to 1e-12 at
// every resolution; measured over 15 shapes at n = 2-4 (doc/hydrodynamics.md)
// no computed value comes within 2 % of a bound where the solver errs by
// more than 0.3 %, and the largest coarse error (13 %) sits 65 % inside.
inline constexpr double resistanceBoundTolerance = 0.1;

// $SEF_RESISTANCE_CACHE, else ${XDG_CACHE_HOME:-$HOME/.cache}/superellipsoidFoam/resistance
// (relative "superellipsoidFoam-cache/resistance" if neither is set).
std::string defaultResistanceCacheDirectory();

// The cache key text of (shape, options).
std::string resistanceCacheKey(const Superellipsoid& shape, const ResistanceSolverOptions& options);

// Cached result, or nullopt (missing, unreadable or key mismatch). Throws
// ResistanceCacheError if the entry fails validateResistance.
std::optional<NumericalResistance> loadCachedResistance(const Superellipsoid& shape,
                                                        const ResistanceSolverOptions& options,
                                                        const std::string& directory = "");

// Writes the entry (creates the directory); returns false if it cannot, or if
// the result fails validateResistance (it would be refused when read).
bool storeCachedResistance(const Superellipsoid& shape, const ResistanceSolverOptions& options,
                           const NumericalResistance& result, const std::string& directory = "");

// Cache hit, or computeResistance + store. fromCache (optional) tells which.
NumericalResistance cachedResistance(const Superellipsoid& shape,
                                     const ResistanceSolverOptions& options = {},
                                     const std::string& directory = "",
                                     bool* fromCache = nullptr);

} // namespace sef
