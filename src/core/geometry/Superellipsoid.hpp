#pragma once
// A superellipsoid shape in its body frame ([Superellipsoid-OpenFOAM], eq. 3):
//   S(x) = ((|x|/a)^(2/eps2) + (|y|/b)^(2/eps2))^(eps2/eps1) + (|z|/c)^(2/eps1) - 1
// Half-axes a, b, c along body x, y, z; squareness eps1 (z / meridian) and
// eps2 (x-y plane). Equivalent exponents of [Superquadric-LIGGGHTS]: n1 = 2/eps1, n2 = 2/eps2.
#include "geometry/ShapeError.hpp"
#include "geometry/Types.hpp"

#include <array>
#include <string>

namespace sef {

// Value, gradient and Hessian of the implicit function at one point.
struct ImplicitDerivatives {
    double value;
    Vec3 gradient;
    Mat3 hessian;
};

// Mean and Gaussian curvature of the surface (positive for the convex body).
struct SurfaceCurvature {
    double mean;
    double gaussian;
};

class Superellipsoid {
public:
    // Limits of the convex family; eps outside (0, 2] is rejected.
    static constexpr double epsMax = 2.0;
    // Below this, exponents 2/eps exceed 20: allowed, but poorly conditioned.
    static constexpr double epsWarn = 0.1;

    // Representable range: every derived quantity of a shape (n1 = 2/eps1,
    // n2, bounding radius, the largest curvature max(a, b, c) / min(a, b, c)^2
    // of the ellipsoid with these half-axes, volume, the three second
    // moments of volume) and
    // of a particle (mass, principal moments of inertia) must lie within
    // [exp(logRepresentableMin), exp(logRepresentableMax)] =
    // [sqrt(DBL_MIN), sqrt(DBL_MAX)] ~ [1.5e-154, 1.3e154]. The range is
    // closed under 1/x (inverse mass and inertia stay inside), and the
    // product or quotient of any two such quantities (m v, impulse / m,
    // I w^2, ...) is finite and normal. For a sphere of density 1 this
    // admits radii of about 1e-31 to 1e30 (the second moment ~ r^5 binds).
    // Checked in log space, so the check never overflows under FP traps.
    // log(sqrt(DBL_MAX)) and log(sqrt(DBL_MIN)) (literals: std::log is not
    // constexpr; checked against <cfloat> in volumeTest.cpp).
    static constexpr double logRepresentableMax = 354.891356446692;
    static constexpr double logRepresentableMin = -354.19820926613204;

    // Throws ShapeError naming the bad parameter (a, b, c, eps1, eps2): not
    // finite, not > 0, eps outside (0, 2], or a derived quantity outside the
    // representable range (named: the smallest half-axis if too small, the
    // largest if too large, the reverse for the curvature; eps1/eps2 if
    // n1/n2 is too large).
    Superellipsoid(double a, double b, double c, double eps1, double eps2);

    // Construct from the blockiness exponents n1 = 2/eps1, n2 = 2/eps2 of
    // [Superquadric-LIGGGHTS]. Throws ShapeError naming n1 or n2 (n < 1, not finite or
    // above the representable range), else as the constructor.
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
    // (Jaklic et al.; consistent with [Superellipsoid-OpenFOAM], eqs. 17-20).
    double volume() const;

    // Diameter of the sphere of equal volume.
    double equivalentDiameter() const;

    // ---- Implicit function (ImplicitFunction.cpp) --------------------------
    // All derivatives are evaluated in scaled coordinates with the largest
    // in-plane coordinate factored out, so they stay finite for exponents up
    // to 2/eps = 20 and |x|/a up to ~1e14. On the coordinate planes finite
    // limits are returned exactly (odd derivatives are exactly 0); powers that
    // are truly infinite there (edges, eps > 1) are capped at their value at
    // a scaled distance 1e-30: large but finite, never Inf/NaN.

    // S of [Superellipsoid-OpenFOAM] eq. (3): < 0 inside, 0 on the surface, > 0 outside.
    double implicitFunction(const Vec3& xBody) const;
    // dS/dx
    Vec3 gradient(const Vec3& xBody) const;
    // d2S/dx dx
    Mat3 hessian(const Vec3& xBody) const;
    // T[i](j, k) = d3S / dx_i dx_j dx_k (common-normal Jacobian, [Superellipsoid-OpenFOAM]
    // sec. 3.4.2 and Appendix A).
    std::array<Mat3, 3> thirdDerivatives(const Vec3& xBody) const;
    // Value, gradient and Hessian at once (shared powers; the fast path).
    ImplicitDerivatives evaluate(const Vec3& xBody) const;
    // Gauge (radial) function G(x) = (S(x) + 1)^(eps1/2): positively
    // homogeneous of degree 1, G = 1 on the surface; the body is G <= 1.
    double gaugeFunction(const Vec3& xBody) const;

    // ---- Mass properties (MassProperties.cpp) ------------------------------
    // (Ixx, Iyy, Izz) about the body axes through the centroid for a uniform
    // density, [Superellipsoid-OpenFOAM] eqs. (17)-(19).
    // Throws ParameterError("density") as requireDensity does.
    Vec3 principalInertia(double density) const;

    // Natural logs of the volume and of the second moments per unit density
    // (Ixx, Iyy, Izz) / density, free of overflow for any valid shape.
    double logVolume() const;
    Vec3 logSecondMoments() const;

    // Throws ParameterError naming "density" unless it is finite, > 0 and
    // the mass and the three principal moments it gives lie in the
    // representable range (above).
    void requireDensity(double density) const;

    // ---- Support and bounding volumes (Support.cpp) ------------------------
    // Radius of the minimal bounding sphere centred at the body origin, i.e.
    // the largest distance of a surface point from the centre ([Superquadric-LIGGGHTS],
    // "Neighbor search"; closed form for all eps in (0, 2]).
    // Computed once at construction (every broad- and narrow-phase query asks).
    double boundingRadius() const noexcept { return boundingRadius_; }
    // Surface point maximising n.x ([Superquadric-LIGGGHTS], "Particle-wall contact", closed
    // form; any signs; n need not be unit). Throws std::invalid_argument for
    // a zero or non-finite direction.
    Vec3 supportPoint(const Vec3& directionBody) const;
    // h(n) = max over the body of n.x (the support distance for unit n).
    double supportValue(const Vec3& directionBody) const;
    // Surface point on the ray from the centre along the direction. Throws
    // std::invalid_argument for a zero or non-finite direction.
    Vec3 radialSurfacePoint(const Vec3& directionBody) const;

    // ---- Curvature (Curvature.cpp) -----------------------------------------
    // Mean and Gaussian curvature at a surface point ([Superquadric-LIGGGHTS], eqs. 38-39,
    // sign chosen positive for the convex body). Large but finite on edges.
    SurfaceCurvature curvature(const Vec3& surfacePointBody) const;

private:
    double computeBoundingRadius() const;
    void requireRepresentable() const;

    double a_, b_, c_, eps1_, eps2_;
    double boundingRadius_;
};

// Validates without constructing: empty string if fine, else the message
// (same text the constructor throws).
std::string validateShape(double a, double b, double c, double eps1, double eps2);

} // namespace sef
