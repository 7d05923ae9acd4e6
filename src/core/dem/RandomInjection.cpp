#include "dem/RandomInjection.hpp"
#include "kinematics/StateChecks.hpp"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "contact/PairContact.hpp"

#include <cmath>
#include <numeric>
#include <sstream>

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

// Random centre such that the bounding sphere of radius R lies in the region.
bool sampleCentre(const InjectionRegion& r, double R, PortableRandom& rng, Vec3& x) {
    if (r.kind == InjectionRegion::Kind::box) {
        for (int k = 0; k < 3; ++k) {
            if (r.max[k] - r.min[k] < 2 * R) return false;
            x[k] = rng.uniform(r.min[k] + R, r.max[k] - R);
        }
        return true;
    }
    const Vec3 axis = r.point2 - r.point1;
    const double length = axis.norm();
    if (length < 2 * R || r.radius < R) return false;
    const Vec3 e = axis / length;
    const Vec3 u = e.unitOrthogonal(), v = e.cross(u);
    const double rho = (r.radius - R) * std::sqrt(rng.uniform()); // uniform over the disc
    const double phi = rng.uniform(0, 2 * M_PI);
    x = r.point1 + e * rng.uniform(R, length - R) + rho * (std::cos(phi) * u + std::sin(phi) * v);
    return true;
}

int sampleType(const std::vector<double>& cumulative, PortableRandom& rng) {
    const double u = rng.uniform() * cumulative.back();
    for (std::size_t t = 0; t < cumulative.size(); ++t)
        if (u < cumulative[t]) return static_cast<int>(t);
    return static_cast<int>(cumulative.size() - 1);
}

// Uniform hash grid of the particles placed so far, cell size twice the
// largest bounding radius: two bounding spheres can only intersect if their
// centres are in the same or neighbouring cells, so a trial position is
// checked against its 27 cells instead of every particle (O(N) injection
// instead of O(N^2); the same accept/reject decisions, so the same packing).
class PlacedParticleGrid {
public:
    explicit PlacedParticleGrid(const ParticleSystem& ps) {
        double largest = 0.0;
        for (const ParticleType& type : ps.types) largest = std::max(largest, type.boundingRadius);
        cell_ = 2.0 * largest;
        for (std::size_t j = 0; j < ps.size(); ++j) insert(ps.position[j], static_cast<int>(j));
    }

    void insert(const Vec3& x, int index) { cells_[key(x, 0, 0, 0)].push_back(index); }

    bool clear(const ParticleSystem& ps, const Vec3& x, double R) const {
        for (int i = -1; i <= 1; ++i)
            for (int j = -1; j <= 1; ++j)
                for (int k = -1; k <= 1; ++k) {
                    const auto it = cells_.find(key(x, i, j, k));
                    if (it == cells_.end()) continue;
                    for (int p : it->second) {
                        const double Rp = ps.types[ps.type[p]].boundingRadius;
                        if (!((ps.position[p] - x).squaredNorm() > (R + Rp) * (R + Rp))) return false;
                    }
                }
        return true;
    }

private:
    std::int64_t key(const Vec3& x, int di, int dj, int dk) const {
        // 21 bits per axis: 2 million cells per direction
        const auto index = [&](double c, int d) {
            return (static_cast<std::int64_t>(std::floor(c / cell_)) + d) & 0x1FFFFF;
        };
        return (index(x.x(), di) << 42) | (index(x.y(), dj) << 21) | index(x.z(), dk);
    }

    double cell_ = 1.0;
    std::unordered_map<std::int64_t, std::vector<int>> cells_;
};

// "k of N placed: " and why the next particle's trial positions failed
std::string placementFailure(const InjectionRejections& why, long count, long maxAttempts,
                             double R) {
    std::ostringstream msg;
    msg << why.placed << " of " << count << " particles placed: ";
    if (why.regionTooSmall) {
        msg << "the injection region is too small for a particle's bounding sphere (radius " << R
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
    if (why.inadmissible == why.trials)
        msg << " (is the region inside the mesh, clear of its walls?)";
    else if (why.overlapping == why.trials)
        msg << "; enlarge the region or inject fewer particles";
    else
        msg << "; enlarge the region (inside the mesh) or inject fewer particles";
    return msg.str();
}

} // namespace

void injectRandom(ParticleSystem& particles, const InjectionSpec& spec, std::int64_t firstId,
                  const std::function<bool(const Vec3&, double)>& admissible) {
    validate(spec, particles.types.size());
    std::vector<double> cumulative(spec.typeFractions.size());
    std::partial_sum(spec.typeFractions.begin(), spec.typeFractions.end(), cumulative.begin());

    PortableRandom rng(spec.seed);
    ParticleSystem trial = particles; // untouched on failure
    PlacedParticleGrid placedGrid(trial);
    for (long n = 0; n < spec.count; ++n) {
        const int t = sampleType(cumulative, rng);
        const double R = trial.types[t].boundingRadius;
        InjectionRejections why;
        why.placed = n;
        bool placed = false;
        for (long attempt = 0; attempt < spec.maxAttemptsPerParticle && !placed; ++attempt) {
            Vec3 x;
            if (!sampleCentre(spec.region, R, rng, x)) {
                why.regionTooSmall = true;
                break;
            }
            ++why.trials;
            if (!placedGrid.clear(trial, x, R)) {
                ++why.overlapping;
            } else if (admissible && !admissible(x, R)) {
                ++why.inadmissible;
            } else {
                trial.add(t, firstId + n, x, rng.orientation(), spec.velocity);
                placedGrid.insert(x, static_cast<int>(trial.size() - 1));
                placed = true;
            }
        }
        if (!placed) throw RandomInjectionError(placementFailure(why, spec.count, spec.maxAttemptsPerParticle, R), why);
    }
    particles = std::move(trial);
}

void injectListed(ParticleSystem& particles, const std::vector<ListedParticle>& list,
                  std::int64_t firstId,
                  const std::function<bool(const Vec3&, std::size_t)>& admissible, double allowedOverlap) {
    if (!(allowedOverlap >= 0.0) || !std::isfinite(allowedOverlap))
        throw std::invalid_argument("injectListed: allowedOverlap must be finite and >= 0");
    const auto dEq = [](const Superellipsoid& s) { return std::cbrt(6.0 * s.volume() / M_PI); };
    ParticleSystem trial = particles; // untouched on failure
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
        for (std::size_t j = 0; j < trial.size(); ++j) {
            const Pose other{trial.position[j], trial.orientation[j]};
            const ContactResult c =
                detectPairContact(shape, pose, trial.types[trial.type[j]].shape, other);
            const double tolerated =
                allowedOverlap * std::min(dEq(shape), dEq(trial.types[trial.type[j]].shape));
            if (c.contact && c.depth > tolerated) {
                std::ostringstream msg;
                msg << "listed particle " << n << " overlaps particle id " << trial.id[j]
                    << " (penetration depth " << c.depth << " m)";
                throw InjectionError(msg.str());
            }
        }
        trial.add(p.type, firstId + static_cast<std::int64_t>(n), p.position,
                  p.orientation.normalized(), p.velocity, p.angularVelocity);
    }
    particles = std::move(trial);
}

} // namespace sef::dem
