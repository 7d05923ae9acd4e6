#include "dem/step/Subcycling.hpp"

#include <cmath>
#include <stdexcept>
#include <vector>

namespace sef::dem {

SubcycleChoice automaticSubcycles(const ParticleSystem& ps, double dt, const Vec3& gravity, double travelFraction,
                                  int maxSubcycles, int minSubcycles) {
    if (!std::isfinite(dt) || !(dt > 0.0)) throw std::invalid_argument("automaticSubcycles: dt must be positive");
    if (!std::isfinite(travelFraction) || !(travelFraction > 0.0))
        throw std::invalid_argument("automaticSubcycles: travel fraction must be positive");
    if (maxSubcycles < 1) throw std::invalid_argument("automaticSubcycles: maxSubcycles must be at least 1");
    if (minSubcycles < 1 || minSubcycles > maxSubcycles)
        throw std::invalid_argument("automaticSubcycles: minSubcycles must lie in [1, maxSubcycles]");
    std::vector<double> diameter(ps.types.size());
    for (std::size_t t = 0; t < ps.types.size(); ++t) diameter[t] = ps.types[t].shape.equivalentDiameter();
    SubcycleChoice c;
    for (std::size_t i = 0; i < ps.size(); ++i) {
        const ParticleType& type = ps.types[static_cast<std::size_t>(ps.type[i])];
        if (type.held) continue; // never moves (its velocity is zeroed by the step)
        const double speed = ps.velocity[i].norm() + (gravity + ps.externalForce[i] / type.mass).norm() * dt;
        if (!std::isfinite(speed))
            throw std::invalid_argument("automaticSubcycles: particle id " + std::to_string(ps.id[i]) +
                                        " has a non-finite velocity or force");
        c.largestTravel = std::max(c.largestTravel, speed * dt / diameter[static_cast<std::size_t>(ps.type[i])]);
    }
    // (1 - 1e-12): a travel of exactly k fractions (0.5 / 0.1 = 5.000000000000001
    // in doubles) needs k substeps, not k + 1
    const double needed = std::ceil(c.largestTravel / travelFraction * (1.0 - 1e-12));
    c.capped = needed > maxSubcycles;
    c.subcycles = c.capped ? maxSubcycles : std::max(minSubcycles, static_cast<int>(needed));
    return c;
}

} // namespace sef::dem
