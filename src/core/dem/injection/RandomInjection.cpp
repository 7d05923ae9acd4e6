#include "dem/injection/RandomInjection.hpp"
#include "dem/injection/PlacementGrid.hpp"
#include "dem/injection/RegionFit.hpp"
#include "kinematics/StateChecks.hpp"

#include <algorithm>
#include <vector>

#include "contact/PairContact.hpp"

#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <sstream>
#include <utility>

namespace sef::dem {

Quat PortableRandom::orientation() {
    // Shoemake, "Uniform random rotations", Graphics Gems III (1992).
    const double u1 = uniform(), u2 = 2 * M_PI * uniform(), u3 = 2 * M_PI * uniform();
    const double s1 = std::sqrt(1 - u1), s2 = std::sqrt(u1);
    return Quat(s2 * std::cos(u3), s1 * std::sin(u2), s1 * std::cos(u2), s2 * std::sin(u3))
        .normalized();
}

namespace {

void validate(const InjectionSpec& spec, std::size_t nTypes) {
    if (spec.count < 0) throw InjectionError("injection count must be >= 0");
    if (spec.typeFractions.size() != nTypes)
        throw InjectionError("one fraction per particle type is needed");
    double sum = 0;
    for (double f : spec.typeFractions) {
        if (!(f >= 0) || !std::isfinite(f)) throw InjectionError("type fractions must be >= 0");
        sum += f;
    }
    if (!(sum > 0)) throw InjectionError("type fractions must not all be zero");
    const auto& r = spec.region;
    if (r.kind == InjectionRegion::Kind::box && !((r.max - r.min).array() > 0).all())
        throw InjectionError("injection box needs max > min in every component");
    if (r.kind == InjectionRegion::Kind::cylinder
        && (!(r.radius > 0) || !((r.point2 - r.point1).norm() > 0)))
        throw InjectionError("injection cylinder needs radius > 0 and point1 != point2");
}

int sampleType(const std::vector<double>& cumulative, PortableRandom& rng) {
    const double u = rng.uniform() * cumulative.back();
    for (std::size_t t = 0; t < cumulative.size(); ++t)
        if (u < cumulative[t]) return static_cast<int>(t);
    return static_cast<int>(cumulative.size() - 1);
}

// "k of N placed: " and why the next particle's trial positions failed
std::string placementFailure(const InjectionRejections& why, long count, long maxAttempts,
                             double R, int orientations, bool aligned) {
    std::ostringstream msg;
    msg << why.placed << " of " << count << " particles placed: ";
    if (why.regionTooSmall) {
        msg << "the injection region is too small for a particle (bounding radius " << R
            << " m); enlarge the region";
        return msg.str();
    }
    if (why.trials == 0) {
        msg << "no trial positions (maxAttemptsPerParticle " << maxAttempts << ")";
        return msg.str();
    }
    msg << why.inadmissible << " of " << why.trials << " trial positions for the next (bounding radius "
        << R << " m) were outside the domain or cut a wall, " << why.overlapping
        << " overlapped particles already placed";
    if (orientations > 1)
        msg << " (in each of the " << orientations << " orientations tried"
            << (aligned ? " and in its nearest neighbour's" : "") << ")";
    if (why.outsideRegion > 0)
        msg << ", " << why.outsideRegion << " crossed the region's boundary in every orientation";
    // (positions at the region's boundary where the body fitted in no
    // orientation tell nothing about the domain)
    if (why.inadmissible > 0 && why.inadmissible + why.outsideRegion == why.trials)
        msg << " (is the region inside the mesh, clear of its walls?)";
    else if (why.overlapping + why.outsideRegion == why.trials)
        msg << "; enlarge the region or inject fewer particles";
    else
        msg << "; enlarge the region (inside the mesh) or inject fewer particles";
    return msg.str();
}

// The box of the centres placed so far (periodic boundaries): a shift s can
// bring a candidate x within reach of one of them only if x + s comes within
// reach of this box, so candidates away from the boundaries test no shift.
class CentreBox {
public:
    void add(const Vec3& x) {
        lo_ = lo_.cwiseMin(x);
        hi_ = hi_.cwiseMax(x);
        empty_ = false;
    }
    // The indices (in lattice.shifts()) of those shifts, in their order.
    void shiftsWithinReach(const PeriodicLattice& lattice, const Vec3& x, double reach,
                           std::vector<int>& out) const {
        out.clear();
        if (!empty_) lattice.shiftsWithinReach(x, reach, lo_, hi_, out);
    }

private:
    Vec3 lo_ = Vec3::Constant(std::numeric_limits<double>::infinity());
    Vec3 hi_ = -lo_;
    bool empty_ = true;
};

// The particles whose bounding spheres meet a candidate's at x: near x, and
// (periodic boundaries) near its copies x + s, which meet them through the
// periodicity (the candidate at x + s meets p as it meets p's image p - s).
struct Neighbours {
    struct Shifted {
        int shift;                  // index in the lattice's shifts()
        std::vector<int> particles; // near x + s, nearest first
    };
    std::vector<int> direct;      // near x, nearest first
    std::vector<Shifted> shifted; // only the shifts that have any
    bool empty() const { return direct.empty() && shifted.empty(); }
};

// The one orientation of the particles of a type turned alike: body axes
// along the coordinate axes (plates lie flat in z). Bit for bit the same
// quaternion in every particle, so the cheap exact test of aligned twins
// (PlacementGrid) decides their overlaps.
const Quat turnedAlikeOrientation = Quat::Identity();

// The trial positions of injectRandom against the particles placed so far
// (and their images) and the caller's domain; a taken position adds its particle.
class Placement {
public:
    // Types marked in turnedAlike take one orientation (turnedAlikeOrientation)
    // instead of random ones.
    Placement(ParticleSystem& ps, const InjectionSpec& spec, const SphereAdmissible& admissible,
              const BodyAdmissible& admissibleBody, const std::vector<bool>& turnedAlike)
        : ps_(ps), spec_(spec), periodic_(spec.periodic), open_(periodicOpenings(spec.region, spec.periodic)),
          admissible_(admissible), admissibleBody_(admissibleBody), grid_(ps),
          largestR_(largestBoundingRadius(ps.types)), turnedAlike_(turnedAlike) {
        if (!periodic_.empty())
            for (const Vec3& x : ps.position) centres_.add(x);
    }

    const RegionOpenings& openings() const { return open_; }

    // Whether the particle (type t) was placed at x (brought back into the
    // periodic box first); else the reason is counted in `why`.
    // The nearest neighbour's orientation is tried only if `mayAlign`.
    bool tryPosition(int t, std::int64_t id, Vec3 x, bool mayAlign, PortableRandom& rng,
                     InjectionRejections& why) {
        const double R = ps_.types[t].boundingRadius;
        const Superellipsoid& shape = ps_.types[t].shape;
        const bool sphere = isSphere(shape);
        const bool wrapped = periodic_.wrap(x); // (a region beyond the periodic box)
        findNeighbours(x, R, near_);
        if (sphere && !near_.empty()) {
            ++why.overlapping;
            return false;
        }
        // Bounding sphere in the region and clear of the particles: if the
        // domain admits it too, any orientation fits (drawn after). Spheres
        // end here (drawn with it inside the region, unless wrapped): their
        // orientation does not change the fit.
        std::optional<bool> sphereAdmitted;
        if (near_.empty() && ((sphere && !wrapped) || sphereInRegion(spec_.region, x, R, open_))) {
            sphereAdmitted = !admissible_ || admissible_(x, R);
            if (*sphereAdmitted) {
                add(t, id, x, orientation(t, rng));
                return true;
            }
            if (sphere || !admissibleBody_) {
                ++why.inadmissible;
                return false;
            }
        }
        // The true shape: a few random orientations, the first inside the
        // region, clear of the particles (exact narrow phase) and admitted
        // by the domain is taken.
        Trial trial{t, x, R, sphereAdmitted};
        const int orientations = turnedAlike_[t] ? 1 : std::max(1, spec_.orientationsPerPosition);
        for (int k = 0; k < orientations; ++k) {
            const Quat q = orientation(t, rng);
            if (fits(trial, q, near_)) return add(t, id, x, q);
            if (trial.refusalStands) return reject(trial, why);
        }
        if (mayAlign && !near_.empty() && placeAlignedWith(nearest(x, near_), trial, id)) return true;
        return reject(trial, why);
    }

private:
    Quat orientation(int t, PortableRandom& rng) const {
        return turnedAlike_[t] ? turnedAlikeOrientation : rng.orientation();
    }

    // One body at one position, and what its orientations tried there met.
    struct Trial {
        int t;
        Vec3 x;
        double R;
        std::optional<bool> sphereAdmitted; // the domain's answer for (x, R), once asked
        bool inRegion = false, clearOfParticles = false;
        bool refusalStands = false; // the domain refused (x, R) and has no body test
    };

    // The particles near x and, with periodic boundaries, near x + s for the
    // shifts s that bring x within reach of the centres (in their order:
    // the same questions in every run).
    void findNeighbours(const Vec3& x, double R, Neighbours& out) {
        grid_.sphereNeighbours(x, R, out.direct);
        out.shifted.clear();
        if (periodic_.empty()) return;
        centres_.shiftsWithinReach(periodic_, x, R + largestR_, shiftIndices_);
        for (const int s : shiftIndices_) {
            grid_.sphereNeighbours(x + periodic_.shifts()[s], R, scratch_);
            if (!scratch_.empty()) out.shifted.push_back({s, scratch_});
        }
    }

    // Whether a body of type t at `pose` overlaps a neighbour, or (at pose
    // moved by s) a neighbour of its copy (exact narrow phase).
    bool overlapsAny(int t, const Pose& pose, const Neighbours& near) const {
        // (turned alike, the narrow phase confirms: see PlacementGrid)
        if (grid_.overlapsAny(ps_, t, pose, near.direct, turnedAlike_[t])) return true;
        for (const Neighbours::Shifted& n : near.shifted) {
            const Pose copy{pose.position + periodic_.shifts()[n.shift], pose.orientation};
            if (grid_.overlapsAny(ps_, t, copy, n.particles, turnedAlike_[t])) return true;
        }
        return false;
    }

    // The nearest neighbour of a candidate at x (-1 if none) and the shift
    // (-1: none) whose copy of the candidate meets it.
    std::pair<int, int> nearest(const Vec3& x, const Neighbours& near) const {
        std::pair<int, int> best{-1, -1};
        double best2 = std::numeric_limits<double>::infinity();
        if (!near.direct.empty()) {
            best.first = near.direct.front();
            best2 = (ps_.position[best.first] - x).squaredNorm();
        }
        for (const Neighbours::Shifted& n : near.shifted) {
            const int p = n.particles.front();
            const double d2 = (ps_.position[p] - (x + periodic_.shifts()[n.shift])).squaredNorm();
            if (d2 < best2) best = {p, n.shift}, best2 = d2;
        }
        return best;
    }

    // Whether the body fits at trial.x in orientation q: inside the region,
    // clear of `neighbours` (exact narrow phase) and admitted by the domain.
    bool fits(Trial& trial, const Quat& q, const Neighbours& neighbours) {
        const Pose pose{trial.x, q};
        if (!bodyInRegion(spec_.region, ps_.types[trial.t].shape, pose, open_)) return false;
        trial.inRegion = true;
        if (overlapsAny(trial.t, pose, neighbours)) return false;
        trial.clearOfParticles = true;
        // asked once per position (the domain test may be collective)
        if (!trial.sphereAdmitted) trial.sphereAdmitted = !admissible_ || admissible_(trial.x, trial.R);
        if (*trial.sphereAdmitted || (admissibleBody_ && admissibleBody_(trial.t, pose))) return true;
        if (!admissibleBody_) trial.refusalStands = true; // in every orientation
        return false;
    }

    // Where random orientations failed: the orientation of the nearest
    // neighbour p, at trial.x and, if p is of the same type, moved along the
    // line from p's centre to touch p. Parallel neighbours exclude far less
    // volume than randomly turned ones (8 body volumes for identical convex
    // bodies): plates and bars stack where no random orientation fits.
    // (p, shift): p meets the candidate's copy at x + s (shift -1: at x).
    bool placeAlignedWith(std::pair<int, int> nearestOne, Trial& trial, std::int64_t id) {
        const auto [p, shift] = nearestOne;
        const Quat q = ps_.orientation[p];
        // (a neighbour turned alike with the candidate: that orientation failed at x)
        const bool triedAtX = turnedAlike_[trial.t] && q.coeffs() == turnedAlikeOrientation.coeffs();
        if (!triedAtX && fits(trial, q, near_)) return add(trial.t, id, trial.x, q);
        if (trial.refusalStands || ps_.type[p] != trial.t) return false;
        const std::optional<Vec3> touching = shift < 0 ? touchingPosition(p, trial.x)
                                                       : touchingPosition(p, trial.x + periodic_.shifts()[shift]);
        if (!touching) return false;
        Trial there{trial.t, shift < 0 ? *touching : *touching - periodic_.shifts()[shift], trial.R, std::nullopt};
        periodic_.wrap(there.x); // its centre in the periodic box too
        findNeighbours(there.x, there.R, nearThere_);
        const bool placed = fits(there, q, nearThere_);
        trial.inRegion |= there.inRegion;
        trial.clearOfParticles |= there.clearOfParticles;
        return placed && add(there.t, id, there.x, q);
    }

    // The position on the ray from particle p's centre through x where a
    // body of p's shape and orientation touches p (a relative gap of 1e-4
    // left): identical convex bodies of equal orientation, symmetric about
    // their centres, overlap exactly when the offset lies inside twice the
    // body, whose boundary is where the gauge of half the offset is 1.
    std::optional<Vec3> touchingPosition(int p, const Vec3& x) const {
        const Pose other{ps_.position[p], ps_.orientation[p]};
        const Vec3 offset = other.toBody(x);
        const double gauge = ps_.types[ps_.type[p]].shape.gaugeFunction(0.5 * offset);
        if (!(gauge > 0)) return std::nullopt; // x at p's centre: no direction
        return other.toWorld(offset * ((1 + 1e-4) / gauge));
    }

    bool reject(const Trial& trial, InjectionRejections& why) const {
        ++(trial.clearOfParticles ? why.inadmissible : trial.inRegion ? why.overlapping : why.outsideRegion);
        return false;
    }

    bool add(int t, std::int64_t id, const Vec3& x, const Quat& q) {
        ps_.add(t, id, x, q, spec_.velocity);
        grid_.insert(ps_, static_cast<int>(ps_.size() - 1));
        if (!periodic_.empty()) centres_.add(x);
        return true;
    }

    ParticleSystem& ps_;
    const InjectionSpec& spec_;
    const PeriodicLattice& periodic_;
    const RegionOpenings open_;
    const SphereAdmissible& admissible_;
    const BodyAdmissible& admissibleBody_;
    PlacementGrid grid_;
    const double largestR_;
    const std::vector<bool> turnedAlike_; // per type
    CentreBox centres_; // (periodic boundaries only)
    Neighbours near_, nearThere_;
    std::vector<int> shiftIndices_, scratch_;
};

// A particle's first trial positions try random orientations only: at low
// fill one of them fits, so the orientations stay uniformly random; the
// nearest neighbour's orientation is added where random ones rarely fit.
constexpr long randomOnlyPositions = 16;

// The particle that found no place in an injection pass, and why.
struct PassFailure {
    int type;
    InjectionRejections why;
};

// One pass of random sequential addition into `trial` (types marked in
// turnedAlike all in one orientation); the particle that found no place, if any.
std::optional<PassFailure> injectPass(ParticleSystem& trial, const InjectionSpec& spec, std::int64_t firstId,
                                      const SphereAdmissible& admissible, const BodyAdmissible& admissibleBody,
                                      const std::vector<bool>& turnedAlike) {
    std::vector<double> cumulative(spec.typeFractions.size());
    std::partial_sum(spec.typeFractions.begin(), spec.typeFractions.end(), cumulative.begin());
    PortableRandom rng(spec.seed);
    Placement placement(trial, spec, admissible, admissibleBody, turnedAlike);
    for (long n = 0; n < spec.count; ++n) {
        const int t = sampleType(cumulative, rng);
        // spheres: centres keep their bounding sphere in the region; other
        // bodies may come closer to its boundary, as near as their thinnest side
        const double margin = isSphere(trial.types[t].shape) ? trial.types[t].boundingRadius
                                                             : inscribedRadius(trial.types[t].shape);
        InjectionRejections why;
        why.placed = n;
        bool placed = false;
        for (long attempt = 0; attempt < spec.maxAttemptsPerParticle && !placed; ++attempt) {
            Vec3 x;
            if (!sampleCentre(spec.region, margin, rng, x, placement.openings())) {
                why.regionTooSmall = true;
                break;
            }
            ++why.trials;
            const bool mayAlign = spec.alignWithNeighbours && attempt >= randomOnlyPositions;
            placed = placement.tryPosition(t, firstId + n, x, mayAlign, rng, why);
        }
        if (!placed) return PassFailure{t, why};
    }
    return std::nullopt;
}

// Whether a pass with the failed particle's type turned alike may place more:
// randomly turned bodies leave gaps no further random one fits into, while
// translates of one body pack far denser. Random addition of translates
// does not depend on the aspect ratios at all (an affine map turns the
// body into one with equal half-axes, the box into a box, and keeps
// volume fractions), so flat and elongated bodies fill as well as their
// equal-axes kin: spheres about 38 %, cubes 42 % at saturation; flat
// pointed lenses (4:4:1, eps 1.8/0.2) 35 % in a box of 10 lengths. Only
// where the particles placed crowded the failed one out (some of its
// positions overlapped them): a region outside the domain or too thin for
// randomly turned bodies is the caller's to fix, and said so unchanged.
// Not for spheres (their orientation does not change the fit) or without
// alignWithNeighbours (every orientation random).
bool turningAlikeMayHelp(const InjectionSpec& spec, const ParticleSystem& ps, const PassFailure& failed,
                         const std::vector<bool>& turnedAlike) {
    return spec.alignWithNeighbours && !turnedAlike[failed.type] && !isSphere(ps.types[failed.type].shape)
           && failed.why.overlapping > 0;
}

} // namespace

void injectRandom(ParticleSystem& particles, const InjectionSpec& spec, std::int64_t firstId,
                  const SphereAdmissible& admissible, const BodyAdmissible& admissibleBody) {
    validate(spec, particles.types.size());
    spec.periodic.requireRoomFor(largestBoundingRadius(particles.types));
    std::vector<bool> turnedAlike(particles.types.size(), false);
    ParticleSystem trial = particles; // untouched on failure
    const std::optional<PassFailure> randomFailure =
        injectPass(trial, spec, firstId, admissible, admissibleBody, turnedAlike);
    // Only where random orientations fail: an injection they complete is
    // unchanged. Each further pass starts afresh with one more type turned alike.
    std::optional<PassFailure> failed = randomFailure;
    while (failed && turningAlikeMayHelp(spec, trial, *failed, turnedAlike)) {
        turnedAlike[failed->type] = true;
        trial = particles;
        failed = injectPass(trial, spec, firstId, admissible, admissibleBody, turnedAlike);
    }
    if (failed) {
        // the counts of the random pass: what a user's settings decide
        const int t = randomFailure->type;
        const bool sphere = isSphere(trial.types[t].shape);
        const int orientations = sphere ? 1 : std::max(1, spec.orientationsPerPosition);
        const bool aligned = !sphere && spec.alignWithNeighbours && spec.maxAttemptsPerParticle > randomOnlyPositions;
        std::string message = placementFailure(randomFailure->why, spec.count, spec.maxAttemptsPerParticle,
                                               trial.types[t].boundingRadius, orientations, aligned);
        if (std::count(turnedAlike.begin(), turnedAlike.end(), true) > 0)
            message += "; with the particles of that type all turned alike (body axes along the coordinate axes), "
                       + std::to_string(failed->why.placed) + " fitted";
        throw RandomInjectionError(message, randomFailure->why);
    }
    particles = std::move(trial);
}

namespace {

std::string describeShift(const Vec3& s) {
    std::ostringstream os;
    os << "(" << s.x() << " " << s.y() << " " << s.z() << ")";
    return os.str();
}

// Throws InjectionError naming listed particle n and particle j of ps when
// the body at `pose` (n's, or its copy moved by *shift through the periodic
// boundaries) overlaps j deeper than `tolerated`.
void requireClear(const ParticleSystem& ps, std::size_t n, const Superellipsoid& shape, const Pose& pose,
                  std::size_t j, double tolerated, const Vec3* shift) {
    const ContactResult c =
        detectPairContact(shape, pose, ps.types[ps.type[j]].shape, Pose{ps.position[j], ps.orientation[j]});
    if (!(c.contact && c.depth > tolerated)) return;
    std::ostringstream msg;
    msg << "listed particle " << n << " overlaps particle id " << ps.id[j];
    if (shift) msg << " through the periodic boundaries (its image at shift " << describeShift(*shift) << ")";
    msg << " (penetration depth " << c.depth << " m)";
    throw InjectionError(msg.str());
}

} // namespace

void injectListed(ParticleSystem& particles, const std::vector<ListedParticle>& list,
                  std::int64_t firstId,
                  const std::function<bool(const Vec3&, std::size_t)>& admissible, double allowedOverlap,
                  const PeriodicLattice& periodic) {
    if (!(allowedOverlap >= 0.0) || !std::isfinite(allowedOverlap))
        throw std::invalid_argument("injectListed: allowedOverlap must be finite and >= 0");
    const double largestR = largestBoundingRadius(particles.types);
    periodic.requireRoomFor(largestR);
    const auto dEq = [](const Superellipsoid& s) { return std::cbrt(6.0 * s.volume() / M_PI); };
    ParticleSystem trial = particles; // untouched on failure
    CentreBox centres;                // (periodic boundaries only)
    if (!periodic.empty())
        for (const Vec3& x : trial.position) centres.add(x);
    std::vector<int> shifts;
    for (std::size_t n = 0; n < list.size(); ++n) {
        const ListedParticle& p = list[n];
        if (p.type < 0 || p.type >= static_cast<int>(trial.types.size()))
            throw InjectionError("listed particle " + std::to_string(n) + ": unknown type index " +
                                 std::to_string(p.type));
        // finite, a unit quaternion, below light speed: what a step can take
        // (|q| and |v| are not formed before the components are known sane)
        const std::string problem =
            particleStateProblem(p.position, p.orientation, p.velocity, p.angularVelocity,
                                 trial.types[p.type].boundingRadius);
        if (!problem.empty())
            throw InjectionError("listed particle " + std::to_string(n) + ": " + problem);
        if (admissible && !admissible(p.position, n))
            throw InjectionError("listed particle " + std::to_string(n) +
                                 " is outside the domain or cuts a wall");
        const Pose pose{p.position, p.orientation.normalized()};
        const Superellipsoid& shape = trial.types[p.type].shape;
        const double R = trial.types[p.type].boundingRadius;
        // its copies that can reach a particle through the periodic boundaries
        centres.shiftsWithinReach(periodic, p.position, R + largestR, shifts);
        for (std::size_t j = 0; j < trial.size(); ++j) {
            const double tolerated =
                allowedOverlap * std::min(dEq(shape), dEq(trial.types[trial.type[j]].shape));
            requireClear(trial, n, shape, pose, j, tolerated, nullptr);
            const double reach = R + trial.types[trial.type[j]].boundingRadius;
            for (const int s : shifts) {
                const Vec3& shift = periodic.shifts()[s];
                const Pose copy{p.position + shift, pose.orientation};
                if ((copy.position - trial.position[j]).squaredNorm() <= reach * reach)
                    requireClear(trial, n, shape, copy, j, tolerated, &shift);
            }
        }
        trial.add(p.type, firstId + static_cast<std::int64_t>(n), p.position,
                  p.orientation.normalized(), p.velocity, p.angularVelocity);
        if (!periodic.empty()) centres.add(p.position);
    }
    particles = std::move(trial);
}

} // namespace sef::dem
