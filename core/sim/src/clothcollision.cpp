// Cloth–cloth collision: particles of one cloth against the triangles of the others.
//
// Particle–particle tests (as self-collision does) let a particle slip between the particles
// of another sheet whenever the thickness is below the particle spacing, so a napkin would
// fall through a tablecloth. Here each particle is tested against the other cloths'
// triangles (closest point on a triangle, Ericson 2004, "Real-Time Collision Detection"
// §5.1.5) and kept t_self + t_other away from it, on the side of the triangle its previous
// position was on (Bridson, Fedkiw, Anderson 2002 use the same side rule for cloth
// thickness). The other cloths are taken as they were at the start of the frame (one-way
// within a cloth's substeps; each cloth gets its turn, so a stack settles from both sides),
// which is exact for resting contact and lags fast relative motion by one frame.
#include "sim/clothcollision.h"

#include "base/closestpoint.h"

#include <algorithm>
#include <cmath>

namespace drape::detail {

namespace {

std::uint32_t bucket(std::int64_t x, std::int64_t y, std::int64_t z, std::size_t size)
{
    // Teschner et al. 2003 spatial hash.
    const std::uint64_t h = (std::uint64_t(x) * 73856093ull) ^ (std::uint64_t(y) * 19349663ull)
        ^ (std::uint64_t(z) * 83492791ull);
    return std::uint32_t(h % size);
}

std::int64_t cellOf(float v, float cell)
{
    const double c = std::floor(double(v) / double(cell));
    return std::isfinite(c) ? std::int64_t(std::clamp(c, -1e9, 1e9)) : 0;
}

template <typename F> void forCells(const Vec3 &lo, const Vec3 &hi, float cell, F &&f)
{
    for (std::int64_t z = cellOf(lo.z, cell); z <= cellOf(hi.z, cell); ++z)
        for (std::int64_t y = cellOf(lo.y, cell); y <= cellOf(hi.y, cell); ++y)
            for (std::int64_t x = cellOf(lo.x, cell); x <= cellOf(hi.x, cell); ++x)
                f(x, y, z);
}

} // namespace

void buildClothSurfaces(const std::vector<Cloth> &cloths, ClothSurfaces &out)
{
    out.tris.clear();
    float longest = 0.f, thickest = 0.f;
    for (std::uint32_t k = 0; k < cloths.size(); ++k) {
        const Cloth &cl = cloths[k];
        const std::vector<Vec3> &x = cl.particles.position;
        for (const Triangle &t : cl.triangles) {
            ClothSurfaces::Tri tri { x[t.v[0]], x[t.v[1]], x[t.v[2]], {}, cl.thickness, k };
            const Vec3 n = cross(tri.b - tri.a, tri.c - tri.a);
            const float area2 = length(n);
            if (!(area2 > 1e-12f))
                continue;
            tri.normal = n / area2;
            longest
                = std::max({ longest, length(tri.b - tri.a), length(tri.c - tri.b), length(tri.a - tri.c) });
            thickest = std::max(thickest, cl.thickness);
            out.tris.push_back(tri);
        }
    }
    if (out.tris.empty())
        return;
    // Cells about a triangle across; each triangle is entered in every cell its box, grown by
    // the largest reach (two thicknesses), touches, so a particle looks in its own cell only.
    out.cell = std::max(longest, 4.f * thickest);
    const float reach = 2.f * thickest;
    const std::size_t size = 4 * out.tris.size() + 1;
    out.cellStart.assign(size + 1, 0);
    const auto box = [&](const ClothSurfaces::Tri &t, Vec3 &lo, Vec3 &hi) {
        lo = { std::min({ t.a.x, t.b.x, t.c.x }) - reach, std::min({ t.a.y, t.b.y, t.c.y }) - reach,
            std::min({ t.a.z, t.b.z, t.c.z }) - reach };
        hi = { std::max({ t.a.x, t.b.x, t.c.x }) + reach, std::max({ t.a.y, t.b.y, t.c.y }) + reach,
            std::max({ t.a.z, t.b.z, t.c.z }) + reach };
    };
    for (const ClothSurfaces::Tri &t : out.tris) {
        Vec3 lo, hi;
        box(t, lo, hi);
        forCells(
            lo, hi, out.cell, [&](auto x, auto y, auto z) { ++out.cellStart[bucket(x, y, z, size) + 1]; });
    }
    for (std::size_t b = 0; b < size; ++b)
        out.cellStart[b + 1] += out.cellStart[b];
    out.entries.assign(out.cellStart[size], 0);
    std::vector<std::uint32_t> cursor(out.cellStart.begin(), out.cellStart.end() - 1);
    for (std::uint32_t i = 0; i < out.tris.size(); ++i) {
        Vec3 lo, hi;
        box(out.tris[i], lo, hi);
        forCells(lo, hi, out.cell,
            [&](auto x, auto y, auto z) { out.entries[cursor[bucket(x, y, z, size)]++] = i; });
    }
}

std::uint32_t collideWithOtherCloths(Cloth &cloth, std::uint32_t self, const ClothSurfaces &surfaces)
{
    if (surfaces.empty())
        return 0;
    Particles &p = cloth.particles;
    const std::size_t size = surfaces.cellStart.size() - 1;
    std::uint32_t moved = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (p.invMass[i] == 0.f)
            continue;
        Vec3 &x = p.position[i];
        const std::uint32_t b = bucket(
            cellOf(x.x, surfaces.cell), cellOf(x.y, surfaces.cell), cellOf(x.z, surfaces.cell), size);
        bool hit = false;
        for (std::uint32_t e = surfaces.cellStart[b]; e < surfaces.cellStart[b + 1]; ++e) {
            const ClothSurfaces::Tri &t = surfaces.tris[surfaces.entries[e]];
            if (t.cloth == self)
                continue;
            const float gap = cloth.thickness + t.thickness;
            const Vec3 q = closestPointOnTriangle(x, t.a, t.b, t.c);
            if (lengthSquared(x - q) >= gap * gap)
                continue;
            // The side the particle came from decides the way out, so a fast particle that
            // crossed the surface within the substep is put back, not pushed through.
            const float side = dot(p.previous[i] - q, t.normal) >= 0.f ? 1.f : -1.f;
            const float h = dot(x - q, t.normal) * side;
            if (h < gap) {
                x += t.normal * (side * (gap - h));
                hit = true;
            }
        }
        moved += hit ? 1u : 0u;
    }
    return moved;
}

} // namespace drape::detail
