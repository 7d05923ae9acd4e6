#pragma once
// Floating-point traps as OpenFOAM sets them (FOAM_SIGFPE, on by default):
// overflow, invalid operation and division by zero raise SIGFPE and kill the
// run, even where the result would have been discarded or caught by an
// isfinite check later. The core's tests run under the same traps
// (TrappedTestMain.cpp) so that such an operation fails a test here instead
// of a user's run. Underflow and inexact stay untrapped, as in
// OpenFOAM: they are the normal rounding of any computation.
#include <cfenv>

namespace sef::test {

constexpr int kTrappedFloatingPointExceptions = FE_DIVBYZERO | FE_INVALID | FE_OVERFLOW;

// Clears stale flags, then traps the three exceptions (glibc feenableexcept).
inline void enableFloatingPointTraps() {
    std::feclearexcept(FE_ALL_EXCEPT);
    feenableexcept(kTrappedFloatingPointExceptions);
}

inline bool floatingPointTrapsEnabled() {
    return (fegetexcept() & kTrappedFloatingPointExceptions) == kTrappedFloatingPointExceptions;
}

// Switches the traps off for one scope, for the few tests whose subject is
// arithmetic on non-finite values itself (not for input validation: a NaN
// handed to the core must be rejected without an ordered comparison on it).
class FloatingPointTrapsSuspended {
public:
    FloatingPointTrapsSuspended() : saved_(fegetexcept()) { fedisableexcept(FE_ALL_EXCEPT); }
    ~FloatingPointTrapsSuspended() {
        std::feclearexcept(FE_ALL_EXCEPT);
        feenableexcept(saved_);
    }
    FloatingPointTrapsSuspended(const FloatingPointTrapsSuspended&) = delete;
    FloatingPointTrapsSuspended& operator=(const FloatingPointTrapsSuspended&) = delete;

private:
    int saved_;
};

} // namespace sef::test
