#include "collision/ImpulseResolution.hpp"

#include <Eigen/Cholesky>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace sef {

std::string collisionRegimeName(CollisionRegime regime) {
    switch (regime) {
    case CollisionRegime::Separating: return "separating";
    case CollisionRegime::Frictionless: return "frictionless";
    case CollisionRegime::Restitution: return "restitution";
    case CollisionRegime::Sticking: return "sticking";
    case CollisionRegime::Sliding: return "sliding";
    case CollisionRegime::ReducedSliding: return "reducedSliding";
    case CollisionRegime::FrictionlessFallback: return "frictionlessFallback";
    }
    return "unknown";
}

namespace {

constexpr double pi = 3.14159265358979323846;

Mat3 skew(const Vec3& v) {
    Mat3 S;
    S << 0.0, -v.z(), v.y(), v.z(), 0.0, -v.x(), -v.y(), v.x(), 0.0;
    return S;
}

// -[r]x I^-1 [r]x: contribution of one body's rotation to K.
Mat3 rotationalCompliance(const RigidBodyState& b, const Vec3& contactPoint) {
    const Mat3 R = skew(contactPoint - b.position);
    return -R * b.worldInverseInertia() * R;
}

double energyChange(const Mat3& K, const Vec3& u, const Vec3& J) {
    return J.dot(u + 0.5 * (K * J)); // dE = J.(u + u')/2
}

struct ImpulseSolution {
    Vec3 impulse = Vec3::Zero();
    CollisionRegime regime = CollisionRegime::Separating;
    double tangentialRestitution = 0.0;
};

Vec3 frictionlessImpulse(const Mat3& K, double un, const Vec3& n, double restitution) {
    return (-(1.0 + restitution) * un / n.dot(K * n)) * n;
}

// J = K^-1 (u' - u) with u' = -eps_n u_n n + eps_t u_t (paper 001, eqs. (65), (67)).
Vec3 restitutionImpulse(const Mat3& K, const Vec3& u, const Vec3& n, double en, double et) {
    const double un = n.dot(u);
    const Vec3 ut = u - un * n;
    const Vec3 target = -en * un * n + et * ut;
    return K.ldlt().solve(target - u);
}

// Coulomb sliding: J = j (n - mu s), friction opposing the mean slip.
bool slidingImpulse(const Mat3& K, const Vec3& u, const Vec3& n, double en, double mu,
                    Vec3& bestImpulse) {
    const double un = n.dot(u);
    const Vec3 ut = u - un * n;
    const Vec3 t1 = ut.norm() > 1e-14 * u.norm() ? Vec3(ut.normalized()) : Vec3(n.unitOrthogonal());
    const Vec3 t2 = n.cross(t1);
    const double Knn = n.dot(K * n);

    struct Eval {
        bool valid = false;
        double along = 0.0, across = 0.0; // mean slip along s and along n x s
        Vec3 J = Vec3::Zero();
    };
    auto evaluate = [&](double phi) {
        Eval e;
        const Vec3 s = std::cos(phi) * t1 + std::sin(phi) * t2;
        const Vec3 d = n - mu * s;
        const double denominator = n.dot(K * d);
        if (!(denominator > 1e-12 * Knn)) return e; // impulsive jam: no j > 0
        e.valid = true;
        e.J = (-(1.0 + en) * un / denominator) * d;
        const Vec3 meanSlip = u + 0.5 * (K * e.J);
        e.along = s.dot(meanSlip);
        e.across = n.cross(s).dot(meanSlip);
        return e;
    };

    constexpr int samples = 64;
    bool found = false;
    double bestEnergy = std::numeric_limits<double>::infinity();
    double a = 0.0;
    Eval ea = evaluate(a);
    for (int i = 1; i <= samples; ++i) {
        double b = 2.0 * pi * i / samples;
        Eval eb = evaluate(b);
        if (ea.valid && eb.valid && ea.across * eb.across <= 0.0) {
            // bisection on the angle: robust, 60 halvings reach round-off
            double lo = a, hi = b;
            Eval elo = ea;
            for (int k = 0; k < 60 && hi - lo > 1e-15; ++k) {
                const double mid = 0.5 * (lo + hi);
                const Eval em = evaluate(mid);
                if (!em.valid) break;
                if (elo.across * em.across <= 0.0) {
                    hi = mid;
                } else {
                    lo = mid;
                    elo = em;
                }
            }
            const Eval root = evaluate(0.5 * (lo + hi));
            if (root.valid && root.along > 0.0) {
                const double dE = energyChange(K, u, root.J);
                if (dE <= 0.0 && dE < bestEnergy) {
                    bestEnergy = dE;
                    bestImpulse = root.J;
                    found = true;
                }
            }
        }
        a = b;
        ea = eb;
    }
    return found;
}

ImpulseSolution solveImpulse(const Mat3& K, const Vec3& u, const Vec3& n,
                             const CollisionParameters& p) {
    ImpulseSolution sol;
    sol.tangentialRestitution = p.tangentialRestitution;
    const double un = n.dot(u);
    if (!(un < 0.0)) return sol; // only approaching contacts
    const double en = p.restitution;

    switch (p.model) {
    case CollisionModel::Frictionless:
        sol.impulse = frictionlessImpulse(K, un, n, en);
        sol.regime = CollisionRegime::Frictionless;
        return sol;
    case CollisionModel::Paper:
        sol.impulse = restitutionImpulse(K, u, n, en, p.tangentialRestitution);
        sol.regime = CollisionRegime::Restitution;
        return sol;
    case CollisionModel::Schwager:
        sol.tangentialRestitution = schwagerTangentialRestitution(K, u, n, en, p.friction);
        sol.impulse = restitutionImpulse(K, u, n, en, sol.tangentialRestitution);
        sol.regime = CollisionRegime::Restitution;
        return sol;
    case CollisionModel::Coulomb: {
        if (p.friction == 0.0) {
            sol.impulse = frictionlessImpulse(K, un, n, en);
            sol.regime = CollisionRegime::Frictionless;
            return sol;
        }
        const Vec3 stick = restitutionImpulse(K, u, n, en, p.tangentialRestitution);
        const double Jn = n.dot(stick);
        const double Jt = (stick - Jn * n).norm();
        if (Jn >= 0.0 && Jt <= p.friction * Jn * (1.0 + 1e-12) &&
            energyChange(K, u, stick) <= 0.0) {
            sol.impulse = stick;
            sol.regime = CollisionRegime::Sticking;
            return sol;
        }
        Vec3 slide;
        if (slidingImpulse(K, u, n, en, p.friction, slide)) {
            sol.impulse = slide;
            sol.regime = CollisionRegime::Sliding;
            return sol;
        }
        // No dissipative sliding at mu (coupling made full-mu friction
        // reverse the mean slip, or jam): slide with the largest friction
        // mu' in [0, mu) that admits one (bisection; mu' = 0 is frictionless,
        // always admissible). Still inside the cone and never adds energy.
        double lo = 0.0, hi = p.friction;
        Vec3 best = frictionlessImpulse(K, un, n, en);
        for (int k = 0; k < 30; ++k) {
            const double mid = 0.5 * (lo + hi);
            Vec3 trial;
            if (slidingImpulse(K, u, n, en, mid, trial)) {
                lo = mid;
                best = trial;
            } else {
                hi = mid;
            }
        }
        sol.impulse = best;
        sol.regime = lo > 0.0 ? CollisionRegime::ReducedSliding
                              : CollisionRegime::FrictionlessFallback;
        return sol;
    }
    }
    return sol;
}

Vec3 checkedNormal(const Vec3& normal, const char* name) {
    const double length = normal.norm();
    if (!std::isfinite(length) || std::abs(length - 1.0) > 1e-6)
        throw std::invalid_argument(std::string(name) + ": must be a unit vector (norm " +
                                    std::to_string(length) + ")");
    return normal / length;
}

void checkPoint(const Vec3& p) {
    if (!p.allFinite()) throw std::invalid_argument("contactPoint: must be finite");
}

} // namespace

Mat3 contactCompliance(const RigidBodyState& b1, const RigidBodyState* b2, const Vec3& p) {
    const double inverseMass = 1.0 / b1.mass + (b2 ? 1.0 / b2->mass : 0.0);
    Mat3 K = inverseMass * Mat3::Identity() + rotationalCompliance(b1, p);
    if (b2) K += rotationalCompliance(*b2, p);
    return 0.5 * (K + K.transpose()); // exact symmetry for the LDLT solve
}

double schwagerTangentialRestitution(const Mat3& K, const Vec3& u, const Vec3& n,
                                     double restitution, double friction) {
    const double gn = -n.dot(u);
    const Vec3 ut = u + gn * n;
    const double gt = ut.norm();
    if (!(gt > 0.0)) return 0.0;
    const Vec3 t = ut / gt;
    const double inverseAlpha = t.dot(K * t) / n.dot(K * n); // generalises eq. (88)
    // paper 001, eq. (87)
    return std::max(0.0, 1.0 - friction * (1.0 + restitution) * inverseAlpha * gn / gt);
}

CollisionResult resolvePairCollision(const RigidBodyState& b1, const RigidBodyState& b2,
                                     const Vec3& p, const Vec3& normal,
                                     const CollisionParameters& params) {
    validateRigidBodyState(b1, "body1");
    validateRigidBodyState(b2, "body2");
    validateCollisionParameters(params);
    checkPoint(p);
    const Vec3 n = checkedNormal(normal, "normal");

    CollisionResult r;
    const Mat3 K = contactCompliance(b1, &b2, p);
    const Vec3 u = b2.velocityAt(p) - b1.velocityAt(p);
    const ImpulseSolution sol = solveImpulse(K, u, n, params);
    r.regime = sol.regime;
    r.tangentialRestitution = sol.tangentialRestitution;
    r.impulse = sol.impulse;
    r.velocityChange2 = sol.impulse / b2.mass;
    r.angularVelocityChange2 = b2.worldInverseInertia() * (p - b2.position).cross(sol.impulse);
    r.velocityChange1 = -sol.impulse / b1.mass;
    r.angularVelocityChange1 = -(b1.worldInverseInertia() * (p - b1.position).cross(sol.impulse));
    r.relativeContactVelocityBefore = u;
    r.relativeContactVelocityAfter = u + K * sol.impulse;

    RigidBodyState a1 = b1, a2 = b2;
    applyCollision(r, a1, a2);
    r.kineticEnergyBefore = b1.kineticEnergy() + b2.kineticEnergy();
    r.kineticEnergyAfter = a1.kineticEnergy() + a2.kineticEnergy();
    return r;
}

CollisionResult resolveWallCollision(const RigidBodyState& b, const Vec3& p, const Vec3& normal,
                                     const CollisionParameters& params, const Vec3& wallVelocity) {
    validateRigidBodyState(b, "particle");
    validateCollisionParameters(params);
    checkPoint(p);
    if (!wallVelocity.allFinite()) throw std::invalid_argument("wallVelocity: must be finite");
    const Vec3 n = checkedNormal(normal, "normalTowardsWall");

    CollisionResult r;
    const Mat3 K = contactCompliance(b, nullptr, p);
    const Vec3 u = wallVelocity - b.velocityAt(p);
    const ImpulseSolution sol = solveImpulse(K, u, n, params);
    r.regime = sol.regime;
    r.tangentialRestitution = sol.tangentialRestitution;
    r.impulse = sol.impulse;
    r.velocityChange1 = -sol.impulse / b.mass;
    r.angularVelocityChange1 = -(b.worldInverseInertia() * (p - b.position).cross(sol.impulse));
    r.relativeContactVelocityBefore = u;
    r.relativeContactVelocityAfter = u + K * sol.impulse;

    RigidBodyState after = b;
    applyWallCollision(r, after);
    r.kineticEnergyBefore = b.kineticEnergy();
    r.kineticEnergyAfter = after.kineticEnergy();
    return r;
}

void applyCollision(const CollisionResult& r, RigidBodyState& b1, RigidBodyState& b2) {
    b1.velocity += r.velocityChange1;
    b1.angularVelocity += r.angularVelocityChange1;
    b2.velocity += r.velocityChange2;
    b2.angularVelocity += r.angularVelocityChange2;
}

void applyWallCollision(const CollisionResult& r, RigidBodyState& particle) {
    particle.velocity += r.velocityChange1;
    particle.angularVelocity += r.angularVelocityChange1;
}

} // namespace sef
