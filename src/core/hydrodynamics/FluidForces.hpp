#pragma once
// The fluid's action on one superellipsoid from the flow at its centre
// ([Superellipsoid-OpenFOAM] sec. 2.2), split the way the DEM step integrates it:
//  - linear drag, integrated exactly in the step (FluidDrag):
//      F = f pi mu c R K R^T (u - v)                 eqs. (5)-(6), f: DragCorrection.hpp
//        (with a voidage law f becomes g = f(Re_s) h(eps, Re_s), the
//        hindered drag among other particles: VoidageDrag.hpp)
//      T = f_R pi mu c^3 R Omega R^T (omega_f - omega)   eq. (21), omega_f the
//        torque-free rotation rate: half vorticity + Omega^-1 Pi strain
//        (eqs. 22-23); f_R: RotationalDragCorrection.hpp
//  - with dragCorrection zastawny (IncidenceForces.hpp), f from the drag
//    against the angle of incidence, plus an explicit lift and pitching
//    torque held over the step
//  - an explicit force, constant over the step, eq. (7) with the gravity
//    term m g left to the step:
//      buoyancy           -rho_f V g
//      pressureGradient   rho_f V Du/Dt  (the undisturbed flow's acceleration)
//                         or, with the volume fraction in the fluid
//                         equations (pressureFromField), -V grad p: the
//                         averaged fluid equations hold -alphac grad p, and
//                         the particles take the rest, (1 - alphac) grad p,
//                         so that a bed's pressure drop is the total fluid
//                         force on its particles (Anderson & Jackson 1967;
//                         "model A" of Zhou et al. 2010, J. Fluid Mech. 661;
//                         the voidage laws give the drag of this split)
//  - added mass, eq. (7) with the added-mass tensor A = R diag(m_a,i) R^T
//    of the shape (hydrodynamics/AddedMass.hpp; the paper's sphere:
//    m_a = C_a rho_f V, C_a = 1/2): -A (dv/dt - Du/Dt) (the fluid's du/dt
//    along the particle path taken as Du/Dt), so that
//      (m I + A) dv/dt = m g + F + D (u - v),
//      F = -rho_f V g + (rho_f V I + A) Du/Dt - (dA/dt)(v - u),
//    the last term because A turns with the body.
//    The DEM step integrates m dv/dt = m g + F' + D' (u - v) with the
//    particle mass m (its collisions use m, as in [Superellipsoid-OpenFOAM] sec. 4), so the
//    same equation is handed to it multiplied by r = m (m I + A)^-1:
//      D' = r D,  F' = r F - (I - r) m g                        (massRatio).
//    r, A and the drag tensors are all diagonal in the body frame, so D'
//    stays symmetric. Rotation likewise with the added moment of inertia
//    I_a: the rotational drag and the torque are multiplied by
//    I (I + I_a)^-1 (body frame). The free rotation between them keeps the
//    particle's own inertia, and the Munk moment (the potential-flow torque
//    of an ellipsoid translating obliquely) is not included.
#include "kinematics/LinearRelaxation.hpp" // FluidDrag
#include "hydrodynamics/AddedMass.hpp"
#include "hydrodynamics/DragCorrection.hpp"
#include "hydrodynamics/RotationalDragCorrection.hpp"
#include "hydrodynamics/VoidageDrag.hpp"
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
    double fluidFraction = 1;             // eps at the particle centre, 1 in dilute flow
    Vec3 pressureGradient = Vec3::Zero(); // grad p without its hydrostatic part [Pa/m]
};

// Which terms act (each switchable in the cloud dictionary).
struct FluidForceModel {
    DragCorrectionModel dragCorrection = DragCorrectionModel::stokes;
    VoidageModel voidage = VoidageModel::none; // none: fluidFraction is not read
    bool drag = true;
    bool rotationalDrag = true;   // the Omega term of eq. (21)
    RotationalDragModel rotationalDragCorrection = RotationalDragModel::stokes; // f_R
    bool strainTorque = true;     // the Pi term of eq. (21) (Jeffery rotation)
    bool buoyancy = true;
    bool pressureGradient = true;
    bool addedMass = true;
    // true: the shape's own added mass and added moment of inertia, per
    // body axis (hydrodynamics/AddedMass.hpp; a sphere's is C_a = 1/2);
    // false: the isotropic C_a below for translation, no added inertia
    bool directionalAddedMass = true;
    double addedMassCoefficient = 0.5; // C_a ([Superellipsoid-OpenFOAM] eq. 7: 1/2, the sphere's)
    // pressureGradient as -V grad p, its reaction in the fluid equations'
    // -alphac grad p (not in coupledForce); false: rho_f V Du/Dt
    bool pressureFromField = false;
};

// One particle type's constants: the resistance tensors (normalised by the
// smallest half-axis c, hydrodynamics/ResistanceTensors.hpp) and shape factors.
struct HydrodynamicShape {
    Superellipsoid shape;
    ResistanceTensors tensors;
    ShapeFactors factors;
    AddedMassCoefficients addedMass; // (default: the sphere's)
};

// The constants of one shape: the exact tensors of an ellipsoid (eps1 = eps2
// = 1: Oberbeck, Jeffery) or the boundary-integral solver's, computed once
// per shape and machine through the file cache (hydrodynamics/ResistanceCache.hpp;
// cacheDirectory empty: the default). Throws like computeResistance.
HydrodynamicShape makeHydrodynamicShape(const Superellipsoid& shape, const ResistanceSolverOptions& options = {},
                                        const std::string& cacheDirectory = "");

struct ParticleFluidForces {
    FluidDrag drag;                 // for dem::ParticleSystem::fluidDrag (D' = r D)
    Vec3 force = Vec3::Zero();      // for dem::ParticleSystem::externalForce (F', above) [N]
    // r = m (m I + A)^-1 and the added mass A = R diag(m_a,i) R^T [kg]
    // (world; both isotropic for a sphere: r = m / (m + m_a))
    Mat3 massRatio = Mat3::Identity();
    Mat3 addedMass = Mat3::Zero();
    // The explicit forces whose reaction the fluid takes, unscaled:
    // (rho_f V + m_a) Du/Dt, or m_a Du/Dt with pressureFromField (buoyancy's
    // and -V grad p's reactions are the pressure field's, not the source's) [N]
    Vec3 coupledForce = Vec3::Zero();
    // -V grad p with pressureFromField (in force, its reaction in the fluid
    // equations' -alphac grad p), unscaled [N]
    Vec3 pressureForce = Vec3::Zero();
    // With dragCorrection zastawny (IncidenceForces.hpp): the lift less what
    // the scaled drag tensor gives normal to the slip (in force and
    // coupledForce), and the pitching torque, for
    // dem::ParticleSystem::externalTorque (held over the step; its reaction
    // is not returned to the fluid, as the rotational drag's is not) [N, N m]
    Vec3 liftForce = Vec3::Zero();
    Vec3 torque = Vec3::Zero();
    double reynolds = 0;            // Re_p = rho_f |u - v| d_eq / mu (interstitial, also with a voidage law)
    double spinReynolds = 0;        // Re_R = rho_f |omega - omega_f| d_eq^2 / mu (with rotationalDrag)
    double rotationalDragFactor = 1; // f_R (RotationalDragCorrection.hpp)
    double dragFactor = 1;          // f of the drag correction (with a voidage law: g = f(eps Re_p) h)
    double voidageFactor = 1;       // h of the voidage law (VoidageDrag.hpp)
};

// Throws std::invalid_argument for a non-positive or non-finite fluid
// density or viscosity and non-finite state, and with a voidage law for a
// fluid fraction outside (0, 1].
// particleMass: m of the particle (density times volume); angularVelocity:
// its spin (world), for the added-mass tensor's turning term
// -(dA/dt)(v - u) (AddedMass.hpp; zero for a sphere or a body at rest).
ParticleFluidForces fluidForces(const HydrodynamicShape& particle, double particleMass, const Quat& orientation,
                                const Vec3& velocity,
                                const FluidState& fluid, const Vec3& gravity, const FluidForceModel& model,
                                const Vec3& angularVelocity = Vec3::Zero());

// The momentum [N s] the particle gave the fluid over a step of length dt
// (two-way coupling), from what the step reports: dragImpulse (the
// momentum the scaled drag D' gave the particle, ParticleSystem::dragImpulse)
// and the forces above: minus the impulse of drag, pressure-gradient force
// and added-mass force,
//   -( dragImpulse / r + coupledForce dt - m_a dv ),
// with dv the velocity change by the fluid and gravity alone (collision
// impulses excluded), m dv = dragImpulse + (m g + F') dt. Particle plus
// fluid momentum then changes by exactly (m - rho_f V) g dt.
// held: the particle is held in place (ParticleType::held): dv = 0.
Vec3 momentumToFluid(const ParticleFluidForces& forces, double mass, const Vec3& gravity, const Vec3& dragImpulse,
                     double dt, bool held = false);

} // namespace sef
