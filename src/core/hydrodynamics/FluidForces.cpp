#include "hydrodynamics/FluidForces.hpp"

#include "hydrodynamics/EllipsoidResistance.hpp"
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
    return {shape, tensors, shapeFactors(shape)};
}

ParticleFluidForces fluidForces(const HydrodynamicShape& p, double mass, const Quat& q, const Vec3& v, const FluidState& fluid,
                                const Vec3& gravity, const FluidForceModel& model) {
    if (!std::isfinite(fluid.density) || !(fluid.density > 0.0) || !std::isfinite(fluid.dynamicViscosity) ||
        !(fluid.dynamicViscosity > 0.0))
        throw std::invalid_argument("fluidForces: fluid density and viscosity must be finite and positive");
    if (!isFinite(fluid.velocity) || !isFinite(fluid.velocityGradient) || !isFinite(fluid.acceleration) ||
        !isFinite(fluid.pressureGradient) ||
        !isFinite(v) || !isFinite(q.coeffs()))
        throw std::invalid_argument("fluidForces: fluid and particle state must be finite");
    if (!std::isfinite(mass) || !(mass > 0.0))
        throw std::invalid_argument("fluidForces: the particle mass must be finite and positive");
    const bool hindered = model.voidage != VoidageModel::none;
    const double fluidFraction = fluid.fluidFraction; // eps of VoidageDrag.hpp
    if (hindered && (!std::isfinite(fluidFraction) || !(fluidFraction > 0.0) || fluidFraction > 1.0)) {
        std::ostringstream msg;
        msg.precision(17);
        msg << "fluidForces: the fluid fraction must be finite and in (0, 1] (got " << fluidFraction << ")";
        throw std::invalid_argument(msg.str());
    }

    const Superellipsoid& s = p.shape;
    const double c = s.halfAxes().minCoeff(), mu = fluid.dynamicViscosity;
    const Mat3 R = q.toRotationMatrix();
    ParticleFluidForces out;
    const Vec3 slip = fluid.velocity - v;
    out.reynolds = fluid.density * slip.norm() * p.factors.equivalentDiameter / mu;

    if (model.drag) {
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
        out.dragFactor = dragCorrectionFactor(model.dragCorrection, Re, p.factors, crosswise, forceRatio);
        if (hindered) {
            out.voidageFactor = voidageFactor(model.voidage, fluidFraction, Re);
            out.dragFactor *= out.voidageFactor;
        }
        out.drag.translation = out.dragFactor * stokes;
        out.drag.fluidVelocity = fluid.velocity;
    }
    if (model.rotationalDrag) {
        out.drag.rotation = M_PI * mu * c * c * c * R * p.tensors.Omega.asDiagonal() * R.transpose();
        const Mat3 gradBody = R.transpose() * fluid.velocityGradient * R;
        const Vec3 rateBody = model.strainTorque ? torqueFreeRotationRate(p.tensors, gradBody) : halfVorticity(gradBody);
        out.drag.fluidRotationRate = R * rateBody;
    }
    const double fluidMass = fluid.density * s.volume();
    if (model.buoyancy) out.force -= fluidMass * gravity;
    if (model.pressureGradient && model.pressureFromField) {
        out.pressureForce = -s.volume() * fluid.pressureGradient;
        out.force += out.pressureForce;
    }
    if (model.pressureGradient && !model.pressureFromField) out.coupledForce += fluidMass * fluid.acceleration;
    if (model.addedMass) {
        if (!(model.addedMassCoefficient >= 0.0) || !std::isfinite(model.addedMassCoefficient))
            throw std::invalid_argument("fluidForces: the added-mass coefficient must be finite and >= 0");
        out.addedMass = model.addedMassCoefficient * fluidMass;
        out.coupledForce += out.addedMass * fluid.acceleration;
    }
    out.force += out.coupledForce;

    // eq. (7) divided by (m + m_a)/m for the step, which knows m only
    out.massRatio = mass / (mass + out.addedMass);
    if (out.massRatio != 1.0) {
        const double r = out.massRatio;
        out.drag.translation *= r;
        out.force = r * out.force - (1.0 - r) * mass * gravity;
    }
    return out;
}

Vec3 momentumToFluid(const ParticleFluidForces& f, double mass, const Vec3& gravity, const Vec3& dragImpulse,
                     double dt, bool held) {
    const Vec3 fluidVelocityChange = held ? Vec3::Zero() : Vec3((dragImpulse + (mass * gravity + f.force) * dt) / mass);
    return -(dragImpulse / f.massRatio + f.coupledForce * dt - f.addedMass * fluidVelocityChange);
}

} // namespace sef
