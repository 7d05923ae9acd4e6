#include "dem/engine/SequentialImpulseSolver.hpp"

#include "collision/ContactLawTraits.hpp"

#include <algorithm>
#include <cmath>

namespace sef::dem {

namespace {

// The six entries of a symmetric 3x3 matrix, as scalars: the contact
// set-up builds K and its inverse in registers and stores each once (built
// as an Eigen matrix, entries stored one by one and re-read as pairs stalled
// on store forwarding: half of the set-up's own time, perf).
struct Symmetric3 {
    double xx, yy, zz, xy, xz, yz;
};

// -[r]x A [r]x for a symmetric A (the arm term of the compliance K), written
// out: entry (i, j) is c_i.(A c_j) with c_j = r x e_j, the columns of [r]x.
// Symmetric by construction; no general 3x3 products.
Symmetric3 armCompliance(const Vec3& r, const Mat3& A) {
    const Vec3 c0(0.0, r.z(), -r.y()), c1(-r.z(), 0.0, r.x()), c2(r.y(), -r.x(), 0.0);
    const Vec3 a0 = r.z() * A.col(1) - r.y() * A.col(2);
    const Vec3 a1 = r.x() * A.col(2) - r.z() * A.col(0);
    const Vec3 a2 = r.y() * A.col(0) - r.x() * A.col(1);
    return Symmetric3{c0.dot(a0), c1.dot(a1), c2.dot(a2), c0.dot(a1), c0.dot(a2), c1.dot(a2)};
}

void store(const Symmetric3& S, Mat3& M) {
    M(0, 0) = S.xx;
    M(1, 1) = S.yy;
    M(2, 2) = S.zz;
    M(0, 1) = M(1, 0) = S.xy;
    M(0, 2) = M(2, 0) = S.xz;
    M(1, 2) = M(2, 1) = S.yz;
}

// Inverse of a symmetric positive definite 3x3 matrix by its cofactors.
Symmetric3 symmetricInverse(const Symmetric3& K) {
    const double a = K.xx, b = K.xy, c = K.xz, d = K.yy, e = K.yz, f = K.zz;
    const double A = d * f - e * e, B = c * e - b * f, C = b * e - c * d;
    const double s = 1.0 / (a * A + b * B + c * C);
    const double D = a * f - c * c, E = b * c - a * e, F = a * d - b * b;
    return Symmetric3{s * A, s * D, s * F, s * B, s * C, s * E};
}

// Which contacts of a law solved as cluster friction
// (collision/ContactLawTraits.hpp) are in a cluster (a body with two or more
// contacts; walls and immovable bodies do not count), and their tangential
// frames.
void prepareClusterFriction(const std::vector<SolverBody>& bodies,
                            std::vector<SolverContact>& contacts, std::vector<int>& degree) {
    degree.assign(bodies.size(), 0);
    for (const SolverContact& c : contacts) {
        ++degree[static_cast<std::size_t>(c.i)];
        if (c.j >= 0) ++degree[static_cast<std::size_t>(c.j)];
    }
    for (SolverContact& c : contacts) {
        c.clusterFriction = false;
        if (!solvedAsClusterFriction(*c.law)) continue;
        const auto alone = [&](int b) {
            return b < 0 || degree[static_cast<std::size_t>(b)] < 2 ||
                   bodies[static_cast<std::size_t>(b)].immovable();
        };
        if (alone(c.i) && alone(c.j)) continue; // alone: the shared law, exactly
        c.clusterFriction = true;
        c.tangentsReady = false; // most visits stick and need no tangent basis
        c.complianceNormal = multiply(c.frame.compliance, c.frame.normal);
    }
}

// Tangent basis and the inverse of K restricted to it, for the sliding step.
void prepareTangents(SolverContact& c) {
    const Vec3& n = c.frame.normal;
    c.tangent1 = n.unitOrthogonal();
    c.tangent2 = n.cross(c.tangent1);
    const Mat3& K = c.frame.compliance;
    const Vec3 K1 = multiply(K, c.tangent1), K2 = multiply(K, c.tangent2);
    const double k11 = c.tangent1.dot(K1), k12 = c.tangent1.dot(K2), k22 = c.tangent2.dot(K2);
    const double s = 1.0 / (k11 * k22 - k12 * k12); // SPD 2x2 block of SPD K
    c.tangentialInverse << s * k22, -s * k12, -s * k12, s * k11;
    c.tangentsReady = true;
}

// The impulse a visit added and the contact velocity change it caused (K dJ).
struct Visit {
    Vec3 impulse = Vec3::Zero();
    Vec3 velocity = Vec3::Zero();
    bool exact = true; // false: sliding (the tangential step moved u_n off its target)
};

// One visit of a cluster coulomb contact: normal row, then the tangential
// block projected onto the friction disc.
Visit clusterFrictionUpdate(std::vector<SolverBody>& bodies, SolverContact& c) {
    const Vec3& n = c.frame.normal;
    const Mat3& K = c.frame.compliance;
    Vec3 u = relativeContactVelocity(bodies, c);
    // Block step first: the sticking impulse of the whole 3x3 contact (the
    // shared law's sticking answer); taken when it lies in the cone.
    // Free velocity u - K J, normal part via K n (K symmetric).
    const double uFreeN = n.dot(u) - c.complianceNormal.dot(c.impulse);
    if (!(uFreeN < c.frame.targetNormalVelocity)) {
        const Vec3 dJ = -c.impulse; // separating fast enough: no impulse
        if (dJ.isZero(0.0)) return Visit{};
        c.impulse.setZero();
        applyImpulse(bodies, c, dJ);
        return Visit{dJ, multiply(K, dJ)};
    }
    // Sticking makes u' = target: J = K^-1 (target - u_free) = J + K^-1 (target - u).
    const Vec3 du = c.frame.targetNormalVelocity * n + c.targetTangentialVelocity - u;
    const Vec3 stick = c.impulse + multiply(c.frame.inverseCompliance, du);
    const double stickN = n.dot(stick);
    const double coneRadius = c.law->friction * stickN; // |J_t| <= mu J_n, squared (no sqrt)
    if (stickN >= 0.0 && (stick - stickN * n).squaredNorm() <= coneRadius * coneRadius) {
        const Vec3 dJ = stick - c.impulse;
        if (dJ.isZero(0.0)) return Visit{};
        c.impulse = stick;
        applyImpulse(bodies, c, dJ);
        return Visit{dJ, du};
    }
    // Sliding: normal row, then the tangential block onto the disc.
    if (!c.tangentsReady) prepareTangents(c);
    const double lambdaN = n.dot(c.impulse);
    const double newN =
        std::max(0.0, lambdaN + (c.frame.targetNormalVelocity - n.dot(u)) / c.frame.normalCompliance);
    Vec3 dJ = (newN - lambdaN) * n;
    u += multiply(K, dJ);
    const Vec3 slip = u - c.targetTangentialVelocity;
    const Eigen::Vector2d slipT(c.tangent1.dot(slip), c.tangent2.dot(slip));
    const Eigen::Vector2d lambdaT(c.tangent1.dot(c.impulse), c.tangent2.dot(c.impulse));
    Eigen::Vector2d newT = lambdaT - c.tangentialInverse * slipT;
    const double limit = c.law->friction * newN, size = newT.norm();
    if (size > limit) newT *= size > 0.0 ? limit / size : 0.0;
    dJ += (newT.x() - lambdaT.x()) * c.tangent1 + (newT.y() - lambdaT.y()) * c.tangent2;
    if (dJ.isZero(0.0)) return Visit{};
    c.impulse += dJ;
    applyImpulse(bodies, c, dJ);
    return Visit{dJ, multiply(K, dJ), false};
}

// One visit of the rolling row: the angular impulse that stops the relative
// angular velocity in the contact plane, the accumulated one kept within
// mu_r R_eff J_n. Returns the squared contact-speed change R_eff |dw|.
// In the tangent basis throughout: a settled bed of blocks clamps nearly
// every visit (cube bed: 99.8 %), so the visit is one 2-D projection and two
// precomputed responses, on the chain of dependent operations from one
// visit of a body to the next.
// The relative angular velocity of contact c (body 2 less body 1; a wall's
// own at a moving wall).
Vec3 relativeAngularVelocity(const std::vector<SolverBody>& bodies, const SolverContact& c) {
    Vec3 w = -bodies[static_cast<std::size_t>(c.i)].angularVelocity;
    return w + (c.j >= 0 ? bodies[static_cast<std::size_t>(c.j)].angularVelocity : c.wallAngularVelocity);
}

// The group's bound per unit of limit: the sum of its rows' normal
// impulses, each weighted by its own limit over the first's (rows of one
// contact have nearly the same arms). limitOf: the row's limit member.
template <double SolverContact::*limitOf>
double groupBound(const SolverContact* group) {
    const SolverContact& c = group[0];
    double limit = c.*limitOf * std::max(0.0, c.frame.normal.dot(c.impulse));
    for (int m = 1; m <= c.rollingGroup; ++m)
        limit += group[m].*limitOf * std::max(0.0, c.frame.normal.dot(group[m].impulse));
    return limit;
}

double rollingUpdate(std::vector<SolverBody>& bodies, SolverContact* group) {
    SolverContact& c = group[0];
    SolverBody& b1 = bodies[static_cast<std::size_t>(c.i)];
    const Vec3 w = relativeAngularVelocity(bodies, c);
    const Eigen::Vector2d wT(c.rollingTangent1.dot(w), c.rollingTangent2.dot(w));
    const Eigen::Vector2d old = c.rollingImpulse;
    Eigen::Vector2d next = old - c.rollingInverse * wT;
    const double limit = groupBound<&SolverContact::rollingLimit>(group);
    const double size2 = next.squaredNorm(); // onto the disc |L| <= limit (no sqrt inside it)
    if (size2 > limit * limit) next *= limit / std::sqrt(size2);
    const Eigen::Vector2d d = next - old;
    if (d.isZero(0.0)) return 0.0;
    c.rollingImpulse = next;
    Vec3 dw = d.x() * c.rollingResponse1[0] + d.y() * c.rollingResponse1[1];
    b1.angularVelocity -= dw;
    if (c.j >= 0) {
        const Vec3 dw2 = d.x() * c.rollingResponse2[0] + d.y() * c.rollingResponse2[1];
        bodies[static_cast<std::size_t>(c.j)].angularVelocity += dw2;
        dw += dw2;
    }
    return c.rollingRadius * c.rollingRadius * dw.squaredNorm();
}

// One visit of the twisting row: the angular impulse about n that stops the
// relative spin, the accumulated one kept within mu_t R_eff J_n (the group's).
// Returns the squared contact-speed change R_eff |dw| as rollingUpdate.
double twistUpdate(std::vector<SolverBody>& bodies, SolverContact* group) {
    SolverContact& c = group[0];
    const double spin = c.frame.normal.dot(relativeAngularVelocity(bodies, c));
    const double old = c.twistImpulse;
    const double limit = groupBound<&SolverContact::twistLimit>(group);
    const double next = std::clamp(old - c.twistInverse * spin, -limit, limit);
    const double d = next - old;
    if (d == 0.0) return 0.0;
    c.twistImpulse = next;
    Vec3 dw = d * c.twistResponse1;
    bodies[static_cast<std::size_t>(c.i)].angularVelocity -= dw;
    if (c.j >= 0) {
        const Vec3 dw2 = d * c.twistResponse2;
        bodies[static_cast<std::size_t>(c.j)].angularVelocity += dw2;
        dw += dw2;
    }
    return c.rollingRadius * c.rollingRadius * dw.squaredNorm();
}

// The rolling row's radius and bound (set-up of every row: a rim point's
// share counts towards its contact's bound).
void setUpRolling(SolverContact& c) {
    c.rollingImpulse.setZero();
    c.rollingLimit = 0.0;
    c.rollingGroup = 0;
    c.twistImpulse = 0.0;
    c.twistLimit = 0.0;
    if (!(c.law->rollingFriction > 0.0 || c.law->twistingFriction > 0.0)) return;
    const double r1 = c.arm1.norm();
    c.rollingRadius = r1;
    if (c.j >= 0) {
        const double r2 = c.arm2.norm();
        c.rollingRadius = r1 * r2 / (r1 + r2);
    }
    c.rollingLimit = c.law->rollingFriction * c.rollingRadius;
    c.twistLimit = c.law->twistingFriction * c.rollingRadius;
}

// The rest of a rolling row (its plane, responses and block inverse), for
// the rows that have one: a rim point that shares its contact's row needs
// none (half the rows of a settled cube bed).
void prepareRollingRow(SolverContact& c, const std::vector<SolverBody>& bodies) {
    const Mat3& A1 = bodies[static_cast<std::size_t>(c.i)].inverseInertia;
    const Vec3& n = c.frame.normal;
    if (c.twistLimit > 0.0) {
        c.twistResponse1 = multiply(A1, n);
        double Ann = n.dot(c.twistResponse1);
        if (c.j >= 0) {
            c.twistResponse2 = multiply(bodies[static_cast<std::size_t>(c.j)].inverseInertia, n);
            Ann += n.dot(c.twistResponse2);
        }
        c.twistInverse = Ann > 0.0 ? 1.0 / Ann : 0.0;
    }
    if (!(c.rollingLimit > 0.0)) return;
    c.rollingTangent1 = n.unitOrthogonal();
    c.rollingTangent2 = n.cross(c.rollingTangent1);
    c.rollingResponse1[0] = multiply(A1, c.rollingTangent1);
    c.rollingResponse1[1] = multiply(A1, c.rollingTangent2);
    Vec3 At1 = c.rollingResponse1[0], At2 = c.rollingResponse1[1]; // (I_1^-1 + I_2^-1) t
    if (c.j >= 0) {
        const Mat3& A2 = bodies[static_cast<std::size_t>(c.j)].inverseInertia;
        c.rollingResponse2[0] = multiply(A2, c.rollingTangent1);
        c.rollingResponse2[1] = multiply(A2, c.rollingTangent2);
        At1 += c.rollingResponse2[0];
        At2 += c.rollingResponse2[1];
    }
    Eigen::Matrix2d Att;
    Att << c.rollingTangent1.dot(At1), c.rollingTangent1.dot(At2), c.rollingTangent2.dot(At1),
        c.rollingTangent2.dot(At2);
    c.rollingInverse = Att.inverse(); // SPD block of SPD I_1^-1 + I_2^-1
}

// Progress test after a sweep: the largest change of the last W sweeps
// against that of the W sweeps before gives the convergence rate; stop when
// there is none, or when at that rate the tolerance would not be reached
// within the sweeps left (so a solve that converges within the cap is never
// cut short, up to the rate estimate).
constexpr double kStagnationLevel = 100.0;

bool stagnates(std::vector<double>& history, double largestChange2, int window, int sweepsLeft,
               double tolerance2) {
    history.push_back(largestChange2);
    const std::size_t W = static_cast<std::size_t>(window);
    if (history.size() < 2 * W) return false;
    const double recent = *std::max_element(history.end() - static_cast<long>(W), history.end());
    const double before = *std::max_element(history.end() - 2 * static_cast<long>(W),
                                            history.end() - static_cast<long>(W));
    if (recent > kStagnationLevel * kStagnationLevel * tolerance2) return false; // far from converged
    if (!(recent < before)) return true;
    // squared changes: W log(tol^2 / recent) / log(recent / before) sweeps to go
    const double needed = window * std::log(tolerance2 / recent) / std::log(recent / before);
    return needed > sweepsLeft;
}

// One visit of a contact whose law has no tangential impulse
// (collision/ContactLawTraits.hpp): scalar projected Gauss-Seidel on the
// accumulated normal impulse. True if the impulse changed, with the
// squared contact-velocity change in velocityChange2.
SEF_ALWAYS_INLINE bool normalRowUpdate(std::vector<SolverBody>& bodies, SolverContact& c,
                                       double& velocityChange2) {
    const Vec3& n = c.frame.normal;
    SolverBody& b1 = bodies[static_cast<std::size_t>(c.i)];
    // n.(w x r) = w.(r x n)
    double un = -n.dot(b1.velocity) - b1.angularVelocity.dot(c.armCrossNormal1);
    if (c.j >= 0) {
        const SolverBody& b2 = bodies[static_cast<std::size_t>(c.j)];
        un += n.dot(b2.velocity) + b2.angularVelocity.dot(c.armCrossNormal2);
    }
    const double lambda = n.dot(c.impulse);
    const double next =
        std::max(0.0, lambda + (c.frame.targetNormalVelocity - un) * c.normalMass);
    const double dLambda = next - lambda;
    if (dLambda == 0.0) return false;
    c.impulse = next * n;
    b1.velocity -= (b1.inverseMass * dLambda) * n;
    b1.angularVelocity -= dLambda * c.angular1;
    if (c.j >= 0) {
        SolverBody& b2 = bodies[static_cast<std::size_t>(c.j)];
        b2.velocity += (b2.inverseMass * dLambda) * n;
        b2.angularVelocity += dLambda * c.angular2;
    }
    const double change = dLambda * c.frame.normalCompliance;
    velocityChange2 = change * change;
    return true;
}

// One visit of a contact that takes its law (collision/ContactImpulseLaw.hpp)
// from its free velocity; returns as normalRowUpdate.
SEF_ALWAYS_INLINE bool lawUpdate(std::vector<SolverBody>& bodies, SolverContact& c, double& velocityChange2) {
    const Vec3 u = relativeContactVelocity(bodies, c);
    const Vec3 uFree = u - multiply(c.frame.compliance, c.impulse);
    const Vec3 J = contactImpulse(*c.law, c.frame, uFree).impulse;
    const Vec3 dJ = J - c.impulse;
    if (dJ.isZero(0.0)) return false;
    c.impulse = J;
    applyImpulse(bodies, c, dJ);
    velocityChange2 = multiply(c.frame.compliance, dJ).squaredNorm();
    return true;
}

// One visit of contact c: its row (normal row, cluster friction block or
// its law), then its rolling row. True if it changed an impulse, with the
// largest squared contact-speed change in velocityChange2; exact: the
// update met the contact's law exactly (not after a sliding friction or
// rolling step, which disturb the rows solved before them).
SEF_ALWAYS_INLINE bool visitContact(std::vector<SolverBody>& bodies, SolverContact& c, double& velocityChange2,
                                    bool& exact) {
    exact = true;
    velocityChange2 = 0.0; // squared, compared with tolerance^2 (no sqrt)
    bool updated = false;
    if (!usesTangentialImpulse(c.law->model)) {
        updated = normalRowUpdate(bodies, c, velocityChange2);
    } else if (c.clusterFriction) {
        const Visit v = clusterFrictionUpdate(bodies, c);
        exact = v.exact;
        if (!v.impulse.isZero(0.0)) {
            velocityChange2 = v.velocity.squaredNorm();
            updated = true;
        }
    } else {
        updated = lawUpdate(bodies, c, velocityChange2);
    }
    if (c.hasAngularRows() && c.rollingGroup >= 0) {
        const double rollingChange2 = c.rollingLimit > 0.0 ? rollingUpdate(bodies, &c) : 0.0;
        const double twistChange2 = c.twistLimit > 0.0 ? twistUpdate(bodies, &c) : 0.0;
        const double angularChange2 = std::max(rollingChange2, twistChange2);
        if (angularChange2 > 0.0) {
            exact = false;
            velocityChange2 = std::max(velocityChange2, angularChange2);
            updated = true;
        }
    }
    return updated;
}

} // namespace

void setUpContact(SolverContact& c, const std::vector<SolverBody>& bodies,
                  const std::vector<Vec3>& centres, const Vec3& point, const Vec3& normal,
                  bool needInverse, const Mat3* knownK, const Mat3* knownInverse) {
    const SolverBody& b1 = bodies[static_cast<std::size_t>(c.i)];
    c.frame.normal = normal;
    c.arm1 = point - centres[static_cast<std::size_t>(c.i)];
    const Vec3 rn1 = c.arm1.cross(normal);
    c.armCrossNormal1 = rn1;
    c.angular1 = multiply(b1.inverseInertia, rn1);
    double Knn = b1.inverseMass + rn1.dot(c.angular1);
    double inverseMass = b1.inverseMass;
    if (c.j >= 0) {
        const SolverBody& b2 = bodies[static_cast<std::size_t>(c.j)];
        c.arm2 = point - centres[static_cast<std::size_t>(c.j)];
        const Vec3 rn2 = c.arm2.cross(normal);
        c.armCrossNormal2 = rn2;
        c.angular2 = multiply(b2.inverseInertia, rn2);
        Knn += b2.inverseMass + rn2.dot(c.angular2);
        inverseMass += b2.inverseMass;
    }
    c.frame.normalCompliance = Knn;
    c.frame.hasInverse = false;
    setUpRolling(c);
    if (!usesTangentialImpulse(c.law->model)) { // K itself is not needed
        c.normalMass = 1.0 / Knn;
        return;
    }
    c.frame.hasInverse = needInverse;
    if (knownK && (knownInverse || !needInverse)) {
        c.frame.compliance = *knownK;
        if (needInverse) c.frame.inverseCompliance = *knownInverse;
        return;
    }
    // K = (1/m_1 + 1/m_2) 1 - [r_1]x I_1^-1 [r_1]x - [r_2]x I_2^-1 [r_2]x
    // (collision/ImpulseResolution.hpp), symmetric
    Symmetric3 K = armCompliance(c.arm1, b1.inverseInertia);
    if (c.j >= 0) {
        const Symmetric3 K2 = armCompliance(c.arm2, bodies[static_cast<std::size_t>(c.j)].inverseInertia);
        K = Symmetric3{K.xx + K2.xx, K.yy + K2.yy, K.zz + K2.zz, K.xy + K2.xy, K.xz + K2.xz, K.yz + K2.yz};
    }
    K.xx += inverseMass;
    K.yy += inverseMass;
    K.zz += inverseMass;
    store(K, c.frame.compliance);
    // K^-1 once per substep: the law is evaluated in every sweep
    if (needInverse) store(symmetricInverse(K), c.frame.inverseCompliance);
}

void shareRollingRows(std::vector<SolverContact>& contacts, const std::vector<char>& rimPoint) {
    std::size_t owner = contacts.size(); // none yet
    for (std::size_t k = 0; k < contacts.size(); ++k) {
        SolverContact& c = contacts[k];
        if (rimPoint[k] && owner < contacts.size()) {
            SolverContact& o = contacts[owner];
            // (owner's group is rows owner+1 .. k-1: every row between joined it)
            if (o.hasAngularRows() && c.hasAngularRows() && c.i == o.i && c.j == o.j &&
                c.frame.normal == o.frame.normal) {
                ++o.rollingGroup;
                c.rollingGroup = -1;
                continue;
            }
        }
        owner = k;
    }
}

SolverResult solveSequentialImpulses(std::vector<SolverBody>& bodies,
                                     std::vector<SolverContact>& contacts, int maxSweeps,
                                     double tolerance, int stagnationWindow) {
    thread_local SolverScratch scratch;
    return solveSequentialImpulses(bodies, contacts, maxSweeps, tolerance, stagnationWindow, scratch);
}

// (not inlined into the overload above: with its thread-local scratch in
// view GCC recomputed the scratch's address, a call into the dynamic linker,
// inside the sweep loop instead of keeping it: 2 % of a settled cube bed)
[[gnu::noinline]] SolverResult solveSequentialImpulses(std::vector<SolverBody>& bodies,
                                                       std::vector<SolverContact>& contacts, int maxSweeps,
                                                       double tolerance, int stagnationWindow,
                                                       SolverScratch& scratch) {
    SolverResult result;
    if (contacts.empty()) return result;
    // largest squared contact-velocity change of each sweep (stagnation test)
    std::vector<double>& sweepChange = scratch.sweepChange;
    sweepChange.clear();
    // Which contacts need a visit: bodyStamp[b] is the visit number of the
    // last noticeable change of body b's velocity, lastVisit[k] that of
    // contact k's last visit. A contact whose bodies have not changed since
    // then is skipped: its own update already met its law for these
    // velocities, unless that update was not exact (a sliding friction or
    // rolling row, which disturb the rows solved before them): then
    // revisitSelf[k].
    std::vector<long>& bodyStamp = scratch.bodyStamp;
    std::vector<long>& lastVisit = scratch.lastVisit;
    std::vector<char>& revisitSelf = scratch.revisitSelf;
    bodyStamp.assign(bodies.size(), 0); // after lastVisit: the first sweep visits all
    lastVisit.assign(contacts.size(), -1);
    revisitSelf.assign(contacts.size(), 0);
    long visitNumber = 0;
    prepareClusterFriction(bodies, contacts, scratch.degree);
    for (SolverContact& c : contacts)
        if (c.hasAngularRows() && c.rollingGroup >= 0) prepareRollingRow(c, bodies);
    const double tolerance2 = tolerance * tolerance;
    result.converged = false;
    for (int sweep = 0; sweep < maxSweeps; ++sweep) {
        ++result.sweeps;
        bool changed = false;
        double largestChange2 = 0.0;
        // Symmetric Gauss-Seidel: alternate the direction so that a change
        // travels through a chain of contacts in both directions.
        const bool forward = sweep % 2 == 0;
        const std::size_t count = contacts.size();
        for (std::size_t visit = 0; visit < count; ++visit) {
            const std::size_t k = forward ? visit : count - 1 - visit;
            SolverContact& c = contacts[k];
            const long last = lastVisit[k];
            if (!revisitSelf[k] && bodyStamp[static_cast<std::size_t>(c.i)] <= last &&
                (c.j < 0 || bodyStamp[static_cast<std::size_t>(c.j)] <= last))
                continue; // nothing this contact sees has changed since its last visit
            lastVisit[k] = ++visitNumber;
            double velocityChange2;
            bool exact;
            const bool updated = visitContact(bodies, c, velocityChange2, exact);
            revisitSelf[k] = 0;
            if (!updated) continue;
            ++result.updates;
            largestChange2 = std::max(largestChange2, velocityChange2);
            if (velocityChange2 > tolerance2) {
                changed = true;
                revisitSelf[k] = !exact;
                // (an immovable body did not change: its other contacts need no visit)
                if (!bodies[static_cast<std::size_t>(c.i)].immovable())
                    bodyStamp[static_cast<std::size_t>(c.i)] = visitNumber;
                if (c.j >= 0 && !bodies[static_cast<std::size_t>(c.j)].immovable())
                    bodyStamp[static_cast<std::size_t>(c.j)] = visitNumber;
            }
        }
        if (!changed) {
            result.converged = true;
            break;
        }
        if (stagnationWindow > 0 && stagnates(sweepChange, largestChange2, stagnationWindow,
                                              maxSweeps - result.sweeps, tolerance2)) {
            result.stagnated = true;
            break;
        }
    }
    return result;
}

} // namespace sef::dem
