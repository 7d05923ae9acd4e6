#include "hydrodynamics/IncidenceForces.hpp"

#include <cmath>

namespace sef {

IncidenceForces incidenceForces(const IncidenceMapping& mapping, const Mat3& stokes, const Vec3& axis,
                                const Vec3& slip, double Re, double dEq, double mu) {
    IncidenceForces out;
    if (!(Re > 0.0)) {
        // Below the data C_D Re is constant (IncidenceCorrelation.hpp; the
        // sphere's tends to 24), so a tiny Re gives the limit to round-off.
        const double Re0 = 1e-12, dragRe = incidenceCoefficients(mapping, Re0, 0.0).drag * Re0;
        const Vec3 e = axis.normalized();
        out.dragFactor = dragRe * M_PI * mu * dEq / (8.0 * e.dot(stokes * e));
        return out; // (no force: coefficients and angle stay zero)
    }
    out.angle = mapping.shapeClass == IncidenceClass::sphere ? 0.0 : incidenceAngle(slip, axis);
    out.coefficients = incidenceCoefficients(mapping, Re, out.angle);
    const IncidenceDirections dir = incidenceDirections(slip, axis, mapping.shapeClass);
    const double speed = slip.norm();
    const Vec3 stokesForce = stokes * slip;
    out.dragFactor = out.coefficients.drag * Re * M_PI * mu * dEq * speed / (8.0 * dir.drag.dot(stokesForce));
    // rho |w|^2 / 2 written as Re mu |w| / (2 d_eq): with a voidage law Re
    // is the superficial Re_s, and lift and torque scale like the drag
    const double dynamicPressureArea = 0.5 * (Re * mu / dEq) * speed * 0.25 * M_PI * dEq * dEq;
    const Vec3 tensorLateral = out.dragFactor * (stokesForce - dir.drag.dot(stokesForce) * dir.drag);
    out.liftCorrection = out.coefficients.lift * dynamicPressureArea * dir.lift - tensorLateral;
    out.torque = out.coefficients.torque * dynamicPressureArea * 0.5 * dEq * dir.torque;
    return out;
}

} // namespace sef
