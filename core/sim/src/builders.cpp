// The shared cloth builders: grid, rope and explicit lists. Constraints are emitted grouped
// by kind (structural, shear, bend) in row-major order, so every caller gets the same
// indices for the same spec.
#include "sim/builders.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace drape {

namespace {

void addConstraint(
    Cloth &cloth, std::uint32_t a, std::uint32_t b, ConstraintKind kind, const ConstraintParams &p)
{
    DistanceConstraint c;
    c.a = a;
    c.b = b;
    c.restLength = length(cloth.particles.position[a] - cloth.particles.position[b]);
    c.compliance = p.compliance;
    c.damping = p.damping;
    c.tearStrain = p.tearStrain;
    c.tearForce = p.tearForce;
    c.kind = kind;
    cloth.constraints.push_back(c);
}

} // namespace

Cloth makeGrid(const GridSpec &spec)
{
    Cloth cloth;
    cloth.name = "grid";
    const int nx = std::max(spec.across, 2);
    const int ny = std::max(spec.down, 2);
    const float dx = spec.width / float(nx - 1);
    const float dy = spec.height / float(ny - 1);
    GridSpec g = spec;
    g.across = nx;
    g.down = ny;

    cloth.particles.position.reserve(std::size_t(nx) * std::size_t(ny));
    for (int j = 0; j < ny; ++j) {
        for (int i = 0; i < nx; ++i) {
            const Vec3 offset = spec.orientation == GridOrientation::Vertical
                ? Vec3 { float(i) * dx, -float(j) * dy, 0.f }
                : Vec3 { float(i) * dx, 0.f, float(j) * dy };
            cloth.particles.add(spec.origin + offset, 1.f);
        }
    }

    // Triangles (p(i,j), p(i,j+1), p(i+1,j)) face +Z when hanging and +Y when lying; the
    // diagonal alternates like a checkerboard so the sheet folds alike in both directions.
    cloth.triangles.reserve(std::size_t(nx - 1) * std::size_t(ny - 1) * 2);
    for (int j = 0; j + 1 < ny; ++j) {
        for (int i = 0; i + 1 < nx; ++i) {
            const std::uint32_t a = gridIndex(g, i, j), b = gridIndex(g, i + 1, j);
            const std::uint32_t c = gridIndex(g, i, j + 1), d = gridIndex(g, i + 1, j + 1);
            if ((i + j) % 2 == 0) {
                cloth.triangles.push_back({ { a, c, d } });
                cloth.triangles.push_back({ { a, d, b } });
            } else {
                cloth.triangles.push_back({ { a, c, b } });
                cloth.triangles.push_back({ { b, c, d } });
            }
        }
    }

    if (spec.structural) {
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i + 1 < nx; ++i)
                addConstraint(cloth, gridIndex(g, i, j), gridIndex(g, i + 1, j), ConstraintKind::Structural,
                    spec.structuralParams);
        for (int j = 0; j + 1 < ny; ++j)
            for (int i = 0; i < nx; ++i)
                addConstraint(cloth, gridIndex(g, i, j), gridIndex(g, i, j + 1), ConstraintKind::Structural,
                    spec.structuralParams);
    }
    if (spec.shear) {
        for (int j = 0; j + 1 < ny; ++j) {
            for (int i = 0; i + 1 < nx; ++i) {
                addConstraint(cloth, gridIndex(g, i, j), gridIndex(g, i + 1, j + 1), ConstraintKind::Shear,
                    spec.shearParams);
                addConstraint(cloth, gridIndex(g, i + 1, j), gridIndex(g, i, j + 1), ConstraintKind::Shear,
                    spec.shearParams);
            }
        }
    }
    if (spec.bend) {
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i + 2 < nx; ++i)
                addConstraint(
                    cloth, gridIndex(g, i, j), gridIndex(g, i + 2, j), ConstraintKind::Bend, spec.bendParams);
        for (int j = 0; j + 2 < ny; ++j)
            for (int i = 0; i < nx; ++i)
                addConstraint(
                    cloth, gridIndex(g, i, j), gridIndex(g, i, j + 2), ConstraintKind::Bend, spec.bendParams);
    }

    // Mass: each quad's area (both of its triangles) shared equally by its four corners, so
    // interior particles weigh one cell, edges half and corners a quarter. Sharing per
    // triangle instead would alternate 4/3 and 2/3 of a cell with the alternating diagonals,
    // a checkerboard of masses that shows up as uneven sag.
    const float quarterCell = 0.25f * spec.arealDensity * dx * dy; // kg
    for (int j = 0; j < ny; ++j) {
        for (int i = 0; i < nx; ++i) {
            const int cells = (i > 0 && j > 0) + (i + 1 < nx && j > 0) + (i > 0 && j + 1 < ny)
                + (i + 1 < nx && j + 1 < ny);
            cloth.particles.setMass(gridIndex(g, i, j), quarterCell * float(cells));
        }
    }
    // The constraints grew by doubling: give back the spare capacity (up to half of the array)
    // that a grid would otherwise carry for its lifetime, but keep 1/32 of headroom, so that
    // the constraints a tear or vertex split appends do not double the array at once.
    cloth.constraints.fitCapacity(cloth.constraints.size() + cloth.constraints.size() / 32);
    cloth.touchTopology();
    return cloth;
}

Cloth makeRope(const RopeSpec &spec)
{
    Cloth cloth;
    cloth.name = "rope";
    const int n = std::max(spec.count, 2);
    const Vec3 dir = normalized(spec.direction, { 0.f, -1.f, 0.f });
    const float link = spec.length / float(n - 1);
    for (int i = 0; i < n; ++i)
        cloth.particles.add(spec.start + dir * (float(i) * link), spec.linkMass);
    for (int i = 0; i + 1 < n; ++i)
        addConstraint(cloth, std::uint32_t(i), std::uint32_t(i + 1), ConstraintKind::Structural, spec.params);
    if (spec.bend) {
        for (int i = 0; i + 2 < n; ++i)
            addConstraint(
                cloth, std::uint32_t(i), std::uint32_t(i + 2), ConstraintKind::Bend, spec.bendParams);
    }
    cloth.touchTopology();
    return cloth;
}

Cloth makeExplicit(const ExplicitSpec &spec)
{
    Cloth cloth;
    cloth.name = "cloth";
    const std::size_t n = spec.positions.size();
    for (std::size_t i = 0; i < n; ++i) {
        const float m = i < spec.masses.size() ? spec.masses[i] : 1.f;
        cloth.particles.add(spec.positions[i], m);
    }
    cloth.triangles = spec.triangles;
    if (!spec.constraints.empty()) {
        cloth.constraints = spec.constraints;
    } else {
        // Unique undirected triangle edges, sorted so the order does not depend on how the
        // triangles happen to be listed twice over a shared edge.
        std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
        edges.reserve(spec.triangles.size() * 3);
        for (const Triangle &t : spec.triangles) {
            for (int e = 0; e < 3; ++e) {
                const std::uint32_t a = t.v[e], b = t.v[(e + 1) % 3];
                if (a < n && b < n && a != b)
                    edges.emplace_back(std::min(a, b), std::max(a, b));
            }
        }
        std::sort(edges.begin(), edges.end());
        edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
        for (const auto &[a, b] : edges)
            addConstraint(cloth, a, b, ConstraintKind::Structural, spec.edgeParams);
    }
    if (spec.masses.empty())
        assignMassFromArea(cloth, spec.arealDensity, 0.01f);
    for (std::size_t i = 0; i < n && i < spec.kinds.size(); ++i)
        cloth.particles.setKind(std::uint32_t(i), spec.kinds[i]);
    cloth.touchTopology();
    return cloth;
}

void assignMassFromArea(Cloth &cloth, float arealDensity, float fallbackMass)
{
    Particles &p = cloth.particles;
    std::vector<double> mass(p.size(), 0.0);
    for (const Triangle &t : cloth.triangles) {
        if (t.v[0] >= p.size() || t.v[1] >= p.size() || t.v[2] >= p.size())
            continue; // reported by Cloth::validate()
        const double area
            = 0.5 * double(length(cross(p.rest[t.v[1]] - p.rest[t.v[0]], p.rest[t.v[2]] - p.rest[t.v[0]])));
        for (std::uint32_t v : t.v)
            mass[v] += double(arealDensity) * area / 3.0;
    }
    for (std::size_t i = 0; i < p.size(); ++i)
        p.setMass(std::uint32_t(i), mass[i] > 0.0 ? float(mass[i]) : fallbackMass);
}

} // namespace drape
