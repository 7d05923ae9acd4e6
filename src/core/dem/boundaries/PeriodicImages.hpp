#pragma once
// The periodic images of a DEM step (dem/boundaries/PeriodicLattice.hpp), as halo
// copies (dem/boundaries/HaloExchange.hpp): a particle near a periodic boundary is also
// stepped as a copy at x + s, refreshed from it every substep, and what the
// contacts did to the copy goes back to it. So a pair touching across the
// boundary is one contact between a particle and the other's image,
// resolved once (by the side of the smaller id, as for a processor halo),
// with the same answer as the same pair anywhere else.
//
// Decomposed runs: the processor halo (the OpenFOAM layer's processorHalo)
// sends shifted copies to the other processors itself; this class adds the
// images a processor needs of its own particles and wraps the processor
// exchange, whose halo copies come first. Serial runs use it alone.
#include "dem/boundaries/HaloExchange.hpp"
#include "dem/particles/ParticleSystem.hpp"
#include "dem/boundaries/PeriodicLattice.hpp"

#include <cstddef>
#include <vector>

namespace sef::dem {

class PeriodicImages : public HaloExchange {
public:
    // [lo, hi]: a box holding every centre this side steps (its mesh's
    // bounding box).
    PeriodicImages(PeriodicLattice lattice, const Vec3& lo, const Vec3& hi);

    // Appends to ps the images of its owned particles (ps[0, owned), owned =
    // inner ? inner->firstHalo() : ps.size()) that can touch a particle of
    // the box in the step: those whose shifted centre lies within R_i +
    // R_max + 2 travel of the box. inner: the exchange of a decomposed run
    // whose halo copies ps holds after its owned particles, or nullptr.
    // travel: a bound of how far any particle moves in the step.
    void build(ParticleSystem& ps, double travel, HaloExchange* inner = nullptr);

    // Drops the images and the inner halo copies (the owned particles stay).
    void remove(ParticleSystem& ps) const { ps.truncate(firstHalo()); }

    std::size_t images() const { return imageOf_.size(); }
    const PeriodicLattice& lattice() const { return lattice_; }

    // HaloExchange: the inner exchange's copies, then the images
    std::size_t firstHalo() const override { return firstHalo_; }
    const std::vector<std::size_t>& sentParticles() const override { return sent_; }
    void exchangeStates(const std::vector<BodyKinematics>& sent, std::vector<BodyKinematics>& halo) override;
    void exchangeCorrections(const std::vector<BodyCorrection>& halo, std::vector<BodyCorrection>& sent) override;
    double maximum(double value) override { return inner_ ? inner_->maximum(value) : value; }
    long localSource(std::size_t h) const override {
        return h < innerHalo_ ? (inner_ ? inner_->localSource(h) : -1)
                              : static_cast<long>(sent_[innerSent_ + (h - innerHalo_)]);
    }

private:
    PeriodicLattice lattice_;
    Vec3 lo_, hi_;
    HaloExchange* inner_ = nullptr;
    std::size_t firstHalo_ = 0;
    std::size_t innerSent_ = 0, innerHalo_ = 0; // the inner exchange's counts
    std::vector<std::size_t> sent_;            // inner's sent list, then the images' sources
    std::vector<int> imageOf_;                 // per image: its shift (index in lattice_.shifts())
    std::vector<int> scratch_;
    std::vector<BodyKinematics> innerSentStates_, innerHaloStates_;
    std::vector<BodyCorrection> innerHaloCorrections_, innerSentCorrections_;
};

} // namespace sef::dem
