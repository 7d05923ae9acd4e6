#include "hydrodynamics/VoidageDrag.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace sef {

namespace {

// isfinite first: a NaN must not reach an ordered comparison (FP traps).
void requireFluidFraction(const char* where, double eps) {
    if (std::isfinite(eps) && eps > 0.0 && eps <= 1.0) return;
    std::ostringstream msg;
    msg.precision(17);
    msg << where << ": the fluid fraction must be finite and in (0, 1] (got " << eps << ")";
    throw std::invalid_argument(msg.str());
}

void requireSolidFraction(const char* where, double phi) {
    if (std::isfinite(phi) && phi >= 0.0 && phi < 1.0) return;
    std::ostringstream msg;
    msg.precision(17);
    msg << where << ": the solid fraction must be finite and in [0, 1) (got " << phi << ")";
    throw std::invalid_argument(msg.str());
}

void requireReynolds(const char* where, double Re) {
    if (std::isfinite(Re) && Re >= 0.0) return;
    std::ostringstream msg;
    msg.precision(17);
    msg << where << ": the superficial Reynolds number must be finite and >= 0 (got " << Re << ")";
    throw std::invalid_argument(msg.str());
}

// exp(-(1.5 - log10 Re)^2 / 2) of both exponents; 0 at Re = 0 (its limit),
// and cut where exp would only underflow anyway.
double logNormalBump(double Re) {
    if (!(Re > 0.0)) return 0.0;
    const double x = 1.5 - std::log10(Re), e = 0.5 * x * x;
    return e > 700.0 ? 0.0 : std::exp(-e);
}

double diFeliceChi(double Re) { return 3.7 - 0.65 * logNormalBump(Re); }

double rongChi(double eps, double Re) {
    return 2.65 * (eps + 1.0) - (5.3 - 3.5 * eps) * eps * eps * logNormalBump(Re);
}

// F_B(phi, Re) / s (s >= 1 scales the Re terms so that the ratio taken in
// voidageFactor is finite for any finite Re). phi and eps = 1 - phi are both
// passed: eps is exact where phi -> 1 would round it away.
double beetstraScaled(double phi, double eps, double Re, double s) {
    const double viscous = 10.0 * phi / (eps * eps) + eps * eps * (1.0 + 1.5 * std::sqrt(phi));
    // Re [1/eps + 3 phi eps + 8.4 Re^-0.343]: finite (-> 0) as Re -> 0
    const double bracket = Re / s * (1.0 / eps + 3.0 * phi * eps) + 8.4 * std::pow(Re, 0.657) / s;
    // 1 / [1 + 10^(3 phi) Re^-a] without 10^(3 phi) Re^-a, which overflows for
    // tiny Re: multiplied through by Re^a below Re = 1 (Re^a <= 1, -> 0).
    const double a = 0.5 * (1.0 + 4.0 * phi), tenPow = std::pow(10.0, 3.0 * phi);
    const double blend = Re >= 1.0 ? 1.0 / (1.0 + tenPow * std::pow(Re, -a))
                                   : std::pow(Re, a) / (std::pow(Re, a) + tenPow);
    return viscous / s + 0.413 / (24.0 * eps * eps) * bracket * blend;
}

// F_T(phi, Re) / s, as above.
double tennetiScaled(double phi, double eps, double Re, double s) {
    const double eps3 = eps * eps * eps;
    return (1.0 + 0.15 * std::pow(Re, 0.687)) / s / eps3
           + (5.81 * phi / eps3 + 0.48 * std::cbrt(phi) / (eps3 * eps)) / s
           + phi * phi * phi * (Re / s) * (0.95 + 0.61 * phi * phi * phi / (eps * eps));
}

// The single sphere's Schiller-Naumann factor (DragCorrection.hpp)
double schillerNaumann(double Re) { return Re <= 1000.0 ? 1.0 + 0.15 * std::pow(Re, 0.687) : 0.44 * Re / 24.0; }

// Gidaspow's drag over a sphere's Stokes drag at the interstitial slip:
// Ergun below eps 0.8 (beta = 150 phi^2 mu / (eps d^2) + 1.75 phi rho |w| / d
// per unit volume, i.e. per particle beta V_p / phi), Wen & Yu above.
double gidaspowSphere(double phi, double eps, double Res) {
    if (eps < 0.8) return (150.0 * phi + 1.75 * Res) / (18.0 * eps);
    return schillerNaumann(Res) * std::pow(eps, -2.65);
}

} // namespace

VoidageModel voidageModelFromName(const std::string& name) {
    if (name == "none") return VoidageModel::none;
    if (name == "diFelice") return VoidageModel::diFelice;
    if (name == "rong") return VoidageModel::rong;
    if (name == "beetstra") return VoidageModel::beetstra;
    if (name == "tenneti") return VoidageModel::tenneti;
    if (name == "gidaspow") return VoidageModel::gidaspow;
    throw std::invalid_argument("unknown voidage model '" + name +
                                "' (valid: none, diFelice, rong, beetstra, tenneti, gidaspow)");
}

const char* voidageModelName(VoidageModel model) {
    switch (model) {
    case VoidageModel::none: return "none";
    case VoidageModel::diFelice: return "diFelice";
    case VoidageModel::rong: return "rong";
    case VoidageModel::beetstra: return "beetstra";
    case VoidageModel::tenneti: return "tenneti";
    case VoidageModel::gidaspow: return "gidaspow";
    }
    return "?";
}

double diFeliceExponent(double Re) {
    requireReynolds("diFeliceExponent", Re);
    return diFeliceChi(Re);
}

double rongExponent(double eps, double Re) {
    requireFluidFraction("rongExponent", eps);
    requireReynolds("rongExponent", Re);
    return rongChi(eps, Re);
}

double beetstraDrag(double phi, double Re) {
    requireSolidFraction("beetstraDrag", phi);
    requireReynolds("beetstraDrag", Re);
    return beetstraScaled(phi, 1.0 - phi, Re, 1.0);
}

double tennetiTotalForce(double phi, double Re) {
    requireSolidFraction("tennetiTotalForce", phi);
    requireReynolds("tennetiTotalForce", Re);
    return tennetiScaled(phi, 1.0 - phi, Re, 1.0);
}

double voidageFactor(VoidageModel model, double fluidFraction, double Re) {
    requireFluidFraction("voidageFactor", fluidFraction);
    requireReynolds("voidageFactor", Re);
    const double eps = std::max(fluidFraction, voidageMinimumFluidFraction), phi = 1.0 - eps;
    const double s = std::max(1.0, Re);
    switch (model) {
    case VoidageModel::none: return 1.0;
    // f(Re_s) D_st (eps w) eps^-chi = f(Re_s) eps^(1 - chi) D_st w
    case VoidageModel::diFelice: return std::pow(eps, 1.0 - diFeliceChi(Re));
    case VoidageModel::rong: return std::pow(eps, 1.0 - rongChi(eps, Re));
    // drag over 3 pi mu d (eps w), relative to the isolated particle's
    case VoidageModel::beetstra: return eps * beetstraScaled(phi, eps, Re, s) / beetstraScaled(0.0, 1.0, Re, s);
    // the drag is eps times the total force (header)
    case VoidageModel::tenneti: return eps * eps * tennetiScaled(phi, eps, Re, s) / tennetiScaled(0.0, 1.0, Re, s);
    // relative to the isolated sphere's Schiller-Naumann drag
    case VoidageModel::gidaspow: return gidaspowSphere(phi, eps, Re) / schillerNaumann(Re);
    }
    return 1.0;
}

} // namespace sef
