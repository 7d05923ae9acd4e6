#include "contact/CapSearch.hpp"

#include <algorithm>
#include <cmath>

namespace sef {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kMaxSteps = 40;
} // namespace

CapSearch::CapSearch(const PosedBody& body, const Vec3& up, const Vec3& t, double level, double topHeight,
                     const Vec3& topPoint, double xGuess)
    : body_(&body), up_(up), t_(t), topHeight_(topHeight), top_(level + topHeight),
      topExtent_(t.dot(topPoint)), phase_(Phase::step), lo_(-kInf), fLo_(-kInf), hi_(kInf), fHi_(kNaN),
      pLo_(topPoint), pHi_(topPoint), upper_(kInf) {
    // Bracket in x = log(tan(theta)); the upper end (the body's silhouette
    // along t, theta = 90 deg) is evaluated only if the iteration gets there.
    // First guess: the caller's, else a face (e = 1) of the size of the
    // bounding radius.
    x_ = std::isfinite(xGuess) ? std::min(xGuess, 30.0)
                               : std::log(std::min(0.5, topHeight / body.shape.boundingRadius()));
    tau_ = std::exp(x_); // direction up + tan(theta) t (the support map needs no unit vector)
    xPrev_ = x_;
    fPrev_ = kNaN;
}

Vec3 CapSearch::interpolated() const {
    const double dLo = top_ - up_.dot(pLo_), dHi = top_ - up_.dot(pHi_);
    const double w = dHi > dLo ? std::clamp((topHeight_ - dLo) / (dHi - dLo), 0.0, 1.0) : 0.5;
    return Vec3(pLo_ + w * (pHi_ - pLo_));
}

void CapSearch::finish(const Vec3& p, double xGuess, CapReach reach) {
    answer_ = p;
    xGuess_ = xGuess;
    reach_ = reach;
    phase_ = Phase::done;
}

void CapSearch::giveUp() {
    // The cap boundary lies between the bracket ends: interpolate by drop.
    finish(interpolated(), std::isfinite(lo_) && std::isfinite(hi_) ? 0.5 * (lo_ + hi_) : x_, CapReach{});
}

void CapSearch::receive(const Vec3& p) {
    if (phase_ == Phase::step)
        receiveStep(p);
    else if (phase_ == Phase::silhouette)
        receiveSilhouette(p);
}

// Drop ratios D / topHeight that are certainly within kDropTolerance in
// log (the bounds of exp(+-tolerance) pulled in by far more than their
// rounding): accepted without the log, whose answer they would not change.
// Why: three quarters of the warm searches end at their first support
// point, and the log would be a fifth of such a search's own time.
namespace {
const double kSurelyAboveRatio = std::exp(-kDropTolerance) * (1.0 + 1e-12);
const double kSurelyBelowRatio = std::exp(kDropTolerance) * (1.0 - 1e-12);
} // namespace

void CapSearch::receiveStep(const Vec3& p) {
    const double drop = top_ - up_.dot(p);
    const double ratio = drop / topHeight_;
    if (ratio >= kSurelyAboveRatio && ratio <= kSurelyBelowRatio) {
        finish(p, x_, CapReach{drop, t_.dot(p)});
        return;
    }
    const double f = drop > 0.0 ? std::log(ratio) : -kInf;
    f_ = f;
    if (std::fabs(f) <= kDropTolerance) {
        finish(p, x_, CapReach{drop, t_.dot(p)});
        return;
    }
    if (x_ > -30.0) upper_ = std::min(upper_, t_.dot(p) + (topHeight_ - drop) / tau_);
    if (f < 0.0) {
        lo_ = x_, fLo_ = f, pLo_ = p;
        if (side_ == -1) fHi_ *= 0.5;
        side_ = -1;
    } else {
        hi_ = x_, fHi_ = f, pHi_ = p;
        if (side_ == 1) fLo_ *= 0.5;
        side_ = 1;
    }
    if (std::isfinite(lo_) && std::isfinite(hi_)) {
        const Vec3 q = interpolated();
        const double lower = t_.dot(q);
        if ((std::isfinite(upper_) && upper_ - lower <= kLateralTolerance * (upper_ - topExtent_)) ||
            hi_ - lo_ <= 1e-7) {
            finish(q, 0.5 * (lo_ + hi_), CapReach{topHeight_, std::max(upper_, lower)});
            return;
        }
    }
    // First step: the face power law D ~ theta^e, e = 2 / (2 - eps);
    // then the secant through the last two points; Illinois regula
    // falsi (or bisection) when that leaves the bracket.
    double next;
    if (step_ == 0 && std::isfinite(f)) {
        const double eps = std::min(body_->shape.eps1(), body_->shape.eps2());
        next = x_ - f * (2.0 - std::min(eps, 1.0)) / 2.0;
    } else {
        next = std::isfinite(f) && std::isfinite(fPrev_) && f != fPrev_ ? x_ - f * (x_ - xPrev_) / (f - fPrev_)
                                                                        : lo_;
    }
    if (!(next > lo_ && next < hi_) && std::isnan(fHi_)) {
        pendingNext_ = next;
        phase_ = Phase::silhouette; // the body's extent along t first
        return;
    }
    advance(next);
}

void CapSearch::receiveSilhouette(const Vec3& pHi) {
    pHi_ = pHi;
    // the cap reaches the silhouette (drop <= topHeight, f <= 0); tested
    // before the log: a zero drop would be log(0), which raises
    // divide-by-zero (OpenFOAM traps it)
    const double dropHi = top_ - up_.dot(pHi);
    if (!(dropHi > topHeight_)) {
        finish(pHi, kNaN, CapReach{-1.0, t_.dot(pHi)});
        return;
    }
    fHi_ = std::log(dropHi / topHeight_);
    upper_ = std::min(upper_, t_.dot(pHi)); // the whole body's extent
    phase_ = Phase::step;
    advance(pendingNext_);
}

void CapSearch::advance(double next) {
    if (!(next > lo_ && next < hi_))
        next = std::isfinite(fLo_) && std::isfinite(hi_) ? hi_ - fHi_ * (hi_ - lo_) / (fHi_ - fLo_)
               : (std::isfinite(hi_) ? hi_ - 2.0 : x_ + 2.0);
    if (!(next > lo_ && next < hi_)) next = 0.5 * (lo_ + hi_);
    // Without an upper bracket a flat secant can jump arbitrarily far: at
    // most a factor e^2 in tan(theta) per step (tan(theta) = e^30 is already
    // the silhouette), so exp() never overflows (OpenFOAM traps
    // floating-point overflow).
    if (!std::isfinite(hi_)) next = std::min({next, x_ + 2.0, 30.0});
    if (!std::isfinite(next)) {
        giveUp();
        return;
    }
    xPrev_ = x_;
    fPrev_ = f_;
    x_ = next;
    tau_ = std::exp(x_);
    if (++step_ >= kMaxSteps) giveUp();
}

void CapSearch::runAll(CapSearch* searches, int count) {
    const PosedBody* bodies[SupportKernel::kMaxLanes];
    Vec3 directions[SupportKernel::kMaxLanes], points[SupportKernel::kMaxLanes];
    int waiting[SupportKernel::kMaxLanes];
    for (;;) {
        int lanes = 0;
        for (int i = 0; i < count && lanes < SupportKernel::kMaxLanes; ++i) {
            if (searches[i].done()) continue;
            bodies[lanes] = searches[i].body_;
            directions[lanes] = searches[i].request();
            waiting[lanes++] = i;
        }
        if (lanes == 0) return;
        PosedBody::supportLanes(bodies, directions, points, lanes);
        for (int k = 0; k < lanes; ++k) searches[waiting[k]].receive(points[k]);
    }
}

} // namespace sef
