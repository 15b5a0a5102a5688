#include "edit/grab.h"

#include "edit/pick.h"

#include <algorithm>
#include <cmath>

namespace drape {

namespace { } // namespace

std::string Grab::begin(Simulation &sim, int cloth, const Vec3 &centre, float radius)
{
    if (cloth < 0 || cloth >= int(sim.cloths.size()))
        return "grab: cloth " + std::to_string(cloth) + " out of range, the scene has "
            + std::to_string(sim.cloths.size());
    if (!isFinite(centre))
        return "grab: the centre is not finite";
    if (!(radius > 0.f) || !std::isfinite(radius))
        return "grab: radius " + std::to_string(radius) + " m must be positive";
    std::vector<std::uint32_t> particles = particlesWithin(sim.cloths[std::size_t(cloth)], centre, radius);
    if (particles.empty())
        return "grab: no particle within " + std::to_string(radius) + " m of the cursor";
    return beginParticles(sim, cloth, particles, centre);
}

std::string Grab::beginParticles(
    Simulation &sim, int cloth, const std::vector<std::uint32_t> &particles, const Vec3 &centre)
{
    if (active())
        return "grab: already holding particles; release or cancel first";
    if (cloth < 0 || cloth >= int(sim.cloths.size()))
        return "grab: cloth " + std::to_string(cloth) + " out of range, the scene has "
            + std::to_string(sim.cloths.size());
    if (!isFinite(centre))
        return "grab: the centre is not finite";
    Particles &p = sim.cloths[std::size_t(cloth)].particles;
    std::vector<std::uint32_t> list = particles;
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    if (list.empty())
        return "grab: no particles given";
    for (std::uint32_t i : list)
        if (i >= p.size())
            return "grab: particle " + std::to_string(i) + " out of range, cloth has "
                + std::to_string(p.size());

    m_cloth = cloth;
    m_particles = std::move(list);
    m_before.clear();
    m_offsets.clear();
    for (std::uint32_t i : m_particles) {
        m_before.push_back(particleRecord(p, i));
        m_offsets.push_back(p.position[i] - centre);
        // Held like a pin (inverse mass 0, Macklin et al. 2016: infinite-mass particles are
        // not moved by constraint projections); its mass is kept for the release.
        p.kind[i] = ParticleKind::Kinematic;
        p.invMass[i] = 0.f;
        p.velocity[i] = {};
        p.previous[i] = p.position[i];
    }
    m_target = centre;
    m_frameDt = sim.solver.frameDt();
    m_frameNow = sim.frame();
    m_samples.assign(1, { m_frameNow, centre });
    return {};
}

std::string Grab::moveTo(Simulation &sim, const Vec3 &target)
{
    if (!active())
        return "grab: nothing is held";
    if (!isFinite(target))
        return "grab: the target is not finite";
    if (m_cloth >= int(sim.cloths.size())
        || sim.cloths[std::size_t(m_cloth)].particles.size() <= m_particles.back())
        return "grab: the held cloth no longer exists";
    Particles &p = sim.cloths[std::size_t(m_cloth)].particles;
    m_frameDt = sim.solver.frameDt();
    m_frameNow = sim.frame();
    // The motion since the last step happens over the coming frame: previous is where the
    // particle was, velocity the displacement over one frame, so a solver that derives
    // velocity from positions (Verlet, XPBD) and one that reads it (springs) agree.
    const float invDt = float(1.0 / m_frameDt);
    for (std::size_t k = 0; k < m_particles.size(); ++k) {
        const std::uint32_t i = m_particles[k];
        const Vec3 next = target + m_offsets[k];
        p.previous[i] = p.position[i];
        p.velocity[i] = (next - p.position[i]) * invDt;
        p.position[i] = next;
    }
    m_target = target;
    if (!m_samples.empty() && m_samples.back().frame == m_frameNow)
        m_samples.back().target = target; // several mouse moves within one frame
    else
        m_samples.push_back({ m_frameNow, target });
    const std::size_t keep = std::size_t(std::max(1, m_settings.velocityFrames)) + 1;
    while (m_samples.size() > keep)
        m_samples.pop_front();
    return {};
}

Vec3 Grab::releaseVelocity() const
{
    if (m_samples.size() < 2)
        return {};
    const Sample &last = m_samples.back();
    const std::uint64_t window = std::uint64_t(std::max(1, m_settings.velocityFrames));
    // The hand stopped: a release long after the last move throws nothing.
    if (m_frameNow > last.frame + window)
        return {};
    // The oldest sample inside the window (at least the one before the last).
    std::size_t first = m_samples.size() - 2;
    while (first > 0 && last.frame - m_samples[first - 1].frame <= window)
        --first;
    const std::uint64_t frames = last.frame - m_samples[first].frame;
    if (frames == 0)
        return {};
    const float scale = float(double(m_settings.releaseVelocityScale) / (double(frames) * m_frameDt));
    return (last.target - m_samples[first].target) * scale;
}

ClothEdit Grab::release(Simulation &sim)
{
    ClothEdit moved;
    if (!active())
        return moved;
    if (m_cloth >= int(sim.cloths.size())
        || sim.cloths[std::size_t(m_cloth)].particles.size() <= m_particles.back()) {
        clear();
        return moved;
    }
    m_frameNow = sim.frame();
    const Vec3 v = releaseVelocity();
    // Verlet reads velocity as (position - previous) / substep.
    const float h = float(sim.solver.substepDt());
    Particles &p = sim.cloths[std::size_t(m_cloth)].particles;
    for (std::size_t k = 0; k < m_particles.size(); ++k) {
        const std::uint32_t i = m_particles[k];
        const ParticleRecord &before = m_before[k];
        p.kind[i] = before.kind;
        p.mass[i] = before.mass;
        p.invMass[i] = before.invMass;
        if (before.kind == ParticleKind::Dynamic) {
            p.velocity[i] = v;
            p.previous[i] = p.position[i] - v * h;
        } else {
            // A pin (or an animated particle) stays where it was dropped, at rest.
            p.velocity[i] = {};
            p.previous[i] = p.position[i];
            ParticleChange change { i, before, particleRecord(p, i) };
            if (change.after != change.before)
                moved.particles.push_back(change);
        }
    }
    clear();
    return moved;
}

void Grab::cancel(Simulation &sim)
{
    if (!active())
        return;
    if (m_cloth < int(sim.cloths.size())
        && sim.cloths[std::size_t(m_cloth)].particles.size() > m_particles.back()) {
        Particles &p = sim.cloths[std::size_t(m_cloth)].particles;
        for (std::size_t k = 0; k < m_particles.size(); ++k)
            storeParticleRecord(p, m_particles[k], m_before[k]);
    }
    clear();
}

void Grab::clear()
{
    m_cloth = -1;
    m_particles.clear();
    m_before.clear();
    m_offsets.clear();
    m_samples.clear();
}

int push(
    Simulation &sim, const Vec3 &centre, float radius, const Vec3 &delta, float factor, std::string *error)
{
    auto fail = [&](std::string message) {
        if (error)
            *error = std::move(message);
        return -1;
    };
    if (!isFinite(centre) || !isFinite(delta))
        return fail("push: the cursor position or displacement is not finite");
    if (!(radius > 0.f) || !std::isfinite(radius))
        return fail("push: radius " + std::to_string(radius) + " m must be positive");
    if (!std::isfinite(factor))
        return fail("push: factor is not finite");
    const bool verlet = sim.solver.kind == SolverKind::Verlet;
    const float invDt = float(sim.solver.frameRate);
    const float invH = float(1.0 / sim.solver.substepDt());
    const float r2 = radius * radius;
    int count = 0;
    for (Cloth &cloth : sim.cloths) {
        Particles &p = cloth.particles;
        for (std::size_t i = 0; i < p.size(); ++i) {
            if (p.kind[i] != ParticleKind::Dynamic || lengthSquared(p.position[i] - centre) > r2)
                continue;
            // The tearable-cloth demo's drag: the cursor's motion becomes the particle's.
            if (verlet) {
                // Verlet's velocity is (x - previous) / h; the velocity array says the same,
                // so a solver that rebuilds its history from it (first frame, switch) agrees.
                p.previous[i] = p.position[i] - delta * factor;
                p.velocity[i] = delta * (factor * invH);
            } else
                p.velocity[i] += delta * (invDt * factor);
            ++count;
        }
    }
    if (error)
        error->clear();
    return count;
}

} // namespace drape
