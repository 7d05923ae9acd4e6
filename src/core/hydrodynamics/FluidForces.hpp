#pragma once
// The fluid's action on one superellipsoid from the flow at its centre
// (paper 001 sec. 2.2), split the way the DEM step integrates it:
//  - linear drag, integrated exactly in the step (FluidDrag):
//      F = f pi mu c R K R^T (u - v)                 eqs. (5)-(6), f: DragCorrection.hpp
//      T = pi mu c^3 R Omega R^T (omega_f - omega)   eq. (21), omega_f the
//        torque-free rotation rate: half vorticity + Omega^-1 Pi strain (eqs. 22-23)
//  - an explicit force, constant over the step, eq. (7) with the gravity
//    term m g left to the step:
//      buoyancy           -rho_f V g
//      pressureGradient   rho_f V Du/Dt  (the undisturbed flow's acceleration)
// Added mass is not included yet (it needs the mass matrix of the step).
#include "kinematics/LinearRelaxation.hpp" // FluidDrag
#include "hydrodynamics/DragCorrection.hpp"
#include "hydrodynamics/ResistanceTensors.hpp"
#include "hydrodynamics/BoundaryIntegralResistance.hpp"

#include <string>

namespace sef {

// The undisturbed flow at the particle centre (world frame).
struct FluidState {
    Vec3 velocity = Vec3::Zero();
    Mat3 velocityGradient = Mat3::Zero(); // L_ij = du_i / dx_j
    Vec3 acceleration = Vec3::Zero();     // Du/Dt
    double density = 0;                   // rho_f [kg/m^3]
    double dynamicViscosity = 0;          // mu [Pa s]
};

// Which terms act (each switchable in the cloud dictionary).
struct FluidForceModel {
    DragCorrectionModel dragCorrection = DragCorrectionModel::stokes;
    bool drag = true;
    bool rotationalDrag = true;   // the Omega term of eq. (21)
    bool strainTorque = true;     // the Pi term of eq. (21) (Jeffery rotation)
    bool buoyancy = true;
    bool pressureGradient = true;
};

// One particle type's constants: the resistance tensors (normalised by the
// smallest half-axis c, hydrodynamics/ResistanceTensors.hpp) and shape factors.
struct HydrodynamicShape {
    Superellipsoid shape;
    ResistanceTensors tensors;
    ShapeFactors factors;
};

// The constants of one shape: the exact tensors of an ellipsoid (eps1 = eps2
// = 1: Oberbeck, Jeffery) or the boundary-integral solver's, computed once
// per shape and machine through the file cache (hydrodynamics/ResistanceCache.hpp;
// cacheDirectory empty: the default). Throws like computeResistance.
HydrodynamicShape makeHydrodynamicShape(const Superellipsoid& shape, const ResistanceSolverOptions& options = {},
                                        const std::string& cacheDirectory = "");

struct ParticleFluidForces {
    FluidDrag drag;                 // for dem::ParticleSystem::fluidDrag
    Vec3 force = Vec3::Zero();      // explicit: buoyancy + pressure gradient [N]
    double reynolds = 0;            // Re_p = rho_f |u - v| d_eq / mu
    double dragFactor = 1;          // f of the drag correction
};

// Throws std::invalid_argument for a non-positive or non-finite fluid
// density or viscosity and non-finite state.
ParticleFluidForces fluidForces(const HydrodynamicShape& particle, const Quat& orientation, const Vec3& velocity,
                                const FluidState& fluid, const Vec3& gravity, const FluidForceModel& model);

} // namespace sef
