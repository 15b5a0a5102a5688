#include "tools/pinpresets.h"

#include <algorithm>
#include <array>

namespace drape {

namespace {

bool gridMatches(const ClothDesc &desc, const Cloth &cloth)
{
    return desc.source == ClothSource::Grid && desc.grid.across >= 1 && desc.grid.down >= 1
        && cloth.particles.size() >= std::size_t(desc.grid.across) * std::size_t(desc.grid.down);
}

void sortUnique(std::vector<std::uint32_t> &v)
{
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
}

} // namespace

std::vector<std::uint32_t> topEdgeParticles(const ClothDesc &desc, const Cloth &cloth)
{
    std::vector<std::uint32_t> out;
    const std::vector<Vec3> &rest = cloth.particles.rest;
    if (rest.empty())
        return out;
    if (gridMatches(desc, cloth)) {
        for (int i = 0; i < desc.grid.across; ++i)
            out.push_back(std::uint32_t(i));
        return out;
    }
    if (desc.source == ClothSource::Rope)
        return {0};
    float minY = rest[0].y, maxY = rest[0].y, minZ = rest[0].z, maxZ = rest[0].z;
    for (const Vec3 &p : rest) {
        minY = std::min(minY, p.y);
        maxY = std::max(maxY, p.y);
        minZ = std::min(minZ, p.z);
        maxZ = std::max(maxZ, p.z);
    }
    const bool flat = (maxY - minY) < 1e-3f * std::max(1e-3f, maxZ - minZ);
    // One "row": within half a percent of the extent of the chosen side.
    const float tol = flat ? 5e-3f * (maxZ - minZ) + 1e-6f : 5e-3f * (maxY - minY) + 1e-6f;
    for (std::uint32_t i = 0; i < rest.size(); ++i) {
        if (flat ? rest[i].z <= minZ + tol : rest[i].y >= maxY - tol)
            out.push_back(i);
    }
    return out;
}

std::vector<std::uint32_t> cornerParticles(const ClothDesc &desc, const Cloth &cloth)
{
    std::vector<std::uint32_t> out;
    const std::vector<Vec3> &rest = cloth.particles.rest;
    if (rest.empty())
        return out;
    if (gridMatches(desc, cloth)) {
        const std::uint32_t a = std::uint32_t(desc.grid.across), d = std::uint32_t(desc.grid.down);
        out = {0, a - 1, (d - 1) * a, d * a - 1};
        sortUnique(out);
        return out;
    }
    if (desc.source == ClothSource::Rope) {
        out = {0, std::uint32_t(rest.size() - 1)};
        sortUnique(out);
        return out;
    }
    Vec3 lo = rest[0], hi = rest[0];
    for (const Vec3 &p : rest) {
        lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
        hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
    }
    const Vec3 ext = hi - lo;
    std::array<int, 3> axes{0, 1, 2};
    std::sort(axes.begin(), axes.end(), [&](int l, int r) { return ext[l] > ext[r]; });
    const int u = axes[0], v = axes[1];
    for (float su : {-1.f, 1.f}) {
        for (float sv : {-1.f, 1.f}) {
            std::uint32_t best = 0;
            float bestScore = -1e30f;
            for (std::uint32_t i = 0; i < rest.size(); ++i) {
                const float score = su * rest[i][u] + sv * rest[i][v];
                if (score > bestScore) {
                    bestScore = score;
                    best = i;
                }
            }
            out.push_back(best);
        }
    }
    sortUnique(out);
    return out;
}

} // namespace drape
