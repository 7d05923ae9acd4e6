// Particle types by name across a restart. A restart carries each
// particle's type as an index into the type list; the run record keeps the
// names and shapes that list had when the time was written. Matching the
// recorded types to the current ones by name keeps every particle's shape
// when types are inserted, removed or reordered; a type whose particles
// would change shape or density (renamed, removed or edited) is a problem
// the caller reports, never a silent re-mapping.
#pragma once

#include "dem/particles/ParticleSystem.hpp"

#include <string>
#include <vector>

namespace sef::dem {

// What identifies a type's particles: its name, shape and density.
struct NamedType {
    std::string name;
    double a, b, c, eps1, eps2, density;
};

NamedType namedType(const std::string& name, const ParticleType& type);

// Relative difference below which a recorded value equals the current one:
// records are written with at least 6 significant digits (OpenFOAM's
// default writePrecision), which round to 5e-6.
inline constexpr double kRecordedValueTolerance = 1e-5;

struct TypeMapping {
    // current index of each recorded type; -1 where none carries its name
    std::vector<int> currentIndex;
    // one sentence per recorded type whose particles cannot keep their
    // shape and density: "type 'x': ..." (empty: the mapping is safe)
    std::vector<std::string> problems;
};

// `particlesOfType[k]`: how many particles carry recorded type k (all
// processors); a recorded type without particles may be removed or changed.
TypeMapping mapRecordedTypes(
    const std::vector<NamedType>& recorded,
    const std::vector<NamedType>& current,
    const std::vector<long long>& particlesOfType);

}  // namespace sef::dem
