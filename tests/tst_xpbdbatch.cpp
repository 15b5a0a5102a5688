// The batched XPBD kernel (core/xpbdbatch.*): a pass over the padded colour streams must equal
// a plain one-constraint-at-a-time Gauss-Seidel pass in colour order, and single constraints
// must take the closed-form XPBD step (Macklin et al. 2016, eq. 18).
#include "sim/builders.h"
#include "sim/simulation.h"
#include "solvercache.h"
#include "xpbdbatch.h"
#include "xpbdkernel.h"
#include "xpbdworker.h"

#include <QTest>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <set>

using namespace drape;
using namespace drape::detail;

namespace {

// Deterministic pseudo-random numbers in [0, 1) (a 32-bit LCG, Numerical Recipes constants).
struct Lcg {
    std::uint32_t state = 12345u;
    float next()
    {
        state = state * 1664525u + 1013904223u;
        return float(state >> 8) / float(1u << 24);
    }
};

// The link of a constraint in the solver's float arithmetic (core/sim/src/xpbdbatch.h,
// SlotLink), written out for positions measured from the world origin (the streams' spans
// are zero until a step sets them): d = x_a - x_b, |d|, and the stretch S = |d|² - L² evaluated
// as d·d - L² with L² rounded once from double. Multiply-adds are rounded once (std::fma), as
// the kernels' are. Returns false when |d| < 1e-9 m.
// d·e with each product after the first added in one rounding: x, then y, then z.
float fusedDot(const Vec3 &d, const Vec3 &e)
{
    return std::fma(d.z, e.z, std::fma(d.y, e.y, d.x * e.x));
}

struct RefLink {
    Vec3 d;
    float len = 0.f, lenRest = 0.f, S = 0.f;
};

bool referenceLink(const Particles &p, const DistanceConstraint &c, RefLink &l)
{
    l.d = p.position[c.a] - p.position[c.b];
    const float dd = fusedDot(l.d, l.d);
    l.len = std::sqrt(dd);
    if (!(l.len >= 1e-9f))
        return false;
    l.lenRest = l.len + c.restLength;
    const float restSquared = float(-(double(c.restLength) * double(c.restLength)));
    l.S = restSquared + dd;
    return true;
}

// Reference: Macklin 2016 eq. 18 with the §3.5 damping, one constraint after the other in the
// cache's colour order (the streams' source indices, padding skipped; streamsCoverEveryConstraintOnce
// checks that they list every constraint once), λ indexed by constraint. Written independently
// of the kernel, in its float arithmetic: C = S / (|d| + L) and n = d / |d|, numerator and
// denominator of Δλ multiplied by |d| + L, one reciprocal of |d| (|d| + L) den for the rest.
void referencePass(Cloth &cloth, const ClothSolverCache &cache, float dt, std::vector<float> &lambda)
{
    Particles &p = cloth.particles;
    const float invDt = 1.f / dt;
    for (std::uint32_t ci : cache.xpbd.source.flat()) {
        if (ci == ~std::uint32_t(0))
            continue;
        const DistanceConstraint &c = cloth.constraints[ci];
        const float wa = p.invMass[c.a];
        const float wb = p.invMass[c.b];
        if (wa + wb == 0.f)
            continue;
        RefLink l;
        if (!referenceLink(p, c, l))
            continue;
        const float alphaTilde = c.compliance * (invDt * invDt);
        const float gamma = c.compliance * c.damping * invDt;
        const float scaledDen = l.lenRest * std::fma(1.f + gamma, wa + wb, alphaTilde);
        const float reciprocal = 1.f / (l.len * scaledDen);
        const Vec3 rel = (p.position[c.a] - p.previous[c.a]) - (p.position[c.b] - p.previous[c.b]);
        // No damping term at all without damping (the solver's rule: it could only turn -0 into +0).
        const float undamped = std::fma(-l.lenRest, alphaTilde * lambda[ci], -l.S);
        const float num = gamma == 0.f
            ? undamped
            : std::fma(-l.lenRest, gamma * (fusedDot(l.d, rel) * (scaledDen * reciprocal)), undamped);
        const float dlOverLen = num * reciprocal;
        lambda[ci] = std::fma(dlOverLen, l.len, lambda[ci]);
        const float ca = wa * dlOverLen, cb = wb * dlOverLen;
        Vec3 &xa = p.position[c.a], &xb = p.position[c.b];
        xa = { std::fma(l.d.x, ca, xa.x), std::fma(l.d.y, ca, xa.y), std::fma(l.d.z, ca, xa.z) };
        xb = { std::fma(-l.d.x, cb, xb.x), std::fma(-l.d.y, cb, xb.y), std::fma(-l.d.z, cb, xb.z) };
    }
}

// Reference for a Verlet relaxation pass (Jakobsen 2001 with compliant links): the error C
// removed in the share s / (s + α/dt²) of s = w_a + w_b, one constraint after the other in
// the streams' order, each end moved against its inverse mass, with d taken from b's side
// (the opposite of the kernel's; the negation is exact), the corrections as forces summed
// per constraint.
void referenceVerletPass(Cloth &cloth, const ClothSolverCache &cache, float dt, std::vector<float> &force)
{
    Particles &p = cloth.particles;
    const float invDt2 = 1.f / (dt * dt);
    for (std::uint32_t ci : cache.xpbd.source.flat()) {
        if (ci == ~std::uint32_t(0))
            continue;
        const DistanceConstraint &c = cloth.constraints[ci];
        const float wSum = p.invMass[c.a] + p.invMass[c.b];
        if (wSum == 0.f)
            continue;
        RefLink l;
        if (!referenceLink(p, c, l))
            continue;
        const Vec3 towardA = -l.d;
        // f = C / (s + α/dt²) along d / |d|: f / |d| = S / (|d| (|d| + L) (s + α/dt²)).
        const float fOverLen = l.S * (1.f / (l.len * (l.lenRest * (wSum + c.compliance * invDt2))));
        const Vec3 corr = towardA * fOverLen;
        const float wa = p.invMass[c.a], wb = p.invMass[c.b];
        Vec3 &xa = p.position[c.a], &xb = p.position[c.b];
        xa = { std::fma(corr.x, wa, xa.x), std::fma(corr.y, wa, xa.y), std::fma(corr.z, wa, xa.z) };
        xb = { std::fma(-corr.x, wb, xb.x), std::fma(-corr.y, wb, xb.y), std::fma(-corr.z, wb, xb.z) };
        force[ci] = std::fma(fOverLen * l.len, invDt2, force[ci]);
    }
}

void batchedPass(Cloth &cloth, ClothSolverCache &cache)
{
    XpbdBatches &s = cache.xpbd;
    for (std::size_t c = 0; c + 1 < s.start.size(); ++c)
        solveXpbdSlots(s, s.start[c], s.start[c + 1], s.conflictFree[c] != 0, cloth.particles.position.data(),
            cloth.particles.previous.data(), cloth.particles.invMass.data());
}

// A sheet with jittered positions and velocities, mixed compliance and damping, a pinned row.
Cloth jitteredSheet(int across, int down)
{
    GridSpec g;
    g.across = across;
    g.down = down;
    g.width = 0.8f;
    g.height = 0.6f;
    Cloth cloth = makeGrid(g);
    Lcg rng;
    for (std::size_t i = 0; i < cloth.particles.size(); ++i) {
        Vec3 &x = cloth.particles.position[i];
        x += Vec3 { rng.next() - 0.5f, rng.next() - 0.5f, rng.next() - 0.5f } * 0.02f;
        cloth.particles.previous[i] = x - Vec3 { rng.next(), rng.next(), rng.next() } * 0.003f;
        cloth.particles.setMass(std::uint32_t(i), 0.01f + 0.02f * rng.next());
    }
    for (int i = 0; i < across; ++i)
        cloth.particles.setKind(std::uint32_t(i), ParticleKind::Static);
    cloth.constraints.modifyAll([&](DistanceConstraint &c) {
        c.compliance = rng.next() < 0.3f ? 0.f : 1e-6f * rng.next();
        c.damping = rng.next() < 0.5f ? 0.f : 0.5f * rng.next();
    });
    return cloth;
}

// Every slot's α̃ as the kernels read it, in whichever form the refresh kept it.
std::vector<float> alphaStream(const XpbdBatches &s)
{
    std::vector<float> out(s.slotCount());
    for (std::size_t k = 0; k < out.size(); ++k)
        out[k] = s.alphaOf(k);
    return out;
}

// jitteredSheet with each constraint's compliance and damping one of a few values, as a
// preset's families are: its α̃ fits the class table (XpbdBatches::alphaClassed).
Cloth fewMaterialsSheet(int across, int down)
{
    Cloth cloth = jitteredSheet(across, down);
    const float compliances[3] = { 0.f, 2e-7f, 7e-7f };
    std::size_t i = 0;
    cloth.constraints.modifyAll([&](DistanceConstraint &c) {
        c.compliance = compliances[i % 3];
        c.damping = i % 5 == 0 ? 0.3f : 0.f;
        ++i;
    });
    return cloth;
}

bool samePositions(const Cloth &a, const Cloth &b)
{
    const auto &pa = a.particles.position;
    const auto &pb = b.particles.position;
    return pa.size() == pb.size() && std::memcmp(pa.data(), pb.data(), pa.size() * sizeof(Vec3)) == 0;
}

// The sheet of the whole-frame tests: 37 x 23 particles (851, a tail that is not a multiple of
// 8 or 16), every third particle of its top row pinned, so that groups of eight holding a
// static particle fall back to the particle-by-particle loops, and the middle of its bottom
// row kinematic (`hand`).
struct HandSheet {
    Cloth cloth;
    std::uint32_t hand = 0;
};

HandSheet handSheet()
{
    GridSpec g;
    g.across = 37;
    g.down = 23;
    HandSheet s { makeGrid(g), gridIndex(g, 18, 22) };
    for (int i = 0; i < g.across; i += 3)
        s.cloth.particles.setKind(gridIndex(g, i, 0), ParticleKind::Static);
    s.cloth.particles.setKind(s.hand, ParticleKind::Kinematic);
    return s;
}

// The frame hashes of run(isa, threshold) on every vector path this CPU has, on one thread
// and on two, against `portable` (the same run on the portable path), frame by frame.
void expectFramesOfPortable(const std::function<std::vector<std::uint64_t>(int, std::size_t)> &run,
    const std::vector<std::uint64_t> &portable)
{
    for (int isa = int(KernelIsa::Avx2); isa <= int(xpbdKernelIsaOfCpu()); ++isa) {
        for (const std::size_t threshold : { std::size_t(-1), std::size_t(0) }) {
            const std::vector<std::uint64_t> fast = run(isa, threshold);
            QCOMPARE(fast.size(), portable.size());
            for (std::size_t f = 0; f < portable.size(); ++f)
                QVERIFY2(fast[f] == portable[f],
                    qPrintable(QString("kernels %1, threshold %2: frame %3 differs")
                                   .arg(isa)
                                   .arg(qlonglong(threshold))
                                   .arg(f)));
        }
    }
}

// Three batched passes over `batched` (its cache built) against the reference, bit for bit,
// positions and multipliers.
void passesEqualReference(Cloth &batched, ClothSolverCache &cache)
{
    Cloth reference = batched;
    const float dt = 1.f / 600.f;
    refreshXpbdBatches(batched, dt, cache.xpbd);
    std::vector<float> lambda(reference.constraints.size(), 0.f);
    for (int pass = 0; pass < 3; ++pass) {
        batchedPass(batched, cache);
        referencePass(reference, cache, dt, lambda);
        QVERIFY2(samePositions(batched, reference), qPrintable(QString("pass %1").arg(pass)));
    }
    for (std::uint32_t k = 0; k < cache.xpbd.slotCount(); ++k) {
        if (cache.xpbd.source[k] != ~std::uint32_t(0))
            QCOMPARE(cache.xpbd.lambda[k], lambda[cache.xpbd.source[k]]);
    }
}

// Ten Verlet passes over `batched` against the reference, bit for bit, and the tensions;
// `classed`: whether the refresh keeps α̃ as class bytes.
void verletPassesEqualReference(Cloth batched, bool classed)
{
    const Cloth start = batched;
    Cloth reference = batched;
    ClothSolverCache cache;
    cache.ensure(batched);
    const float dt = 1.f / 600.f;
    refreshVerletBatches(batched, dt, cache.xpbd);
    QCOMPARE(cache.xpbd.alphaClassed, classed);
    XpbdBatches &s = cache.xpbd;
    std::vector<float> force(reference.constraints.size(), 0.f);
    for (int pass = 0; pass < 10; ++pass) {
        for (std::size_t c = 0; c + 1 < s.start.size(); ++c)
            relaxVerletSlots(s, s.start[c], s.start[c + 1], s.conflictFree[c] != 0,
                batched.particles.position.data(), batched.particles.invMass.data(), 1.f / (dt * dt));
        referenceVerletPass(reference, cache, dt, force);
        QVERIFY2(samePositions(batched, reference), qPrintable(QString("pass %1").arg(pass)));
    }
    QVERIFY(!samePositions(batched, start)); // it moved
    std::vector<float> tension(batched.constraints.size(), -1.f);
    verletConstraintTensions(s, tension);
    QCOMPARE(tension, force);
}

// A cloth of n scattered particles with about 3n links, most to a particle a few indices
// away (so some blocks find windows) and a quarter to any particle, mixed rest lengths,
// compliance and damping, every 17th particle pinned. Every 11th link is far from its rest
// length (a quarter of its length) and every 37th sewn (rest length 0): the kernels' other
// form of the stretch (SlotLink), for spans longer than twice the rest length.
Cloth randomCloth(std::mt19937 &rng, std::size_t n)
{
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    ExplicitSpec spec;
    for (std::size_t i = 0; i < n; ++i) {
        spec.positions.push_back({ u(rng) * 0.5f, 1.f + u(rng) * 0.5f, u(rng) * 0.5f });
        spec.masses.push_back(0.01f + 0.01f * (u(rng) + 1.f));
    }
    std::set<std::pair<std::uint32_t, std::uint32_t>> seen;
    const std::size_t m = n * 3;
    std::uniform_int_distribution<int> near(1, 16);
    for (std::size_t k = 0; k < m; ++k) {
        std::uint32_t a = std::uint32_t(rng() % n);
        std::uint32_t b = (rng() % 4 == 0) ? std::uint32_t(rng() % n) : std::uint32_t((a + near(rng)) % n);
        if (a == b)
            continue;
        if (rng() % 2)
            std::swap(a, b);
        if (!seen.insert({ std::min(a, b), std::max(a, b) }).second)
            continue;
        DistanceConstraint c;
        c.a = a;
        c.b = b;
        const Vec3 d = spec.positions[a] - spec.positions[b];
        c.restLength = length(d) * (0.9f + 0.2f * (u(rng) + 1.f) / 2.f);
        if (k % 37 == 0)
            c.restLength = 0.f;
        else if (k % 11 == 0)
            c.restLength *= 0.25f;
        c.compliance = rng() % 3 == 0 ? 0.f : 1e-5f * (u(rng) + 1.f);
        c.damping = rng() % 4 == 0 ? 0.3f * (u(rng) + 1.f) : 0.f;
        spec.constraints.push_back(c);
    }
    Cloth c = makeExplicit(spec);
    for (std::size_t i = 0; i < n; i += 17)
        c.particles.setKind(std::uint32_t(i), ParticleKind::Static);
    return c;
}

template <typename T> bool sameBits(const std::vector<T> &a, const std::vector<T> &b)
{
    // An empty vector's data() may be null, which memcmp must not be given even for 0 bytes.
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}
// Three passes of the solvers' entry (solveXpbdPass or relaxVerletPass, over every colour)
// from offsets `off` and multipliers zero, on kernel path `isa`, on one thread or shared with
// `team`, in one call or one call per pass: the offsets after them (the multipliers are left
// in s.lambda).
// Offsets of n particles within a millimetre of their frame origin, and their values at the
// substep's start a few millimetres off, so that the damping term has motion to act on.
void randomOffsets(std::size_t n, std::mt19937 &rng, std::vector<Vec3> &off, std::vector<Vec3> &offPrev)
{
    std::uniform_real_distribution<float> u(-1e-3f, 1e-3f);
    off.resize(n);
    offPrev.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        off[i] = { u(rng), u(rng), u(rng) };
        offPrev[i] = off[i] - Vec3 { u(rng), u(rng), u(rng) } * 3.f;
    }
}

std::vector<Vec3> wholePasses(XpbdBatches &s, const std::vector<Vec3> &off, const std::vector<Vec3> &offPrev,
    const std::vector<float> &invMass, float dt, bool verlet, int isa, XpbdWorker *team, bool oneCall = false)
{
    setXpbdKernelLimit(KernelIsa(isa));
    std::vector<Vec3> x = off;
    std::fill(s.lambda.begin(), s.lambda.end(), 0.f);
    s.lambdaZero = true;
    const int calls = oneCall ? 1 : 3;
    for (int call = 0; call < calls; ++call) {
        if (verlet)
            relaxVerletPass(s, x.data(), invMass.data(), 1.f / (dt * dt), x.size(), team, 3 / calls);
        else
            solveXpbdPass(s, x.data(), offPrev.data(), invMass.data(), x.size(), team, 3 / calls);
        s.lambdaZero = false; // as the solvers do (the passes of one call clear it themselves)
    }
    setXpbdKernelLimit(KernelIsa::Avx512);
    return x;
}

// A 24 × 17 sheet hung by its top row, four substeps a frame, not yet stepped.
Simulation hangingSheet()
{
    GridSpec g;
    g.across = 24;
    g.down = 17;
    Simulation sim;
    sim.solver.substeps = 4;
    Cloth c = makeGrid(g);
    for (int i = 0; i < g.across; ++i)
        c.particles.setKind(gridIndex(g, i, 0), ParticleKind::Static);
    sim.cloths.push_back(c);
    return sim;
}

// One row per kernel (xpbdkernel.h): each block kernel this CPU can run, and the portable
// one. Rows the CPU cannot run are skipped.
void kernelRows()
{
    QTest::addColumn<int>("isa");
    QTest::newRow("avx512") << int(KernelIsa::Avx512);
    QTest::newRow("avx2") << int(KernelIsa::Avx2);
    QTest::newRow("portable") << int(KernelIsa::Portable);
}

// Selects the kernels for one test function and restores the CPU's choice after it.
struct KernelChoice {
    explicit KernelChoice(int isa) { setXpbdKernelLimit(KernelIsa(isa)); }
    ~KernelChoice() { setXpbdKernelLimit(KernelIsa::Avx512); }
    KernelChoice(const KernelChoice &) = delete;
    KernelChoice &operator=(const KernelChoice &) = delete;
};

// The state hash after each of `frames` frames of `sim` on kernel path `isa`, two threads
// from `threshold` constraints on: its first cloth's particle `hand` (kinematic) moved by
// `move` before each frame.
std::vector<std::uint64_t> handFrameHashes(
    int isa, std::size_t threshold, Simulation sim, std::uint32_t hand, Vec3 move, int frames, bool &blownUp)
{
    const KernelChoice kernels(isa);
    const std::size_t saved = xpbdTwoThreadConstraints();
    setXpbdTwoThreadConstraints(threshold);
    std::vector<std::uint64_t> hashes;
    for (int frame = 0; frame < frames; ++frame) {
        sim.cloths[0].particles.position[hand] += move;
        sim.step();
        hashes.push_back(sim.stateHash());
    }
    blownUp |= sim.status().blownUp;
    setXpbdTwoThreadConstraints(saved);
    return hashes;
}

#define DRAPE_KERNEL_ROW()                                                                                   \
    QFETCH(int, isa);                                                                                          \
    if (int(xpbdKernelIsaOfCpu()) < isa)                                                                       \
        QSKIP("this CPU does not run these kernels");                                                          \
    const KernelChoice choice(isa)

} // namespace

class TestXpbdBatch : public QObject {
    Q_OBJECT

private slots:
    void squaredLengthTellsTheShortLinks()
    {
        // The vector kernels tell the links too short to move (|d| < kMinLinkLength) from |d|²
        // >= kMinLinkLengthSquared instead of sqrt(|d|²) >= kMinLinkLength: the same answer for
        // every float exactly when kMinLinkLengthSquared is the least float whose square root
        // reaches kMinLinkLength (the square root is correctly rounded, hence monotonic). Each
        // float near the edge, and the edge itself both ways:
        const float edge = kMinLinkLengthSquared;
        QVERIFY(std::sqrt(edge) >= kMinLinkLength);
        QVERIFY(!(std::sqrt(std::nextafter(edge, 0.f)) >= kMinLinkLength));
        float x = edge;
        for (int i = 0; i < 4096; ++i)
            x = std::nextafter(x, 0.f);
        for (int i = 0; i < 8192; ++i, x = std::nextafter(x, 1.f))
            QCOMPARE(x >= kMinLinkLengthSquared, std::sqrt(x) >= kMinLinkLength);
        for (const float special : { 0.f, -0.f, std::numeric_limits<float>::infinity(),
                 std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::denorm_min() })
            QCOMPARE(special >= kMinLinkLengthSquared, std::sqrt(special) >= kMinLinkLength);
    }

    void streamsCoverEveryConstraintOnce()
    {
        const Cloth cloth = jitteredSheet(13, 11); // odd sizes: colours are not multiples of 8
        ClothSolverCache cache;
        cache.ensure(cloth);
        const XpbdBatches &s = cache.xpbd;
        std::vector<int> seen(cloth.constraints.size(), 0);
        for (std::size_t c = 0; c + 1 < s.start.size(); ++c) {
            QCOMPARE(s.start[c] % XpbdBatches::kLanes, 0u);
            std::vector<int> touched(cloth.particles.size(), 0);
            for (std::uint32_t k = s.start[c]; k < s.start[c + 1]; ++k) {
                if (s.source[k] == ~std::uint32_t(0)) {
                    QVERIFY(std::isnan(s.spanX[k])); // padding: its length test fails, it moves nothing
                    continue;
                }
                ++seen[s.source[k]];
                const auto [a, b] = s.ends(k);
                QCOMPARE(a, cloth.constraints[s.source[k]].a);
                QCOMPARE(b, cloth.constraints[s.source[k]].b);
                if (s.conflictFree[c]) {
                    QCOMPARE(touched[a]++, 0);
                    QCOMPARE(touched[b]++, 0);
                }
            }
        }
        for (int n : seen)
            QCOMPARE(n, 1);
    }

    void gridBlocksReadTwoWindows()
    {
        // A grid's colours are mostly blocks whose 16 ends fill two runs of 8 consecutive
        // particles; their tables must name exactly the block's ends, both ways.
        const Cloth cloth = jitteredSheet(24, 20);
        ClothSolverCache cache;
        cache.ensure(cloth);
        const XpbdBatches &s = cache.xpbd;
        constexpr std::uint32_t L = XpbdBatches::kLanes;
        QCOMPARE(s.blockFetch.size(), s.slotCount() / L);
        std::size_t kinds[3] = {};
        std::size_t carriers = 0;
        // Per colour: which particles its constraints touch, and which some window holds.
        std::vector<std::size_t> colourOf(s.blockFetch.size());
        for (std::size_t c = 0; c + 1 < s.start.size(); ++c) {
            for (std::uint32_t k0 = s.start[c]; k0 < s.start[c + 1]; k0 += L)
                colourOf[k0 / L] = c;
        }
        std::vector<std::vector<int>> touched(s.start.size(), std::vector<int>(cloth.particles.size(), 0));
        std::vector<std::vector<int>> windowed(s.start.size(), std::vector<int>(cloth.particles.size(), 0));
        for (std::uint32_t k = 0; k < s.slotCount(); ++k) {
            if (s.source[k] != ~std::uint32_t(0)) {
                touched[colourOf[k / L]][s.ends(k).a] = 1;
                touched[colourOf[k / L]][s.ends(k).b] = 1;
            }
        }
        for (std::size_t block = 0; block < s.blockFetch.size(); ++block) {
            const std::uint8_t fetch = s.blockFetch[block];
            ++kinds[fetch];
            if (fetch == XpbdBatches::Gather)
                continue;
            const std::uint32_t k0 = std::uint32_t(block) * L;
            const std::uint32_t base[2] = { s.windowFirst(block), s.windowSecond(block) };
            for (std::uint32_t w = 0; w < 2; ++w) {
                for (std::uint32_t q = base[w]; q < base[w] + L; ++q)
                    QCOMPARE(windowed[colourOf[block]][q]++, 0); // no two windows of a colour overlap
            }
            for (std::uint32_t l = 0; l < L; ++l) {
                // The lane's ends as the kernels fetch them (through the windows; a block of
                // runs without reading windowLanes).
                const auto [a, b] = s.ends(k0 + l);
                if (s.source[k0 + l] == ~std::uint32_t(0)) {
                    // A padding lane carries two particles no constraint of the colour touches,
                    // which the window writes back as they were read.
                    ++carriers;
                    QVERIFY(std::isnan(s.spanX[k0 + l]));
                    QCOMPARE(touched[colourOf[block]][a], 0);
                    QCOMPARE(touched[colourOf[block]][b], 0);
                } else {
                    QCOMPARE(a, cloth.constraints[s.source[k0 + l]].a);
                    QCOMPARE(b, cloth.constraints[s.source[k0 + l]].b);
                }
                const auto lanes = s.lanesOf(block);
                const std::uint32_t na = std::uint32_t(lanes >> (4 * l)) & 15u;
                const std::uint32_t nb = std::uint32_t(lanes >> (4 * (L + l))) & 15u;
                QCOMPARE(base[na >> 3] + (na & 7u), a);
                QCOMPARE(base[nb >> 3] + (nb & 7u), b);
                if (fetch == XpbdBatches::Runs) {
                    QCOMPARE(a, base[0] + l);
                    QCOMPARE(b, base[1] + l);
                }
                for (std::uint32_t w = 0; w < 2; ++w) {
                    const std::uint32_t slot = std::uint32_t(s.slotsOf(block) >> (4 * (w * L + l))) & 15u;
                    const XpbdBatches::Ends e = s.ends(k0 + (slot & 7u));
                    QCOMPARE(slot & 8u ? e.b : e.a, base[w] + l);
                }
            }
        }
        QVERIFY(kinds[XpbdBatches::Runs] > 0);
        QVERIFY(kinds[XpbdBatches::Windows] > 0);
        QVERIFY(carriers > 0); // row ends leave some windows part idle
        // The window blocks share their nibble tables: each pattern is held once, and a grid
        // has few of them (runs and the two kinds of a row's horizontal links, with their
        // carriers at the row ends).
        QCOMPARE(s.patternSlots.size(), s.patternLanes.size());
        std::set<std::pair<std::uint64_t, std::uint64_t>> distinct;
        for (std::size_t p = 0; p < s.patternLanes.size(); ++p)
            distinct.insert({ s.patternLanes[p], s.patternSlots[p] });
        QCOMPARE(distinct.size(), s.patternLanes.size());
        QVERIFY2(s.patternLanes.size() <= 16, qPrintable(QString::number(s.patternLanes.size())));
        // Most of the grid's constraints are read through windows (a third gathered at most
        // on this small sheet, whose rows are three windows wide).
        QVERIFY(kinds[XpbdBatches::Gather] * 2 < kinds[XpbdBatches::Runs] + kinds[XpbdBatches::Windows]);
    }

    void blocksWhoseWindowsLieFarApartGather()
    {
        // Window 1 is held as a 16-bit step from window 0: a block whose windows lie further
        // apart (the vertical links of rows of 34,000 particles) gathers its ends instead,
        // and every slot still names its record's ends.
        GridSpec g;
        g.across = 34000;
        g.down = 2;
        g.shear = false;
        g.bend = false;
        const Cloth cloth = makeGrid(g);
        ClothSolverCache cache;
        cache.ensure(cloth);
        const XpbdBatches &s = cache.xpbd;
        constexpr std::uint32_t L = XpbdBatches::kLanes;
        std::size_t farLinks = 0, windowBlocks = 0;
        for (std::uint32_t k = 0; k < s.slotCount(); ++k) {
            const std::size_t block = k / L;
            if (s.blockFetch[block] != XpbdBatches::Gather && k % L == 0) {
                ++windowBlocks;
                const auto step = std::int64_t(s.windowSecond(block)) - std::int64_t(s.windowFirst(block));
                QVERIFY(step >= -32768 && step <= 32767);
            }
            if (s.source[k] == ~std::uint32_t(0))
                continue;
            const DistanceConstraint c = cloth.constraints[s.source[k]];
            QCOMPARE(s.ends(k).a, c.a);
            QCOMPARE(s.ends(k).b, c.b);
            if (c.b - c.a > 32767) {
                ++farLinks;
                QCOMPARE(s.blockFetch[block], std::uint8_t(XpbdBatches::Gather));
            }
        }
        QCOMPARE(farLinks, std::size_t(34000));
        QVERIFY(windowBlocks > 0); // the rows' own links still read windows
    }

    // The kernels as the CPU runs them (AVX2 where it has it) and the portable ones.
    void batchedPassEqualsSequentialPass_data() { kernelRows(); }
    void batchedPassEqualsSequentialPass()
    {
        DRAPE_KERNEL_ROW();
        Cloth batched = jitteredSheet(61, 57);
        ClothSolverCache cache;
        cache.ensure(batched);
        passesEqualReference(batched, cache);
    }

    // A layout whose pattern table is full gathers the window blocks that would need a new
    // pattern: the kernels then give those blocks' lanes the bits the windows gave them.
    void blocksPastThePatternTableGather_data() { kernelRows(); }
    void blocksPastThePatternTableGather()
    {
        DRAPE_KERNEL_ROW();
        Cloth batched = jitteredSheet(61, 57);
        ClothSolverCache full;
        full.ensure(batched);
        ClothSolverCache capped;
        capped.xpbd.maxPatterns = 1;
        capped.ensure(batched);
        QCOMPARE(capped.xpbd.patternLanes.size(), std::size_t(1));
        QVERIFY(full.xpbd.patternLanes.size() > 1);
        const auto count = [](const XpbdBatches &s, std::uint8_t fetch) {
            return std::count(s.blockFetch.begin(), s.blockFetch.end(), fetch);
        };
        // The same blocks, those of the other patterns gathered.
        QCOMPARE(capped.xpbd.blockFetch.size(), full.xpbd.blockFetch.size());
        QVERIFY(count(capped.xpbd, XpbdBatches::Gather) > count(full.xpbd, XpbdBatches::Gather));
        QVERIFY(count(capped.xpbd, XpbdBatches::Runs) + count(capped.xpbd, XpbdBatches::Windows) > 0);
        Cloth copy = batched;
        passesEqualReference(batched, capped);
        passesEqualReference(copy, full);
        QVERIFY(samePositions(batched, copy));
    }

    // Blocks whose constraints have no damping skip the previous positions: still the
    // reference's bits, which evaluates the damping term γ ∇C·Δx with γ = 0.
    void undampedBlocksEqualSequentialPass_data() { kernelRows(); }
    void undampedBlocksEqualSequentialPass()
    {
        DRAPE_KERNEL_ROW();
        Cloth batched = jitteredSheet(45, 37);
        for (std::size_t i = 0; i < batched.constraints.size(); ++i)
            batched.constraints.modify(i,
                [&](DistanceConstraint &c) { c.damping = i % 97 == 0 ? 0.3f : 0.f; }); // a few damped blocks
        ClothSolverCache cache;
        cache.ensure(batched);
        passesEqualReference(batched, cache);
        const auto &damped = cache.xpbd.blockDamped;
        const auto dampedBlocks = std::count(damped.begin(), damped.end(), std::uint8_t(1));
        QVERIFY(dampedBlocks > 0);
        QVERIFY(std::size_t(dampedBlocks) * 4 < damped.size());
    }

    // α̃ kept as class bytes (a few materials, as a preset has): the kernels pick it from the
    // table and still give the reference's bits; a sheet of many compliances keeps the float
    // stream (the tests above).
    void classedAlphaEqualsSequentialPass_data() { kernelRows(); }
    void classedAlphaEqualsSequentialPass()
    {
        DRAPE_KERNEL_ROW();
        Cloth batched = fewMaterialsSheet(61, 57);
        ClothSolverCache cache;
        cache.ensure(batched);
        Cloth many = jitteredSheet(61, 57);
        ClothSolverCache manyCache;
        manyCache.ensure(many);
        passesEqualReference(batched, cache);
        passesEqualReference(many, manyCache);
        QVERIFY(cache.xpbd.alphaClassed);
        QCOMPARE(cache.xpbd.alphaTilde.capacity(), std::size_t(0));
        QCOMPARE(cache.xpbd.alphaClass.size(), cache.xpbd.slotCount());
        QVERIFY(!manyCache.xpbd.alphaClassed);
        QCOMPARE(manyCache.xpbd.alphaTilde.size(), manyCache.xpbd.slotCount());
        QVERIFY(manyCache.xpbd.alphaClass.empty());
    }

    // Each slot's α̃ is its record's compliance over dt², the same bits in either form, and
    // a refresh that finds more values than the table holds keeps the floats.
    void alphaClassesHoldEachSlotsValue()
    {
        Cloth cloth = fewMaterialsSheet(23, 19);
        const float dt = 1.f / 600.f;
        const float invDt = 1.f / dt;
        const float invDt2 = invDt * invDt; // as the XPBD refresh rounds it; Verlet's is 1/(dt dt)
        for (const std::size_t most : { std::size_t(8), std::size_t(3), std::size_t(2), std::size_t(0) }) {
            for (const bool verlet : { false, true }) {
                ClothSolverCache cache;
                cache.xpbd.maxAlphaClasses = most;
                cache.ensure(cloth);
                QVERIFY(verlet ? refreshVerletBatches(cloth, dt, cache.xpbd)
                               : refreshXpbdBatches(cloth, dt, cache.xpbd));
                const XpbdBatches &s = cache.xpbd;
                const QString where = QString("at most %1, verlet %2").arg(most).arg(verlet);
                QVERIFY2(s.alphaClassed == (most >= 3), qPrintable(where)); // three compliances
                QVERIFY2(s.alphaClassed ? s.alphaTilde.empty() : s.alphaClass.empty(), qPrintable(where));
                for (std::size_t k = 0; k < s.slotCount(); ++k) {
                    if (s.source[k] == ~std::uint32_t(0))
                        continue;
                    const float expected
                        = cloth.constraints[s.source[k]].compliance * (verlet ? 1.f / (dt * dt) : invDt2);
                    QVERIFY2(sameBits(std::vector<float> { s.alphaOf(k) }, std::vector<float> { expected }),
                        qPrintable(where + QString(" slot %1").arg(k)));
                }
            }
        }
    }

    void verletBatchedPassEqualsSequentialPass_data() { kernelRows(); }
    void verletBatchedPassEqualsSequentialPass()
    {
        DRAPE_KERNEL_ROW();
        for (const bool few : { false, true })
            verletPassesEqualReference(few ? fewMaterialsSheet(29, 23) : jitteredSheet(29, 23), few);
    }

    // Random graphs and holed grids: every block rule holds (windows inside the particles,
    // no particle written by two blocks of a colour, every constraint in one slot, padding
    // keeping λ = 0), and the AVX2 kernels give the one-at-a-time bits with frame-origin spans
    // and offsets, for XPBD and Verlet.
    void randomTopologiesKeepTheBlockRules()
    {
        std::mt19937 rng(7);
        int windowBlocks = 0, carriers = 0, farLinks = 0;
        XpbdWorker worker;
        for (int trial = 0; trial < 300; ++trial) {
            Cloth cloth;
            if (trial % 2) {
                cloth = randomCloth(rng, 9 + rng() % 400);
            } else {
                GridSpec g;
                g.across = 2 + int(rng() % 40);
                g.down = 2 + int(rng() % 30);
                g.width = 0.8f;
                g.height = 0.6f;
                cloth = makeGrid(g);
                std::vector<DistanceConstraint> kept;
                for (const DistanceConstraint &c : cloth.constraints)
                    if (rng() % 10 != 0)
                        kept.push_back(c);
                cloth.constraints = kept;
                cloth.touchTopology();
                for (std::size_t i = 0; i < cloth.particles.size(); ++i)
                    cloth.particles.position[i] += Vec3 { 0.001f * float(rng() % 7), 0.001f * float(rng() % 5), 0.002f * float(rng() % 3) };
                cloth.constraints.modifyAll([&](DistanceConstraint &c) {
                    c.compliance = rng() % 3 == 0 ? 0.f : 1e-6f;
                    c.damping = rng() % 4 == 0 ? 0.2f : 0.f;
                });
            }
            const std::size_t n = cloth.particles.size();
            ClothSolverCache cache;
            cache.ensure(cloth);
            XpbdBatches &s = cache.xpbd;
            const float dt = 1.f / 600.f;
            QVERIFY(refreshXpbdBatches(cloth, dt, s));
            // invariants
            const std::size_t colours = s.conflictFree.size();
            std::vector<int> seen(cloth.constraints.size(), 0);
            for (std::size_t c = 0; c < colours; ++c) {
                std::vector<int> written(n, 0);
                for (std::uint32_t k0 = s.start[c]; k0 < s.start[c + 1]; k0 += 8) {
                    const std::size_t block = k0 / 8;
                    for (std::uint32_t l = 0; l < 8; ++l)
                        if (s.source[k0 + l] != ~std::uint32_t(0))
                            ++seen[s.source[k0 + l]];
                    if (!s.conflictFree[c])
                        continue;
                    if (s.blockFetch[block] != XpbdBatches::Gather) {
                        ++windowBlocks;
                        for (int w = 0; w < 2; ++w) {
                            const std::uint32_t base = w ? s.windowSecond(block) : s.windowFirst(block);
                            QVERIFY2(base + 8 <= n, "window past the particles");
                            for (std::uint32_t q = base; q < base + 8; ++q)
                                QCOMPARE(written[q]++, 0);
                        }
                        for (std::uint32_t l = 0; l < 8; ++l)
                            if (s.source[k0 + l] == ~std::uint32_t(0))
                                ++carriers;
                    } else {
                        for (std::uint32_t l = 0; l < 8; ++l)
                            if (s.source[k0 + l] != ~std::uint32_t(0)) {
                                QCOMPARE(written[s.ends(k0 + l).a]++, 0);
                                QCOMPARE(written[s.ends(k0 + l).b]++, 0);
                            }
                    }
                }
            }
            for (int v : seen)
                QCOMPARE(v, 1);
            // dynamics: spans from positions, offsets small random
            std::vector<Vec3> origin = cloth.particles.position;
            setXpbdSpans(s, origin.data());
            for (std::size_t k = 0; k < s.slotCount(); ++k) {
                const float ss = s.spanX[k] * s.spanX[k] + s.spanY[k] * s.spanY[k] + s.spanZ[k] * s.spanZ[k];
                farLinks += ss > 4.f * s.restLength[k] * s.restLength[k];
            }
            std::uniform_real_distribution<float> u(-1e-3f, 1e-3f);
            std::vector<Vec3> off(n), offPrev(n);
            for (std::size_t i = 0; i < n; ++i) {
                off[i] = { u(rng), u(rng), u(rng) };
                offPrev[i] = off[i] - Vec3 { u(rng), u(rng), u(rng) };
            }
            for (int verlet = 0; verlet < 2; ++verlet) {
                if (verlet)
                    QVERIFY(refreshVerletBatches(cloth, dt, s));
                // Path 0 is the portable kernel; 1, 2 the block kernels this CPU can run.
                const int paths = int(xpbdKernelIsaOfCpu()) + 1;
                std::vector<Vec3> xs[3];
                std::vector<float> ls[3];
                for (int path = 0; path < paths; ++path) {
                    setXpbdKernelLimit(KernelIsa(path));
                    xs[path] = off;
                    std::fill(s.lambda.begin(), s.lambda.end(), 0.f);
                    s.lambdaZero = true;
                    for (int pass = 0; pass < 3; ++pass) {
                        for (std::size_t c = 0; c < colours; ++c) {
                            if (verlet)
                                relaxVerletSlots(s, s.start[c], s.start[c + 1], s.conflictFree[c] != 0, xs[path].data(),
                                    cloth.particles.invMass.data(), 1.f / (dt * dt));
                            else
                                solveXpbdSlots(s, s.start[c], s.start[c + 1], s.conflictFree[c] != 0, xs[path].data(),
                                    offPrev.data(), cloth.particles.invMass.data());
                        }
                        s.lambdaZero = false;
                    }
                    ls[path] = s.lambda;
                }
                setXpbdKernelLimit(KernelIsa::Avx512);
                for (int path = 1; path < paths; ++path) {
                    QVERIFY2(sameBits(xs[0], xs[path]),
                        qPrintable(QString("trial %1 verlet %2 kernel %3 positions").arg(trial).arg(verlet).arg(path)));
                    QVERIFY2(sameBits(ls[0], ls[path]),
                        qPrintable(QString("trial %1 verlet %2 kernel %3 lambda").arg(trial).arg(verlet).arg(path)));
                }
                // The solvers' entry, a pass over every colour (the AVX2 path on planes), on one
                // thread and shared with a worker: the per-colour portable result.
                for (int path = 0; path < paths; ++path) {
                    for (int threads = 1; threads <= 2; ++threads) {
                        const std::vector<Vec3> x = wholePasses(s, off, offPrev, cloth.particles.invMass, dt,
                            verlet, path, threads == 2 ? &worker : nullptr);
                        const QString where = QString("trial %1 verlet %2 kernel %3 threads %4 whole pass")
                                                  .arg(trial)
                                                  .arg(verlet)
                                                  .arg(path)
                                                  .arg(threads);
                        QVERIFY2(sameBits(xs[0], x), qPrintable(where + " positions"));
                        QVERIFY2(sameBits(ls[0], s.lambda), qPrintable(where + " lambda"));
                    }
                }
                for (std::size_t k = 0; k < s.slotCount(); ++k)
                    if (s.source[k] == ~std::uint32_t(0))
                        QCOMPARE(ls[0][k], 0.f);
                    else
                        QVERIFY(std::isfinite(ls[0][k]));
            }
        }
        QVERIFY(windowBlocks > 0);
        QVERIFY(carriers > 0);
        QVERIFY(farLinks > 0);
    }
    // A whole sheet's pass (solveXpbdPass, relaxVerletPass) on every path, one thread and
    // two, three passes in one call and in three, against the portable passes one per call: with every
    // constraint damped, none, and damped in stretches, so that the kernels' groups of run blocks come
    // damped, undamped and mixed with other blocks (their straight-through arithmetic, solveRuns), and the
    // window blocks of both shuffled layouts, with frame-origin spans far from the world origin and
    // multipliers carried over between passes.
    void runGroupsEqualPortable()
    {
        if (xpbdKernelIsaOfCpu() < KernelIsa::Avx2)
            QSKIP("this CPU runs the portable passes only");
        XpbdWorker worker;
        std::mt19937 rng(5);
        for (int damping = 0; damping < 3; ++damping) {
            Cloth cloth = jitteredSheet(67, 45);
            for (std::size_t i = 0; i < cloth.constraints.size(); ++i)
                cloth.constraints.modify(i, [&](DistanceConstraint &c) {
                    c.damping = damping == 0 ? 0.4f : damping == 1 ? 0.f : (i / 150) % 2 ? 0.3f : 0.f;
                });
            ClothSolverCache cache;
            cache.ensure(cloth);
            XpbdBatches &s = cache.xpbd;
            const std::size_t n = cloth.particles.size();
            const float dt = 1.f / 600.f;
            QVERIFY(refreshXpbdBatches(cloth, dt, s)); // sets blockDamped
            // Groups of four run blocks of one colour, as the kernels take them, by damping.
            int groups[2] = {};
            for (std::size_t c = 0; c + 1 < s.start.size(); ++c) {
                if (!s.conflictFree[c])
                    continue;
                for (std::uint32_t k0 = s.start[c]; k0 + 32 <= s.start[c + 1]; k0 += 32) {
                    const std::size_t b = k0 / 8;
                    bool runs = true, same = true;
                    for (std::size_t q = b; q < b + 4; ++q) {
                        runs &= s.blockFetch[q] == XpbdBatches::Runs;
                        same &= s.blockDamped[q] == s.blockDamped[b];
                    }
                    if (runs && same)
                        ++groups[s.blockDamped[b]];
                }
            }
            // Window blocks of the two layouts the AVX2 kernels fetch with shuffles.
            int evenOdd = 0, pairs = 0;
            for (std::size_t b = 0; b < s.blockFetch.size(); ++b) {
                if (s.blockFetch[b] != XpbdBatches::Windows)
                    continue;
                evenOdd += s.lanesOf(b) == XpbdBatches::kEvenOddLanes;
                pairs += s.lanesOf(b) == XpbdBatches::kPairLanes;
            }
            const QString sheet = QString("damping %1").arg(damping);
            QVERIFY2(evenOdd > 20 && pairs > 20, qPrintable(sheet));
            QVERIFY2(groups[0] + groups[1] > 20, qPrintable(sheet));
            QVERIFY2(damping != 0 || groups[0] == 0, qPrintable(sheet));
            QVERIFY2(damping != 1 || groups[1] == 0, qPrintable(sheet));
            QVERIFY2(damping != 2 || (groups[0] > 0 && groups[1] > 0), qPrintable(sheet));
            std::vector<Vec3> origin = cloth.particles.position;
            for (Vec3 &p : origin)
                p = p + Vec3 { 40.f, 3.f, -12.f };
            std::vector<Vec3> off, offPrev;
            randomOffsets(n, rng, off, offPrev);
            for (int verlet = 0; verlet < 2; ++verlet) {
                QVERIFY(verlet ? refreshVerletBatches(cloth, dt, s) : refreshXpbdBatches(cloth, dt, s));
                setXpbdSpans(s, origin.data());
                QVERIFY(verlet ? refreshVerletBatches(cloth, dt * 0.5f, s)
                               : refreshXpbdBatches(cloth, dt * 0.5f, s));
                std::vector<Vec3> expected;
                std::vector<float> expectedLambda;
                for (int path = 0; path <= int(xpbdKernelIsaOfCpu()); ++path) {
                    for (int threads = 1; threads <= 2; ++threads) {
                        for (int oneCall = 0; oneCall < 2; ++oneCall) {
                            const std::vector<Vec3> x = wholePasses(s, off, offPrev, cloth.particles.invMass,
                                dt, verlet, path, threads == 2 ? &worker : nullptr, oneCall == 1);
                            if (path == 0 && threads == 1 && oneCall == 0) {
                                expected = x;
                                expectedLambda = s.lambda;
                                QVERIFY(!sameBits(expected, off)); // it moved
                                continue;
                            }
                            const QString where = sheet
                                + QString(" verlet %1 kernel %2 threads %3 passes in %4 call(s)")
                                      .arg(verlet)
                                      .arg(path)
                                      .arg(threads)
                                      .arg(oneCall ? 1 : 3);
                            QVERIFY2(sameBits(expected, x), qPrintable(where + " positions"));
                            QVERIFY2(sameBits(expectedLambda, s.lambda), qPrintable(where + " lambda"));
                        }
                    }
                }
            }
        }
    }

    // A sheet with a tenth of its constraints missing at random, as a cut or torn one: its
    // horizontal colours keep the two layouts the AVX2 kernels fetch with shuffles, each gap a
    // carrier lane in place, where numbering a block's real links first would shift the lanes
    // past the gap into a pattern of their own (fetched with general permutes, at about twice
    // the cost). The kernels' passes over it, damped, give the portable pass's bits.
    void gappedRowsKeepTheirLayout()
    {
        Cloth cloth = jitteredSheet(67, 45);
        std::uint32_t state = 12345u;
        std::vector<DistanceConstraint> kept;
        for (const DistanceConstraint &c : cloth.constraints) {
            state = state * 1664525u + 1013904223u;
            if ((state >> 8) % 10u != 0u)
                kept.push_back(c);
        }
        QVERIFY(kept.size() < cloth.constraints.size());
        cloth.constraints = std::move(kept);
        cloth.touchTopology();
        for (std::size_t i = 0; i < cloth.constraints.size(); ++i)
            cloth.constraints.modify(i, [](DistanceConstraint &c) { c.damping = 0.3f; });
        ClothSolverCache cache;
        cache.ensure(cloth);
        XpbdBatches &s = cache.xpbd;
        constexpr std::uint32_t L = XpbdBatches::kLanes;
        int dealt = 0, gapped = 0, other = 0;
        for (std::size_t b = 0; b < s.blockFetch.size(); ++b) {
            if (s.blockFetch[b] != XpbdBatches::Windows)
                continue;
            const std::uint64_t lanes = s.lanesOf(b);
            if (lanes != XpbdBatches::kEvenOddLanes && lanes != XpbdBatches::kPairLanes) {
                ++other;
                continue;
            }
            ++dealt;
            // A carrier between two real lanes: a gap inside the block, not a row's end.
            bool real = false, carrierAfterReal = false, gap = false;
            for (std::uint32_t l = 0; l < L; ++l) {
                const bool isReal = s.source[b * L + l] != ~std::uint32_t(0);
                gap |= isReal && carrierAfterReal;
                carrierAfterReal |= real && !isReal;
                real |= isReal;
            }
            gapped += gap;
        }
        const QString counts
            = QString("dealt %1 (with gaps %2), other window blocks %3").arg(dealt).arg(gapped).arg(other);
        QVERIFY2(gapped > 20, qPrintable(counts));
        QVERIFY2(other * 20 < dealt, qPrintable(counts));

        const std::size_t n = cloth.particles.size();
        const float dt = 1.f / 600.f;
        std::mt19937 rng(11);
        std::vector<Vec3> off, offPrev;
        randomOffsets(n, rng, off, offPrev);
        for (int verlet = 0; verlet < 2; ++verlet) {
            QVERIFY(verlet ? refreshVerletBatches(cloth, dt, s) : refreshXpbdBatches(cloth, dt, s));
            setXpbdSpans(s, cloth.particles.position.data());
            std::vector<Vec3> expected;
            std::vector<float> expectedLambda;
            for (int path = 0; path <= int(xpbdKernelIsaOfCpu()); ++path) {
                const std::vector<Vec3> x
                    = wholePasses(s, off, offPrev, cloth.particles.invMass, dt, verlet, path, nullptr);
                if (path == 0) {
                    expected = x;
                    expectedLambda = s.lambda;
                    QVERIFY(!sameBits(expected, off)); // it moved
                    continue;
                }
                const QString where = QString("verlet %1 kernel %2").arg(verlet).arg(path);
                QVERIFY2(sameBits(expected, x), qPrintable(where + " positions"));
                QVERIFY2(sameBits(expectedLambda, s.lambda), qPrintable(where + " lambda"));
            }
        }
    }

    void mixedWindowPairsEqualPortable()
    {
        // The AVX-512 passes take two blocks at a time (solveWindowPair). When one is Runs
        // and the other Windows, the runs block's lanes are picked through its nibble
        // pattern like any window block's; a grid's colours never pair the two (each family
        // of links has colours of its own, ClothSolverCache). Here groups of 16 particles
        // carry 8 links each, as runs (l, l + 8) or in a row's even/odd layout (2l, 2l + 1)
        // in turn: too few of either for a family, so they are coloured greedily, into the
        // same colour. The window groups leave a few links out (idle lanes) and name some
        // ends the other way round; damping comes on every third group, and not at all.
        if (xpbdKernelIsaOfCpu() < KernelIsa::Avx2)
            QSKIP("this CPU runs the portable passes only");
        for (int damped = 0; damped < 2; ++damped) {
            ExplicitSpec spec;
            for (std::uint32_t group = 0; group < 14; ++group) {
                const std::uint32_t base = group * 16;
                for (std::uint32_t q = 0; q < 16; ++q) {
                    const float jitter = 0.002f * std::sin(float(base + q) * 1.7f);
                    spec.positions.push_back(
                        { 0.05f * float(group) + 0.01f * float(q), 1.f + jitter, jitter });
                    spec.masses.push_back(0.01f + 0.002f * float((base + q) % 5));
                }
                const bool runs = group % 2 == 0;
                for (std::uint32_t l = 0; l < 8; ++l) {
                    // A runs block needs every lane, end a in window 0.
                    if (!runs && (group * 8 + l) % 13 == 5)
                        continue;
                    DistanceConstraint c;
                    c.a = runs ? base + l : base + 2 * l;
                    c.b = runs ? base + l + 8 : base + 2 * l + 1;
                    if (!runs && l % 3 == 1)
                        std::swap(c.a, c.b);
                    c.restLength
                        = length(spec.positions[c.a] - spec.positions[c.b]) * (0.95f + 0.01f * float(l));
                    c.compliance = l % 4 == 0 ? 0.f : 1e-5f;
                    c.damping = damped && group % 3 == 0 && c.compliance > 0.f ? 0.3f : 0.f;
                    spec.constraints.push_back(c);
                }
            }
            Cloth cloth = makeExplicit(spec);
            cloth.particles.setKind(37, ParticleKind::Static);
            ClothSolverCache cache;
            cache.ensure(cloth);
            XpbdBatches &s = cache.xpbd;
            const float dt = 1.f / 600.f;
            QVERIFY(refreshXpbdBatches(cloth, dt, s)); // sets blockDamped
            int mixed = 0, mixedDamped = 0;
            for (std::size_t c = 0; c + 1 < s.start.size(); ++c) {
                if (!s.conflictFree[c])
                    continue;
                for (std::uint32_t k0 = s.start[c]; k0 + 16 <= s.start[c + 1]; k0 += 16) {
                    const std::size_t b = k0 / 8;
                    const bool pair = (s.blockFetch[b] == XpbdBatches::Runs
                                          && s.blockFetch[b + 1] == XpbdBatches::Windows)
                        || (s.blockFetch[b] == XpbdBatches::Windows
                            && s.blockFetch[b + 1] == XpbdBatches::Runs);
                    mixed += pair;
                    mixedDamped += pair && (s.blockDamped[b] || s.blockDamped[b + 1]);
                }
            }
            QVERIFY2(mixed > 2, qPrintable(QString::number(mixed)));
            QVERIFY(damped ? mixedDamped > 0 : mixedDamped == 0);
            const std::size_t n = cloth.particles.size();
            std::vector<Vec3> off(n), offPrev(n);
            for (std::size_t i = 0; i < n; ++i) {
                const float t = float(i);
                off[i] = Vec3 { std::sin(t), std::cos(1.3f * t), std::sin(0.7f * t) } * 1e-3f;
                offPrev[i] = off[i] - Vec3 { std::cos(t), std::sin(1.1f * t), std::cos(0.3f * t) } * 2e-3f;
            }
            for (int verlet = 0; verlet < 2; ++verlet) {
                QVERIFY(verlet ? refreshVerletBatches(cloth, dt, s) : refreshXpbdBatches(cloth, dt, s));
                setXpbdSpans(s, cloth.particles.position.data());
                const std::vector<Vec3> expected = wholePasses(
                    s, off, offPrev, cloth.particles.invMass, dt, verlet, int(KernelIsa::Portable), nullptr);
                const std::vector<float> expectedLambda = s.lambda;
                QVERIFY(!sameBits(expected, off)); // it moved
                for (int path = int(KernelIsa::Avx2); path <= int(xpbdKernelIsaOfCpu()); ++path) {
                    const std::vector<Vec3> x
                        = wholePasses(s, off, offPrev, cloth.particles.invMass, dt, verlet, path, nullptr);
                    const QString where
                        = QString("damped %1 verlet %2 kernel %3").arg(damped).arg(verlet).arg(path);
                    QVERIFY2(sameBits(expected, x), qPrintable(where + " positions"));
                    QVERIFY2(sameBits(expectedLambda, s.lambda), qPrintable(where + " lambda"));
                }
            }
        }
    }

    // The per-frame refresh (parameters, record checks) and spans pass of the block kernels'
    // CPUs give the portable loops' bits, for XPBD and Verlet, on sheets with padding, a
    // frame origin far from the world origin, damped and undamped blocks, and records broken
    // between frames (each of constraintValid's checks), which both must report.
    void streamPassesEqualPortable()
    {
        if (xpbdKernelIsaOfCpu() < KernelIsa::Avx2)
            QSKIP("this CPU runs the portable passes only");
        std::mt19937 rng(11);
        std::uniform_real_distribution<float> u(0.f, 1.f);
        const float dt = 1.f / 600.f;
        int invalid = 0, damped = 0;
        for (int trial = 0; trial < 60; ++trial) {
            Cloth cloth = jitteredSheet(5 + trial % 13, 4 + trial % 11);
            ClothSolverCache cache;
            cache.ensure(cloth);
            cloth.constraints.modifyAll([&](DistanceConstraint &k) {
                k.compliance = u(rng) < 0.3f ? 0.f : u(rng) * 1e-3f;
                k.damping = u(rng) < 0.8f ? 0.f : u(rng);
                k.restLength *= 0.9f + 0.2f * u(rng);
            });
            const std::size_t n = cloth.particles.size();
            if (trial % 3 == 0) {
                // One broken record: which check fails depends on the trial.
                const std::size_t broken = std::size_t(trial * 7) % cloth.constraints.size();
                DistanceConstraint k = cloth.constraints[broken];
                constexpr float nan = std::numeric_limits<float>::quiet_NaN();
                constexpr float inf = std::numeric_limits<float>::infinity();
                switch ((trial / 3) % 20) {
                case 0: k.a = std::uint32_t(n + 3); break;
                case 1: k.b = k.a; break;
                case 2: k.restLength = -0.1f; break;
                case 3: k.compliance = nan; break;
                case 4: k.damping = inf; break;
                case 5: k.tearStrain = 0.f; break;
                case 6: k.tearForce = -1.f; break;
                case 7: k.b = ~std::uint32_t(0); break;
                case 8: k.restLength = nan; break;
                case 9: k.restLength = inf; break;
                case 10: k.compliance = -1e-6f; break;
                case 11: k.compliance = inf; break;
                case 12: k.damping = nan; break;
                case 13: k.damping = -0.5f; break;
                case 14: k.tearStrain = nan; break;
                case 15: k.tearForce = nan; break;
                case 16: k.a = ~std::uint32_t(0); break;
                case 17: k.a = std::uint32_t(n); break;
                case 18: k.tearStrain = -inf; break;
                case 19: k.b = std::uint32_t(n); break;
                }
                cloth.constraints.set(broken, k);
            }
            if (trial % 3 == 1) {
                // Valid records at the edges of constraintValid's ranges: -0 where >= 0 is
                // asked, the smallest positive float and the largest finite one where > 0 is.
                const std::size_t m = cloth.constraints.size();
                cloth.constraints.modify(
                    std::size_t(trial) % m, [&](DistanceConstraint &r) { r.restLength = -0.f; });
                cloth.constraints.modify(
                    std::size_t(trial + 1) % m, [&](DistanceConstraint &r) { r.compliance = -0.f; });
                cloth.constraints.modify(
                    std::size_t(trial + 2) % m, [&](DistanceConstraint &r) { r.damping = -0.f; });
                cloth.constraints.modify(std::size_t(trial + 3) % m,
                    [&](DistanceConstraint &r) { r.tearStrain = std::numeric_limits<float>::denorm_min(); });
                cloth.constraints.modify(std::size_t(trial + 4) % m,
                    [&](DistanceConstraint &r) { r.tearForce = std::numeric_limits<float>::max(); });
            }
            std::vector<Vec3> origin = cloth.particles.position;
            for (Vec3 &p : origin)
                p = p + Vec3 { 1000.f, -250.f, 31.f } + Vec3 { u(rng), u(rng), u(rng) } * 1e-3f;
            for (int verlet = 0; verlet < 2; ++verlet) {
                // Each path the CPU runs (portable, AVX2, AVX-512), against the portable one.
                XpbdBatches streams[3];
                bool ok[3] = {};
                const int paths = int(xpbdKernelIsaOfCpu()) + 1;
                for (int path = 0; path < paths; ++path) {
                    setXpbdKernelLimit(KernelIsa(path));
                    streams[path] = cache.xpbd;
                    XpbdBatches &s = streams[path];
                    ok[path] = verlet ? refreshVerletBatches(cloth, dt, s) : refreshXpbdBatches(cloth, dt, s);
                    setXpbdSpans(s, origin.data());
                    // A second refresh derives |span|² - L² from the spans just set.
                    ok[path] &= verlet ? refreshVerletBatches(cloth, dt * 0.5f, s) : refreshXpbdBatches(cloth, dt * 0.5f, s);
                }
                setXpbdKernelLimit(KernelIsa::Avx512);
                const QString where = QString("trial %1 verlet %2").arg(trial).arg(verlet);
                for (int path = 1; path < paths; ++path)
                    QVERIFY2(ok[0] == ok[path], qPrintable(where));
                QVERIFY2(ok[0] == cloth.validate().empty(), qPrintable(where));
                // The per-frame record scan of checkFrame, on each path: the same verdict, and a
                // hash that changes with any one record's rest length, compliance or damping.
                for (int isa = 0; isa <= int(xpbdKernelIsaOfCpu()); ++isa) {
                    setXpbdKernelLimit(KernelIsa(isa));
                    std::uint64_t hash = 0, retuned = 0;
                    int made = -1, madeAgain = -1;
                    RecordScanScratch chunks;
                    QVERIFY2(scanConstraintRecords(cloth, hash, made, nullptr, chunks) == ok[0], qPrintable(where));
                    Cloth other = cloth;
                    other.constraints.modify(
                        std::size_t(trial * 13) % other.constraints.size(), [&](DistanceConstraint &k) {
                            float &field = trial % 3 == 0 ? k.restLength
                                : trial % 3 == 1          ? k.compliance
                                                          : k.damping;
                            field = std::nextafter(field, 1.f);
                        });
                    scanConstraintRecords(other, retuned, madeAgain, nullptr, chunks);
                    QVERIFY2(made == isa && madeAgain == isa && retuned != hash, qPrintable(where));
                    scanConstraintRecords(cloth, retuned, madeAgain, nullptr, chunks);
                    QVERIFY2(retuned == hash, qPrintable(where));
                }
                setXpbdKernelLimit(KernelIsa::Avx512);
                invalid += ok[0] ? 0 : 1;
                const XpbdBatches &p = streams[0];
                for (int path = 1; path < paths; ++path) {
                    const XpbdBatches &v = streams[path];
                    const QString which = where + QString(" path %1").arg(path);
                    QVERIFY2(sameBits(p.restLength, v.restLength), qPrintable(which));
                    QVERIFY2(p.alphaClassed == v.alphaClassed, qPrintable(which));
                    QVERIFY2(sameBits(alphaStream(p), alphaStream(v)), qPrintable(which));
                    QVERIFY2(sameBits(p.gamma, v.gamma), qPrintable(which));
                    QVERIFY2(sameBits(p.spanX, v.spanX) && sameBits(p.spanY, v.spanY)
                            && sameBits(p.spanZ, v.spanZ),
                        qPrintable(which));
                    QVERIFY2(p.blockDamped == v.blockDamped, qPrintable(which));
                }
                damped += int(std::count(p.blockDamped.begin(), p.blockDamped.end(), std::uint8_t(1)));
                QVERIFY(std::any_of(p.spanX.begin(), p.spanX.end(), [](float x) { return x != 0.f && std::isfinite(x); }));
            }
        }
        QCOMPARE(invalid, 2 * 20); // every broken record was reported, on both solvers
        QVERIFY(damped > 0);
    }

    // A cloth of more than one chunk of the record scan (16384 records): a broken record or
    // a retuned one in a later chunk is seen, on every path.
    void recordScanCoversEveryChunk()
    {
        GridSpec g;
        g.across = 64;
        g.down = 64;
        const Cloth cloth = makeGrid(g);
        QVERIFY(cloth.constraints.size() > 16384 + 4000);
        const std::size_t late = cloth.constraints.size() - 3000;
        RecordScanScratch chunks;
        for (int isa = 0; isa <= int(xpbdKernelIsaOfCpu()); ++isa) {
            setXpbdKernelLimit(KernelIsa(isa));
            std::uint64_t hash = 0, other = 0;
            int made = -1;
            QVERIFY(scanConstraintRecords(cloth, hash, made, nullptr, chunks));
            QCOMPARE(chunks.chunkHashes.size(), std::size_t(2));
            Cloth retuned = cloth;
            retuned.constraints.modify(
                late, [&](DistanceConstraint &r) { r.damping = std::nextafter(r.damping, 1.f); });
            QVERIFY(scanConstraintRecords(retuned, other, made, nullptr, chunks));
            QVERIFY(other != hash);
            Cloth broken = cloth;
            broken.constraints.modify(late, [&](DistanceConstraint &r) { r.tearForce = -1.f; });
            QVERIFY(!scanConstraintRecords(broken, other, made, nullptr, chunks));
        }
        setXpbdKernelLimit(KernelIsa::Avx512);
    }

    // Whatever the record count (the scans take records four or two at a time, the rest one
    // by one), the last record is checked and hashed like any other, on every path.
    void recordScanSeesTheLastRecord()
    {
        GridSpec g;
        g.across = 3;
        g.down = 3;
        const Cloth grid = makeGrid(g);
        RecordScanScratch chunks;
        for (std::size_t m = 1; m <= 9; ++m) {
            Cloth cloth = grid;
            cloth.constraints.resize(m);
            for (int isa = 0; isa <= int(xpbdKernelIsaOfCpu()); ++isa) {
                setXpbdKernelLimit(KernelIsa(isa));
                const QString where = QString("%1 records, kernel %2").arg(m).arg(isa);
                std::uint64_t hash = 0, other = 0;
                int made = -1;
                QVERIFY2(scanConstraintRecords(cloth, hash, made, nullptr, chunks), qPrintable(where));
                Cloth retuned = cloth;
                retuned.constraints.modify(retuned.constraints.size() - 1,
                    [](DistanceConstraint &k) { k.compliance = std::nextafter(k.compliance, 1.f); });
                QVERIFY2(scanConstraintRecords(retuned, other, made, nullptr, chunks), qPrintable(where));
                QVERIFY2(other != hash, qPrintable(where));
                Cloth broken = cloth;
                broken.constraints.modify(
                    broken.constraints.size() - 1, [](DistanceConstraint &k) { k.restLength = -1.f; });
                QVERIFY2(!scanConstraintRecords(broken, other, made, nullptr, chunks), qPrintable(where));
            }
            setXpbdKernelLimit(KernelIsa::Avx512);
        }
    }

    void recordsAreScannedAfterEveryWrite_data()
    {
        QTest::addColumn<SolverKind>("kind");
        QTest::newRow("xpbd") << SolverKind::Xpbd;
        QTest::newRow("verlet") << SolverKind::Verlet;
    }

    void recordsAreScannedAfterEveryWrite()
    {
        // Retunes written between frames through each kind of writing access, on a
        // simulation that scans only after a write, against one made to scan before every
        // frame: the same bits, and no scan where nothing wrote. Each retune changes the
        // motion (checked against a copy stepped without it), so one that went unseen would
        // show in the bits.
        QFETCH(SolverKind, kind);
        Simulation sim = hangingSheet();
        sim.solver.kind = kind;
        Simulation always = sim;
        const auto retune = [](Cloth &cloth, int frame) {
            ConstraintRecords &r = cloth.constraints;
            const std::size_t k = std::size_t(frame) * 37 % r.size();
            switch (frame % 4) {
            case 0: {
                DistanceConstraint c = r[k];
                c.compliance = 1e-4f;
                r.set(k, c);
                break;
            }
            case 1:
                r.modify(k, [](DistanceConstraint &c) {
                    c.compliance = 2e-4f;
                    c.damping = 0.5f;
                });
                break;
            case 2: {
                std::size_t i = 0;
                r.modifyAll([&](DistanceConstraint &c) {
                    if (i++ == k)
                        c.restLength *= 1.01f;
                });
                break;
            }
            default: {
                std::vector<DistanceConstraint> all = r.records();
                all[k].compliance = 3e-4f;
                r = std::move(all);
                break;
            }
            }
        };
        std::uint32_t scans = 0;
        for (int frame = 0; frame < 24; ++frame) {
            const bool write = frame > 2 && frame % 3 == 0;
            Simulation unretuned = sim;
            if (write) {
                retune(sim.cloths[0], frame / 3);
                retune(always.cloths[0], frame / 3);
            }
            always.cloths[0].constraints.modify(
                0, [](DistanceConstraint &) {}); // a write that changes nothing
            sim.step();
            always.step();
            const QString where = QString("frame %1").arg(frame);
            QVERIFY2(sim.stateHash() == always.stateHash(), qPrintable(where));
            if (write) {
                unretuned.step();
                QVERIFY2(sim.stateHash() != unretuned.stateHash(), qPrintable(where));
            }
            QCOMPARE(always.lastStepStats().recordScans, frame == 0 ? 0u : 1u);
            // The first frame validates the records on its own (the streams are laid out
            // after it), the second scans what that layout coloured, then only writes count.
            const std::uint32_t expected = frame == 1 || write ? 1u : 0u;
            QVERIFY2(sim.lastStepStats().recordScans == expected, qPrintable(where));
            scans += sim.lastStepStats().recordScans;
        }
        QCOMPARE(scans, 8u);
        // Reading, copying and stepping a copy write nothing.
        const Simulation copy = sim;
        Simulation stepped = copy;
        const ConstraintRecords &records = sim.cloths[0].constraints;
        float sum = 0.f;
        for (const DistanceConstraint &k : records)
            sum += k.restLength;
        QVERIFY(sum > 0.f);
        sim.step();
        stepped.step();
        QCOMPARE(sim.lastStepStats().recordScans, 0u);
        QCOMPARE(stepped.lastStepStats().recordScans, 0u);
        QCOMPARE(stepped.stateHash(), sim.stateHash());
        // Records assigned from another cloth of the same shape are other records, even when
        // its own were scanned elsewhere: they are scanned and their compliance taken.
        Simulation other = copy;
        other.cloths[0].constraints.modifyAll([&](DistanceConstraint &k) { k.compliance = 1e-3f; });
        other.step();
        QCOMPARE(other.lastStepStats().recordScans, 1u);
        Simulation assigned = copy;
        assigned.cloths[0].constraints = other.cloths[0].constraints;
        Simulation reference = copy;
        reference.cloths[0].constraints.modifyAll([&](DistanceConstraint &k) { k.compliance = 1e-3f; });
        assigned.step();
        reference.step();
        QCOMPARE(assigned.lastStepStats().recordScans, 1u);
        QCOMPARE(assigned.stateHash(), reference.stateHash());
        QVERIFY(assigned.stateHash() != stepped.stateHash());
        // A record broken between frames still stops the step, named.
        Simulation broken = copy;
        broken.cloths[0].constraints.modify(7, [&](DistanceConstraint &r) { r.b = 1u << 30; });
        broken.step();
        QVERIFY(broken.status().blownUp);
        QVERIFY2(broken.status().message.find("constraint 7:") != std::string::npos,
            broken.status().message.c_str());
    }

    void twoThreadPassEqualsSequentialPass()
    {
        // Several chunks per colour, so both threads take part whatever the timing.
        Cloth shared = jitteredSheet(61, 57);
        Cloth reference = shared;
        ClothSolverCache cache;
        cache.ensure(shared);
        QVERIFY(cache.xpbd.chunkCount() > 3 * (cache.xpbd.start.size() - 1));
        const float dt = 1.f / 600.f;
        refreshXpbdBatches(shared, dt, cache.xpbd);
        std::vector<float> lambda(reference.constraints.size(), 0.f);
        XpbdWorker worker;
        for (int pass = 0; pass < 20; ++pass) {
            worker.solvePass(cache.xpbd, shared.particles.position.data(), shared.particles.previous.data(),
                shared.particles.invMass.data());
            referencePass(reference, cache, dt, lambda);
            QVERIFY2(samePositions(shared, reference), qPrintable(QString("pass %1").arg(pass)));
        }
    }

    void twoThreadSimulationIsBitIdentical()
    {
        // Whole frames of a hanging sheet, one thread against two (threshold lowered so the
        // worker is used), twice: the same state bit for bit.
        GridSpec g;
        g.across = 24;
        g.down = 24;
        // m, the last particle's lowest height in a run: it falls, then springs back some.
        float lowest = makeGrid(g).particles.position.back().y;
        const auto run = [&g, &lowest](std::size_t threshold) {
            const std::size_t saved = xpbdTwoThreadConstraints();
            setXpbdTwoThreadConstraints(threshold);
            Simulation sim;
            sim.cloths.push_back(makeGrid(g));
            for (int i = 0; i < g.across; ++i)
                sim.cloths[0].particles.setKind(std::uint32_t(i), ParticleKind::Static);
            for (int frame = 0; frame < 5; ++frame) {
                sim.step();
                if (threshold == std::size_t(-1))
                    lowest = std::min(lowest, sim.cloths[0].particles.position.back().y);
            }
            setXpbdTwoThreadConstraints(saved);
            return sim.cloths[0];
        };
        const Cloth single = run(std::size_t(-1));
        const Cloth twoA = run(0);
        const Cloth twoB = run(0);
        // It moved: the bottom row fell.
        QVERIFY(lowest < makeGrid(g).particles.position.back().y - 1e-3f);
        QVERIFY(samePositions(single, twoA));
        QVERIFY(samePositions(twoA, twoB));
    }

    void plainFramesInPlanesEqualPortable()
    {
        // Whole plain frames (gravity, pins, a kinematic particle moved between frames, damped
        // stretches of constraints, air damping, several substeps): the AVX2 path keeps the
        // particles in planes from the first substep's passes to the last's (stepXpbd,
        // PlainPlanes), the portable path never does. The same bits frame by frame, on one
        // thread and on two (handSheet).
        const HandSheet sheet = handSheet();
        bool blownUp = false;
        const auto run = [&sheet, &blownUp](int isa, std::size_t threshold) {
            Simulation sim;
            sim.solver.substeps = 7;
            sim.solver.iterations = 2;
            sim.world.airDamping = 0.4f;
            sim.cloths.push_back(sheet.cloth);
            ConstraintRecords &records = sim.cloths[0].constraints;
            for (std::size_t k = 0; k < records.size(); ++k)
                records.modify(k, [&](DistanceConstraint &r) { r.damping = (k / 50) % 3 == 0 ? 0.2f : 0.f; });
            return handFrameHashes(isa, threshold, sim, sheet.hand, { 0.01f, 0.005f, -0.02f }, 8, blownUp);
        };
        const std::vector<std::uint64_t> portable = run(int(KernelIsa::Portable), std::size_t(-1));
        QCOMPARE(portable.size(), std::size_t(8));
        QVERIFY(portable.front() != portable.back()); // it moved
        QVERIFY(!blownUp);
        expectFramesOfPortable(run, portable);
    }

    void selfCollisionFramesEqualPortable()
    {
        // Frames that would be plain but for self-collision (gravity, pins, a kinematic hand
        // folding the sheet's bottom up onto it): between substeps the positions are written
        // from the offsets (writePositions, eight particles at a time on the vector paths),
        // pushed apart, and the pushed particles' offsets taken back; the last substep ends as
        // a substep with contacts does (writePositionsFromOffsets, finishPositionSubstep's
        // velocities), also in runs of eight particles on AVX2. The same bits as the portable
        // path frame by frame, on one thread and on two; and self-collision acted (the frames
        // differ from the same run without it).
        const HandSheet sheet = handSheet();
        bool blownUp = false;
        const auto run = [&sheet, &blownUp](int isa, std::size_t threshold, bool self) {
            Simulation sim;
            sim.solver.substeps = 6;
            sim.solver.selfCollision = self;
            sim.cloths.push_back(sheet.cloth);
            sim.cloths[0].thickness = 0.02f;
            return handFrameHashes(isa, threshold, sim, sheet.hand, { 0.f, 0.06f, 0.002f }, 24, blownUp);
        };
        const std::vector<std::uint64_t> portable = run(int(KernelIsa::Portable), std::size_t(-1), true);
        QCOMPARE(portable.size(), std::size_t(24));
        QVERIFY(portable.front() != portable.back()); // it moved
        QVERIFY(run(int(KernelIsa::Portable), std::size_t(-1), false).back() != portable.back());
        QVERIFY(!blownUp);
        expectFramesOfPortable(
            [&run](int isa, std::size_t threshold) { return run(isa, threshold, true); }, portable);
    }

    // The portable kernels' multiply-add rounds once, as std::fma and the vector kernels' FMA
    // do: on sums whose double lands exactly halfway between two floats while the exact sum
    // lies just below or above (where rounding the double again would tie to even, the wrong
    // way in half of them), on results below the normal floats, and on random triples.
    void fusedMulAddRoundsOnce()
    {
        const auto same = [](float a, float b, float c) {
            const float got = fusedMulAdd(a, b, c), want = std::fma(a, b, c);
            return std::memcmp(&got, &want, sizeof got) == 0 || (std::isnan(got) && std::isnan(want));
        };
        // (8 + 2^-20)(8 - 2^-20) = 64 - 2^-40: next to 2^30 + 128 the sum is 2^-40 below the
        // midpoint 2^30 + 192 between an odd and an even float, and rounds to the odd one.
        const float a = 8.f + 0x1p-20f, b = 8.f - 0x1p-20f, big = 0x1p30f + 128.f;
        QCOMPARE(fusedMulAdd(a, b, big), big);
        QVERIFY(same(a, b, big));
        QVERIFY(same(-a, b, -big));
        QVERIFY(same(a, a, big)); // 2^-40 above a midpoint
        QVERIFY(same(-a, a, -big));
        QVERIFY(same(a, b, 0x1p30f)); // below the midpoint next to an even float
        QVERIFY(same(1.f + 0x1p-12f, 1.f + 0x1p-12f, -0x1p-11f)); // exactly a midpoint: ties to even
        QVERIFY(same(0x1p-70f, 0x1p-70f, 0x1p-139f)); // a subnormal result
        QVERIFY(same(0x1p-63f, 0x1p-63f, -0x1p-126f));
        QVERIFY(same(std::numeric_limits<float>::infinity(), 0.f, 1.f));
        QVERIFY(same(-0.f, 1.f, 0.f));
        std::mt19937 rng(11);
        std::uniform_real_distribution<float> mantissa(1.f, 2.f);
        std::uniform_int_distribution<int> exponent(-40, 40), sign(0, 1);
        const auto random
            = [&] { return std::ldexp(mantissa(rng), exponent(rng)) * (sign(rng) ? -1.f : 1.f); };
        int midpoints = 0;
        for (int i = 0; i < 200000; ++i) {
            const float x = random(), y = random();
            // Half the time c cancels most of the product, so that sums land near midpoints.
            const float c
                = i % 2 ? random() : -float(double(x) * double(y)) * (1.f + 0x1p-22f * float(i % 7));
            const double sum = double(x) * double(y) + double(c);
            midpoints += (std::bit_cast<std::uint64_t>(sum) & ((std::uint64_t(1) << 29) - 1))
                == std::uint64_t(1) << 28;
            QVERIFY2(same(x, y, c),
                qPrintable(QString("%1 * %2 + %3").arg(x, 0, 'a').arg(y, 0, 'a').arg(c, 0, 'a')));
        }
        QVERIFY(midpoints > 0);
    }

    void catchAllColourIsSolvedInOrder()
    {
        // A hub with 70 spokes: more constraints at one particle than the 63 conflict-free
        // colours, so the last seven land in the catch-all colour and share the hub.
        ExplicitSpec spec;
        spec.positions.push_back({ 0.f, 0.f, 0.f });
        spec.masses.push_back(1.f);
        for (int i = 0; i < 70; ++i) {
            const float t = float(i) * 0.0897f;
            spec.positions.push_back({ std::cos(t), std::sin(t), 0.1f * float(i % 3) });
            spec.masses.push_back(0.5f);
        }
        Cloth batched = makeExplicit(spec);
        for (std::uint32_t i = 1; i <= 70; ++i) {
            DistanceConstraint c;
            c.a = 0;
            c.b = i;
            c.restLength = 0.8f;
            batched.constraints.push_back(c);
        }
        Cloth reference = batched;
        ClothSolverCache cache;
        cache.ensure(batched);
        QCOMPARE(cache.xpbd.conflictFree.size(), std::size_t(64));
        QVERIFY(!cache.xpbd.conflictFree.back());
        refreshXpbdBatches(batched, 1.f / 600.f, cache.xpbd);
        std::vector<float> lambda(reference.constraints.size(), 0.f);
        batchedPass(batched, cache);
        referencePass(reference, cache, 1.f / 600.f, lambda);
        QVERIFY(samePositions(batched, reference));
    }

    void rigidPairReachesRestLength()
    {
        // Two free particles 1.5 m apart, rest length 1 m, compliance 0: one projection
        // closes the gap exactly, moving each against its inverse mass, centre of mass fixed.
        ExplicitSpec spec;
        spec.positions = { { 0.f, 0.f, 0.f }, { 1.5f, 0.f, 0.f } };
        spec.masses = { 1.f, 3.f };
        Cloth cloth = makeExplicit(spec);
        DistanceConstraint c;
        c.a = 0;
        c.b = 1;
        c.restLength = 1.f;
        cloth.constraints = { c };
        cloth.particles.previous = cloth.particles.position;
        ClothSolverCache cache;
        cache.ensure(cloth);
        refreshXpbdBatches(cloth, 1.f / 600.f, cache.xpbd);
        batchedPass(cloth, cache);
        const Vec3 &x0 = cloth.particles.position[0];
        const Vec3 &x1 = cloth.particles.position[1];
        QVERIFY(std::abs(length(x1 - x0) - 1.f) < 1e-6f);
        // w = (1, 1/3): particle 0 moves 3/4 of the 0.5 m gap, particle 1 moves 1/4.
        QVERIFY(std::abs(x0.x - 0.375f) < 1e-6f);
        QVERIFY(std::abs(x1.x - 1.375f) < 1e-6f);
        QVERIFY(std::abs((1.f * x0.x + 3.f * x1.x) / 4.f - 1.125f) < 1e-6f);
    }

    void compliantPairTakesTheXpbdStep()
    {
        // One particle pinned, one of 2 kg hanging 0.1 m too far: with α̃ = α/dt² the first
        // step leaves C' = C α̃ / (w + α̃) (eq. 18 with λ = 0 and no damping).
        ExplicitSpec spec;
        spec.positions = { { 0.f, 0.f, 0.f }, { 0.f, -1.1f, 0.f } };
        spec.masses = { 1.f, 2.f };
        Cloth cloth = makeExplicit(spec);
        cloth.particles.setKind(0, ParticleKind::Static);
        DistanceConstraint c;
        c.a = 0;
        c.b = 1;
        c.restLength = 1.f;
        c.compliance = 2e-5f;
        cloth.constraints = { c };
        cloth.particles.previous = cloth.particles.position;
        ClothSolverCache cache;
        cache.ensure(cloth);
        const double dt = 1.0 / 300.0;
        refreshXpbdBatches(cloth, float(dt), cache.xpbd);
        batchedPass(cloth, cache);
        const double alphaTilde = 2e-5 / (dt * dt);
        const double expected = 1.0 + 0.1 * alphaTilde / (0.5 + alphaTilde);
        QCOMPARE(cloth.particles.position[0].y, 0.f);
        QVERIFY(std::abs(double(-cloth.particles.position[1].y) - expected) < 1e-6);
        QVERIFY(std::abs(double(cache.xpbd.lambda[0]) - (-0.1 / (0.5 + alphaTilde))) < 1e-6);
    }

    void pinnedCorrectionsAndPaddingMoveNothing()
    {
        Cloth cloth = jitteredSheet(5, 4);
        for (std::uint32_t i = 0; i < cloth.particles.size(); ++i)
            cloth.particles.setKind(i, ParticleKind::Static);
        const Cloth before = cloth;
        ClothSolverCache cache;
        cache.ensure(cloth);
        refreshXpbdBatches(cloth, 1.f / 600.f, cache.xpbd);
        batchedPass(cloth, cache);
        QVERIFY(samePositions(cloth, before));
        for (float l : cache.xpbd.lambda)
            QCOMPARE(l, 0.f);
    }

    void stateBytesByPartCountsEveryArray()
    {
        // The memory figures of bench/ come from Simulation::stateBytesByPart. Each part must
        // hold at least what its arrays need at their sizes: a part that forgot an array
        // would fall short of this floor, one that counted an array twice would break the sum.
        Simulation sim = hangingSheet();
        const Cloth &c = sim.cloths[0];
        const std::size_t n = c.particles.size(), m = c.constraints.size(), t = c.triangles.size();

        const StateBytes unstepped = sim.stateBytesByPart(0);
        QCOMPARE(unstepped.solver(), std::size_t(0)); // no cache before the first step
        QCOMPARE(unstepped.snapshot, std::size_t(0));
        QCOMPARE(unstepped.total(), sim.stateBytes(0));

        sim.run(3);
        QVERIFY(!sim.status().blownUp);
        const StateBytes b = sim.stateBytesByPart(0);
        QCOMPARE(b.total(), sim.stateBytes(0));
        QCOMPARE(b.total(), b.cloth() + b.solver() + b.snapshot);
        // Position, previous, velocity and rest (Vec3), mass and inverse mass, kind; not the
        // forces, which are no state of theirs (a Vec3 more would pass the bound).
        const std::size_t particleFloor = n * (4 * sizeof(Vec3) + 2 * sizeof(float) + 1);
        QVERIFY2(b.particles >= particleFloor, qPrintable(QString::number(b.particles)));
        QVERIFY2(b.particles < particleFloor + n * sizeof(Vec3), qPrintable(QString::number(b.particles)));
        // Records in blocks of eight, 32 bytes a block, with the 16-byte records of the
        // blocks no pattern describes (those across a row's end) listed besides, and a table
        // of the materials they share (three on a grid). Rows of 22 to 24 records here: about
        // one block in three crosses a row's end, under 12 bytes a record, against the
        // 32-byte values they read as; on a sheet of 96 x 96, with rows of 95, fewer than 6.
        const std::size_t blocks = (m + 7) / 8;
        QVERIFY2(b.constraints >= blocks * 32 + c.constraints.materials().size() * sizeof(ConstraintMaterial),
            qPrintable(QString::number(b.constraints)));
        QCOMPARE(c.constraints.materials().size(), std::size_t(3));
        QVERIFY2(
            b.constraints < m * 12, qPrintable(QString("%1 bytes, %2 records").arg(b.constraints).arg(m)));
        {
            GridSpec g;
            g.across = 96;
            g.down = 96;
            Simulation large;
            large.cloths.push_back(makeGrid(g));
            large.step(); // the colours written into the records
            const std::size_t records = large.cloths[0].constraints.size();
            const std::size_t bytes = large.stateBytesByPart(0).constraints;
            QVERIFY2(
                bytes < records * 6, qPrintable(QString("%1 bytes, %2 records").arg(bytes).arg(records)));
        }
        QVERIFY(b.triangles >= t * sizeof(Triangle));
        QCOMPARE(b.tension, std::size_t(0)); // kept in the streams, made on request
        QVERIFY(b.clothOther >= sizeof(Cloth));
        // Per slot (one per constraint and the padding): rest length, λ and the span's three
        // components, 4 bytes each, and α̃ as a class byte (a grid has three values of it),
        // not a float; not |span|² - L², which the kernels take from the span; γ only while a
        // constraint is damped (none is yet); the 16 ends of each gathered block; and the
        // slots' records, 9 bytes a block, 32 more for a block that is no progression (most
        // of a grid's are), not 4 bytes a slot.
        ClothSolverCache layout; // the layout the stepped cloth has (the colours are in its records)
        layout.ensure(static_cast<const Cloth &>(sim.cloths[0]));
        const std::size_t slotCount = layout.xpbd.slotCount();
        QVERIFY(slotCount >= m);
        const std::size_t gathered = std::size_t(std::count(
            layout.xpbd.blockFetch.begin(), layout.xpbd.blockFetch.end(), std::uint8_t(XpbdBatches::Gather)));
        QVERIFY(gathered > 0);
        QVERIFY2(b.streams >= slotCount * (5 * 4 + 1) + slotCount / 8 * 9 + gathered * 16 * 4,
            qPrintable(QString::number(b.streams)));
        QVERIFY2(b.streams < slotCount * (5 * 4 + 1 + 3) + gathered * 16 * 4,
            qPrintable(QString::number(b.streams)));
        QVERIFY(b.blockTables > 0);
        // The offsets, the offsets at the substep's start and the velocities after
        // prediction: in nine planes on the vector kernels, where a plain frame keeps them
        // from its start to its end with no Vec3 copy of them and reads its origin from the
        // positions; else in three Vec3 arrays, and the origin in a fourth.
        const bool planar = xpbdKernelIsaOfCpu() != KernelIsa::Portable;
        const std::size_t frameState = planar ? n * 9 * sizeof(float) : n * 4 * sizeof(Vec3);
        QVERIFY2(b.solverParticles >= frameState, qPrintable(QString::number(b.solverParticles)));
        if (planar) {
            QVERIFY2(b.solverParticles < frameState + n * sizeof(Vec3),
                qPrintable(QString::number(b.solverParticles)));
            // The general path (a ground plane far below the cloth) keeps them and the origin
            // as Vec3 too.
            Simulation general = hangingSheet();
            Collider ground;
            ground.kind = ColliderKind::Plane;
            ground.baseCenter = ground.center = { 0.f, -100.f, 0.f };
            general.colliders.push_back(ground);
            general.run(3);
            QVERIFY(!general.status().blownUp);
            const std::size_t generalBytes = general.stateBytesByPart(0).solverParticles;
            QVERIFY2(generalBytes >= n * 4 * sizeof(Vec3), qPrintable(QString::number(generalBytes)));
            // Only a frame the wind acts on keeps the forces, one Vec3 a particle more; the
            // plain frames above keep none (their bound leaves no room for them).
            Simulation windy = hangingSheet();
            windy.colliders = general.colliders;
            windy.world.wind.speed = 3.f;
            windy.run(3);
            QVERIFY(!windy.status().blownUp);
            const std::size_t windyBytes = windy.stateBytesByPart(0).solverParticles;
            QVERIFY2(windyBytes >= generalBytes + n * sizeof(Vec3), qPrintable(QString::number(windyBytes)));
            // So do Verlet's plain frames.
            Simulation verlet = hangingSheet();
            verlet.solver.kind = SolverKind::Verlet;
            verlet.run(3);
            QVERIFY(!verlet.status().blownUp);
            const std::size_t verletBytes = verlet.stateBytesByPart(0).solverParticles;
            QVERIFY2(verletBytes >= frameState, qPrintable(QString::number(verletBytes)));
            QVERIFY2(verletBytes < frameState + n * sizeof(Vec3), qPrintable(QString::number(verletBytes)));
        }
        QVERIFY(b.solverOther > 0);
        // The rollback snapshot: where the last frame left the particles; and the previous
        // positions and velocities at the frame's start, but for a frame held in planes until
        // it has passed the blow-up check, which leaves the particles as they were.
        QVERIFY2(b.snapshot >= n * (planar ? 1 : 3) * sizeof(Vec3), qPrintable(QString::number(b.snapshot)));
        if (planar)
            QVERIFY2(b.snapshot < n * 2 * sizeof(Vec3), qPrintable(QString::number(b.snapshot)));
        // A copy holds at least this cloth's state.
        QVERIFY(sim.memoryBytes() >= b.total());

        const StateBytes none = sim.stateBytesByPart(1);
        QCOMPARE(none.total(), std::size_t(0));

        // One damped constraint brings the γ stream, a slot's worth of floats; without
        // damping again it goes, and the frames go on as on a cloth that never had it.
        sim.cloths[0].constraints.modify(
            7, [](DistanceConstraint &r) { r.compliance = 1e-4f; }); // γ = α c / dt: a rigid link takes none
        sim.cloths[0].constraints.modify(7, [&](DistanceConstraint &r) { r.damping = 0.5f; });
        sim.step();
        const std::size_t damped = sim.stateBytesByPart(0).streams;
        QVERIFY2(damped >= b.streams + slotCount * 4, qPrintable(QString::number(damped)));
        sim.cloths[0].constraints.modify(7, [&](DistanceConstraint &r) { r.damping = 0.f; });
        Simulation undamped = sim;
        sim.step();
        QCOMPARE(sim.stateBytesByPart(0).streams, b.streams);
        Simulation fresh;
        fresh.cloths = undamped.cloths;
        fresh.solver = undamped.solver;
        fresh.setTime(undamped.time(), undamped.frame());
        fresh.step();
        QCOMPARE(sim.stateHash(), fresh.stateHash());
    }

    void slotSourcesKeepEveryRecord()
    {
        // The slots' records are held per block as a progression (first record, step, live
        // lanes) where the live lanes allow one, in lane order or in the dealt order of a
        // grid's horizontal window blocks, and listed otherwise: every slot must read back
        // what was set, whichever form its block takes and however often it changes.
        constexpr std::uint32_t N = SlotSources::kNone;
        constexpr std::uint32_t kBlocks = 11;
        const std::uint32_t blocks[kBlocks][8] = {
            { 10, 12, 14, 16, 18, 20, 22, 24 }, // rising by 2
            { 100, 99, 98, 97, 96, 95, 94, 93 }, // falling by 1
            { N, 7, N, 11, N, N, 17, N }, // rising by 2 across padding
            { N, N, N, 5, N, N, N, N }, // one live lane
            { 5, 3, 1, N, N, N, N, N }, // falling past 0 if carried on (modulo 2^32)
            { 1, 2, 4, 8, 16, 32, 64, 128 }, // no progression: listed
            { N, N, N, N, N, N, N, N }, // padding only
            { 40, 46, 64, 70, 52, 58, 76, 82 }, // rising by 6 in dealt order (0 1 4 5 2 3 6 7)
            { N, 46, 64, N, N, 58, 76, N }, // the same with gaps
            { 9, 8, 5, 4, 7, 6, 3, 2 }, // falling by 1 in dealt order
            { 0, 0x20000000, N, N, N, N, N, N }, // a step past 2^29 - 1: listed
        };
        SlotSources s;
        s.resize(8 * kBlocks);
        std::vector<std::uint32_t> expected;
        for (std::uint32_t b = 0; b < kBlocks; ++b) {
            s.setBlock(b, blocks[b]);
            expected.insert(expected.end(), blocks[b], blocks[b] + 8);
        }
        QCOMPARE(s.flat(), expected);
        for (std::size_t k = 0; k < expected.size(); ++k) {
            QCOMPARE(s[k], expected[k]);
            QCOMPARE(s.live(k), expected[k] != N);
        }
        QCOMPARE(s.liveLanes(2), std::uint8_t(0x4a));
        // Nine bytes a block, and the two listed blocks' eight records each.
        QCOMPARE(s.capacityBytes(), std::size_t(kBlocks * 9 + 2 * 8 * 4));

        // Random changes, slot by slot and block by block, against a plain array: blocks
        // turn from progressions to lists and back, and the lists are compacted on the way.
        std::mt19937 rng(3);
        const auto record = [&rng]() -> std::uint32_t {
            const std::uint32_t r = rng() % 12;
            return r == 0 ? N : r;
        };
        for (int round = 0; round < 4000; ++round) {
            const std::size_t b = rng() % kBlocks;
            if (rng() % 4 == 0) {
                std::uint32_t lanes[8];
                const std::uint32_t first = rng() % 1000, step = rng() % 3 == 0 ? record() : 1;
                const bool dealt = rng() % 2 == 0;
                for (std::uint32_t l = 0; l < 8; ++l)
                    lanes[l] = rng() % 5 == 0 ? N : first + (dealt ? SlotSources::dealtOrdinal(l) : l) * step;
                s.setBlock(b, lanes);
                std::copy(lanes, lanes + 8, expected.begin() + std::ptrdiff_t(8 * b));
            } else {
                const std::size_t k = 8 * b + rng() % 8;
                expected[k] = rng() % 2 ? record() : (k % 8 > 0 ? expected[k - 1] + 1 : record());
                s.set(k, expected[k]);
            }
            QCOMPARE(s.flat(), expected);
        }
        // The compactions bound the list: no more than twice the entries of every block
        // listed at once.
        QVERIFY(s.capacityBytes() <= kBlocks * 9 + 2 * kBlocks * 8 * 4);
        s.assign(expected);
        QCOMPARE(s.flat(), expected);
        s.resize(8 * 2);
        expected.resize(8 * 2);
        QCOMPARE(s.flat(), expected);
        s.resize(8 * 3);
        expected.resize(8 * 3, N);
        QCOMPARE(s.flat(), expected);
    }

    void copiesCarryNoScratch()
    {
        // The vector kernels' planes (the offsets, their values at the substep's start, the
        // carried velocities) live only within a step. A copy of a simulation (a timeline
        // snapshot) leaves them out and steps on bit for bit all the same; an assignment
        // keeps the target's, so that a player copying a state every frame allocates nothing.
        if (xpbdKernelIsaOfCpu() == KernelIsa::Portable)
            QSKIP("the portable kernels use no planes");
        Simulation sim = hangingSheet();
        const std::size_t n = sim.cloths[0].particles.size();
        sim.run(3);
        QVERIFY(!sim.status().blownUp);
        const StateBytes b = sim.stateBytesByPart(0);

        Simulation copy = sim;
        const StateBytes cb = copy.stateBytesByPart(0);
        // Nine planes of n floats: three each for the offsets, the previous offsets and the
        // velocities.
        QVERIFY2(b.solverParticles >= cb.solverParticles + n * 9 * sizeof(float),
            qPrintable(QString("%1 against %2").arg(b.solverParticles).arg(cb.solverParticles)));
        QCOMPARE(cb.streams, b.streams);
        copy.step();
        sim.step();
        QCOMPARE(copy.stateHash(), sim.stateHash());
        QCOMPARE(copy.stateBytesByPart(0).solverParticles, sim.stateBytesByPart(0).solverParticles);

        Simulation player = sim;
        player.step(); // its own planes
        const std::size_t own = player.stateBytesByPart(0).solverParticles;
        player = sim;
        QCOMPARE(player.stateBytesByPart(0).solverParticles, own);
        player.step();
        sim.step();
        QCOMPARE(player.stateHash(), sim.stateHash());
    }

    void springsFramesHoldNoStreams()
    {
        // The springs solver reads the constraint records, not the streams: its frames drop
        // them, and the first XPBD frame after a switch lays them out again. Holes are cut
        // during the springs frames, so the layout it comes back to is not the one it left.
        GridSpec g;
        g.across = 21;
        g.down = 14;
        g.width = 0.7f;
        g.height = 0.5f;
        g.structuralParams = { 2e-3f, 0.01f, kNeverTear };
        g.shearParams = { 2e-3f, 0.01f, kNeverTear };
        g.bendParams = { 1e-2f, 0.f, kNeverTear };
        g.arealDensity = 20.f; // kg/m²: heavy enough for the springs solver at 10 substeps
        Simulation sim;
        sim.solver.kind = SolverKind::Springs;
        sim.solver.substeps = 10;
        Cloth c = makeGrid(g);
        for (int i = 0; i < g.across; i += 4)
            c.particles.setKind(gridIndex(g, i, 0), ParticleKind::Static);
        sim.cloths.push_back(c);
        sim.run(2);
        const StateBytes xpbdSized = [&c] {
            Simulation x;
            x.cloths.push_back(c);
            x.run(1);
            return x.stateBytesByPart(0);
        }();
        QVERIFY(xpbdSized.streams > 0);
        for (int frame = 0; frame < 6; ++frame) {
            Cloth &cloth = sim.cloths[0];
            cloth.constraints.erase(cloth.constraints.begin() + std::ptrdiff_t(17 * frame + 40));
            cloth.touchTopology();
            sim.step();
            QVERIFY2(!sim.status().blownUp, sim.status().message.c_str());
            const StateBytes b = sim.stateBytesByPart(0);
            QCOMPARE(b.streams, std::size_t(0));
            QCOMPARE(b.blockTables, std::size_t(0));
            QVERIFY(b.total() < xpbdSized.total());
        }

        // From here XPBD: the same bits as a simulation that starts from a copy of the cloth
        // (its streams laid out afresh from the colours in the records).
        Simulation copy;
        copy.world = sim.world;
        copy.cloths = sim.cloths;
        copy.setTime(sim.time(), sim.frame());
        sim.solver.kind = SolverKind::Xpbd;
        copy.solver = sim.solver;
        for (int frame = 0; frame < 5; ++frame) {
            sim.step();
            copy.step();
            QVERIFY2(!sim.status().blownUp, sim.status().message.c_str());
            QCOMPARE(sim.stateHash(), copy.stateHash());
            // Every slot's rest length, λ, span (three floats) and α̃, and γ (the cloth is
            // damped), besides the records the slots stand for.
            QVERIFY(sim.stateBytesByPart(0).streams >= sim.cloths[0].constraints.size() * 7 * 4);
        }
        sim.solver.kind = SolverKind::Springs;
        sim.step();
        QCOMPARE(sim.stateBytesByPart(0).streams, std::size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestXpbdBatch)
#include "tst_xpbdbatch.moc"
