#include "scene/scenebudget.h"

#include "base/outputcheck.h"

#include <algorithm>
#include <fstream>
#include <limits>
#include <sstream>

namespace drape {

SceneBudget SceneBudget::forParticles(std::uint64_t particles)
{
    SceneBudget b;
    const std::uint64_t cap = std::numeric_limits<std::uint64_t>::max() / 1024;
    particles = std::min(particles, cap);
    const double scale = double(particles) / double(b.maxParticles);
    b.maxParticles = particles;
    b.maxConstraints = 8 * particles;
    b.maxTriangles = 4 * particles;
    b.maxBytes = std::uint64_t(std::max(1.0, scale) * double(b.maxBytes));
    return b;
}

SceneBudget SceneBudget::unlimited()
{
    const std::uint64_t m = std::numeric_limits<std::uint64_t>::max();
    return { m, m, m, m };
}

SceneTotals clothTotals(const ClothDesc &desc)
{
    SceneTotals t;
    switch (desc.source) {
    case ClothSource::Grid: {
        // Counts of makeGrid: structural (a−1)d + a(d−1), shear 2(a−1)(d−1), legacy bend
        // springs (a−2)d + a(d−2), two triangles per cell; the dihedral hinges (one per
        // interior edge, under 3 per cell) are budgeted like the springs they replace.
        const std::uint64_t a = std::uint64_t(std::max(desc.grid.across, 0));
        const std::uint64_t d = std::uint64_t(std::max(desc.grid.down, 0));
        t.particles = a * d;
        const std::uint64_t cells = a > 0 && d > 0 ? (a - 1) * (d - 1) : 0;
        t.constraints = (desc.grid.structural ? 2 * t.particles : 0) + (desc.grid.shear ? 2 * cells : 0)
            + (desc.grid.bend ? 2 * t.particles : 0) + (desc.grid.bendSprings ? 2 * t.particles : 0);
        t.triangles = 2 * cells;
        break;
    }
    case ClothSource::Rope: {
        t.particles = std::uint64_t(std::max(desc.rope.count, 0));
        t.constraints = 2 * t.particles; // links and bend links
        break;
    }
    case ClothSource::Explicit:
        t.particles = desc.explicitData.rest.size();
        t.constraints = desc.explicitData.constraints.size();
        t.triangles = desc.explicitData.triangles.size();
        break;
    }
    t.bytes = t.particles * kBytesPerParticle + t.constraints * kBytesPerConstraint
        + t.triangles * kBytesPerTriangle;
    return t;
}

SceneTotals sceneTotals(const Scene &scene)
{
    SceneTotals sum;
    for (const ClothDesc &c : scene.cloths) {
        const SceneTotals t = clothTotals(c);
        sum.particles += t.particles;
        sum.constraints += t.constraints;
        sum.triangles += t.triangles;
        sum.bytes += t.bytes;
    }
    return sum;
}

std::string groupDigits(std::uint64_t n)
{
    // Built front to back (inserting into the string trips GCC 12's -Wrestrict, a false alarm).
    const std::string digits = std::to_string(n);
    std::string s;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            s += ',';
        s += digits[i];
    }
    return s;
}

std::string checkBudget(const SceneTotals &totals, const SceneBudget &budget)
{
    if (totals.particles <= budget.maxParticles && totals.constraints <= budget.maxConstraints
        && totals.triangles <= budget.maxTriangles && totals.bytes <= budget.maxBytes)
        return {};
    std::ostringstream msg;
    msg << "the scene is too large: it needs " << groupDigits(totals.particles) << " particles, "
        << groupDigits(totals.constraints) << " constraints, " << groupDigits(totals.triangles)
        << " triangles and about " << formatBytes(double(totals.bytes)) << " of memory; the budget is "
        << groupDigits(budget.maxParticles) << " particles, " << groupDigits(budget.maxConstraints)
        << " constraints, " << groupDigits(budget.maxTriangles) << " triangles and "
        << formatBytes(double(budget.maxBytes));
    return msg.str();
}

std::uint64_t availableMemoryBytes()
{
    std::ifstream in("/proc/meminfo");
    std::string key, unit;
    std::uint64_t value = 0;
    while (in >> key >> value >> unit) {
        if (key == "MemAvailable:")
            return value * 1024;
    }
    return 0;
}

} // namespace drape
