#include "dem/particles/ParticleSystem.hpp"

#include <algorithm>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace sef::dem {

ParticleType::ParticleType(const Superellipsoid& s, double rho)
    : shape(s), density(rho), mass(0.0), principalInertia(Vec3::Zero()), boundingRadius(0.0) {
    shape.requireDensity(rho); // ParameterError("density"): mass and inertia must be representable
    mass = rho * shape.volume();
    principalInertia = shape.principalInertia(rho); // [Superellipsoid-OpenFOAM], eqs. (17)-(20)
    boundingRadius = shape.boundingRadius();
}

namespace {
void requireFinite(const Vec3& v, const char* what, std::int64_t particleId) {
    if (!isFinite(v))
        throw std::invalid_argument(std::string("ParticleSystem::add: ") + what +
                                    " of particle " + std::to_string(particleId) +
                                    " is not finite");
}
} // namespace

void ParticleSystem::clear() {
    type.clear();
    id.clear();
    position.clear();
    orientation.clear();
    velocity.clear();
    angularVelocity.clear();
    externalForce.clear();
    externalTorque.clear();
    fluidDrag.clear();
    dragImpulse.clear();
    dragAngularImpulse.clear();
}

std::size_t ParticleSystem::add(int typeIndex, std::int64_t particleId, const Vec3& x,
                                const Quat& q, const Vec3& v, const Vec3& w) {
    if (typeIndex < 0 || static_cast<std::size_t>(typeIndex) >= types.size())
        throw std::invalid_argument("ParticleSystem::add: type index " +
                                    std::to_string(typeIndex) + " of particle " +
                                    std::to_string(particleId) + " is out of range (" +
                                    std::to_string(types.size()) + " types)");
    requireFinite(x, "position", particleId);
    requireFinite(v, "velocity", particleId);
    requireFinite(w, "angular velocity", particleId);
    const double qNorm = q.coeffs().norm();
    // Orientations come from files and random generators: accept round-off,
    // reject anything that is not a rotation.
    if (!std::isfinite(qNorm) || std::abs(qNorm - 1.0) > 1e-6)
        throw std::invalid_argument("ParticleSystem::add: orientation of particle " +
                                    std::to_string(particleId) +
                                    " is not a unit quaternion (norm " +
                                    std::to_string(qNorm) + ")");
    type.push_back(typeIndex);
    id.push_back(particleId);
    position.push_back(x);
    // A quaternion already unit to round-off (one the engine wrote for a
    // restart) is kept bit for bit: renormalising it moves its last bits,
    // and the contact dynamics grow that.
    orientation.push_back(std::abs(qNorm - 1.0) <= 4.0 * std::numeric_limits<double>::epsilon() ? q
                                                                                             : q.normalized());
    velocity.push_back(v);
    angularVelocity.push_back(w);
    externalForce.push_back(Vec3::Zero());
    externalTorque.push_back(Vec3::Zero());
    if (!fluidDrag.empty()) fluidDrag.emplace_back();
    return size() - 1;
}

void ParticleSystem::truncate(std::size_t n) {
    const std::size_t size = this->size();
    if (n >= size) return;
    type.resize(n);
    id.resize(n);
    position.resize(n);
    orientation.resize(n);
    velocity.resize(n);
    angularVelocity.resize(n);
    externalForce.resize(n);
    externalTorque.resize(n);
    for (auto* v : {&dragImpulse, &dragAngularImpulse})
        if (v->size() == size) v->resize(n);
    if (fluidDrag.size() == size) fluidDrag.resize(n);
}

namespace {

// Particle `from` onto particle `to` (to < from), every per-particle array;
// the fluid-coupling arrays where they have an entry for it.
void copyParticle(ParticleSystem& ps, std::size_t from, std::size_t to) {
    ps.type[to] = ps.type[from];
    ps.id[to] = ps.id[from];
    ps.position[to] = ps.position[from];
    ps.orientation[to] = ps.orientation[from];
    ps.velocity[to] = ps.velocity[from];
    ps.angularVelocity[to] = ps.angularVelocity[from];
    ps.externalForce[to] = ps.externalForce[from];
    ps.externalTorque[to] = ps.externalTorque[from];
    if (ps.fluidDrag.size() > from) ps.fluidDrag[to] = ps.fluidDrag[from];
    if (ps.dragImpulse.size() > from) ps.dragImpulse[to] = ps.dragImpulse[from];
    if (ps.dragAngularImpulse.size() > from) ps.dragAngularImpulse[to] = ps.dragAngularImpulse[from];
}

} // namespace

void ParticleSystem::keepWhere(const std::vector<char>& keep) {
    const std::size_t size = this->size();
    if (keep.size() != size)
        throw std::invalid_argument("ParticleSystem::keepWhere: " + std::to_string(keep.size()) +
                                    " flags for " + std::to_string(size) + " particles");
    std::size_t kept = 0;
    for (std::size_t k = 0; k < size; ++k) {
        if (!keep[k]) continue;
        if (kept != k) copyParticle(*this, k, kept);
        ++kept;
    }
    truncate(kept);
}

void ParticleSystem::remove(std::size_t i) {
    if (i >= size())
        throw std::out_of_range("ParticleSystem::remove: index " + std::to_string(i) +
                                " >= size " + std::to_string(size()));
    const std::size_t last = size() - 1;
    if (i != last) copyParticle(*this, last, i);
    type.pop_back();
    id.pop_back();
    position.pop_back();
    orientation.pop_back();
    velocity.pop_back();
    angularVelocity.pop_back();
    externalForce.pop_back();
    externalTorque.pop_back();
    for (auto* v : {&dragImpulse, &dragAngularImpulse})
        if (v->size() > last) v->pop_back();
    if (fluidDrag.size() > last) fluidDrag.pop_back();
}

double largestBoundingRadius(const std::vector<ParticleType>& types) {
    double largest = 0.0;
    for (const ParticleType& type : types) largest = std::max(largest, type.boundingRadius);
    return largest;
}

double potentialEnergy(const ParticleSystem& particles, const Vec3& gravity) {
    double e = 0;
    for (std::size_t i = 0; i < particles.size(); ++i) {
        e -= particles.types[static_cast<std::size_t>(particles.type[i])].mass * gravity.dot(particles.position[i]);
    }
    return e;
}

} // namespace sef::dem
