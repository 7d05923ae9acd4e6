#pragma once
// The fluid's action at finite Re from the incidence correlation
// (IncidenceCorrelation.hpp, shapes mapped by IncidenceMapping.hpp), split
// the way the DEM step takes it (FluidForces.hpp):
//   drag    the Stokes tensor D = pi mu c R K R^T scaled by f, integrated
//           exactly in the step, with f such that its component along the
//           slip w is the correlation's drag:
//             f w^.D w = C_D rho |w|^2 / 2 * pi d_eq^2 / 4 = C_D Re pi mu d_eq |w| / 8
//   lift    explicit (held over the step): the correlation's lift
//           C_L rho |w|^2 / 2 * pi d_eq^2 / 4 along its direction, less the
//           part normal to w that the scaled tensor already gives (a
//           tilted spheroid's Stokes drag is not along w). The applied
//           force f D w + liftCorrection is then exactly the correlation's
//           drag plus lift at the step's start.
//   torque  explicit: the pitching torque C_T rho |w|^2 / 2 * pi d_eq^3 / 8,
//           turning the particle broadside to the slip.
// Why the Stokes tensor keeps the implicit part: its eigenvalues are those
// of a body of that shape, so the step's response to a change of slip is
// the shape's, and in creeping flow it is the exact resistance. The
// correlation's own drag lies 10-20 % below it at Re = 0.1
// (IncidenceCorrelation.hpp), so f < 1 there: the correlation is taken as
// it is wherever it is selected.
#include "hydrodynamics/IncidenceMapping.hpp"

namespace sef {

struct IncidenceForces {
    double dragFactor = 1;                // f
    Vec3 liftCorrection = Vec3::Zero();   // [N], world
    Vec3 torque = Vec3::Zero();           // [N m], world
    double angle = 0;                     // alpha [rad], between slip and axis
    IncidenceCoefficients coefficients;   // C_D, C_L, C_T at Re and alpha
};

// At zero slip (no force) f takes its Re -> 0 limit along the symmetry axis
// (alpha = 0), since f is also the implicit drag coefficient of a coupled
// step and should not jump there.
// stokesTensor: pi mu c R K R^T [kg/s]; axisWorld: the mapped symmetry axis
// R e_axis; reynolds: rho |w| d_eq / mu (with a voidage law the superficial
// Re_s = eps Re: every term then takes the single-particle law at Re_s, as
// the drag corrections do, VoidageDrag.hpp).
IncidenceForces incidenceForces(const IncidenceMapping& mapping, const Mat3& stokesTensor, const Vec3& axisWorld,
                                const Vec3& slip, double reynolds, double equivalentDiameter,
                                double dynamicViscosity);

} // namespace sef
