// Overlap removal that never feeds motion: the gravity potential energy the
// position corrections of a substep add to a cluster of touching bodies is
// paid from that cluster's kinetic energy. A rigid contact holds no elastic
// energy, so a correction that lifts bodies out of each other (or out of a
// wall) creates energy; unpaid, it returns as motion when they fall back,
// and a bed of blocks rocks for ever on that ratchet. Paying it makes the
// corrections dissipative, as the impulses are.
#include "dem/engine/DemEngineImpl.hpp"

#include <algorithm>
#include <cmath>

namespace sef::dem {

double DemEngine::Impl::payCorrectionEnergy(StepStatistics& stats) {
    // nothing shifted (a resting bed within its allowed penetration): no
    // lift to pay, and the clusters need not be found
    if (std::all_of(involved.begin(), involved.end(), [this](std::size_t i) { return shift[i].isZero(0.0); }))
        return 0.0;
    // clusters: the involved bodies joined by pair contacts (union-find)
    std::vector<std::size_t>& root = clusterRoot;
    root.resize(bodies.size());
    for (const std::size_t i : involved) root[i] = i;
    const auto find = [&root](std::size_t i) {
        while (root[i] != i) i = root[i] = root[root[i]];
        return i;
    };
    for (const DemContact& c : active) {
        if (c.isWall()) continue;
        const std::size_t a = find(std::size_t(c.i)), b = find(std::size_t(c.j));
        if (a != b) root[std::max(a, b)] = std::min(a, b);
    }
    std::vector<CorrectionCluster>& clusters = clusterScratch;
    clusters.assign(bodies.size(), CorrectionCluster{});
    for (std::size_t k = 0; k < active.size(); ++k) {
        const DemContact& c = active[k];
        if (!c.isWall()) continue;
        CorrectionCluster& cl = clusters[find(std::size_t(c.i))];
        cl.onWall = true;
        if (cl.wallContact < 0) cl.wallContact = int(k);
        // a moving wall's frame is not the lab's: left unpaid
        if (!faceMotion.empty() && faceMotion[std::size_t(c.face)] >= 0) cl.payable = false;
    }
    for (const std::size_t i : involved) {
        CorrectionCluster& cl = clusters[find(i)];
        if (!shift[i].isZero(0.0)) cl.lift += potentialChange(i, shift[i]);
        if (!firmShift[i].isZero(0.0)) cl.firmLift += potentialChange(i, firmShift[i]);
        // a halo copy or periodic image is also moved by another body's
        // cluster (its owner's): its velocity is not this cluster's to scale
        if ((exchange && haloBody[i]) || (anyLocalImage && sourceBody[i] >= 0)) cl.payable = false;
        if (held(i)) { cl.onWall = true; continue; }
        cl.mass += bodies[i].mass;
        cl.momentum += bodies[i].mass * bodies[i].velocity;
    }
    const auto frameVelocity = [](const CorrectionCluster& cl) -> Vec3 {
        return cl.onWall || cl.mass == 0.0 ? Vec3::Zero() : Vec3(cl.momentum / cl.mass);
    };
    for (const std::size_t i : involved) {
        CorrectionCluster& cl = clusters[find(i)];
        if (held(i) || !(cl.lift > 0.0)) continue;
        const RigidBodyState& b = bodies[i];
        const Vec3 wBody = b.orientation.conjugate() * b.angularVelocity;
        cl.kinetic += 0.5 * b.mass * (b.velocity - frameVelocity(cl)).squaredNorm()
                    + 0.5 * wBody.dot(b.principalInertia.cwiseProduct(wBody));
    }
    for (const std::size_t i : involved) {
        if (find(i) != i) continue; // once per cluster, at its root
        CorrectionCluster& cl = clusters[i];
        if (!(cl.lift > 0.0)) continue;
        // The firm corrections are made, and of the others the share the
        // cluster can pay for (the lift is linear in the shifts); a cluster
        // that cannot pay at all (across processors, periodic images, a
        // moving wall) is corrected in full.
        double made = cl.lift;
        const double optional = cl.lift - cl.firmLift;
        if (cl.payable && optional > 0.0 && cl.lift > cl.kinetic) {
            cl.shiftScale = std::clamp((cl.kinetic - cl.firmLift) / optional, 0.0, 1.0);
            // (a share between: the lift made is the kinetic energy, exactly)
            made = cl.shiftScale > 0.0 ? cl.kinetic : cl.firmLift;
        }
        const double paid = cl.payable ? std::clamp(made, 0.0, cl.kinetic) : 0.0;
        stats.correctionEnergyPaid += paid;
        stats.correctionEnergyUnpaid += std::max(0.0, made - paid);
        // the kinetic energy left: every relative velocity scaled by f
        if (paid > 0.0) cl.factor = std::sqrt(std::max(0.0, 1.0 - paid / cl.kinetic));
    }
    double potential = 0.0; // of the shifts taken back
    for (const std::size_t i : involved) {
        const CorrectionCluster& cl = clusters[find(i)];
        if (cl.shiftScale == 1.0 || shift[i].isZero(0.0)) continue;
        const Vec3 back = (cl.shiftScale - 1.0) * (shift[i] - firmShift[i]);
        bodies[i].position += back;
        shift[i] += back;
        potential += potentialChange(i, back);
    }
    for (const std::size_t i : involved) {
        const CorrectionCluster& cl = clusters[find(i)];
        if (held(i) || cl.factor == 1.0) continue;
        const double f = cl.factor;
        RigidBodyState& b = bodies[i];
        const Vec3 V = frameVelocity(cl);
        const Vec3 before = b.velocity;
        b.velocity = V + f * (b.velocity - V);
        b.angularVelocity *= f;
        if (cl.onWall && cl.wallContact >= 0) {
            // the momentum taken went into the wall (its load balance)
            const DemContact& c = active[std::size_t(cl.wallContact)];
            const Vec3 J = b.mass * (before - b.velocity);
            stats.addWallLoad(walls.face(std::size_t(c.face)).patch, J, c.point.cross(J));
        }
    }
    return potential;
}

} // namespace sef::dem
