// A cloth's placement: scale first (it changes lengths and masses, so it goes into the
// description the cloth is built from), then a rigid turn and move of the built rest geometry,
// which changes no length, mass or constraint. Pins are particle indices, so they move along.
#include "placement.h"

#include "base/rotation.h"

#include <algorithm>
#include <cstddef>

namespace drape {

namespace {

Vec3 centreOf(const std::vector<Vec3> &points)
{
    if (points.empty())
        return {};
    Vec3 lo = points.front(), hi = points.front();
    for (const Vec3 &p : points) {
        lo = { std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z) };
        hi = { std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z) };
    }
    return (lo + hi) * 0.5f;
}

} // namespace

Vec3 placementPivot(const ClothDesc &desc)
{
    switch (desc.source) {
    case ClothSource::Grid: {
        // makeGrid: across along +X, down along -Y (vertical) or +Z (horizontal).
        const GridDesc &g = desc.grid;
        const Vec3 down = g.orientation == GridOrientation::Vertical ? Vec3 { 0.f, -g.height, 0.f }
                                                                      : Vec3 { 0.f, 0.f, g.height };
        return g.origin + (Vec3 { g.width, 0.f, 0.f } + down) * 0.5f;
    }
    case ClothSource::Rope:
        return desc.rope.start + normalized(desc.rope.direction, { 0.f, -1.f, 0.f }) * (desc.rope.length * 0.5f);
    case ClothSource::Explicit:
        return centreOf(desc.explicitData.rest);
    }
    return {};
}

namespace detail {

ClothDesc scaledAbout(ClothDesc desc, const Vec3 &pivot, float s)
{
    auto about = [&](const Vec3 &p) { return pivot + (p - pivot) * s; };
    switch (desc.source) {
    case ClothSource::Grid:
        desc.grid.origin = about(desc.grid.origin);
        desc.grid.width *= s;
        desc.grid.height *= s;
        break;
    case ClothSource::Rope:
        desc.rope.start = about(desc.rope.start);
        desc.rope.length *= s;
        desc.rope.linkMass *= s;
        break;
    case ClothSource::Explicit: {
        ExplicitDesc &e = desc.explicitData;
        for (Vec3 &p : e.rest)
            p = about(p);
        for (float &m : e.mass)
            m *= s * s;
        for (DistanceConstraint &c : e.constraints)
            c.restLength *= s;
        e.spacing *= s;
        break;
    }
    }
    desc.placement.scale = 1.f;
    return desc;
}

void placeRigidly(Cloth &cloth, const Placement &placement, const Vec3 &pivot)
{
    const Mat3 r = rotationFromEuler(placement.rotation);
    Particles &p = cloth.particles;
    for (std::size_t i = 0; i < p.size(); ++i) {
        p.rest[i] = pivot + placement.offset + r * (p.rest[i] - pivot);
        p.position[i] = p.rest[i];
        p.previous[i] = p.rest[i];
    }
}

} // namespace detail

} // namespace drape
