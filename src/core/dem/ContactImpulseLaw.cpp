#include "dem/ContactImpulseLaw.hpp"

#include "collision/ImpulseResolution.hpp"

#include <cmath>

namespace sef::dem {

namespace {

Vec3 frictionlessImpulse(const ContactFrame& f, double uFreeNormal) {
    const double j = (f.targetNormalVelocity - uFreeNormal) / f.normalCompliance;
    return j > 0.0 ? Vec3(j * f.normal) : Vec3(Vec3::Zero());
}

// Kinetic-energy change of the two bodies when J is applied to a contact
// moving with u: dE = J.(u + u')/2, u' = u + K J.
double energyChange(const ContactFrame& f, const Vec3& u, const Vec3& J) {
    return J.dot(u + 0.5 * (f.compliance * J));
}

Vec3 restitutionImpulse(const ContactFrame& f, const Vec3& u, double un, double et) {
    const Vec3 target = f.targetNormalVelocity * f.normal + et * (u - un * f.normal);
    return f.inverseCompliance * (target - u);
}

Vec3 coulombImpulse(const CollisionParameters& p, const ContactFrame& f, const Vec3& u,
                    double un) {
    const Vec3& n = f.normal;
    const double mu = p.friction;
    const Vec3 stick = restitutionImpulse(f, u, un, p.tangentialRestitution);
    const double Jn = n.dot(stick);
    const Vec3 Jt = stick - Jn * n;
    const double JtNorm = Jt.norm();
    if (Jn >= 0.0 && JtNorm <= mu * Jn * (1.0 + 1e-12) && energyChange(f, u, stick) <= 0.0)
        return stick;
    const Vec3 frictionless = frictionlessImpulse(f, un);
    if (mu == 0.0 || !(JtNorm > 0.0)) return frictionless;
    // Sliding: friction on body 2 is -mu j s with s along its MEAN slip
    // (u + u')/2 over the impulse, as collision/ImpulseResolution.hpp; start
    // from the direction the sticking impulse pushes against.
    Vec3 s = -Jt / JtNorm;
    Vec3 J = frictionless;
    for (int k = 0; k < 8; ++k) {
        const Vec3 d = n - mu * s;
        const double denominator = n.dot(f.compliance * d);
        if (!(denominator > 1e-9 * f.normalCompliance)) return frictionless; // jam
        J = ((f.targetNormalVelocity - un) / denominator) * d;
        const Vec3 mean = u + 0.5 * (f.compliance * J);
        const Vec3 slip = mean - n.dot(mean) * n;
        const double slipNorm = slip.norm();
        if (!(slipNorm > 1e-14 * (u.norm() + f.targetNormalVelocity))) break; // sticks at the cone
        const Vec3 sNew = slip / slipNorm;
        const double change = (sNew - s).squaredNorm();
        s = sNew;
        if (change < 1e-16) {
            const Vec3 dN = n - mu * s;
            const double dn = n.dot(f.compliance * dN);
            if (!(dn > 1e-9 * f.normalCompliance)) return frictionless;
            J = ((f.targetNormalVelocity - un) / dn) * dN;
            break;
        }
    }
    if (!(n.dot(J) >= 0.0) || energyChange(f, u, J) > 0.0) return frictionless;
    return J;
}

} // namespace

Vec3 contactImpulse(const CollisionParameters& p, const ContactFrame& f, const Vec3& uFree) {
    const double un = f.normal.dot(uFree);
    if (!(un < f.targetNormalVelocity)) return Vec3::Zero(); // separating fast enough: no impulse
    switch (p.model) {
    case CollisionModel::Frictionless: return frictionlessImpulse(f, un);
    case CollisionModel::Paper: return restitutionImpulse(f, uFree, un, p.tangentialRestitution);
    case CollisionModel::Schwager: {
        // eq. (87) with the approach speed the impulse has to remove
        const double et = schwagerTangentialRestitution(f.compliance, uFree, f.normal,
                                                        p.restitution, p.friction);
        return restitutionImpulse(f, uFree, un, et);
    }
    case CollisionModel::Coulomb: return coulombImpulse(p, f, uFree, un);
    }
    return Vec3::Zero();
}

} // namespace sef::dem
