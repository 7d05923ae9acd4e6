#include "dem/boundaries/OutletCrossing.hpp"

namespace sef::dem {

int OutletCrossing::crossing(const Vec3& a, const Vec3& b) {
    const Vec3 mid = 0.5 * (a + b);
    const double reach = 0.5 * (b - a).norm();
    if (outlets_->noFaceWithin(mid, reach)) return -1;
    near_.clear();
    outlets_->facesNear(mid, reach, near_);
    return near_.empty() ? -1 : outlets_->firstOutwardCrossing(a, b, near_).face;
}

int OutletCrossing::facePassed(const Vec3& a, const Vec3& b, const PeriodicLattice& lattice) {
    if (outlets_->empty()) return -1;
    const std::vector<Vec3>& shifts = lattice.shifts();
    // the move: the shortest of b - a + s (a wrap moves the centre by a
    // whole period; a step by far less than half of one)
    Vec3 move = b - a;
    for (const Vec3& s : shifts)
        if ((b - a + s).squaredNorm() < move.squaredNorm()) move = b - a + s;
    const Vec3 from = b - move;
    int face = crossing(from, b);
    for (std::size_t k = 0; face < 0 && k < shifts.size(); ++k) face = crossing(from + shifts[k], b + shifts[k]);
    return face;
}

std::vector<LeavingParticle> OutletCrossing::leaving(const StepStart& start, const ParticleSystem& ps,
                                                    const PeriodicLattice& lattice) {
    std::vector<LeavingParticle> out;
    if (outlets_->empty()) return out;
    bool sameOrder = start.id.size() <= ps.size();
    for (std::size_t k = 0; sameOrder && k < start.id.size(); ++k) sameOrder = ps.id[k] == start.id[k];
    if (!sameOrder) {
        startOf_.clear();
        startOf_.reserve(start.id.size());
        for (std::size_t k = 0; k < start.id.size(); ++k) startOf_.emplace(start.id[k], k);
    }
    const std::size_t n = sameOrder ? start.id.size() : ps.size();
    for (std::size_t k = 0; k < n; ++k) {
        std::size_t s = k;
        if (!sameOrder) {
            const auto it = startOf_.find(ps.id[k]);
            if (it == startOf_.end()) continue;
            s = it->second;
        }
        const int face = facePassed(start.position[s], ps.position[k], lattice);
        if (face >= 0) out.push_back({k, face});
    }
    return out;
}

} // namespace sef::dem
