#include "hydrodynamics/DragCorrection.hpp"

#include "hydrodynamics/SurfaceQuadrature.hpp"

#include <cmath>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace sef {

namespace {
using Vec2 = Eigen::Vector2d;
} // namespace

DragCorrectionModel dragCorrectionModelFromName(const std::string& name) {
    if (name == "stokes") return DragCorrectionModel::stokes;
    if (name == "schillerNaumann") return DragCorrectionModel::schillerNaumann;
    if (name == "hoelzerSommerfeld") return DragCorrectionModel::hoelzerSommerfeld;
    if (name == "zastawny") return DragCorrectionModel::zastawny;
    throw std::invalid_argument("unknown drag correction '" + name +
                                "' (valid: stokes, schillerNaumann, hoelzerSommerfeld, zastawny)");
}

const char* dragCorrectionModelName(DragCorrectionModel model) {
    switch (model) {
    case DragCorrectionModel::stokes: return "stokes";
    case DragCorrectionModel::schillerNaumann: return "schillerNaumann";
    case DragCorrectionModel::hoelzerSommerfeld: return "hoelzerSommerfeld";
    case DragCorrectionModel::zastawny: return "zastawny";
    }
    return "?";
}

ShapeFactors shapeFactors(const Superellipsoid& shape) {
    const SurfaceQuadrature q = buildSurfaceQuadrature(shape, 24);
    const double area = std::accumulate(q.weights.begin(), q.weights.end(), 0.0);
    ShapeFactors f;
    f.equivalentDiameter = shape.equivalentDiameter();
    f.sphericity = M_PI * f.equivalentDiameter * f.equivalentDiameter / area;
    // The Hoelzer-Sommerfeld term 10^(0.4 (-log10 phi)^0.2) has an infinite
    // slope at phi = 1: a sphere's quadrature error of 1e-10 alone would move
    // C_D by 1 % at high Re. Within the quadrature's accuracy a sphere is one.
    if (f.sphericity > 1.0 - 1e-9) f.sphericity = 1.0;
    f.volume = shape.volume();
    f.inertiaPerDensity = shape.principalInertia(1.0);
    return f;
}

double projectedArea(const Superellipsoid& shape, const Vec3& directionBody, int outline) {
    if (!isFinite(directionBody) || directionBody.squaredNorm() == 0.0 || outline < 3)
        throw std::invalid_argument("projectedArea: direction must be finite and non-zero, outline >= 3");
    const Vec3 n = directionBody.normalized();
    // An ellipsoid's shadow is an ellipse of area pi a b c |diag(1/a, 1/b,
    // 1/c) n| (exact, and 128 support points fewer: the drag of a coupled
    // ellipsoid takes it every step)
    if (shape.eps1() == 1.0 && shape.eps2() == 1.0)
        return M_PI * shape.halfAxes().prod() * n.cwiseQuotient(shape.halfAxes()).norm();
    // An orthonormal basis (e1, e2) of the plane normal to n.
    const Vec3 helper = std::fabs(n.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
    const Vec3 e1 = n.cross(helper).normalized(), e2 = n.cross(e1);
    // The shadow is the projection: its support function in the plane is the
    // body's, h(t) = t . p(t) for in-plane t. Two polygons bound its area:
    // the support points (inscribed) and the tangent lines through them
    // (circumscribed). For a smooth outline their errors are -2x and +x
    // (x = pi^2 / (3 N^2) for a circle), so (inscribed + 2 circumscribed) / 3
    // cancels the leading term.
    std::vector<Vec2> points(static_cast<std::size_t>(outline)), normals(points.size());
    std::vector<double> support(points.size());
    for (int k = 0; k < outline; ++k) {
        const double t = 2.0 * M_PI * k / outline;
        const Vec2 dir(std::cos(t), std::sin(t));
        const Vec3 p = shape.supportPoint(dir.x() * e1 + dir.y() * e2);
        points[k] = Vec2(p.dot(e1), p.dot(e2));
        normals[k] = dir;
        support[k] = dir.dot(points[k]);
    }
    double inscribed = 0.0, circumscribed = 0.0;
    Vec2 previousCorner = Vec2::Zero();
    for (int k = 0; k <= outline; ++k) {
        const std::size_t i = static_cast<std::size_t>(k % outline), j = static_cast<std::size_t>((k + 1) % outline);
        if (k < outline) inscribed += points[i].x() * points[j].y() - points[j].x() * points[i].y();
        // corner of the tangent lines of directions i and j (Cramer)
        const double det = normals[i].x() * normals[j].y() - normals[i].y() * normals[j].x();
        const Vec2 corner((support[i] * normals[j].y() - support[j] * normals[i].y()) / det,
                          (normals[i].x() * support[j] - normals[j].x() * support[i]) / det);
        if (k > 0) circumscribed += previousCorner.x() * corner.y() - corner.x() * previousCorner.y();
        previousCorner = corner;
    }
    return (0.5 * std::fabs(inscribed) + std::fabs(circumscribed)) / 3.0;
}

double hoelzerSommerfeldDragCoefficient(double Re, double phi, double phiPerp) {
    return 8.0 / (Re * std::sqrt(phiPerp)) + 16.0 / (Re * std::sqrt(phi)) + 3.0 / (std::sqrt(Re) * std::pow(phi, 0.75))
           + 0.42 * std::pow(10.0, 0.4 * std::pow(-std::log10(phi), 0.2)) / phiPerp;
}

double dragCorrectionFactor(DragCorrectionModel model, double Re, const ShapeFactors& factors,
                            double crosswiseSphericity, double stokesForceRatio) {
    // No slip (Re = 0 exactly): the force is zero whatever the factor, but the
    // factor is also the implicit drag coefficient of a coupled step, so it
    // takes its Re -> 0 limit (1 for the sphere laws; Hoelzer-Sommerfeld's
    // Stokes terms for a non-sphere) rather than jumping at zero slip.
    if (!(Re > 0.0) && model != DragCorrectionModel::zastawny) {
        if (model != DragCorrectionModel::hoelzerSommerfeld) return 1.0;
        const double phi = std::min(factors.sphericity, 1.0);
        return (8.0 / std::sqrt(crosswiseSphericity) + 16.0 / std::sqrt(phi)) / 24.0 / stokesForceRatio;
    }
    switch (model) {
    case DragCorrectionModel::zastawny:
        throw std::invalid_argument("dragCorrectionFactor: zastawny depends on the angle of incidence "
                                    "(hydrodynamics/IncidenceForces.hpp)");
    case DragCorrectionModel::stokes: return 1.0;
    case DragCorrectionModel::schillerNaumann:
        return Re <= 1000.0 ? 1.0 + 0.15 * std::pow(Re, 0.687) : 0.44 * Re / 24.0;
    case DragCorrectionModel::hoelzerSommerfeld: {
        // Sphericity 1 exactly: -log10(1) = 0 and 0^0.2 = 0 (no pow of a negative zero)
        const double phi = std::min(factors.sphericity, 1.0);
        // C_D Re / 24 is the drag over the volume-equivalent sphere's Stokes
        // drag; divided by the shape's own Stokes drag along the slip.
        return hoelzerSommerfeldDragCoefficient(Re, phi, crosswiseSphericity) * Re / 24.0 / stokesForceRatio;
    }
    }
    return 1.0;
}

} // namespace sef
