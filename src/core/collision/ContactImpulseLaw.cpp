#include "collision/ContactImpulseLaw.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>

namespace sef {

std::string collisionRegimeName(CollisionRegime regime) {
    switch (regime) {
    case CollisionRegime::separating: return "separating";
    case CollisionRegime::frictionless: return "frictionless";
    case CollisionRegime::restitution: return "restitution";
    case CollisionRegime::sticking: return "sticking";
    case CollisionRegime::sliding: return "sliding";
    case CollisionRegime::reducedSliding: return "reducedSliding";
    case CollisionRegime::frictionlessFallback: return "frictionlessFallback";
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
    // [Superellipsoid-OpenFOAM], eq. (87)
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

// J = K^-1 (u' - u), u' = target n + eps_t u_t ([Superellipsoid-OpenFOAM], eqs. (65), (67)).
Vec3 restitutionImpulse(const ContactFrame& f, const Vec3& u, double un, double et) {
    const Vec3 target = f.targetNormalVelocity * f.normal + et * (u - un * f.normal);
    return solveCompliance(f, target - u);
}

// Sliding J = j (n - mu s(phi)), s(phi) = cos(phi) t1 + sin(phi) t2, with j
// from u'_n = target; a solution has the mean slip (u + u')/2 along +s. One
// per contact: the friction bisection evaluates it at several mu.
class SlidingFamily {
public:
    struct Eval {
        bool valid = false;               // false: impulsive jam, no j > 0
        double along = 0.0, across = 0.0; // mean slip along s and along n x s
        Vec3 J = Vec3::Zero();
    };

    SlidingFamily(const ContactFrame& f, const Vec3& u, double un)
        : f_(f), u_(u), normalGap_(f.targetNormalVelocity - un) {
        const Vec3& n = f.normal;
        Vec3 ut = u - un * n;
        ut -= n.dot(ut) * n; // again: exactly tangential even when |u_t| << |u|
        t1_ = ut.norm() > 1e-14 * u.norm() ? Vec3(ut.normalized()) : Vec3(n.unitOrthogonal());
        t2_ = n.cross(t1_);
    }

    Eval evaluate(double phi, double mu) const {
        Eval e;
        const Vec3& n = f_.normal;
        const Vec3 s = std::cos(phi) * t1_ + std::sin(phi) * t2_;
        const Vec3 d = n - mu * s;
        const double denominator = n.dot(f_.compliance * d);
        if (!(denominator > 1e-12 * f_.normalCompliance)) return e;
        e.valid = true;
        e.J = (normalGap_ / denominator) * d;
        const Vec3 meanSlip = u_ + 0.5 * (f_.compliance * e.J);
        e.along = s.dot(meanSlip);
        e.across = n.cross(s).dot(meanSlip);
        return e;
    }

    const Vec3& t1() const { return t1_; }
    const Vec3& t2() const { return t2_; }
    double normalGap() const { return normalGap_; }

private:
    const ContactFrame& f_;
    const Vec3& u_;
    double normalGap_;
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

// The across-slip times the family's denominator, F(phi) = D(phi) across(phi),
// is a trigonometric polynomial of degree 2 in phi, linear in mu. With
// c = cos phi, s = sin phi, u_i = t_i.u, k_ab = a.K b, g the normal gap
// (target - u_n), n x s = -s t1 + c t2:
//   D = k_nn - mu (c k_n1 + s k_n2)
//   F = (n x s).u D + g/2 (n x s).K d
//     = P(phi) + mu Q(phi),
//   P = c (k_nn u_2 + g/2 k_2n) - s (k_nn u_1 + g/2 k_1n)
//   Q = c^2 (-u_2 k_n1 - g/2 k_12) + s^2 (u_1 k_n2 + g/2 k_12)
//       + c s (u_1 k_n1 - u_2 k_n2 - g/2 (k_22 - k_11)).
// Where D > 0 (no jam) F has the sign of the across-slip. Tabulated once per
// contact at the robust search's 64 sample angles (with its derivative), the
// scan for any mu costs a few multiply-adds per sample (no trigonometry, no
// matrix products: in a bed of blocks rocking on a floor the reduced-friction
// bisection runs the scan 31 times per contact), and a root is polished by
// safeguarded Newton steps. Two roots within one sample interval leave no
// sign change at the samples; F' changing sign there gives them away.
class AcrossSlipPolynomial {
public:
    static constexpr int samples = 64;

    // F = m + a1 c + b1 s + a2 cos 2phi + b2 sin 2phi for one mu
    struct Harmonics {
        double m, a1, b1, a2, b2;
        double value(double c, double s) const {
            return m + a1 * c + b1 * s + a2 * (c * c - s * s) + b2 * 2.0 * c * s;
        }
        double slope(double c, double s) const {
            return -a1 * s + b1 * c + 2.0 * (b2 * (c * c - s * s) - a2 * 2.0 * c * s);
        }
        double curvature(double c, double s) const {
            return -a1 * c - b1 * s - 4.0 * (a2 * (c * c - s * s) + b2 * 2.0 * c * s);
        }
    };

    AcrossSlipPolynomial(const ContactFrame& f, const Vec3& u, const Vec3& t1, const Vec3& t2, double gap)
        : knn_(f.normalCompliance) {
        const Mat3& K = f.compliance;
        const Vec3& n = f.normal;
        const Vec3 Kn = K * n, Kt1 = K * t1, Kt2 = K * t2;
        const double kn1 = t1.dot(Kn), kn2 = t2.dot(Kn), k11 = t1.dot(Kt1), k22 = t2.dot(Kt2),
                     k12 = t1.dot(Kt2), u1 = t1.dot(u), u2 = t2.dot(u), h = 0.5 * gap;
        pc_ = knn_ * u2 + h * kn2;
        ps_ = -(knn_ * u1 + h * kn1);
        const double qcc = -u2 * kn1 - h * k12, qss = u1 * kn2 + h * k12,
                     qcs = u1 * kn1 - u2 * kn2 - h * (k22 - k11);
        qm_ = 0.5 * (qcc + qss); // c^2 = (1 + cos 2phi)/2, s^2 = (1 - cos 2phi)/2, cs = sin 2phi / 2
        qa2_ = 0.5 * (qcc - qss);
        qb2_ = 0.5 * qcs;
        const SampleAngles& t = sampleAngles();
        for (int i = 0; i <= samples; ++i) {
            const double c = t.cos[i], s = t.sin[i];
            const Harmonics P{0.0, pc_, ps_, 0.0, 0.0}, Q{qm_, 0.0, 0.0, qa2_, qb2_};
            P_[i] = P.value(c, s);
            Q_[i] = Q.value(c, s);
            dP_[i] = P.slope(c, s);
            dQ_[i] = Q.slope(c, s);
        }
    }

    static double angle(int i) { return 2.0 * pi * i / samples; }
    Harmonics at(double mu) const { return {mu * qm_, pc_, ps_, mu * qa2_, mu * qb2_}; }
    // F and F' at sample i for friction mu
    double sampleF(int i, double mu) const { return P_[i] + mu * Q_[i]; }
    double sampleSlope(int i, double mu) const { return dP_[i] + mu * dQ_[i]; }

    // The zero of g (value, derivative: gd) in [a, b], g(a) = ga and g(b) = gb
    // of opposite signs or zero, to round-off: Newton steps kept inside the
    // shrinking bracket, a bisection when a step would leave it or is not
    // half the one before last (Numerical Recipes' rtsafe). Newton converges
    // quadratically, so after a step of 1e-11 rad the error is ~1e-22
    // |g''/g'| rad: below round-off unless the zero is nearly double;
    // iterating further only chases the round-off of g.
    template <class Value, class Slope>
    static double zero(const Value& g, const Slope& gd, double a, double ga, double b, double gb) {
        if (ga == 0.0) return a;
        if (gb == 0.0) return b;
        const bool rising = ga < 0.0;
        double x = a - ga * (b - a) / (gb - ga); // regula falsi start
        if (!(x > a && x < b)) x = 0.5 * (a + b);
        double c = std::cos(x), s = std::sin(x);
        double step = b - a;
        for (int k = 0; k < 100 && b - a > 1e-15; ++k) {
            const double v = g(c, s);
            if (v == 0.0) return x;
            if ((v < 0.0) == rising) a = x; else b = x;
            const double d = gd(c, s);
            const double newton = d != 0.0 ? v / d : std::numeric_limits<double>::infinity();
            // (closed bracket: a step below round-off lands on x itself, an end)
            const bool useNewton =
                x - newton >= a && x - newton <= b && std::abs(newton) <= 0.5 * std::abs(step);
            step = useNewton ? newton : x - 0.5 * (a + b);
            x -= step;
            if (useNewton && std::abs(step) <= 1e-11) return x; // converged (a bisection step does not tell)
            turn(c, s, -step);
        }
        return 0.5 * (a + b);
    }

private:
    // (c, s) of phi -> of phi + d: for |d| <= 0.1 (the steps inside one
    // sample interval) by Taylor series, to 3e-17; else by the library
    static void turn(double& c, double& s, double d) {
        double cd, sd;
        if (std::abs(d) <= 0.1) {
            const double d2 = d * d;
            cd = 1.0 - d2 / 2.0 * (1.0 - d2 / 12.0 * (1.0 - d2 / 30.0 * (1.0 - d2 / 56.0)));
            sd = d * (1.0 - d2 / 6.0 * (1.0 - d2 / 20.0 * (1.0 - d2 / 42.0 * (1.0 - d2 / 72.0))));
        } else {
            cd = std::cos(d);
            sd = std::sin(d);
        }
        const double c0 = c;
        c = c0 * cd - s * sd;
        s = s * cd + c0 * sd;
    }

    struct SampleAngles {
        double cos[samples + 1], sin[samples + 1];
    };
    static const SampleAngles& sampleAngles() {
        static const SampleAngles table = [] {
            SampleAngles t{};
            for (int i = 0; i <= samples; ++i) {
                t.cos[i] = std::cos(angle(i));
                t.sin[i] = std::sin(angle(i));
            }
            return t;
        }();
        return table;
    }

    double knn_, pc_, ps_, qm_, qa2_, qb2_;
    double P_[samples + 1], Q_[samples + 1], dP_[samples + 1], dQ_[samples + 1];
};

// Robust path: a 64-sample scan over the angle with a root search on every
// sign change of the across-slip (and on both sides of an extremum that
// crosses zero between samples); among the solutions the most dissipative
// one that does not add energy. anySolution: stop at the first (whether
// one exists is all the friction bisection asks).
bool robustSlidingImpulse(const ContactFrame& f, const Vec3& u, const SlidingFamily& family,
                          const AcrossSlipPolynomial& across, double mu, Vec3& bestImpulse,
                          bool anySolution = false) {
    using Poly = AcrossSlipPolynomial;
    const Poly::Harmonics F = across.at(mu);
    auto value = [&](double c, double s) { return F.value(c, s); };
    auto slope = [&](double c, double s) { return F.slope(c, s); };
    auto curvature = [&](double c, double s) { return F.curvature(c, s); };
    bool found = false;
    double bestEnergy = std::numeric_limits<double>::infinity();
    auto consider = [&](double phi) {
        const SlidingFamily::Eval root = family.evaluate(phi, mu);
        if (!root.valid || !(root.along > 0.0)) return;
        const double dE = energyChange(f, u, root.J);
        if (dE <= 0.0 && dE < bestEnergy) {
            bestEnergy = dE;
            bestImpulse = root.J;
            found = true;
        }
    };
    // (F's sign changes, not the across-slip's: across = F / D also changes
    // sign where D does, at a jam, and a root next to a jam is missed by a
    // scan that skips intervals with a jammed end; evaluate() rejects roots
    // with D <= 0)
    double fa = across.sampleF(0, mu), da = across.sampleSlope(0, mu);
    for (int i = 1; i <= Poly::samples; ++i) {
        const double fb = across.sampleF(i, mu), db = across.sampleSlope(i, mu);
        const double a = Poly::angle(i - 1), b = Poly::angle(i);
        if (fa * fb <= 0.0) {
            consider(Poly::zero(value, slope, a, fa, b, fb));
        } else if (da * db < 0.0 && (fa > 0.0) == (da < 0.0)) {
            // F turns back towards zero inside: its extremum e; if F(e) has
            // the other sign, a root on each side of e
            const double e = Poly::zero(slope, curvature, a, da, b, db);
            const double fe = F.value(std::cos(e), std::sin(e));
            if (fe * fa <= 0.0) {
                consider(Poly::zero(value, slope, a, fa, e, fe));
                consider(Poly::zero(value, slope, e, fe, b, fb));
            }
        }
        if (found && anySolution) return true;
        fa = fb;
        da = db;
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
        result.regime = CollisionRegime::frictionless;
        return result;
    }
    const Vec3 stick = restitutionImpulse(f, u, un, p.tangentialRestitution);
    const double Jn = n.dot(stick);
    const Vec3 Jt = stick - Jn * n;
    const double JtNorm = Jt.norm();
    if (Jn >= 0.0 && JtNorm <= mu * Jn * (1.0 + 1e-12) && energyChange(f, u, stick) <= 0.0) {
        result.impulse = stick;
        result.regime = CollisionRegime::sticking;
        return result;
    }
    result.regime = CollisionRegime::sliding;
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
    const SlidingFamily family(f, u, un);
    const AcrossSlipPolynomial across(f, u, family.t1(), family.t2(), family.normalGap());
    if (robustSlidingImpulse(f, u, family, across, mu, result.impulse)) return result;
    // 3. No dissipative sliding at mu (coupling made full-mu friction reverse
    // the mean slip, or jam): slide with the largest friction mu' in [0, mu)
    // that admits one (bisection; mu' = 0 is frictionless, always
    // admissible). Still inside the cone and never adds energy.
    double lo = 0.0, hi = mu;
    for (int k = 0; k < 30; ++k) {
        const double mid = 0.5 * (lo + hi);
        Vec3 trial;
        if (robustSlidingImpulse(f, u, family, across, mid, trial, true)) lo = mid; else hi = mid;
    }
    Vec3 best = frictionlessImpulse(f, un);
    if (lo > 0.0) robustSlidingImpulse(f, u, family, across, lo, best); // the most dissipative at lo
    result.impulse = best;
    result.regime = lo > 0.0 ? CollisionRegime::reducedSliding : CollisionRegime::frictionlessFallback;
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
    case CollisionModel::frictionless:
        result.impulse = frictionlessImpulse(f, un);
        result.regime = CollisionRegime::frictionless;
        return result;
    case CollisionModel::paper:
        result.impulse = restitutionImpulse(f, uFree, un, p.tangentialRestitution);
        result.regime = CollisionRegime::restitution;
        return result;
    case CollisionModel::schwager:
        // eq. (87) with the approach speed the impulse has to remove
        result.tangentialRestitution = schwagerTangentialRestitution(
            f.compliance, uFree, f.normal, p.restitution, p.friction);
        result.impulse = restitutionImpulse(f, uFree, un, result.tangentialRestitution);
        result.regime = CollisionRegime::restitution;
        return result;
    case CollisionModel::coulomb: return coulombImpulse(p, f, uFree, un);
    }
    return result;
}

} // namespace sef
