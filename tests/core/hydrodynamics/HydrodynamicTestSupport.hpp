#pragma once
// Helpers shared by the hydrodynamics tests.
#include "hydrodynamics/AddedMass.hpp"
#include "hydrodynamics/EllipsoidResistance.hpp"
#include "hydrodynamics/FluidForces.hpp"

namespace sef::test {

// The exact ellipsoid resistance, the shape factors and the added mass of s.
inline HydrodynamicShape hydrodynamicShape(const Superellipsoid& s) {
    return {s, ellipsoidResistance(s.a(), s.b(), s.c()), shapeFactors(s), addedMassCoefficients(s)};
}

} // namespace sef::test
