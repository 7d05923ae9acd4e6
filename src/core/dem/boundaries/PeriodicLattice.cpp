#include "dem/boundaries/PeriodicLattice.hpp"

#include <cmath>
#include <limits>
#include <sstream>

namespace sef::dem {

namespace {

std::string describe(const Vec3& v) {
    std::ostringstream os;
    os.precision(6);
    os << "(" << v.x() << " " << v.y() << " " << v.z() << ")";
    return os.str();
}

} // namespace

PeriodicLattice::PeriodicLattice(std::vector<PeriodicDirection> directions)
    : directions_(std::move(directions)) {
    const std::size_t d = directions_.size();
    if (d > 3)
        throw PeriodicError("periodic boundaries: " + std::to_string(d) +
                            " independent directions given, at most 3 exist");
    for (const PeriodicDirection& p : directions_) {
        if (!isFinite(p.translation) || !isFinite(p.nearPoint) || !isFinite(p.inwardNormal))
            throw PeriodicError("periodic boundaries: a translation, point or normal is not finite");
        if (std::abs(p.inwardNormal.norm() - 1.0) > 1e-9)
            throw PeriodicError("periodic boundaries: the normal " + describe(p.inwardNormal) +
                                " is not a unit vector");
        if (!(p.translation.dot(p.inwardNormal) > 1e-9 * p.translation.norm()))
            throw PeriodicError("periodic boundaries: the translation " + describe(p.translation) +
                                " does not lead from the boundary into the domain (normal " +
                                describe(p.inwardNormal) + ")");
    }
    // Linear independence: the Gram determinant, relative to the lengths
    Eigen::MatrixXd t(3, static_cast<Eigen::Index>(d));
    for (std::size_t k = 0; k < d; ++k) t.col(static_cast<Eigen::Index>(k)) = directions_[k].translation.normalized();
    if (d > 1 && std::abs((t.transpose() * t).determinant()) < 1e-12)
        throw PeriodicError("periodic boundaries: the translations are not independent (two periodic pairs "
                            "repeat the domain along the same direction)");

    // Every combination c_k in {-1, 0, 1} but all zero
    int combinations = 1;
    for (std::size_t k = 0; k < d; ++k) combinations *= 3;
    shortest_ = std::numeric_limits<double>::infinity();
    for (int code = 0; code < combinations; ++code) {
        Vec3 s = Vec3::Zero();
        int rest = code;
        for (std::size_t k = 0; k < d; ++k, rest /= 3) s += (rest % 3 - 1) * directions_[k].translation;
        if (code == (combinations - 1) / 2) continue; // every c_k = 0
        shifts_.push_back(s);
        shortest_ = std::min(shortest_, s.norm());
    }
}

bool PeriodicLattice::wrap(Vec3& x) const {
    if (directions_.empty()) return false;
    if (!isFinite(x)) throw PeriodicError("periodic boundaries: a centre to bring back is not finite");
    bool moved = false;
    for (const PeriodicDirection& p : directions_) {
        const double width = p.translation.dot(p.inwardNormal);
        // periods to go back: floor of the position across the slab
        const double periods = std::floor((x - p.nearPoint).dot(p.inwardNormal) / width);
        if (periods != 0.0) {
            x -= periods * p.translation;
            moved = true;
        }
    }
    return moved;
}

void PeriodicLattice::shiftsWithinReach(const Vec3& x, double reach, const Vec3& lo, const Vec3& hi,
                                        std::vector<int>& out) const {
    for (std::size_t k = 0; k < shifts_.size(); ++k) {
        const Vec3 y = x + shifts_[k];
        const Vec3 outside = (lo - y).cwiseMax(0.0) + (y - hi).cwiseMax(0.0);
        if (outside.squaredNorm() <= reach * reach) out.push_back(static_cast<int>(k));
    }
}

void PeriodicLattice::requireRoomFor(double largestBoundingRadius) const {
    if (directions_.empty()) return;
    if (!(shortest_ > 4.0 * largestBoundingRadius)) {
        std::ostringstream os;
        os << "periodic boundaries: the shortest period " << shortest_
           << " m is not longer than twice the largest particle's bounding diameter (4 x "
           << largestBoundingRadius << " m): a particle could touch its own image or another "
           << "particle twice; make the periodic box longer";
        throw PeriodicError(os.str());
    }
}

} // namespace sef::dem
