#include "hydrodynamics/FluidForces.hpp"

#include "hydrodynamics/EllipsoidResistance.hpp"
#include "hydrodynamics/IncidenceForces.hpp"
#include "hydrodynamics/ResistanceCache.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace sef {

HydrodynamicShape makeHydrodynamicShape(const Superellipsoid& shape, const ResistanceSolverOptions& options,
                                        const std::string& cacheDirectory) {
    const Vec3 h = shape.halfAxes();
    const bool ellipsoid = shape.eps1() == 1.0 && shape.eps2() == 1.0;
    const ResistanceTensors tensors = ellipsoid ? ellipsoidResistance(h.x(), h.y(), h.z())
                                                : cachedResistance(shape, options, cacheDirectory).tensors;
    return {shape, tensors, shapeFactors(shape), addedMassCoefficients(shape)};
}

namespace {

// Whether the drag depends on the orientation: an anisotropic translation or
// rotation resistance, or a strain torque. Spheres, and cubes by their
// symmetry, do not (to the tensors' accuracy; an anisotropy of 1e-9 is a
// relative error of 1e-9 when ignored), and keep the cheaper step.
bool turnsWithBody(const FluidDrag& d) {
    const auto anisotropic = [](const Vec3& diagonal) {
        return diagonal.maxCoeff() - diagonal.minCoeff() > 1e-9 * diagonal.cwiseAbs().maxCoeff();
    };
    return anisotropic(d.translationBody) || anisotropic(d.rotationBody) ||
           d.strainCoupling.cwiseAbs().maxCoeff() > 1e-9;
}

bool isotropic(const Vec3& v) { return v.x() == v.y() && v.y() == v.z(); }

// R diag(ratio) R^T M for a symmetric M diagonal in the body frame R (the
// drag tensors): symmetric again, made so to round-off.
Mat3 scaleBodyDiagonal(const Mat3& M, const Mat3& R, const Vec3& ratio) {
    const Mat3 scaled = R * ratio.asDiagonal() * R.transpose() * M;
    return 0.5 * (scaled + scaled.transpose());
}

void checkFluidForceInputs(double mass, const Quat& q, const Vec3& v, const FluidState& fluid,
                           const FluidForceModel& model, const Vec3& omega) {
    if (!std::isfinite(fluid.density) || !(fluid.density > 0.0) || !std::isfinite(fluid.dynamicViscosity) ||
        !(fluid.dynamicViscosity > 0.0))
        throw std::invalid_argument("fluidForces: fluid density and viscosity must be finite and positive");
    if (!isFinite(fluid.velocity) || !isFinite(fluid.velocityGradient) || !isFinite(fluid.acceleration) ||
        !isFinite(fluid.pressureGradient) ||
        !isFinite(v) || !isFinite(omega) || !isFinite(q.coeffs()))
        throw std::invalid_argument("fluidForces: fluid and particle state must be finite");
    if (!std::isfinite(mass) || !(mass > 0.0))
        throw std::invalid_argument("fluidForces: the particle mass must be finite and positive");
    const double fluidFraction = fluid.fluidFraction; // eps of VoidageDrag.hpp
    if (model.voidage != VoidageModel::none &&
        (!std::isfinite(fluidFraction) || !(fluidFraction > 0.0) || fluidFraction > 1.0)) {
        std::ostringstream msg;
        msg.precision(17);
        msg << "fluidForces: the fluid fraction must be finite and in (0, 1] (got " << fluidFraction << ")";
        throw std::invalid_argument(msg.str());
    }
}

// The translational drag (eqs. (5)-(6)) with its correction factor, and
// the zastawny correlation's lift and pitching torque.
void addTranslationalDrag(const HydrodynamicShape& p, const Mat3& R, const Vec3& slip, const FluidState& fluid,
                          const FluidForceModel& model, ParticleFluidForces& out) {
    const Superellipsoid& s = p.shape;
    const double c = s.halfAxes().minCoeff(), mu = fluid.dynamicViscosity;
    const bool hindered = model.voidage != VoidageModel::none;
    const double fluidFraction = fluid.fluidFraction;
    // eq. (6): the body-frame diagonal tensor rotated to the world frame
    const Mat3 stokes = M_PI * mu * c * R * p.tensors.K.asDiagonal() * R.transpose();
    double crosswise = 1.0, forceRatio = 1.0;
    if (model.dragCorrection == DragCorrectionModel::hoelzerSommerfeld && out.reynolds > 0.0) {
        const double dEq = p.factors.equivalentDiameter;
        crosswise = 0.25 * M_PI * dEq * dEq / projectedArea(s, R.transpose() * slip);
        forceRatio = (stokes * slip).dot(slip.normalized()) / (3.0 * M_PI * mu * dEq * slip.norm());
    }
    // A voidage law takes the single-particle law at the superficial
    // slip's Re_s = eps Re (VoidageDrag.hpp); crosswise and forceRatio
    // depend on the slip's direction only.
    const double Re = hindered ? fluidFraction * out.reynolds : out.reynolds;
    if (model.dragCorrection == DragCorrectionModel::zastawny) {
        // drag, lift and pitching torque against the incidence, on the
        // single-particle law's slip (a voidage law's h then scales f)
        const IncidenceMapping mapping = incidenceMapping(s);
        const IncidenceForces inc =
            incidenceForces(mapping, stokes, R.col(mapping.axis), slip, Re, p.factors.equivalentDiameter, mu);
        out.dragFactor = inc.dragFactor;
        out.liftForce = inc.liftCorrection;
        out.torque = inc.torque;
    } else {
        out.dragFactor = dragCorrectionFactor(model.dragCorrection, Re, p.factors, crosswise, forceRatio);
    }
    if (hindered) { // (drag and the correlation's lift are one force; the torque stays the single particle's)
        out.voidageFactor = voidageFactor(model.voidage, fluidFraction, Re);
        out.dragFactor *= out.voidageFactor;
        out.liftForce *= out.voidageFactor;
    }
    out.drag.translation = out.dragFactor * stokes;
    out.drag.translationBody = out.dragFactor * M_PI * mu * c * p.tensors.K;
    out.drag.fluidVelocity = fluid.velocity;
}

// The rotational drag of eq. (21), towards the torque-free rotation rate
// (eqs. 22-23), with its correction factor.
void addRotationalDrag(const HydrodynamicShape& p, const Mat3& R, const FluidState& fluid,
                       const FluidForceModel& model, const Vec3& omega, ParticleFluidForces& out) {
    const double c = p.shape.halfAxes().minCoeff(), mu = fluid.dynamicViscosity;
    out.drag.rotation = M_PI * mu * c * c * c * R * p.tensors.Omega.asDiagonal() * R.transpose();
    const Mat3 gradBody = R.transpose() * fluid.velocityGradient * R;
    const Vec3 rateBody = model.strainTorque ? torqueFreeRotationRate(p.tensors, gradBody) : halfVorticity(gradBody);
    out.drag.fluidRotationRate = R * rateBody;
    out.drag.rotationBody = M_PI * mu * c * c * c * p.tensors.Omega;
    if (model.strainTorque) out.drag.strainCoupling = p.tensors.Pi.cwiseQuotient(p.tensors.Omega);
    out.drag.halfVorticity = halfVorticity(fluid.velocityGradient);
    // finite spin Reynolds number: the factor on the whole resistance
    // (the strain coupling is a ratio of resistances and stays)
    const double dEq = p.factors.equivalentDiameter;
    out.spinReynolds = fluid.density * (omega - out.drag.fluidRotationRate).norm() * dEq * dEq / mu;
    out.rotationalDragFactor = rotationalDragFactor(model.rotationalDragCorrection, out.spinReynolds);
    out.drag.rotation *= out.rotationalDragFactor;
    out.drag.rotationBody *= out.rotationalDragFactor;
    out.drag.strainRate = 0.5 * (fluid.velocityGradient + fluid.velocityGradient.transpose());
}

// The explicit forces of eq. (7): buoyancy, the pressure-gradient force and
// added mass; addedMass and addedInertia: the added mass and moment of
// inertia per body axis (zero without added mass).
void addExplicitForces(const HydrodynamicShape& p, const Mat3& R, const Vec3& v, const FluidState& fluid,
                       const Vec3& gravity, const FluidForceModel& model, const Vec3& omega,
                       Vec3& addedMass, Vec3& addedInertia, ParticleFluidForces& out) {
    const double volume = p.factors.volume;
    const double fluidMass = fluid.density * volume;
    if (model.buoyancy) out.force -= fluidMass * gravity;
    if (model.pressureGradient && model.pressureFromField) {
        out.pressureForce = -volume * fluid.pressureGradient;
        out.force += out.pressureForce;
    }
    if (model.pressureGradient && !model.pressureFromField) out.coupledForce += fluidMass * fluid.acceleration;
    out.coupledForce += out.liftForce;
    addedMass = Vec3::Zero(); // body frame
    addedInertia = Vec3::Zero();
    if (model.addedMass) {
        if (!(model.addedMassCoefficient >= 0.0) || !std::isfinite(model.addedMassCoefficient))
            throw std::invalid_argument("fluidForces: the added-mass coefficient must be finite and >= 0");
        if (model.directionalAddedMass) {
            addedMass = fluidMass * p.addedMass.translation;
            addedInertia = fluidMass * p.addedMass.rotation;
        } else {
            addedMass.setConstant(model.addedMassCoefficient * fluidMass);
        }
        out.addedMass = R * addedMass.asDiagonal() * R.transpose();
        out.coupledForce += out.addedMass * fluid.acceleration;
        // A turning body turns its added mass: the fluid's impulse -A w
        // (w = v - u) changes also by -(dA/dt) w, dA/dt = [omega]x A - A [omega]x
        // (zero for a sphere). Without it the anisotropic A exchanges energy
        // between the spin and the translation spuriously: a settling
        // spheroid's pitching oscillation then hardly decays.
        const Vec3 w = v - fluid.velocity;
        out.coupledForce += out.addedMass * omega.cross(w) - omega.cross(out.addedMass * w);
    }
    out.force += out.coupledForce;
}

// eq. (7) multiplied by r = m (m I + A)^-1 for the step, which knows m
// only; the rotation likewise with the added moment of inertia.
void scaleByMassRatio(const HydrodynamicShape& p, double mass, const Mat3& R, const Vec3& gravity,
                      const Vec3& addedMass, const Vec3& addedInertia, ParticleFluidForces& out) {
    const Vec3 ratio = addedMass.unaryExpr([mass](double a) { return mass / (mass + a); });
    if (ratio != Vec3::Ones()) {
        out.drag.translationBody = out.drag.translationBody.cwiseProduct(ratio);
        if (isotropic(ratio)) { // (a sphere: the scalar arithmetic, r = m / (m + m_a))
            const double r = ratio.x();
            out.massRatio = r * Mat3::Identity();
            out.drag.translation *= r;
            out.force = r * out.force - (1.0 - r) * mass * gravity;
        } else {
            out.massRatio = R * ratio.asDiagonal() * R.transpose();
            out.drag.translation = scaleBodyDiagonal(out.drag.translation, R, ratio);
            out.force = out.massRatio * out.force - (Mat3::Identity() - out.massRatio) * (mass * gravity);
        }
    }
    if (addedInertia != Vec3::Zero()) {
        const Vec3 inertia = (mass / p.factors.volume) * p.factors.inertiaPerDensity;
        const Vec3 rotationRatio = inertia.cwiseQuotient(inertia + addedInertia);
        out.drag.rotationBody = out.drag.rotationBody.cwiseProduct(rotationRatio);
        out.drag.rotation = scaleBodyDiagonal(out.drag.rotation, R, rotationRatio);
        out.torque = R * rotationRatio.cwiseProduct(R.transpose() * out.torque);
    }
}

} // namespace

ParticleFluidForces fluidForces(const HydrodynamicShape& p, double mass, const Quat& q, const Vec3& v, const FluidState& fluid,
                                const Vec3& gravity, const FluidForceModel& model, const Vec3& omega) {
    checkFluidForceInputs(mass, q, v, fluid, model, omega);
    const Mat3 R = q.toRotationMatrix();
    ParticleFluidForces out;
    const Vec3 slip = fluid.velocity - v;
    out.reynolds = fluid.density * slip.norm() * p.factors.equivalentDiameter / fluid.dynamicViscosity;
    if (model.drag) addTranslationalDrag(p, R, slip, fluid, model, out);
    if (model.rotationalDrag) addRotationalDrag(p, R, fluid, model, omega, out);
    Vec3 addedMass, addedInertia; // body frame
    addExplicitForces(p, R, v, fluid, gravity, model, omega, addedMass, addedInertia, out);
    scaleByMassRatio(p, mass, R, gravity, addedMass, addedInertia, out);
    out.drag.turnsWithBody = turnsWithBody(out.drag);
    return out;
}

Vec3 momentumToFluid(const ParticleFluidForces& f, double mass, const Vec3& gravity, const Vec3& dragImpulse,
                     double dt, bool held) {
    const Vec3 fluidVelocityChange = held ? Vec3::Zero() : Vec3((dragImpulse + (mass * gravity + f.force) * dt) / mass);
    // the drag's own impulse: r^-1 = I + A / m times the scaled drag's
    const Vec3 drag = f.massRatio.isDiagonal(0.0) && isotropic(f.massRatio.diagonal())
                          ? Vec3(dragImpulse / f.massRatio(0, 0)) // (a sphere: the scalar arithmetic)
                          : Vec3(dragImpulse + f.addedMass * dragImpulse / mass);
    return -(drag + f.coupledForce * dt - f.addedMass * fluidVelocityChange);
}

} // namespace sef
