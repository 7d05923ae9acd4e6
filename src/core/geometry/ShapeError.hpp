#pragma once
// Invalid shape input. Carries the name of the offending parameter so the
// OpenFOAM adapters can name the dictionary entry in a FatalIOError.
#include <stdexcept>
#include <string>

namespace sef {

class ShapeError : public std::invalid_argument {
public:
    ShapeError(std::string parameter, const std::string& message)
        : std::invalid_argument(parameter + ": " + message), parameter_(std::move(parameter)) {}
    const std::string& parameter() const noexcept { return parameter_; }

private:
    std::string parameter_;
};

} // namespace sef
