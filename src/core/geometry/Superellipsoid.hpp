#pragma once
// A superellipsoid shape in its body frame (paper 001, eq. 3):
//   S(x) = ((|x|/a)^(2/eps2) + (|y|/b)^(2/eps2))^(eps2/eps1) + (|z|/c)^(2/eps1) - 1
// Half-axes a, b, c along body x, y, z; squareness eps1 (z / meridian) and
// eps2 (x-y plane). Equivalent exponents of paper 000: n1 = 2/eps1, n2 = 2/eps2.
#include "geometry/ShapeError.hpp"
#include "geometry/Types.hpp"

namespace sef {

class Superellipsoid {
public:
    // Limits of the convex family; eps outside (0, 2] is rejected.
    static constexpr double epsMax = 2.0;
    // Below this, exponents 2/eps exceed 20: allowed, but poorly conditioned.
    static constexpr double epsWarn = 0.1;

    // Throws ShapeError naming the bad parameter (a, b, c, eps1, eps2).
    Superellipsoid(double a, double b, double c, double eps1, double eps2);

    // Construct from the blockiness exponents n1 = 2/eps1, n2 = 2/eps2 of
    // paper 000. Throws ShapeError naming n1 or n2.
    static Superellipsoid fromExponents(double a, double b, double c, double n1, double n2);

    double a() const noexcept { return a_; }
    double b() const noexcept { return b_; }
    double c() const noexcept { return c_; }
    double eps1() const noexcept { return eps1_; }
    double eps2() const noexcept { return eps2_; }
    double n1() const noexcept { return 2.0 / eps1_; }
    double n2() const noexcept { return 2.0 / eps2_; }
    Vec3 halfAxes() const noexcept { return {a_, b_, c_}; }

    // True where the surface has edges (eps > 1): no second derivatives on
    // the coordinate planes.
    bool hasEdges() const noexcept { return eps1_ > 1.0 || eps2_ > 1.0; }

    // V = 2 a b c eps1 eps2 B(eps1/2 + 1, eps1) B(eps2/2, eps2/2)
    // (Jaklic et al.; consistent with paper 001, eqs. 17-20).
    double volume() const;

    // Diameter of the sphere of equal volume.
    double equivalentDiameter() const;

private:
    double a_, b_, c_, eps1_, eps2_;
};

// Validates without constructing: empty string if fine, else the message
// (same text the constructor throws).
std::string validateShape(double a, double b, double c, double eps1, double eps2);

} // namespace sef
