#pragma once
// Invalid input of the core, carrying the name of the offending parameter so
// the adapters can name the dictionary or JSON entry in their error message.
#include <stdexcept>
#include <string>

namespace sef {

class ParameterError : public std::invalid_argument {
public:
    ParameterError(std::string parameter, const std::string& message)
        : std::invalid_argument(parameter + ": " + message), parameter_(std::move(parameter)) {}
    const std::string& parameter() const noexcept { return parameter_; }

private:
    std::string parameter_;
};

} // namespace sef
