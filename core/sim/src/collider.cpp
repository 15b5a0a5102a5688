// Collider motion: a sinusoid about the rest centre, evaluated from simulation time so that a
// replay of the same scene moves the collider identically (no wall-clock).
#include "sim/collider.h"

#include <cmath>
#include <numbers>

namespace drape {

void Collider::updateMotion(double t)
{
    if (!motion.moving()) {
        velocity = {};
        return;
    }
    // center(t) = base + A sin(ωt + φ), velocity = A ω cos(ωt + φ), with ω = 2π f.
    const double omega = 2.0 * std::numbers::pi * double(motion.frequency);
    const double phase = omega * t + double(motion.phase);
    center = baseCenter + motion.amplitude * float(std::sin(phase));
    velocity = motion.amplitude * float(omega * std::cos(phase));
}

} // namespace drape
