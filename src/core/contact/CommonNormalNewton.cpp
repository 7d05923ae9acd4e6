#include "contact/CommonNormalNewton.hpp"

#include "contact/FaceChart.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sef {

// Principal radii of curvature (inverse Weingarten map, 2x2 in the world
// tangent basis t1, t2) at the surface point xBody of body b. This is the
// derivative of the support map: d support / d n = Rho on the tangent plane.
// Weingarten map W = P H P / |grad S| (H, grad S of [Superellipsoid-OpenFOAM] eq. 3).
// Edges (eps > 1) have infinite curvature: Rho -> 0 there; flat faces
// (eps -> 0) have zero curvature: Rho is capped at a large radius.
Mat2 radiiOfCurvature(const PosedBody& b, const Vec3& xBody, const Vec3& t1, const Vec3& t2,
                      double lengthScale) {
    if (b.kernel.isEllipsoid()) {
        // Closed form: the support map p(n) = M n / h, h = sqrt(n^T M n),
        // M = diag(a^2, b^2, c^2), has dp/dn = (M - p p^T) / h; at the
        // surface point x = p, 1 / h = |M^-1 x|. No eigen-decomposition.
        const Vec3 u1 = b.directionToBody(t1), u2 = b.directionToBody(t2);
        const Vec3& m = b.kernel.squaredHalfAxes();
        const double inverseH = xBody.cwiseQuotient(m).norm();
        const double x1 = u1.dot(xBody), x2 = u2.dot(xBody);
        Mat2 rho;
        rho(0, 0) = u1.cwiseProduct(m).dot(u1) - x1 * x1;
        rho(0, 1) = u1.cwiseProduct(m).dot(u2) - x1 * x2;
        rho(1, 1) = u2.cwiseProduct(m).dot(u2) - x2 * x2;
        rho(1, 0) = rho(0, 1);
        return rho * inverseH;
    }
    const auto d = b.kernel.evaluate(xBody);
    const double gradNorm = d.gradient.norm();
    const Vec3 u1 = b.directionToBody(t1), u2 = b.directionToBody(t2);
    Mat2 w;
    w(0, 0) = u1.dot(d.hessian * u1);
    w(0, 1) = u1.dot(d.hessian * u2);
    w(1, 1) = u2.dot(d.hessian * u2);
    w(1, 0) = w(0, 1);
    w /= gradNorm;
    if (!isFinite(w) || !(gradNorm > 0.0)) return Mat2::Zero(); // an edge or corner
    // Eigen-decomposition of the symmetric 2x2; curvature clamped to
    // [1e-12, 1e12] / lengthScale so the radii stay finite and non-negative.
    const double mean = 0.5 * (w(0, 0) + w(1, 1));
    const double diff = 0.5 * (w(0, 0) - w(1, 1));
    const double root = std::sqrt(diff * diff + w(0, 1) * w(0, 1)); // |w| <= 1e12/L: no overflow
    const double kMin = 1e-12 / lengthScale, kMax = 1e12 / lengthScale;
    const double k1 = std::clamp(mean + root, kMin, kMax);
    const double k2 = std::clamp(mean - root, kMin, kMax);
    Vec2 v1;
    if (root > 0.0) {
        // eigenvector of mean + root, in the numerically safe of two forms
        v1 = diff >= 0.0 ? Vec2(diff + root, w(0, 1)) : Vec2(w(0, 1), root - diff);
        v1.normalize();
    } else {
        v1 = Vec2(1.0, 0.0);
    }
    const Vec2 v2(-v1.y(), v1.x());
    return v1 * v1.transpose() / k1 + v2 * v2.transpose() / k2;
}

namespace {

// Body 1 of the common-normal problem as a convex body with a posed shape...
struct ShapeSide {
    const PosedBody& body;
    Vec3 support(const Vec3& n) const { return body.support(n); }
    Mat2 radii(const Vec3& point, const Vec3& t1, const Vec3& t2, double lengthScale) const {
        return radiiOfCurvature(body, body.toBody(point), t1, t2, lengthScale);
    }
    double lengthScale() const { return body.smallestHalfAxis(); }
    const PosedBody* posed() const { return &body; }
};

// ... or as a single point (a wall vertex): support = the point, no radii.
struct PointSide {
    const Vec3& point;
    Vec3 support(const Vec3&) const { return point; }
    Mat2 radii(const Vec3&, const Vec3&, const Vec3&, double) const { return Mat2::Zero(); }
    double lengthScale() const { return std::numeric_limits<double>::infinity(); }
    const PosedBody* posed() const { return nullptr; }
};

template <class Side1>
CommonNormalSolution solve(const Side1& body1, const PosedBody& body2, const Vec3& initialNormal,
                           const CommonNormalSettings& settings);

} // namespace

double overlapAlong(const PosedBody& body1, const PosedBody& body2, const Vec3& n, Vec3& point1,
                    Vec3& point2) {
    supportPair(body1, n, body2, -n, point1, point2);
    return n.dot(point1 - point2);
}

void overlapsAlong(const PosedBody& body1, const PosedBody& body2, const Vec3* normals, int count,
                   double* overlaps) {
    const PosedBody* bodies[SupportKernel::kMaxLanes];
    Vec3 directions[SupportKernel::kMaxLanes], p[SupportKernel::kMaxLanes];
    for (int i = 0; i < count; ++i) {
        bodies[2 * i] = &body1;
        bodies[2 * i + 1] = &body2;
        directions[2 * i] = normals[i];
        directions[2 * i + 1] = -normals[i];
    }
    PosedBody::supportLanes(bodies, directions, p, 2 * count);
    for (int i = 0; i < count; ++i) overlaps[i] = normals[i].dot(p[2 * i] - p[2 * i + 1]);
}

CommonNormalSolution solveCommonNormal(const PosedBody& body1, const PosedBody& body2,
                                       const Vec3& initialNormal,
                                       const CommonNormalSettings& settings) {
    return solve(ShapeSide{body1}, body2, initialNormal, settings);
}

CommonNormalSolution solveCommonNormal(const Vec3& point1, const PosedBody& body2,
                                       const Vec3& initialNormal,
                                       const CommonNormalSettings& settings) {
    return solve(PointSide{point1}, body2, initialNormal, settings);
}

namespace {

template <class Side1>
double overlapAlongSides(const Side1& body1, const PosedBody& body2, const Vec3& n, Vec3& point1,
                         Vec3& point2) {
    point1 = body1.support(n);
    point2 = body2.support(-n);
    return n.dot(point1 - point2);
}

// Two bodies: both support points together (supportPair).
double overlapAlongSides(const ShapeSide& body1, const PosedBody& body2, const Vec3& n, Vec3& point1,
                         Vec3& point2) {
    return overlapAlong(body1.body, body2, n, point1, point2);
}

// A huge curvature radius (flat face) also makes a Newton decrement tiny
// far from the minimum, where the support point has only to leave the face;
// there the misfit |g| stays large. Probes along -g of decreasing length
// tell the two apart: one that lowers f is taken (true), and Newton goes on.
template <class Side1>
bool escapeAlongMisfit(const Side1& body1, const PosedBody& body2, const CommonNormalSettings& settings,
                       double lengthScale, const Vec3& t1, const Vec3& t2, const Vec2& g,
                       CommonNormalSolution& s) {
    const double gNorm = g.norm();
    if (!(gNorm > 1e-3 * lengthScale)) return false;
    double angle = std::min(settings.maxStepAngle, gNorm / lengthScale);
    for (int probe = 0; probe < 4; ++probe, angle *= 0.25) {
        const Vec3 trial = (s.normal - (angle / gNorm) * (g.x() * t1 + g.y() * t2)).normalized();
        Vec3 p1, p2;
        const double fTrial = overlapAlongSides(body1, body2, trial, p1, p2);
        if (fTrial < s.overlap - std::max(settings.depthTolerance, settings.stagnationDepthTolerance)) {
            s.normal = trial;
            s.overlap = fTrial;
            s.point1 = p1;
            s.point2 = p2;
            return true;
        }
    }
    return false;
}

// Mixed face charts. Each flat body (FaceChart.hpp) gives two
// face coordinates s_j at its support point; fixing one confines the normal
// to a plane (FaceChart::planeNormal), and two planes, of one body or of
// both, give the normal n(z) = v1(z1) x v2(z2). Taken as the unknowns are
// the two smallest |s_j| (the directions in which a body is flat: a face
// both, an edge its length) whose planes meet at a good angle. In them each
// body's part of the misfit g = T^T (p1 - p2) is linear or smooth, so
// Newton on g(z) converges quadratically where the angle iteration crawled
// (f ~ |angle|^(2/(2-eps)): a face-on-corner, edge-on-face or crossed-edge
// contact). Charts are used while the smallest |s_j| is below this (s = 1
// at a face's rim; 0.95 is ~30 deg off the face normal at eps = 0.2).
constexpr double kChartSpread = 0.95;
// Smallest sine of the angle between the two planes of a mixed chart.
constexpr double kChartPlaneSine = 0.2;
// Largest Newton step in face coordinates (a face is 2 wide).
constexpr double kChartStep = 0.5;
// Forward-difference step of the Jacobian dg/dz (z ~ 1) where its closed
// form does not apply (1e-5: truncation ~1e-4 of the Jacobian; a coordinate
// below FaceChart::resolvable() is stepped to that size, away from zero, as
// the normal cannot resolve a smaller one).
constexpr double kChartDifference = 1e-5;
// Post-step end test of a full chart step, relative to postStepTolerance.
constexpr double kChartPostStep = 100.0;

struct MixedChart {
    const FaceChart* chart[2]; // the unknowns' charts and axes
    int axis[2];
    const FaceChart* ofBody[2]; // the charts of body 1 and body 2 (nullptr: none)
    Vec2 z0;
    double orientation; // n = orientation * unit(v1 x v2)
    // (zero where the two planes are parallel: no normal; never divided by)
    Vec3 normal(const Vec2& z) const {
        const Vec3 v = chart[0]->planeNormal(axis[0], z.x()).cross(chart[1]->planeNormal(axis[1], z.y()));
        const double norm = v.norm();
        return norm > 0.0 ? Vec3((orientation / norm) * v) : Vec3(Vec3::Zero());
    }
};

// The mixed chart at the current answer, if the bodies are flat there.
template <class Side1>
bool pickMixedChart(const Side1& body1, const PosedBody& body2, const CommonNormalSolution& s,
                    FaceChart charts[2], MixedChart& mixed) {
    int count = 0;
    mixed.ofBody[0] = mixed.ofBody[1] = nullptr;
    if (body1.posed() != nullptr && FaceChart::at(*body1.posed(), s.point1, charts[count]))
        mixed.ofBody[0] = &charts[count++];
    if (FaceChart::at(body2, s.point2, charts[count])) mixed.ofBody[1] = &charts[count++];
    if (count == 0) return false;
    struct Coordinate { int chart, axis; double size; Vec3 plane; };
    Coordinate c[4];
    int m = 0;
    for (int i = 0; i < count; ++i)
        for (int j = 0; j < 2; ++j) {
            const double z = charts[i].coordinates()[j];
            c[m++] = {i, j, std::abs(z), charts[i].planeNormal(j, z).normalized()};
        }
    double best = kChartSpread;
    int bestA = -1, bestB = -1;
    for (int a = 0; a < m; ++a)
        for (int b = a + 1; b < m; ++b) {
            if (std::min(c[a].size, c[b].size) >= best) continue; // the smaller one decides
            if (c[a].plane.cross(c[b].plane).norm() < kChartPlaneSine) continue;
            const double worse = std::max(c[a].size, c[b].size);
            // prefer the pair whose larger coordinate is smaller
            if (bestA < 0 || worse < std::max(c[bestA].size, c[bestB].size)) bestA = a, bestB = b;
        }
    if (bestA < 0) return false;
    for (int k = 0; k < 2; ++k) {
        const Coordinate& pick = c[k == 0 ? bestA : bestB];
        mixed.chart[k] = &charts[pick.chart];
        mixed.axis[k] = pick.axis;
        mixed.z0[k] = charts[pick.chart].coordinates()[pick.axis];
    }
    mixed.orientation = 1.0;
    mixed.orientation = mixed.normal(mixed.z0).dot(s.normal) >= 0.0 ? 1.0 : -1.0;
    return true;
}

enum class ChartOutcome { converged, stepped, notTaken };

// The Jacobian dg/dz of the misfit in a mixed chart, in closed form:
//   dg/dz = T^T dp1/dz - T^T dp2/dz - f D,  D = T^T dn/dz,
// n = o (v_a x v_b) / |v_a x v_b|. A body with a chart moves its support
// point by dx/ds (FaceChart::pointSlope) times ds/dz: 1 for the unknown it
// is, and from n . v_j(s_j) = 0, ds_j/dz = -(dn/dz . v_j) / (n . v_j') for
// its other coordinates. A body without one (a smooth or nested shape)
// moves it by its radii of curvature: +-Rho D. False where a coordinate
// that is not an unknown is too near its face centre for the normal to
// resolve it (the division above is then noise); differences serve there.
template <class Side1>
bool chartJacobian(const Side1& body1, const PosedBody& body2, const MixedChart& chart,
                   const CommonNormalSolution& s, double lengthScale, const Vec3& t1, const Vec3& t2,
                   Mat2& J) {
    const Vec3& n = s.normal;
    const Vec3 va = chart.chart[0]->planeNormal(chart.axis[0], chart.z0.x());
    const Vec3 vb = chart.chart[1]->planeNormal(chart.axis[1], chart.z0.y());
    const double cross = va.cross(vb).norm();
    Vec3 dn[2] = {chart.chart[0]->planeNormalSlope(chart.axis[0]).cross(vb),
                  va.cross(chart.chart[1]->planeNormalSlope(chart.axis[1]))};
    Mat2 D;
    for (int m = 0; m < 2; ++m) {
        dn[m] *= chart.orientation / cross;
        dn[m] -= n.dot(dn[m]) * n;
        D(0, m) = t1.dot(dn[m]);
        D(1, m) = t2.dot(dn[m]);
    }
    Mat2 motion[2]; // T^T dp_i/dz of body 1 and body 2
    for (int i = 0; i < 2; ++i) {
        const FaceChart* c = chart.ofBody[i];
        if (c == nullptr) {
            const Mat2 rho = i == 0 ? body1.radii(s.point1, t1, t2, lengthScale)
                                    : radiiOfCurvature(body2, body2.toBody(s.point2), t1, t2, lengthScale);
            motion[i] = (i == 0 ? 1.0 : -1.0) * rho * D;
            continue;
        }
        Vec3 dp[2] = {Vec3::Zero(), Vec3::Zero()};
        for (int j = 0; j < 2; ++j) {
            double ds[2]; // ds_j / dz_m
            if (chart.chart[0] == c && chart.axis[0] == j) {
                ds[0] = 1.0, ds[1] = 0.0;
            } else if (chart.chart[1] == c && chart.axis[1] == j) {
                ds[0] = 0.0, ds[1] = 1.0;
            } else {
                if (std::abs(c->coordinates()[j]) < c->resolvable()) return false;
                const Vec3 v = c->planeNormal(j, c->coordinates()[j]);
                const double slope = n.dot(c->planeNormalSlope(j));
                if (!(std::abs(slope) > 0.0)) return false;
                ds[0] = -dn[0].dot(v) / slope;
                ds[1] = -dn[1].dot(v) / slope;
            }
            const Vec3 dx = c->pointSlope(j);
            dp[0] += ds[0] * dx;
            dp[1] += ds[1] * dx;
        }
        for (int m = 0; m < 2; ++m) {
            motion[i](0, m) = t1.dot(dp[m]);
            motion[i](1, m) = t2.dot(dp[m]);
        }
    }
    J = motion[0] - motion[1] - s.overlap * D;
    return isFinite(J);
}

// One Newton iteration on the misfit g(z) in a mixed chart, with the
// closed-form Jacobian (chartJacobian; forward differences, two more
// overlap evaluations, where it does not apply). The line search runs
// along z0 + alpha dz; its decrease test uses the first-order change
// g . T^T (n(alpha) - n) of the actual turn. notTaken: no chart step this
// iteration (no chart, singular Jacobian, no descent, or a small decrement
// with a large misfit, which the angle iteration's probes check); the
// caller then takes the angle step.
template <class Side1>
ChartOutcome chartStep(const Side1& body1, const PosedBody& body2, const CommonNormalSettings& settings,
                       double lengthScale, const Vec3& t1, const Vec3& t2, const Vec2& g,
                       double& previousDecrement, CommonNormalSolution& s) {
    FaceChart charts[2];
    MixedChart chart;
    if (!pickMixedChart(body1, body2, s, charts, chart)) return ChartOutcome::notTaken;
    const auto misfitAt = [&](const Vec3& n, Vec3& p1, Vec3& p2) {
        // T^T (p1 - p2 - f n) in this iteration's basis: the misfit to
        // first order in the turn (n is within ~1e-7 of s.normal)
        const double f = overlapAlongSides(body1, body2, n, p1, p2);
        const Vec3 q = p1 - p2 - f * n;
        return Vec2(t1.dot(q), t2.dot(q));
    };
    Mat2 J;
    if (!chartJacobian(body1, body2, chart, s, lengthScale, t1, t2, J)) {
        for (int j = 0; j < 2; ++j) {
            Vec2 z = chart.z0;
            const double least = chart.chart[j]->resolvable();
            const double h = std::abs(z[j]) >= least ? kChartDifference : (z[j] >= 0.0 ? least : -least);
            z[j] += h;
            const Vec3 n = chart.normal(z);
            if (!(n.squaredNorm() > 0.0)) return ChartOutcome::notTaken;
            Vec3 p1, p2;
            J.col(j) = (misfitAt(n, p1, p2) - g) / h;
        }
    }
    // (a near-singular J would overflow dz, and OpenFOAM traps overflow)
    const double det = J(0, 0) * J(1, 1) - J(0, 1) * J(1, 0);
    if (!(std::abs(det) > 1e-24 * J.squaredNorm()) || !std::isfinite(det)) return ChartOutcome::notTaken;
    Vec2 dz(-(J(1, 1) * g.x() - J(0, 1) * g.y()) / det, -(J(0, 0) * g.y() - J(1, 0) * g.x()) / det);
    const double dzNorm = dz.lpNorm<Eigen::Infinity>();
    if (!std::isfinite(dzNorm)) return ChartOutcome::notTaken;
    if (dzNorm > kChartStep) dz *= kChartStep / dzNorm;
    const auto turnOf = [&](const Vec3& n) { return Vec2(t1.dot(n - s.normal), t2.dot(n - s.normal)); };
    const Vec3 full = chart.normal(chart.z0 + dz);
    if (!(full.squaredNorm() > 0.0)) return ChartOutcome::notTaken;
    const double decrement = -g.dot(turnOf(full));
    if (!(decrement > 0.0)) return ChartOutcome::notTaken;
    // The end tests of the angle iteration (angleStep, below) on this
    // decrement; a small one with a large misfit goes to its probes.
    const bool small = decrement <= settings.depthTolerance ||
                       (decrement <= settings.stagnationDepthTolerance && decrement > 0.25 * previousDecrement);
    if (small) {
        // (where the flat body's support point sits too near the face centre
        // for the normal to resolve it, |s| < ~(1e-16)^(1/(p-1)), the misfit
        // stays at the size of that noise while f has converged)
        if (escapeAlongMisfit(body1, body2, settings, lengthScale, t1, t2, g, s)) {
            previousDecrement = std::numeric_limits<double>::infinity();
            return ChartOutcome::stepped;
        }
        s.converged = true;
        return ChartOutcome::converged;
    }
    double alpha = 1.0;
    for (int k = 0; k < 12; ++k) {
        const Vec3 trial = alpha == 1.0 ? full : chart.normal(chart.z0 + alpha * dz);
        if (!(trial.squaredNorm() > 0.0)) break;
        const double predicted = g.dot(turnOf(trial)); // first-order change of f
        Vec3 p1, p2;
        const double fTrial = overlapAlongSides(body1, body2, trial, p1, p2);
        if (predicted < 0.0 && fTrial <= s.overlap + 1e-4 * predicted) {
            s.normal = trial;
            s.overlap = fTrial;
            s.point1 = p1;
            s.point2 = p2;
            previousDecrement = decrement;
            // As in angleStep: a full step from a small decrement lands on the
            // minimum. Newton in face coordinates converges quadratically, so
            // 100 times the angle iteration's threshold (from 1e-7 L the next
            // decrement is ~1e-14 L times the curvature variation; on 10240
            // warm blocky queries the iteration this saves never lowered f).
            if (alpha == 1.0 && decrement <= kChartPostStep * settings.postStepTolerance &&
                g.norm() <= 1e-3 * lengthScale) {
                s.converged = true;
                return ChartOutcome::converged;
            }
            return ChartOutcome::stepped;
        }
        // quadratic backtracking as in angleLineSearch, with the actual first-order change
        const double curvature = fTrial - s.overlap - predicted;
        const double next = predicted < 0.0 && curvature > 0.0 ? -0.5 * predicted * alpha / curvature : 0.5 * alpha;
        alpha = std::clamp(next, 0.1 * alpha, 0.5 * alpha);
    }
    return ChartOutcome::notTaken;
}

// The Levenberg-shifted Newton step of the angle iteration at s, and its
// decrement.
struct AngleNewtonStep {
    Vec2 step;
    double decrement; // g^T H^-1 g
    bool shifted;     // H was shifted to make the step a descent direction
};

template <class Side1>
AngleNewtonStep angleNewtonStep(const Side1& body1, const PosedBody& body2, const CommonNormalSolution& s,
                                double lengthScale, const Vec3& t1, const Vec3& t2, const Vec2& g) {
    // Hessian of f on the sphere: Rho1(n) + Rho2(-n) - f I.
    Mat2 h = body1.radii(s.point1, t1, t2, lengthScale) +
             radiiOfCurvature(body2, body2.toBody(s.point2), t1, t2, lengthScale);
    h(0, 0) -= s.overlap;
    h(1, 1) -= s.overlap;
    // Levenberg shift: smallest eigenvalue at least 1e-3 of the length
    // scale (and 1e-10 of the largest eigenvalue, for a solvable 2x2), so
    // the step is a descent direction. Not relative to the largest
    // eigenvalue alone: flat faces of blocky shapes make H legitimately
    // anisotropic (radius of curvature ~1e6 L on the face, ~L elsewhere)
    // and a shift of 1e-3 lambdaMax there turned Newton into a slow
    // gradient method (half the blocky queries ended in the fallback).
    const double mean = 0.5 * h.trace();
    const double halfDiff = 0.5 * (h(0, 0) - h(1, 1));
    const double root = std::sqrt(halfDiff * halfDiff + h(0, 1) * h(0, 1));
    const double lambdaMin = mean - root, lambdaMax = mean + root;
    const double floor = std::max(1e-3 * lengthScale, 1e-10 * std::abs(lambdaMax));
    AngleNewtonStep newton;
    newton.shifted = lambdaMin < floor;
    if (newton.shifted) h += (floor - lambdaMin) * Mat2::Identity();
    newton.step = -h.ldlt().solve(g);
    // Newton decrement g^T H^-1 g ~ 2 (f - min f): the depth error left.
    // It is the right end test where the support map is stiff (flat
    // faces of blocky shapes, f ~ |angle|^(1 + eps/(2 - eps))) and |g|
    // stays large although the depth has converged.
    newton.decrement = -g.dot(newton.step);
    return newton;
}

// Armijo backtracking on f along the retraction n + T step from s; if the
// Newton direction fails, retry along the steepest descent. True when a
// point was accepted (s moved there); fullNewtonStep: it was the whole
// Newton step (stepNorm: that step's length before the angle cap);
// firstTrial: where the next search starts.
template <class Side1>
bool angleLineSearch(const Side1& body1, const PosedBody& body2, const CommonNormalSettings& settings,
                     double lengthScale, const Vec3& t1, const Vec3& t2, const Vec2& g, Vec2 step,
                     double stepNorm, double& firstTrial, bool& fullNewtonStep, CommonNormalSolution& s) {
    bool accepted = false;
    fullNewtonStep = false;
    for (int attempt = 0; attempt < 2 && !accepted; ++attempt) {
        if (attempt == 1) {
            step = -g * (std::min(settings.maxStepAngle, g.norm() / lengthScale) / g.norm());
        }
        const double slope = g.dot(step); // < 0
        double alpha = attempt == 0 ? firstTrial : 1.0;
        for (int k = 0; k < 60; ++k) {
            const Vec3 trial = (s.normal + alpha * (step.x() * t1 + step.y() * t2)).normalized();
            Vec3 p1, p2;
            const double fTrial = overlapAlongSides(body1, body2, trial, p1, p2);
            if (fTrial <= s.overlap + 1e-4 * alpha * slope) {
                s.normal = trial;
                s.overlap = fTrial;
                s.point1 = p1;
                s.point2 = p2;
                accepted = true;
                fullNewtonStep = attempt == 0 && alpha == 1.0 && stepNorm <= settings.maxStepAngle;
                if (attempt == 0) firstTrial = std::min(1.0, 1.5 * alpha);
                break;
            }
            // Backtrack to the minimiser of the quadratic through f(0),
            // f'(0) and f(alpha), kept in [alpha/10, alpha/2]: on flat
            // faces (f ~ |angle|^alpha, alpha near 1) the best step is a
            // small fraction of the Newton step, which halving reaches
            // only after several trials and overshoots.
            const double curvature = fTrial - s.overlap - slope * alpha;
            const double next = curvature > 0.0 ? -0.5 * slope * alpha * alpha / curvature
                                                : 0.5 * alpha;
            alpha = std::clamp(next, 0.1 * alpha, 0.5 * alpha);
        }
    }
    return accepted;
}

// What the angle iteration carries from one iteration to the next.
struct AngleMemory {
    double previousDecrement = std::numeric_limits<double>::infinity();
    // Where the line search starts: 1.5 times the fraction of the Newton
    // step the last one accepted (at most 1). On flat faces (f ~
    // |angle|^alpha, alpha = 2/(2-eps) near 1) the Newton step overshoots
    // by ~1/(alpha-1) every iteration and each search backtracked from the
    // full step again (2-3 overlap evaluations per iteration).
    double firstTrial = 1.0;
};

enum class AngleOutcome { stepped, converged, stopped };

// One iteration of the angle iteration from s (tangent basis t1, t2,
// misfit g): a Newton step on the sphere with a line search, or the end of the solve.
// stopped: no usable step, the solve ends unconverged.
template <class Side1>
AngleOutcome angleStep(const Side1& body1, const PosedBody& body2, const CommonNormalSettings& settings,
                       double lengthScale, const Vec3& t1, const Vec3& t2, const Vec2& g, AngleMemory& memory,
                       CommonNormalSolution& s) {
    const AngleNewtonStep newton = angleNewtonStep(body1, body2, s, lengthScale, t1, t2, g);
    const double decrement = newton.decrement;
    // Stagnation on flat faces: where f ~ |angle|^alpha with alpha =
    // 2/(2 - eps) close to 1 (blocky face-to-face or face-to-edge), Newton
    // converges only linearly and the strict test is out of reach in the
    // iteration budget; the depth error f - min f is then estimated by
    // the decrement ((alpha-1)/alpha times it for that model, half of it
    // for a quadratic). Accept at the looser tolerance once the decrement
    // ceases to fall quadratically (ratio > 1/4 per step).
    const bool smallDecrement =
        !newton.shifted && (decrement <= settings.depthTolerance ||
                            (decrement <= settings.stagnationDepthTolerance &&
                             decrement > 0.25 * memory.previousDecrement));
    if (smallDecrement) {
        // A huge curvature radius (flat face) also makes the decrement
        // tiny far from the minimum, where the support point has only to
        // leave the face; there the misfit |g| stays large. Probes along
        // -g of decreasing length tell the two apart (one that lowers f is
        // taken as the step and Newton goes on).
        if (!escapeAlongMisfit(body1, body2, settings, lengthScale, t1, t2, g, s)) return AngleOutcome::converged;
        memory.previousDecrement = std::numeric_limits<double>::infinity();
        return AngleOutcome::stepped;
    }
    memory.previousDecrement = newton.shifted ? std::numeric_limits<double>::infinity() : decrement;
    Vec2 step = newton.step;
    const double stepNorm = step.norm();
    if (!(stepNorm > 0.0) || !std::isfinite(stepNorm)) return AngleOutcome::stopped;
    if (stepNorm > settings.maxStepAngle) step *= settings.maxStepAngle / stepNorm;
    bool fullNewtonStep = false;
    const bool accepted =
        angleLineSearch(body1, body2, settings, lengthScale, t1, t2, g, step, stepNorm, memory.firstTrial,
                        fullNewtonStep, s);
    // A full, unshifted Newton step from a decrement this small lands
    // within O(decrement^2 / L) of the minimum (quadratic convergence):
    // end without evaluating the radii of curvature once more.
    // (|g| small too: a tiny decrement with a large misfit is a flat face.)
    if (fullNewtonStep && !newton.shifted && decrement <= settings.postStepTolerance &&
        g.norm() <= 1e-3 * lengthScale)
        return AngleOutcome::converged;
    // No decrease of f representable in floating point along a descent
    // direction: f is at its minimum to rounding (this is where flat faces
    // end: the support map jumps across the face while f no longer
    // changes).
    if (!accepted) return AngleOutcome::converged;
    return AngleOutcome::stepped;
}

template <class Side1>
CommonNormalSolution solve(const Side1& body1, const PosedBody& body2, const Vec3& initialNormal,
                           const CommonNormalSettings& settings) {
    const double lengthScale = std::min(body1.lengthScale(), body2.smallestHalfAxis());
    CommonNormalSolution s;
    s.normal = initialNormal.normalized();
    s.overlap = overlapAlongSides(body1, body2, s.normal, s.point1, s.point2);
    if (settings.stopWhenSeparated && s.overlap < 0.0) {
        s.converged = true;
        return s;
    }
    AngleMemory memory;
    double lastOverlap = s.overlap;
    int stalled = 0;
    // Face charts (and the stall test that goes with them) only where a
    // body is a blocky p-norm ball; every other pair takes the angle
    // iteration alone.
    const bool charted = settings.faceCharts && ((body1.posed() != nullptr && FaceChart::applies(body1.posed()->shape)) ||
                                                 FaceChart::applies(body2.shape));

    for (;;) {
        Vec3 t1, t2;
        tangentBasis(s.normal, t1, t2);
        const Vec3 q = s.point1 - s.point2;
        const Vec2 g(t1.dot(q), t2.dot(q));
        if (g.norm() <= settings.gradientTolerance) {
            s.converged = true;
            return s;
        }
        if (s.iterations >= settings.maxIterations) return s;
        // Stalled: three iterations in a row that did not lower f at all.
        // On a flat face the normal cannot resolve where the support point
        // sits near the face centre, |s| < ~(1e-16)^(1/(p-1)) (FaceChart.hpp),
        // so |g| stays at that noise while f has converged, and the angle
        // iteration's steps are accepted without changing f. Only with face
        // charts: they are what walks the normal onto a face normal.
        if (charted) {
            stalled = s.iterations > 0 && !(s.overlap < lastOverlap) ? stalled + 1 : 0;
            lastOverlap = s.overlap;
            if (stalled >= 3) {
                s.converged = true;
                return s;
            }
        }
        ++s.iterations;

        if (charted) {
            const ChartOutcome chart =
                chartStep(body1, body2, settings, lengthScale, t1, t2, g, memory.previousDecrement, s);
            if (chart == ChartOutcome::converged) return s;
            if (chart == ChartOutcome::stepped) continue;
        }
        const AngleOutcome outcome = angleStep(body1, body2, settings, lengthScale, t1, t2, g, memory, s);
        if (outcome == AngleOutcome::stopped) return s;
        if (outcome == AngleOutcome::converged) {
            s.converged = true;
            return s;
        }
    }
}

} // namespace

} // namespace sef
