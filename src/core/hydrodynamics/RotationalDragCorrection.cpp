#include "hydrodynamics/RotationalDragCorrection.hpp"

#include <cmath>
#include <stdexcept>

namespace sef {

RotationalDragModel rotationalDragModelFromName(const std::string& name) {
    if (name == "stokes") return RotationalDragModel::stokes;
    if (name == "loth") return RotationalDragModel::loth;
    throw std::invalid_argument("unknown rotational drag correction '" + name + "' (valid: stokes, loth)");
}

const char* rotationalDragModelName(RotationalDragModel model) {
    switch (model) {
    case RotationalDragModel::stokes: return "stokes";
    case RotationalDragModel::loth: return "loth";
    }
    return "?";
}

double rotationalDragFactor(RotationalDragModel model, double spinReynolds) {
    if (!std::isfinite(spinReynolds) || spinReynolds < 0.0)
        throw std::invalid_argument("rotationalDragFactor: the spin Reynolds number must be finite and >= 0");
    switch (model) {
    case RotationalDragModel::stokes: return 1.0;
    case RotationalDragModel::loth: return 1.0 + 5.0 / (64.0 * M_PI) * std::pow(spinReynolds, 0.6);
    }
    return 1.0;
}

} // namespace sef
