#include "dem/particles/TypeIdentity.hpp"

#include <cmath>
#include <sstream>

namespace sef::dem {

NamedType namedType(const std::string& name, const ParticleType& type) {
    const Superellipsoid& s = type.shape;
    return {name, s.a(), s.b(), s.c(), s.eps1(), s.eps2(), type.density};
}

namespace {

bool sameValue(double recorded, double current) {
    return std::abs(recorded - current)
        <= kRecordedValueTolerance * std::max(std::abs(recorded), std::abs(current));
}

// "a 0.003 -> 0.004, density 2500 -> 2600" for the values that differ
std::string differences(const NamedType& was, const NamedType& now) {
    const struct { const char* key; double was, now; } values[] = {
        {"a", was.a, now.a},          {"b", was.b, now.b},
        {"c", was.c, now.c},          {"eps1", was.eps1, now.eps1},
        {"eps2", was.eps2, now.eps2}, {"density", was.density, now.density}};
    std::ostringstream os;
    os.precision(9);
    for (const auto& v : values) {
        if (sameValue(v.was, v.now)) continue;
        if (os.tellp() > 0) os << ", ";
        os << v.key << ' ' << v.was << " -> " << v.now;
    }
    return os.str();
}

}  // namespace

TypeMapping mapRecordedTypes(
    const std::vector<NamedType>& recorded,
    const std::vector<NamedType>& current,
    const std::vector<long long>& particlesOfType) {
    TypeMapping mapping;
    mapping.currentIndex.assign(recorded.size(), -1);
    for (std::size_t k = 0; k < recorded.size(); ++k) {
        const long long count = k < particlesOfType.size() ? particlesOfType[k] : 0;
        for (std::size_t j = 0; j < current.size(); ++j) {
            if (current[j].name == recorded[k].name) mapping.currentIndex[k] = int(j);
        }
        if (count == 0) continue;
        std::ostringstream problem;
        const int j = mapping.currentIndex[k];
        if (j < 0) {
            problem << "type '" << recorded[k].name << "' (" << count
                    << " particles) is no longer in particleTypes (removed or renamed)";
        } else {
            const std::string changed = differences(recorded[k], current[j]);
            if (changed.empty()) continue;
            problem << "type '" << recorded[k].name << "' (" << count
                    << " particles) has changed: " << changed;
        }
        mapping.problems.push_back(problem.str());
    }
    return mapping;
}

}  // namespace sef::dem
