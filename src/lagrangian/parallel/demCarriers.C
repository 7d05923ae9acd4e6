#include "demCarriers.H"
#include "foamEigen.H"

#include <algorithm>


Foam::demCarriers::demCarriers(const polyMesh& mesh)
:
    mesh_(mesh),
    cloud_(mesh, "demCarriers", IDLList<demParticle>())
{}


void Foam::demCarriers::prepare
(
    const sef::dem::ParticleSystem& ps,
    const std::vector<std::size_t>& near
)
{
    const std::size_t n = ps.size();
    std::vector<char> isNear(n, 0);
    for (const std::size_t k : near) isNear[k] = 1;

    std::int64_t largest = -1;
    for (const std::int64_t id : ps.id) largest = std::max(largest, id);
    slotOfId_.assign(std::size_t(largest + 1), -1);
    for (std::size_t k = 0; k < n; ++k) slotOfId_[std::size_t(ps.id[k])] = label(k);

    // carriers of particles no longer near another processor go
    carrierAt_.assign(n, nullptr);
    DynamicList<demParticle*> far;
    for (demParticle& p : cloud_)
    {
        const std::int64_t id = p.particleId();
        const label k = id >= 0 && id <= largest ? slotOfId_[std::size_t(id)] : -1;
        if (k < 0 || !isNear[std::size_t(k)])
        {
            far.append(&p);
        }
        else
        {
            carrierAt_[std::size_t(k)] = &p;
        }
    }
    for (demParticle* p : far)
    {
        cloud_.deleteParticle(*p);
    }
    // particles that came near get one, at their centre (inside this
    // processor's mesh: the start of the step)
    for (std::size_t k = 0; k < n; ++k)
    {
        if (!isNear[k] || carrierAt_[k]) continue;
        const point x = toFoam(ps.position[k]);
        label celli = mesh_.findCell(x);
        if (celli < 0) celli = mesh_.findNearestCell(x);
        demParticle* p = new demParticle(mesh_, x, celli);
        p->initialise(ps, k);
        cloud_.addParticle(p);
        carrierAt_[k] = p;
    }
}


bool Foam::demCarriers::transfer(sef::dem::ParticleSystem& ps, const scalar dt)
{
    const std::size_t n = ps.size();
    for (std::size_t k = 0; k < n; ++k)
    {
        if (carrierAt_[k]) carrierAt_[k]->setFrom(ps, k);
    }
    demParticle::trackingData td(cloud_);
    cloud_.move(cloud_, td, dt);

    // who stayed, who arrived (the pointers of those that left dangle:
    // carrierAt_ is only compared with null below)
    std::vector<char> stayed(n, 0);
    DynamicList<demParticle*> arrived;
    for (demParticle& p : cloud_)
    {
        if (p.arrived())
        {
            arrived.append(&p);
            p.clearArrived();
            continue;
        }
        stayed[std::size_t(slotOfId_[std::size_t(p.particleId())])] = 1;
    }
    std::vector<char> keep(n);
    for (std::size_t k = 0; k < n; ++k)
    {
        keep[k] = !carrierAt_[k] || stayed[k];     // else: left this processor
    }
    ps.keepWhere(keep);
    const bool changed = ps.size() != n || arrived.size();
    for (demParticle* p : arrived)
    {
        p->addTo(ps);
    }
    carrierAt_.clear();
    return changed;
}
