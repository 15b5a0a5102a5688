#include "sim/energy.h"

#include "sim/simulation.h"

#include <cmath>

namespace drape {

Energy energyOf(const Simulation &sim)
{
    Energy e;
    const Vec3 g = sim.world.gravity;
    for (const Cloth &cloth : sim.cloths) {
        const Particles &p = cloth.particles;
        for (std::size_t i = 0; i < p.position.size(); ++i) {
            if (p.invMass[i] == 0.f)
                continue;
            const double m = p.mass[i];
            const Vec3 &v = p.velocity[i];
            const Vec3 &x = p.position[i];
            e.kinetic += 0.5 * m * (double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z);
            e.gravitational -= m * (double(g.x) * x.x + double(g.y) * x.y + double(g.z) * x.z);
        }
        for (const DistanceConstraint &c : cloth.constraints) {
            if (!(c.compliance > 0.f))
                continue;
            const Vec3 &a = p.position[c.a];
            const Vec3 &b = p.position[c.b];
            const double dx = double(a.x) - b.x, dy = double(a.y) - b.y, dz = double(a.z) - b.z;
            const double stretch = std::sqrt(dx * dx + dy * dy + dz * dz) - c.restLength;
            e.elastic += 0.5 * stretch * stretch / c.compliance;
        }
    }
    return e;
}

} // namespace drape
