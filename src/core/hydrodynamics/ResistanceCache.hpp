#pragma once
// File cache of numerically computed resistance tensors, so that a cloud with
// a few shapes pays the boundary-integral solve once per shape.
// Key: the shape normalised by its smallest half-axis (the tensors depend on
// the ratios only), eps1, eps2, resolution and blob factor, printed with 17
// digits; one small text file per key (name = 64-bit FNV-1a hash of the key,
// the key itself is stored in the file and checked on reading).
// Location: the directory argument; empty -> defaultResistanceCacheDirectory().
#include "hydrodynamics/BoundaryIntegralResistance.hpp"

#include <optional>
#include <string>

namespace sef {

// $SEF_RESISTANCE_CACHE, else ${XDG_CACHE_HOME:-$HOME/.cache}/superellipsoidFoam/resistance
// (relative "superellipsoidFoam-cache/resistance" if neither is set).
std::string defaultResistanceCacheDirectory();

// The cache key text of (shape, options).
std::string resistanceCacheKey(const Superellipsoid& shape, const ResistanceSolverOptions& options);

// Cached result, or nullopt (missing, unreadable or key mismatch).
std::optional<NumericalResistance> loadCachedResistance(const Superellipsoid& shape,
                                                        const ResistanceSolverOptions& options,
                                                        const std::string& directory = "");

// Writes the entry (creates the directory); returns false if it cannot.
bool storeCachedResistance(const Superellipsoid& shape, const ResistanceSolverOptions& options,
                           const NumericalResistance& result, const std::string& directory = "");

// Cache hit, or computeResistance + store. fromCache (optional) tells which.
NumericalResistance cachedResistance(const Superellipsoid& shape,
                                     const ResistanceSolverOptions& options = {},
                                     const std::string& directory = "",
                                     bool* fromCache = nullptr);

} // namespace sef
