#pragma once
// Translational periodic boundaries of the DEM step (1 to 3 directions;
// doc/periodic.md): where the domain repeats, how a centre that left through
// a periodic boundary comes back, and which shifted copies ("images") of a
// particle the step must see so that contacts across the boundary are found.
//
// A periodic direction is a pair of parallel planes: the near plane (a point
// on it, its normal into the domain) and the far plane, the near one moved by
// the translation t. A centre beyond the far plane re-enters at x - t, one
// before the near plane at x + t. The images of a particle are its copies at
// x + s for the lattice shifts s = sum_k c_k t_k, c_k in {-1, 0, 1}, not all
// zero (dem/boundaries/PeriodicImages.hpp chooses the ones near the domain).
#include "geometry/Types.hpp"

#include <stdexcept>
#include <vector>

namespace sef::dem {

// A periodic set-up that cannot work (the message names what and why).
struct PeriodicError : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

struct PeriodicDirection {
    Vec3 translation;  // from the near plane to the far one
    Vec3 nearPoint;    // a point of the near plane
    Vec3 inwardNormal; // unit normal of the near plane, into the domain
};

class PeriodicLattice {
public:
    PeriodicLattice() = default;
    // Throws PeriodicError for more than 3 directions, a translation that is
    // not finite or that does not cross its plane (t . n <= 0), a normal that
    // is not a unit vector, and translations that are not linearly
    // independent.
    explicit PeriodicLattice(std::vector<PeriodicDirection> directions);

    bool empty() const { return directions_.empty(); }
    const std::vector<PeriodicDirection>& directions() const { return directions_; }

    // The 3^d - 1 nonzero shifts sum_k c_k t_k, c_k in {-1, 0, 1}.
    const std::vector<Vec3>& shifts() const { return shifts_; }

    // The shortest of them (infinity without directions).
    double shortestShift() const { return shortest_; }

    // Back between every direction's planes: x - t beyond the far plane,
    // x + t before the near one (as often as needed). Returns whether x
    // moved. Throws PeriodicError for a centre that is not finite.
    bool wrap(Vec3& x) const;

    // Appends to `out` the indices (in shifts()) of the shifts s that bring
    // x within `reach` of the box [lo, hi] (the distance from x + s to the
    // box, 0 inside).
    void shiftsWithinReach(const Vec3& x, double reach, const Vec3& lo, const Vec3& hi,
                           std::vector<int>& out) const;

    // Two particles touch through one shift at most, and never their own
    // image, when every shift is longer than twice the largest bounding
    // diameter (a contact is then keyed by the two ids alone). Throws
    // PeriodicError naming the shortest period and the largest particle
    // otherwise.
    void requireRoomFor(double largestBoundingRadius) const;

private:
    std::vector<PeriodicDirection> directions_;
    std::vector<Vec3> shifts_;
    double shortest_ = 0.0;
};

} // namespace sef::dem
