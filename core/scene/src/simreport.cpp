// Per-frame totals for `drape simulate --report` (see simreport.h).
#include "scene/simreport.h"

#include "sim/tearing.h"
#include "sim/tension.h"

#include <algorithm>
#include <cstdio>

namespace drape {

FrameTotals frameTotals(const Scene &scene, const Simulation &sim)
{
    FrameTotals t;
    t.frame = sim.frame();
    t.time = sim.time();
    t.torn = sim.lastStepStats().tornConstraints;
    t.splits = sim.lastStepStats().splitParticles;
    const Vec3 g = sim.world.gravity;
    std::vector<float> tension;
    for (std::size_t ci = 0; ci < sim.cloths.size(); ++ci) {
        const Cloth &c = sim.cloths[ci];
        const Particles &p = c.particles;
        for (std::size_t i = 0; i < p.size(); ++i) {
            t.kineticEnergy += 0.5 * double(p.mass[i]) * double(lengthSquared(p.velocity[i]));
            t.potentialEnergy -= double(p.mass[i]) * double(dot(g, p.position[i]));
        }
        const float width = ci < scene.cloths.size() ? clothSpacing(scene.cloths[ci]) : 0.f;
        sim.constraintTensions(ci, tension);
        for (std::size_t k = 0; k < c.constraints.size(); ++k) {
            const DistanceConstraint &d = c.constraints[k];
            const double strain = constraintStrain(c, d);
            t.maxStrain = std::max(t.maxStrain, strain);
            if (d.compliance > 0.f) {
                const double stretch = strain * double(d.restLength);
                t.elasticEnergy += 0.5 * stretch * stretch / double(d.compliance);
            }
            t.maxStress = std::max(t.maxStress, double(constraintStress(c, tension, k, width)));
        }
        for (const PinReaction &r : pinReactions(c, tension)) {
            t.pinReaction += r.force;
            ++t.pins;
        }
    }
    return t;
}

std::string reportJson(const std::vector<FrameTotals> &frames)
{
    std::string out
        = "{\n  \"format\": \"drape-report\",\n  \"version\": 1,\n"
          "  \"units\": {\"time\": \"s\", \"energy\": \"J\", \"stress\": \"N/m\", \"force\": \"N\"},\n"
          "  \"frames\": [";
    char buf[512];
    for (std::size_t i = 0; i < frames.size(); ++i) {
        const FrameTotals &f = frames[i];
        std::snprintf(buf, sizeof buf,
            "%s\n    {\"frame\": %llu, \"time\": %.9g, \"kineticEnergy\": %.9g, \"potentialEnergy\": %.9g, "
            "\"elasticEnergy\": %.9g, \"maxStrain\": %.9g, \"maxStress\": %.9g, \"pinReaction\": [%.9g, "
            "%.9g, %.9g], "
            "\"pins\": %u, \"torn\": %u, \"splits\": %u}",
            i ? "," : "", (unsigned long long)f.frame, f.time, f.kineticEnergy, f.potentialEnergy,
            f.elasticEnergy, f.maxStrain, f.maxStress, double(f.pinReaction.x), double(f.pinReaction.y),
            double(f.pinReaction.z), f.pins, f.torn, f.splits);
        out += buf;
    }
    out += frames.empty() ? "]\n}\n" : "\n  ]\n}\n";
    return out;
}

} // namespace drape
