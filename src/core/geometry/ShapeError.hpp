#pragma once
// Invalid shape input (a, b, c, eps1, eps2, n1, n2).
#include "geometry/ParameterError.hpp"

namespace sef {

class ShapeError : public ParameterError {
public:
    using ParameterError::ParameterError;
};

} // namespace sef
