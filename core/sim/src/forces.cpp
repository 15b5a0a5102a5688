// Gravity and wind. The wind model is the usual aerodynamic one for cloth triangles
// (Keckeisen et al. 2004, "Interactive Cloth Simulation in Virtual Environments"; also
// Provot-style cloth demos): with the relative air velocity v_rel = v_wind - v_triangle,
// unit normal n, area A and air density ρ,
//   drag (pressure) force  F_d = ½ ρ C_d A (v_rel·n) |v_rel| n
//   lift force             F_l = ½ ρ C_l A |v_rel|² cosθ sinθ l,  cosθ = |v̂_rel·n|,
// where l is the unit vector perpendicular to v_rel in the plane of v_rel and n, pointing
// along the normal side facing away from the flow. Both vanish for a triangle edge-on to the
// flow (v_rel·n = 0); drag is largest face-on, lift at 45°.
#include "forces.h"

#include "xpbdkernel.h"

#include <cmath>

namespace drape {

namespace {

// Integer hash (a variant of the "lowbias32" finaliser) → uniform float in [-1, 1].
float hashUnit(std::uint32_t seed, std::int64_t i)
{
    std::uint32_t x
        = seed * 0x9E3779B9u ^ std::uint32_t(i) ^ (std::uint32_t(std::uint64_t(i) >> 32) * 0x85EBCA6Bu);
    x ^= x >> 16;
    x *= 0x7FEB352Du;
    x ^= x >> 15;
    x *= 0x846CA68Bu;
    x ^= x >> 16;
    return float(x) * (2.f / 4294967295.f) - 1.f;
}

} // namespace

float gustNoise(std::uint32_t seed, double x)
{
    const double cell = std::floor(x);
    const auto i = std::int64_t(cell);
    const float f = float(x - cell);
    const float s = f * f * (3.f - 2.f * f); // smoothstep: continuous first derivative
    return hashUnit(seed, i) + (hashUnit(seed, i + 1) - hashUnit(seed, i)) * s;
}

Vec3 windVelocity(const WindSettings &wind, double t)
{
    const Vec3 base = normalized(wind.direction, { 1.f, 0.f, 0.f });
    if (wind.speed <= 0.f)
        return {};
    if (wind.gustStrength <= 0.f || wind.gustFrequency <= 0.f)
        return base * wind.speed;
    const double x = t * double(wind.gustFrequency);
    // Speed varies by ±gustStrength; the direction wanders by up to ~0.3 rad at full strength.
    const float speed = wind.speed * std::max(0.f, 1.f + wind.gustStrength * gustNoise(wind.seed, x));
    const Vec3 wobble { gustNoise(wind.seed + 1u, x), gustNoise(wind.seed + 2u, x),
        gustNoise(wind.seed + 3u, x) };
    const Vec3 dir = normalized(base + wobble * (0.3f * wind.gustStrength), base);
    return dir * speed;
}

float airDampingFactor(float airDamping, double dt)
{
    return float(std::exp(-double(airDamping) * dt));
}

namespace {

// One triangle's share of addWindForces.
void windOnTriangle(const Triangle &t, const Particles &p, Vec3 *force, const detail::WindFactors &k)
{
    const std::uint32_t a = t.v[0], b = t.v[1], c = t.v[2];
    const Vec3 areaNormal = cross(p.position[b] - p.position[a], p.position[c] - p.position[a]); // 2A n
    const float twiceArea = length(areaNormal);
    if (twiceArea < 1e-12f)
        return;
    const Vec3 n = areaNormal / twiceArea;
    const float area = 0.5f * twiceArea;
    const Vec3 vTri = (p.velocity[a] + p.velocity[b] + p.velocity[c]) * (1.f / 3.f);
    const Vec3 vRel = k.wind - vTri;
    const float speed = length(vRel);
    if (speed < 1e-9f)
        return;
    const float vn = dot(vRel, n);
    Vec3 f = n * (k.halfRhoDrag * area * vn * speed);
    if (k.lift) {
        const Vec3 vHat = vRel / speed;
        const Vec3 nFlow = vn >= 0.f ? n : -n; // normal oriented downstream
        const float cosT = dot(nFlow, vHat);
        const Vec3 across = nFlow - vHat * cosT; // |across| = sinθ
        const float sinT = length(across);
        if (sinT > 1e-6f)
            f += across * (k.halfRhoLift * area * speed * speed * cosT);
    }
    const Vec3 share = f * (1.f / 3.f);
    force[a] += share;
    force[b] += share;
    force[c] += share;
}

} // namespace

void addWindForces(const Cloth &cloth, const WindSettings &wind, const Vec3 &windVel, Vec3 *force)
{
    const Particles &p = cloth.particles;
    const float halfRho = 0.5f * wind.airDensity;
    detail::WindFactors k;
    k.wind = windVel;
    k.halfRhoDrag = halfRho * wind.dragCoefficient;
    k.halfRhoLift = halfRho * wind.liftCoefficient;
    k.lift = wind.liftCoefficient > 0.f;
    std::size_t done = 0;
    if (detail::xpbdKernelIsa() >= detail::KernelIsa::Avx2)
        done = detail::addWindForcesAvx2(
            cloth.triangles.data(), cloth.triangles.size(), p.position.data(), p.velocity.data(), force, k);
    for (std::size_t t = done; t < cloth.triangles.size(); ++t)
        windOnTriangle(cloth.triangles[t], p, force, k);
}

bool windActs(const Cloth &cloth, const WorldSettings &world)
{
    return world.wind.speed > 0.f && !cloth.triangles.empty();
}

void accumulateExternalForces(
    const Cloth &cloth, const WorldSettings &world, double t, std::vector<Vec3> &force)
{
    const Particles &p = cloth.particles;
    const std::size_t n = p.size();
    force.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        force[i] = world.gravity * p.mass[i];
    if (windActs(cloth, world))
        addWindForces(cloth, world.wind, windVelocity(world.wind, t), force.data());
}

} // namespace drape
