#include "collision/ContactImpulseLaw.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>

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

ContactFrame makeContactFrame(const Mat3& compliance, const Vec3& normal,
                              double targetNormalVelocity, bool withInverse) {
    ContactFrame f;
    f.normal = normal;
    f.compliance = compliance;
    f.normalCompliance = normal.dot(compliance * normal);
    f.targetNormalVelocity = targetNormalVelocity;
    f.hasInverse = withInverse;
    if (withInverse) f.inverseCompliance = compliance.inverse(); // SPD 3x3
    return f;
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

namespace {

constexpr double pi = 3.14159265358979323846;

// dE = J.(u + u')/2 with u' = u + K J.
double energyChange(const ContactFrame& f, const Vec3& u, const Vec3& J) {
    return J.dot(u + 0.5 * (f.compliance * J));
}

Vec3 solveCompliance(const ContactFrame& f, const Vec3& rhs) {
    return f.hasInverse ? Vec3(f.inverseCompliance * rhs) : Vec3(f.compliance.ldlt().solve(rhs));
}

Vec3 frictionlessImpulse(const ContactFrame& f, double un) {
    return ((f.targetNormalVelocity - un) / f.normalCompliance) * f.normal;
}

// J = K^-1 (u' - u), u' = target n + eps_t u_t (paper 001, eqs. (65), (67)).
Vec3 restitutionImpulse(const ContactFrame& f, const Vec3& u, double un, double et) {
    const Vec3 target = f.targetNormalVelocity * f.normal + et * (u - un * f.normal);
    return solveCompliance(f, target - u);
}

// Sliding J = j (n - mu s(phi)), s(phi) = cos(phi) t1 + sin(phi) t2, with j
// from u'_n = target; a solution has the mean slip (u + u')/2 along +s.
class SlidingFamily {
public:
    struct Eval {
        bool valid = false;               // false: impulsive jam, no j > 0
        double along = 0.0, across = 0.0; // mean slip along s and along n x s
        Vec3 J = Vec3::Zero();
    };

    SlidingFamily(const ContactFrame& f, const Vec3& u, double un, double mu)
        : f_(f), u_(u), mu_(mu), normalGap_(f.targetNormalVelocity - un) {
        const Vec3& n = f.normal;
        Vec3 ut = u - un * n;
        ut -= n.dot(ut) * n; // again: exactly tangential even when |u_t| << |u|
        t1_ = ut.norm() > 1e-14 * u.norm() ? Vec3(ut.normalized()) : Vec3(n.unitOrthogonal());
        t2_ = n.cross(t1_);
    }

    Eval evaluate(double phi) const {
        Eval e;
        const Vec3& n = f_.normal;
        const Vec3 s = std::cos(phi) * t1_ + std::sin(phi) * t2_;
        const Vec3 d = n - mu_ * s;
        const double denominator = n.dot(f_.compliance * d);
        if (!(denominator > 1e-12 * f_.normalCompliance)) return e;
        e.valid = true;
        e.J = (normalGap_ / denominator) * d;
        const Vec3 meanSlip = u_ + 0.5 * (f_.compliance * e.J);
        e.along = s.dot(meanSlip);
        e.across = n.cross(s).dot(meanSlip);
        return e;
    }

private:
    const ContactFrame& f_;
    const Vec3& u_;
    double mu_, normalGap_;
    Vec3 t1_, t2_;
};

// Cheap path: fixed-point iteration "s <- direction of the mean slip(s)",
// accelerated by secant steps, started at the direction s0 the sticking
// impulse pushes against. Directions are s(x) = (s0 + x w)/sqrt(1 + x^2),
// w = n x s0 (x = tan of the angle from s0): no trigonometry in the sweeps.
// False if it does not converge, jams or the slip turns more than 90 degrees
// away from s0 (all left to the robust search); the caller checks energy.
bool fastSlidingImpulse(const ContactFrame& f, const Vec3& u, double un, double mu,
                        const Vec3& s0, Vec3& impulse) {
    const Vec3& n = f.normal;
    const Vec3 w = n.cross(s0);
    const double normalGap = f.targetNormalVelocity - un;
    // g(x) = x-coordinate of the mean slip (u + u')/2 minus x: zero at a solution
    auto evaluate = [&](double x, double& g, Vec3& J) {
        const Vec3 s = (s0 + x * w) / std::sqrt(1.0 + x * x);
        const Vec3 d = n - mu * s;
        const double denominator = n.dot(f.compliance * d);
        if (!(denominator > 1e-12 * f.normalCompliance)) return false; // jam
        J = (normalGap / denominator) * d;
        const Vec3 meanSlip = u + 0.5 * (f.compliance * J);
        const double along = s0.dot(meanSlip);
        if (!(along > 0.0)) return false;
        g = w.dot(meanSlip) / along - x;
        return true;
    };
    // 1e-12 in tan-coordinates (~ radians): the secant converges
    // superlinearly, so this is about one step from round-off; the impulse is
    // then within ~1e-12 mu J_n of the exact solution.
    constexpr double tolerance = 1e-12;
    double xPrevious = 0.0, gPrevious = 0.0;
    if (!evaluate(xPrevious, gPrevious, impulse)) return false;
    if (std::abs(gPrevious) <= tolerance) return true;
    double x = gPrevious; // plain fixed-point step (exact when K does not couple n and t)
    for (int k = 0; k < 12; ++k) {
        double g;
        if (!evaluate(x, g, impulse)) return false;
        const double scale = 1.0 + x * x; // d(angle) = dx / (1 + x^2)
        const double step = x - xPrevious;
        if (std::abs(g) <= tolerance * scale ||
            (std::abs(step) <= 1e-14 * scale && std::abs(g) <= 1e-9 * scale)) // round-off floor
            return true;
        if (g == gPrevious) return false;
        xPrevious = x;
        x -= g * step / (g - gPrevious);
        gPrevious = g;
    }
    return false;
}

// The angle in [a, b] where the across-slip changes sign (fa, fb: its values
// there, of opposite signs or zero), to within 1e-15 rad. Regula falsi with
// the Illinois modification: superlinear, about 8 evaluations against 47 for
// bisection. It matters: in a bed of isolated blocks rocking on a floor 40 %
// of the sliding solves end in the reduced-friction bisection of
// coulombImpulse, 30 of these searches each. An invalid evaluation (a jam)
// ends the search at the bracket's midpoint.
double acrossSlipRoot(const SlidingFamily& family, double a, double fa, double b, double fb) {
    if (fa == 0.0) return a;
    if (fb == 0.0) return b;
    int retained = 0; // which end the last two steps kept: -1 a, +1 b
    for (int k = 0; k < 100 && b - a > 1e-15; ++k) {
        double x = b - fb * (b - a) / (fb - fa);
        if (!(x > a && x < b)) x = 0.5 * (a + b); // round-off at the ends
        const SlidingFamily::Eval e = family.evaluate(x);
        if (!e.valid) break;
        if (e.across == 0.0) return x;
        if ((e.across < 0.0) == (fa < 0.0)) { // the root lies in [x, b]
            a = x;
            fa = e.across;
            if (retained == 1) fb *= 0.5; // b kept twice: Illinois
            retained = 1;
        } else {
            b = x;
            fb = e.across;
            if (retained == -1) fa *= 0.5;
            retained = -1;
        }
    }
    return 0.5 * (a + b);
}

// Robust path: 64-sample search over the angle with a bracketed root search
// on every sign change of the across-slip; among the solutions the most
// dissipative one that does not add energy.
bool robustSlidingImpulse(const ContactFrame& f, const Vec3& u, double un, double mu,
                          Vec3& bestImpulse) {
    const SlidingFamily family(f, u, un, mu);
    using Eval = SlidingFamily::Eval;
    constexpr int samples = 64;
    bool found = false;
    double bestEnergy = std::numeric_limits<double>::infinity();
    double a = 0.0;
    Eval ea = family.evaluate(a);
    for (int i = 1; i <= samples; ++i) {
        const double b = 2.0 * pi * i / samples;
        const Eval eb = family.evaluate(b);
        if (ea.valid && eb.valid && ea.across * eb.across <= 0.0) {
            const Eval root = family.evaluate(acrossSlipRoot(family, a, ea.across, b, eb.across));
            if (root.valid && root.along > 0.0) {
                const double dE = energyChange(f, u, root.J);
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

ImpulseLawResult coulombImpulse(const CollisionParameters& p, const ContactFrame& f,
                                const Vec3& u, double un) {
    ImpulseLawResult result;
    result.tangentialRestitution = p.tangentialRestitution;
    const Vec3& n = f.normal;
    const double mu = p.friction;
    if (mu == 0.0) {
        result.impulse = frictionlessImpulse(f, un);
        result.regime = CollisionRegime::Frictionless;
        return result;
    }
    const Vec3 stick = restitutionImpulse(f, u, un, p.tangentialRestitution);
    const double Jn = n.dot(stick);
    const Vec3 Jt = stick - Jn * n;
    const double JtNorm = Jt.norm();
    if (Jn >= 0.0 && JtNorm <= mu * Jn * (1.0 + 1e-12) && energyChange(f, u, stick) <= 0.0) {
        result.impulse = stick;
        result.regime = CollisionRegime::Sticking;
        return result;
    }
    result.regime = CollisionRegime::Sliding;
    // 1. cheap: from the direction the sticking impulse pushes against
    // (projected again: J_t is tangential only to round-off relative to |J_s|)
    const Vec3 s0 = -(Jt - n.dot(Jt) * n);
    if (s0.norm() > 0.0) {
        Vec3 J;
        if (fastSlidingImpulse(f, u, un, mu, s0.normalized(), J) &&
            n.dot(J) >= 0.0 && energyChange(f, u, J) <= 0.0) {
            result.impulse = J;
            return result;
        }
    }
    // 2. robust search at mu
    if (robustSlidingImpulse(f, u, un, mu, result.impulse)) return result;
    // 3. No dissipative sliding at mu (coupling made full-mu friction reverse
    // the mean slip, or jam): slide with the largest friction mu' in [0, mu)
    // that admits one (bisection; mu' = 0 is frictionless, always
    // admissible). Still inside the cone and never adds energy.
    double lo = 0.0, hi = mu;
    Vec3 best = frictionlessImpulse(f, un);
    for (int k = 0; k < 30; ++k) {
        const double mid = 0.5 * (lo + hi);
        Vec3 trial;
        if (robustSlidingImpulse(f, u, un, mid, trial)) {
            lo = mid;
            best = trial;
        } else {
            hi = mid;
        }
    }
    result.impulse = best;
    result.regime = lo > 0.0 ? CollisionRegime::ReducedSliding : CollisionRegime::FrictionlessFallback;
    return result;
}

} // namespace

ImpulseLawResult contactImpulse(const CollisionParameters& p, const ContactFrame& f,
                                const Vec3& uFree) {
    const double un = f.normal.dot(uFree);
    if (!(un < f.targetNormalVelocity)) { // separating fast enough: no impulse
        ImpulseLawResult none;
        none.tangentialRestitution = p.tangentialRestitution;
        return none;
    }
    ImpulseLawResult result;
    result.tangentialRestitution = p.tangentialRestitution;
    switch (p.model) {
    case CollisionModel::Frictionless:
        result.impulse = frictionlessImpulse(f, un);
        result.regime = CollisionRegime::Frictionless;
        return result;
    case CollisionModel::Paper:
        result.impulse = restitutionImpulse(f, uFree, un, p.tangentialRestitution);
        result.regime = CollisionRegime::Restitution;
        return result;
    case CollisionModel::Schwager:
        // eq. (87) with the approach speed the impulse has to remove
        result.tangentialRestitution = schwagerTangentialRestitution(
            f.compliance, uFree, f.normal, p.restitution, p.friction);
        result.impulse = restitutionImpulse(f, uFree, un, result.tangentialRestitution);
        result.regime = CollisionRegime::Restitution;
        return result;
    case CollisionModel::Coulomb: return coulombImpulse(p, f, uFree, un);
    }
    return result;
}

} // namespace sef
