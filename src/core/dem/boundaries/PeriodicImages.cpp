#include "dem/boundaries/PeriodicImages.hpp"

#include <algorithm>
#include <stdexcept>

namespace sef::dem {

PeriodicImages::PeriodicImages(PeriodicLattice lattice, const Vec3& lo, const Vec3& hi)
    : lattice_(std::move(lattice)), lo_(lo), hi_(hi) {
    if (!isFinite(lo) || !isFinite(hi) || (hi - lo).minCoeff() < 0.0)
        throw PeriodicError("periodic images: the domain box is empty or not finite");
}

void PeriodicImages::build(ParticleSystem& ps, double travel, HaloExchange* inner) {
    inner_ = inner;
    const std::size_t owned = inner ? inner->firstHalo() : ps.size();
    if (owned > ps.size()) throw std::invalid_argument("PeriodicImages::build: firstHalo beyond the particles");
    innerSent_ = inner ? inner->sentParticles().size() : 0;
    innerHalo_ = ps.size() - owned;
    firstHalo_ = owned;
    sent_.clear();
    if (inner) sent_ = inner->sentParticles();
    imageOf_.clear();
    const double largest = largestBoundingRadius(ps.types);
    lattice_.requireRoomFor(largest);
    for (std::size_t i = 0; i < owned; ++i) {
        scratch_.clear();
        const double reach = ps.types[static_cast<std::size_t>(ps.type[i])].boundingRadius + largest + 2.0 * travel;
        lattice_.shiftsWithinReach(ps.position[i], reach, lo_, hi_, scratch_);
        for (const int s : scratch_) {
            const Vec3 x = ps.position[i] + lattice_.shifts()[static_cast<std::size_t>(s)];
            ps.add(ps.type[i], ps.id[i], x, ps.orientation[i], ps.velocity[i], ps.angularVelocity[i]);
            sent_.push_back(i);
            imageOf_.push_back(s);
        }
    }
}

// The inner exchange with its part of both lists; each image from its
// source's state, shifted.
void PeriodicImages::exchangeStates(const std::vector<BodyKinematics>& sent, std::vector<BodyKinematics>& halo) {
    if (inner_) {
        innerSentStates_.assign(sent.begin(), sent.begin() + static_cast<std::ptrdiff_t>(innerSent_));
        innerHaloStates_.resize(innerHalo_);
        inner_->exchangeStates(innerSentStates_, innerHaloStates_);
        std::copy(innerHaloStates_.begin(), innerHaloStates_.end(), halo.begin());
    }
    for (std::size_t m = 0; m < imageOf_.size(); ++m) {
        BodyKinematics s = sent[innerSent_ + m];
        s.position += lattice_.shifts()[static_cast<std::size_t>(imageOf_[m])];
        halo[innerHalo_ + m] = s;
    }
}

// Translations leave velocities, spins and shifts as they are: an image's
// correction is its source's.
void PeriodicImages::exchangeCorrections(const std::vector<BodyCorrection>& halo, std::vector<BodyCorrection>& sent) {
    if (inner_) {
        innerHaloCorrections_.assign(halo.begin(), halo.begin() + static_cast<std::ptrdiff_t>(innerHalo_));
        innerSentCorrections_.resize(innerSent_);
        inner_->exchangeCorrections(innerHaloCorrections_, innerSentCorrections_);
        std::copy(innerSentCorrections_.begin(), innerSentCorrections_.end(), sent.begin());
    }
    for (std::size_t m = 0; m < imageOf_.size(); ++m) sent[innerSent_ + m] = halo[innerHalo_ + m];
}

} // namespace sef::dem
