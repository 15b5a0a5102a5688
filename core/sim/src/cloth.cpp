// Particle arrays and cloth-level helpers: kind/mass bookkeeping, validation, normals.
#include "sim/cloth.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include <emmintrin.h>

namespace drape {

namespace {

float inverseMassFor(float massKg, ParticleKind k)
{
    // Static and kinematic particles are moved only from outside: inverse mass 0.
    return (k == ParticleKind::Dynamic && massKg > 0.f) ? 1.f / massKg : 0.f;
}

std::string vecText(const Vec3 &v)
{
    return "(" + std::to_string(v.x) + ", " + std::to_string(v.y) + ", " + std::to_string(v.z) + ")";
}

// Each of `count` floats is finite: x - x is +0 for a finite x and NaN for ±inf and NaN, so
// the bitwise OR of all differences is zero exactly when all are finite. Four lanes at a
// time (SSE2, the x86-64 baseline); the check runs before every step.
bool allFinite(const float *x, std::size_t count)
{
    __m128 acc = _mm_setzero_ps();
    std::size_t i = 0;
    for (; i + 4 <= count; i += 4) {
        const __m128 v = _mm_loadu_ps(x + i);
        acc = _mm_or_ps(acc, _mm_sub_ps(v, v));
    }
    bool ok = _mm_movemask_epi8(_mm_cmpeq_epi32(_mm_castps_si128(acc), _mm_setzero_si128())) == 0xffff;
    for (; i < count; ++i)
        ok &= std::isfinite(x[i]);
    return ok;
}

bool allFinite(const Vec3 *v, std::size_t count)
{
    static_assert(sizeof(Vec3) == 3 * sizeof(float));
    return allFinite(&v->x, 3 * count);
}

// Each of `count` masses is positive and finite and each kind is one of ParticleKind's:
// sixteen at a time (SSE2), since the check runs before every step.
bool massesAndKindsValid(const float *mass, const ParticleKind *kind, std::size_t count)
{
    static_assert(sizeof(ParticleKind) == 1);
    const auto *k = reinterpret_cast<const std::uint8_t *>(kind);
    const __m128 zero = _mm_setzero_ps(), inf = _mm_set1_ps(std::numeric_limits<float>::infinity());
    const __m128i highest = _mm_set1_epi8(char(ParticleKind::Static));
    __m128 good = _mm_castsi128_ps(_mm_set1_epi32(-1));
    __m128i above = _mm_setzero_si128(); // bytes of a kind past Static
    std::size_t i = 0;
    for (; i + 16 <= count; i += 16) {
        for (std::size_t q = 0; q < 16; q += 4) {
            const __m128 m = _mm_loadu_ps(mass + i + q);
            good = _mm_and_ps(good, _mm_and_ps(_mm_cmpgt_ps(m, zero), _mm_cmplt_ps(m, inf)));
        }
        above = _mm_or_si128(
            above, _mm_subs_epu8(_mm_loadu_si128(reinterpret_cast<const __m128i *>(k + i)), highest));
    }
    bool ok = _mm_movemask_ps(good) == 0xF
        && _mm_movemask_epi8(_mm_cmpeq_epi8(above, _mm_setzero_si128())) == 0xFFFF;
    constexpr float infinity = std::numeric_limits<float>::infinity();
    for (; i < count; ++i)
        ok &= (mass[i] > 0.f) & (mass[i] < infinity) & (k[i] <= std::uint8_t(ParticleKind::Static));
    return ok;
}

// Every vertex index of `count` triangles is below `n`: four indices at a time (SSE2 compares
// signed lanes, so both sides are offset by 2^31 to compare them as unsigned).
bool triangleIndicesBelow(const Triangle *triangles, std::size_t triangleCount, std::size_t n)
{
    static_assert(sizeof(Triangle) == 3 * sizeof(std::uint32_t));
    if (triangleCount == 0)
        return true;
    if (n == 0 || n > 0xFFFFFFFFu)
        return n != 0;
    const std::uint32_t *v = triangles->v;
    const std::size_t count = 3 * triangleCount;
    const __m128i bias = _mm_set1_epi32(std::int32_t(0x80000000u));
    const __m128i last = _mm_xor_si128(_mm_set1_epi32(std::int32_t(std::uint32_t(n - 1))), bias);
    __m128i past = _mm_setzero_si128();
    std::size_t i = 0;
    for (; i + 4 <= count; i += 4) {
        const __m128i x = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i *>(v + i)), bias);
        past = _mm_or_si128(past, _mm_cmpgt_epi32(x, last));
    }
    bool ok = _mm_movemask_epi8(past) == 0;
    for (; i < count; ++i)
        ok &= v[i] < n;
    return ok;
}

} // namespace

std::uint32_t Particles::add(Vec3 p, float massKg, ParticleKind k)
{
    const auto index = std::uint32_t(position.size());
    position.push_back(p);
    previous.push_back(p);
    velocity.push_back({});
    rest.push_back(p);
    mass.push_back(massKg);
    invMass.push_back(inverseMassFor(massKg, k));
    kind.push_back(k);
    return index;
}

void Particles::resize(std::size_t n)
{
    position.resize(n);
    previous.resize(n);
    velocity.resize(n);
    rest.resize(n);
    mass.resize(n, 0.f);
    invMass.resize(n, 0.f);
    kind.resize(n, ParticleKind::Dynamic);
}

void Particles::setKind(std::uint32_t i, ParticleKind k)
{
    kind[i] = k;
    invMass[i] = inverseMassFor(mass[i], k);
}

void Particles::setMass(std::uint32_t i, float massKg)
{
    mass[i] = massKg;
    invMass[i] = inverseMassFor(massKg, kind[i]);
}

namespace {

bool sameBits(const ConstraintMaterial &x, const ConstraintMaterial &y)
{
    return std::memcmp(&x, &y, sizeof(ConstraintMaterial)) == 0;
}

std::uint64_t hashBits(const ConstraintMaterial &m)
{
    std::uint32_t words[5];
    std::memcpy(words, &m, sizeof words);
    std::uint64_t h = 0x9E3779B97F4A7C15ull;
    for (const std::uint32_t w : words) {
        h = (h ^ w) * 0xFF51AFD7ED558CCDull;
        h ^= h >> 32;
    }
    return h;
}

ConstraintMaterial materialOf(const DistanceConstraint &c)
{
    return { .compliance = c.compliance,
        .damping = c.damping,
        .tearStrain = c.tearStrain,
        .tearForce = c.tearForce,
        .kind = c.kind };
}

} // namespace

bool ConstraintRecords::operator==(const ConstraintRecords &o) const
{
    if (size() != o.size())
        return false;
    for (std::size_t i = 0; i < size(); ++i) {
        if (!((*this)[i] == o[i]))
            return false;
    }
    return true;
}

void ConstraintRecords::resize(std::size_t n)
{
    if (n == size())
        return;
    const PackedConstraint fresh = n > size() ? pack(DistanceConstraint {}) : PackedConstraint {};
    const std::size_t from = std::min(n, size());
    holdFrom(from, std::vector<PackedConstraint>(n - from, fresh));
}

std::uint32_t ConstraintRecords::materialIndex(const DistanceConstraint &c)
{
    const ConstraintMaterial m = materialOf(c);
    // Runs of records of one material (a builder's rows, a family's retune) hit the last one.
    if (m_lookup.last < m_materials.size() && sameBits(m_materials[m_lookup.last], m))
        return m_lookup.last;
    Lookup &l = m_lookup;
    const auto rebuild = [&](std::size_t slotCount) {
        l.table.assign(slotCount, 0);
        const std::size_t mask = slotCount - 1;
        for (std::size_t i = 0; i < m_materials.size(); ++i) {
            std::size_t h = std::size_t(hashBits(m_materials[i])) & mask;
            while (l.table[h] != 0)
                h = (h + 1) & mask;
            l.table[h] = std::uint32_t(i + 1);
        }
    };
    if (l.table.size() < 2 * (m_materials.size() + 1)) {
        std::size_t slotCount = 16;
        while (slotCount < 4 * (m_materials.size() + 1))
            slotCount *= 2;
        rebuild(slotCount);
    }
    const std::uint64_t hash = hashBits(m);
    std::size_t mask = l.table.size() - 1;
    std::size_t h = std::size_t(hash) & mask;
    for (; l.table[h] != 0; h = (h + 1) & mask) {
        const std::uint32_t i = l.table[h] - 1;
        if (sameBits(m_materials[i], m)) {
            l.last = i;
            return i;
        }
    }
    // A new material. Past a threshold, first drop those no record uses any more (edits
    // leave them behind), so that the table stays about the size of the materials in use.
    if (m_materials.size() >= m_compactAt) {
        compactMaterials();
        m_compactAt = std::max<std::size_t>(64, 2 * m_materials.size());
        return materialIndex(c);
    }
    if (m_materials.size() > PackedConstraint::kMaterialMask)
        throw std::length_error("a cloth's constraints have more than 16,777,216 different materials");
    const auto index = std::uint32_t(m_materials.size());
    m_materials.push_back(m);
    l.table[h] = index + 1;
    l.last = index;
    return index;
}

void ConstraintRecords::compactMaterials()
{
    // The records as they are: a bulk change's own vector while it packs (Pending), else
    // the blocks, renumbered in a vector and held again.
    std::vector<PackedConstraint> held;
    if (!m_pending)
        held = m_packed.toVector();
    std::vector<PackedConstraint> &records = m_pending ? *m_pending : held;
    std::vector<std::uint32_t> renumber(m_materials.size(), ~std::uint32_t(0));
    for (const PackedConstraint &p : records)
        renumber[p.material()] = 0;
    std::uint32_t next = 0;
    for (std::size_t i = 0; i < m_materials.size(); ++i) {
        if (renumber[i] == 0) {
            renumber[i] = next;
            m_materials[next++] = m_materials[i];
        }
    }
    m_materials.resize(next);
    for (PackedConstraint &p : records)
        p.materialAndColour
            = renumber[p.material()] | (p.materialAndColour & ~PackedConstraint::kMaterialMask);
    if (!m_pending)
        m_packed.assign(held.data(), held.size());
    m_lookup = {};
    m_contentId = 0;
}

std::uint64_t ConstraintRecords::contentId() const
{
    static std::atomic<std::uint64_t> drawn { 0 };
    if (m_contentId == 0)
        m_contentId = drawn.fetch_add(1, std::memory_order_relaxed) + 1;
    return m_contentId;
}

double Cloth::totalMass() const
{
    double sum = 0.0;
    for (float m : particles.mass)
        sum += m;
    return sum;
}

bool Cloth::validExceptConstraints() const
{
    return arraysAndSettingsValid() && valuesValid(0, particles.size(), 0, triangles.size());
}

bool Cloth::arraysAndSettingsValid() const
{
    const Particles &p = particles;
    const std::size_t n = p.position.size();
    return p.previous.size() == n && p.velocity.size() == n && p.rest.size() == n && p.mass.size() == n
        && p.invMass.size() == n && p.kind.size() == n && tetherStretch >= 0.f && std::isfinite(tetherStretch)
        && bending.rigidity >= 0.f && std::isfinite(bending.rigidity) && bending.warpRigidity >= 0.f
        && std::isfinite(bending.warpRigidity) && isFinite(bending.warpAxis) && thickness >= 0.f
        && std::isfinite(thickness);
}

bool Cloth::valuesValid(
    std::size_t begin, std::size_t end, std::size_t triangleBegin, std::size_t triangleEnd) const
{
    const Particles &p = particles;
    const std::size_t count = end - begin;
    bool ok = allFinite(p.position.data() + begin, count) & allFinite(p.previous.data() + begin, count)
        & allFinite(p.velocity.data() + begin, count) & allFinite(p.rest.data() + begin, count);
    ok &= massesAndKindsValid(p.mass.data() + begin, p.kind.data() + begin, count);
    ok &= triangleIndicesBelow(triangles.data() + triangleBegin, triangleEnd - triangleBegin, p.size());
    return ok;
}

std::string Cloth::validate() const
{
    if (validExceptConstraints()) {
        bool ok = true;
        for (const DistanceConstraint &k : constraints)
            ok &= constraintValid(k, particles.size());
        if (ok)
            return {};
    }
    // Something is wrong: find the first problem and name it.
    const Particles &p = particles;
    const std::size_t n = p.position.size();
    if (p.previous.size() != n || p.velocity.size() != n || p.rest.size() != n || p.mass.size() != n
        || p.invMass.size() != n || p.kind.size() != n)
        return "particle arrays have different lengths (position has " + std::to_string(n) + ")";
    for (std::size_t i = 0; i < n; ++i) {
        const bool massOk = p.mass[i] > 0.f && std::isfinite(p.mass[i]);
        if (isFinite(p.position[i]) && isFinite(p.previous[i]) && isFinite(p.velocity[i])
            && isFinite(p.rest[i]) && massOk && std::uint8_t(p.kind[i]) <= std::uint8_t(ParticleKind::Static))
            continue;
        const std::string where = "particle " + std::to_string(i) + ": ";
        if (!isFinite(p.position[i]))
            return where + "position " + vecText(p.position[i]) + " is not finite";
        if (!isFinite(p.previous[i]) || !isFinite(p.velocity[i]))
            return where + "previous position or velocity is not finite";
        if (!isFinite(p.rest[i]))
            return where + "rest position " + vecText(p.rest[i]) + " is not finite";
        if (!massOk)
            return where + "mass " + std::to_string(p.mass[i]) + " kg is out of range, allowed > 0";
        return where + "kind " + std::to_string(int(p.kind[i])) + " is unknown";
    }
    for (std::size_t c = 0; c < constraints.size(); ++c) {
        const DistanceConstraint &k = constraints[c];
        if (constraintValid(k, n))
            continue;
        const std::string where = "constraint " + std::to_string(c) + ": ";
        if (k.a >= n || k.b >= n)
            return where + "particle " + std::to_string(k.a >= n ? k.a : k.b) + " out of range, cloth has "
                + std::to_string(n);
        if (k.a == k.b)
            return where + "joins particle " + std::to_string(k.a) + " to itself";
        if (!(k.restLength >= 0.f) || !std::isfinite(k.restLength))
            return where + "rest length " + std::to_string(k.restLength) + " m is out of range, allowed >= 0";
        if (!(k.compliance >= 0.f) || !std::isfinite(k.compliance))
            return where + "compliance " + std::to_string(k.compliance)
                + " m/N is out of range, allowed >= 0";
        if (!(k.damping >= 0.f) || !std::isfinite(k.damping))
            return where + "damping " + std::to_string(k.damping) + " N·s/m is out of range, allowed >= 0";
        if (!(k.tearForce > 0.f))
            return where + "tear force " + std::to_string(k.tearForce) + " N is out of range, allowed > 0";
        return where + "tear strain " + std::to_string(k.tearStrain)
            + " is out of range, allowed > 0"; // NaN too; +inf = never
    }
    for (std::size_t t = 0; t < triangles.size(); ++t) {
        for (std::uint32_t v : triangles[t].v) {
            if (v >= n)
                return "triangle " + std::to_string(t) + ": particle " + std::to_string(v)
                    + " out of range, cloth has " + std::to_string(n);
        }
    }
    if (!(tetherStretch >= 0.f) || !std::isfinite(tetherStretch))
        return "tether stretch " + std::to_string(tetherStretch) + " is out of range, allowed >= 0 (0 = off)";
    if (!(bending.rigidity >= 0.f) || !std::isfinite(bending.rigidity))
        return "bend rigidity " + std::to_string(bending.rigidity) + " N·m is out of range, allowed >= 0";
    if (!(bending.warpRigidity >= 0.f) || !std::isfinite(bending.warpRigidity))
        return "warp bend rigidity " + std::to_string(bending.warpRigidity) + " N·m is out of range, allowed >= 0";
    if (!isFinite(bending.warpAxis))
        return "warp axis " + vecText(bending.warpAxis) + " is not finite";
    if (!(thickness >= 0.f) || !std::isfinite(thickness))
        return "thickness " + std::to_string(thickness) + " m is out of range, allowed >= 0";
    return {};
}

void computeVertexNormals(const Cloth &cloth, std::vector<Vec3> &normals)
{
    const std::vector<Vec3> &x = cloth.particles.position;
    normals.assign(x.size(), Vec3 {});
    for (const Triangle &t : cloth.triangles) {
        // The unnormalised cross product is twice the area times the unit normal: summing it
        // weights each face by its area.
        const Vec3 n = cross(x[t.v[1]] - x[t.v[0]], x[t.v[2]] - x[t.v[0]]);
        for (std::uint32_t v : t.v)
            normals[v] += n;
    }
    for (Vec3 &n : normals)
        n = normalized(n, { 0.f, 0.f, 1.f });
}

} // namespace drape
