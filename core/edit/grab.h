// Grabbing and pushing cloth with the mouse.
//
// A Grab holds particles kinematic (inverse mass 0, the way a pin holds them) while they
// follow a target point, each keeping its offset from the grab centre: the spring-mass
// fabric demo's "grab every point within a radius and move it with the mouse". Each frame
// the tool calls moveTo() before Simulation::step(): the particles are placed at the target
// with their previous position where they were and their velocity equal to the motion over
// one frame, so every solver sees a kinematic particle moving, not teleporting.
//
// release() restores each particle's kind, mass and inverse mass exactly and hands over the
// motion: the released velocity is the target's average velocity over the last few frames,
// so a flick throws the cloth. A grabbed pin (Static particle) stays static where it was
// dropped, so dragging a curtain hook moves it; release() reports that as a ClothEdit the
// document can push as an undo step. cancel() puts everything back as before the grab.
//
// push() is the tearable-cloth demo's left drag: particles near the cursor get the cursor's
// displacement as velocity, without holding them. It is not an undo step.
#pragma once

#include "edit/clothedit.h"
#include "sim/simulation.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace drape {

struct GrabSettings {
    int velocityFrames = 3; ///< frames averaged for the release velocity (>= 1)
    float releaseVelocityScale = 1.f; ///< multiplies the release velocity (0 = drop dead)
};

class Grab {
public:
    explicit Grab(GrabSettings settings = {})
        : m_settings(settings)
    { }

    /// Grabs the particles of cloth `cloth` within `radius` (m) of `centre`. Error when nothing
    /// is there, the index is out of range, or the input is not finite / radius <= 0.
    std::string begin(Simulation &sim, int cloth, const Vec3 &centre, float radius);
    /// Grabs the given particles; `centre` is the point that will follow the target.
    std::string beginParticles(
        Simulation &sim, int cloth, const std::vector<std::uint32_t> &particles, const Vec3 &centre);
    /// Moves the grab centre to `target` (m). Call once per frame, before step().
    std::string moveTo(Simulation &sim, const Vec3 &target);
    /// Lets go. Returns the net change of the particles that stay static (moved pins); empty
    /// when only dynamic particles were held. The edit is already applied.
    ClothEdit release(Simulation &sim);
    /// Restores every held particle exactly as it was before begin().
    void cancel(Simulation &sim);
    /// Drops the grab without touching the simulation (it was reset or replaced).
    void forget() { clear(); }

    bool active() const { return m_cloth >= 0; }
    int cloth() const { return m_cloth; }
    const std::vector<std::uint32_t> &particles() const { return m_particles; }
    Vec3 centre() const { return m_target; }
    /// m/s, the velocity the particles would get on release now.
    Vec3 releaseVelocity() const;

private:
    void clear();

    GrabSettings m_settings;
    int m_cloth = -1;
    std::vector<std::uint32_t> m_particles;
    std::vector<ParticleRecord> m_before; // parallel to m_particles, as before begin()
    std::vector<Vec3> m_offsets; // m, from the grab centre
    Vec3 m_target; // m, current grab centre
    struct Sample {
        std::uint64_t frame = 0; // sim.frame() when the target was set
        Vec3 target; // m
    };
    std::deque<Sample> m_samples; // recent targets, oldest first
    double m_frameDt = 1.0 / 60.0; // s
    std::uint64_t m_frameNow = 0; // sim.frame() at the last call
};

/// The tearable-cloth left drag: particles of every cloth within `radius` of `centre` take
/// the cursor displacement `delta` (m, over one frame) as their motion, scaled by `factor`.
/// Verlet: previous = position - delta * factor; XPBD and springs: velocity += delta / dt * factor.
/// Static and kinematic particles are left alone. Returns the number of particles pushed,
/// or -1 with `error` set on bad input.
int push(Simulation &sim, const Vec3 &centre, float radius, const Vec3 &delta, float factor = 1.f,
    std::string *error = nullptr);

} // namespace drape
