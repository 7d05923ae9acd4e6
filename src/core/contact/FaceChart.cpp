#include "contact/FaceChart.hpp"

#include "geometry/FastPow.hpp"

namespace sef {

namespace {

double signOf(double t) { return t >= 0.0 ? 1.0 : -1.0; }

} // namespace

bool FaceChart::at(const PosedBody& body, const Vec3& worldPoint, FaceChart& chart) {
    const Superellipsoid& shape = body.shape;
    if (!applies(shape)) return false;
    const Vec3 x = body.toBody(worldPoint);
    const Vec3 L = shape.halfAxes();
    const Vec3 y = x.cwiseQuotient(L);
    int k = 0;
    for (int i = 1; i < 3; ++i)
        if (std::abs(y[i]) > std::abs(y[k])) k = i;
    const double top = std::abs(y[k]);
    if (!(top > 0.0) || !isFinite(y)) return false;
    chart.body_ = &body;
    chart.p_ = shape.n1();
    // (1e-8 / (p-1))^(1/(p-2)), kept for the last p (one pow per shape, not per call)
    static thread_local double lastP = 0.0, lastResolvable = 0.0;
    if (chart.p_ != lastP) {
        lastP = chart.p_;
        lastResolvable = std::pow(1e-8 / (chart.p_ - 1.0), 1.0 / (chart.p_ - 2.0));
    }
    chart.resolvable_ = lastResolvable;
    chart.k_ = k;
    chart.lateral_[0] = (k + 1) % 3;
    chart.lateral_[1] = (k + 2) % 3;
    chart.sigma_ = signOf(y[k]);
    chart.scale_ = top;
    chart.s_ = Vec2(y[chart.lateral_[0]] / top, y[chart.lateral_[1]] / top);
    for (int j = 0; j < 2; ++j)
        chart.power_[j] = signOf(chart.s_[j]) * powNonNegative(std::abs(chart.s_[j]), chart.p_ - 1.0);
    return true;
}

Vec3 FaceChart::planeNormal(int j, double z) const {
    const Vec3 L = body_->shape.halfAxes();
    const int i = lateral_[j];
    const double power = z == s_[j] ? power_[j] : signOf(z) * powNonNegative(std::abs(z), p_ - 1.0);
    return body_->rotation.col(i) * (sigma_ * L[i]) - body_->rotation.col(k_) * (power * L[k_]);
}

Vec3 FaceChart::planeNormalSlope(int j) const {
    const Vec3 L = body_->shape.halfAxes();
    // d/dz [sign(z) |z|^(p-1)] = (p-1) |z|^(p-2) (p > 2: 0 at z = 0)
    const double slope = s_[j] != 0.0 ? (p_ - 1.0) * (power_[j] / s_[j]) : 0.0;
    return body_->rotation.col(k_) * (-slope * L[k_]);
}

Vec3 FaceChart::pointSlope(int j) const {
    // x = G^(-1/p) L o w, G = 1 + sum |s_m|^p:
    // dx/ds_j = G^(-1/p) (L_i e_i - (L o w) sign(s_j) |s_j|^(p-1) / G)
    const Vec3 L = body_->shape.halfAxes();
    const double G = 1.0 + s_[0] * power_[0] + s_[1] * power_[1];
    Vec3 xHat; // L o w
    xHat[k_] = sigma_ * L[k_];
    for (int m = 0; m < 2; ++m) xHat[lateral_[m]] = s_[m] * L[lateral_[m]];
    Vec3 dx = -(power_[j] / G) * xHat;
    dx[lateral_[j]] += L[lateral_[j]];
    return body_->rotation * (scale_ * dx);
}

} // namespace sef
