// Simulation::step(): one frame for every cloth with the selected solver, then a blow-up
// check with rollback. The per-cloth solvers live in solverxpbd.cpp, solververlet.cpp and
// solversprings.cpp; see docs/solvers.md.
#include "sim/simulation.h"

#include "collision.h"
#include "sim/clothcollision.h"
#include "solver.h"
#include "tensionrecord.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <emmintrin.h>
#include <limits>
#include <sstream>

namespace drape {

namespace detail {

/// Particle state at the start of the frame, restored on a blow-up. Between frames its
/// positions are where the last frame left the particles (Simulation::keepEndPositions),
/// which the next frame's kinematic particles start their motion from (keepKinematicEnds):
/// no other array keeps them. A frame held in planes (PlainPlanes, solver.h) leaves the
/// particles as they were until it is committed, so it takes no copies: the previous
/// positions and velocities are sized by the first frame that does.
struct FrameSnapshot {
    std::vector<Vec3> position;
    std::vector<Vec3> previous;
    std::vector<Vec3> velocity;
};

/// Everything a Simulation keeps between steps besides its public state.
struct SimulationCaches {
    std::vector<FrameSnapshot> lastGood;         // per cloth (blow-up rollback)
    std::vector<ClothSolverCache> caches;        // per cloth solver scratch
    std::vector<ColliderState> colliderStates;   // substeps × colliders, this frame
    std::vector<std::uint64_t> tearScratch;
    ClothSurfaces surfaces;                      // other cloths' triangles this frame (solver.clothCollision)
};

} // namespace detail

namespace {

// True when particles [begin, end) certainly pass detectBlowUp's test: every position,
// previous position and velocity component finite (x - x is 0 for those, NaN otherwise) and
// every velocity component squared below 0.33 maxSpeed², so |v|² < maxSpeed² whatever the
// rounding of the sum. Four floats at a time (SSE2). False means "look particle by particle";
// so does a subnormal maxSpeed², whose 0.33 could round up by a whole unit.
bool certainlyCalm(const Particles &p, std::size_t begin, std::size_t end, float maxSpeed2)
{
    static_assert(sizeof(Vec3) == 3 * sizeof(float));
    if (!(maxSpeed2 >= std::numeric_limits<float>::min()))
        return false;
    const float *x = &p.position.data()->x, *xp = &p.previous.data()->x, *v = &p.velocity.data()->x;
    const __m128 bound = _mm_set1_ps(0.33f * maxSpeed2);
    __m128 nan = _mm_setzero_ps(), fast = _mm_setzero_ps();
    std::size_t i = 3 * begin;
    for (; i + 4 <= 3 * end; i += 4) {
        const __m128 a = _mm_loadu_ps(x + i), b = _mm_loadu_ps(xp + i), c = _mm_loadu_ps(v + i);
        nan = _mm_or_ps(nan, _mm_or_ps(_mm_sub_ps(a, a), _mm_or_ps(_mm_sub_ps(b, b), _mm_sub_ps(c, c))));
        fast = _mm_or_ps(fast, _mm_cmpnle_ps(_mm_mul_ps(c, c), bound));
    }
    bool calm = _mm_movemask_epi8(_mm_cmpeq_epi32(_mm_castps_si128(nan), _mm_setzero_si128())) == 0xFFFF
        && _mm_movemask_ps(fast) == 0;
    for (; i < 3 * end; ++i)
        calm &= std::isfinite(x[i]) & std::isfinite(xp[i]) & std::isfinite(v[i])
            & (v[i] * v[i] <= 0.33f * maxSpeed2);
    return calm;
}

} // namespace

Simulation::Simulation() : m_in(std::make_unique<detail::SimulationCaches>()) {}
Simulation::~Simulation() = default;

Simulation::Simulation(const Simulation &other)
    : world(other.world), solver(other.solver), cloths(other.cloths), colliders(other.colliders),
      m_time(other.m_time), m_frame(other.m_frame), m_status(other.m_status), m_stats(other.m_stats),
      m_in(std::make_unique<detail::SimulationCaches>(*other.m_in))
{
}

// Member by member, so the vectors reuse their storage (a player copies a state every frame).
Simulation &Simulation::operator=(const Simulation &other)
{
    if (this != &other) {
        world = other.world;
        solver = other.solver;
        cloths = other.cloths;
        colliders = other.colliders;
        m_time = other.m_time;
        m_frame = other.m_frame;
        m_status = other.m_status;
        m_stats = other.m_stats;
        *m_in = *other.m_in;
    }
    return *this;
}

// A moved-from simulation stays usable with empty caches (as a moved-from vector is empty),
// whether moved from by construction or by assignment.
Simulation::Simulation(Simulation &&other)
    : world(std::move(other.world)), solver(std::move(other.solver)), cloths(std::move(other.cloths)),
      colliders(std::move(other.colliders)), m_time(other.m_time), m_frame(other.m_frame),
      m_status(std::move(other.m_status)), m_stats(other.m_stats), m_in(std::move(other.m_in))
{
    other.m_in = std::make_unique<detail::SimulationCaches>();
}

Simulation &Simulation::operator=(Simulation &&other)
{
    if (this != &other) {
        world = std::move(other.world);
        solver = std::move(other.solver);
        cloths = std::move(other.cloths);
        colliders = std::move(other.colliders);
        m_time = other.m_time;
        m_frame = other.m_frame;
        m_status = std::move(other.m_status);
        m_stats = other.m_stats;
        m_in = std::move(other.m_in);
        other.m_in = std::make_unique<detail::SimulationCaches>();
    }
    return *this;
}

namespace {

constexpr std::uint64_t kFnvOffset = 14695981039346656037ull;
constexpr std::uint64_t kFnvPrime = 1099511628211ull;

void fnv(std::uint64_t &h, const void *data, std::size_t bytes)
{
    const auto *p = static_cast<const unsigned char *>(data);
    for (std::size_t i = 0; i < bytes; ++i) {
        h ^= p[i];
        h *= kFnvPrime;
    }
}

template <typename T> void fnvArray(std::uint64_t &h, const std::vector<T> &v)
{
    const std::uint64_t n = v.size();
    fnv(h, &n, sizeof n);
    if (!v.empty())
        fnv(h, v.data(), v.size() * sizeof(T));
}

} // namespace

void Simulation::setTime(double t, std::uint64_t frame)
{
    m_time = t;
    m_frame = frame;
    invalidateHistory();
}

void Simulation::invalidateHistory()
{
    for (detail::ClothSolverCache &c : m_in->caches)
        c.invalidateHistory();
}

std::vector<std::string> Simulation::validate() const
{
    std::vector<std::string> out;
    for (const SettingsError &e : drape::validate(world))
        out.push_back(e.message);
    for (const SettingsError &e : drape::validate(solver))
        out.push_back(e.message);
    for (std::size_t c = 0; c < cloths.size(); ++c) {
        const std::string problem = cloths[c].validate();
        if (!problem.empty())
            out.push_back("cloth " + std::to_string(c) + " (" + cloths[c].name + "), " + problem);
    }
    for (std::size_t c = 0; c < colliders.size(); ++c) {
        const Collider &k = colliders[c];
        const std::string where = "collider " + std::to_string(c) + " (" + k.name + "): ";
        if (!isFinite(k.center) || !isFinite(k.baseCenter))
            out.push_back(where + "center is not finite");
        if ((k.kind == ColliderKind::Sphere || k.kind == ColliderKind::Capsule)
            && !(k.radius > 0.f && std::isfinite(k.radius)))
            out.push_back(where + "radius " + std::to_string(k.radius) + " m is out of range, allowed > 0");
        if (k.kind == ColliderKind::Plane && !(lengthSquared(k.normal) > 0.f && isFinite(k.normal)))
            out.push_back(where + "normal must be a finite non-zero vector");
        if (k.kind == ColliderKind::Box
            && !(k.halfExtents.x > 0.f && k.halfExtents.y > 0.f && k.halfExtents.z > 0.f
                && isFinite(k.halfExtents)))
            out.push_back(where + "half extents must be finite and > 0 m");
        if (k.kind == ColliderKind::Capsule
            && !(k.halfLength >= 0.f && std::isfinite(k.halfLength) && lengthSquared(k.axis) > 0.f
                && isFinite(k.axis)))
            out.push_back(where + "capsule needs a finite half length >= 0 m and a finite non-zero axis");
        if (k.kind == ColliderKind::Mesh && !k.mesh)
            out.push_back(where + "mesh collider has no triangles");
        if (!(k.thickness >= 0.f && std::isfinite(k.thickness)))
            out.push_back(
                where + "thickness " + std::to_string(k.thickness) + " m is out of range, allowed >= 0");
        if (!(k.friction >= 0.f && std::isfinite(k.friction)))
            out.push_back(
                where + "friction " + std::to_string(k.friction) + " is out of range, allowed >= 0");
        if (!std::isfinite(k.staticFriction))
            out.push_back(where + "static friction is not finite");
        if (!(k.restitution >= 0.f && k.restitution <= 1.f))
            out.push_back(
                where + "restitution " + std::to_string(k.restitution) + " is out of range, allowed 0..1");
        if (!std::isfinite(k.motion.frequency) || !isFinite(k.motion.amplitude)
            || !std::isfinite(k.motion.phase))
            out.push_back(where + "motion is not finite");
    }
    return out;
}

bool Simulation::checkSettings()
{
    // Only the settings whose violation would break the step itself are checked every frame;
    // validate() gives the complete list.
    std::vector<SettingsError> errors = drape::validate(solver);
    const std::vector<SettingsError> worldErrors = drape::validate(world);
    errors.insert(errors.end(), worldErrors.begin(), worldErrors.end());
    if (errors.empty())
        return true;
    m_status.blownUp = true;
    m_status.message = "invalid settings, not stepping: " + errors.front().message;
    return false;
}

namespace {

// body(begin, end) over the particles of cloth c, shared with the cloth's solver thread
// when it has one (XPBD and Verlet; the springs solver keeps to one thread).
template <typename Body>
void forClothParticles(const Simulation &sim, detail::SimulationCaches &in, std::size_t c, Body &&body)
{
    const std::size_t n = sim.cloths[c].particles.size();
    if (sim.solver.kind == SolverKind::Springs || c >= in.caches.size())
        body(std::uint32_t(0), std::uint32_t(n));
    else
        detail::forParticles(in.caches[c], n, body);
}

void copyRange(const std::vector<Vec3> &from, std::vector<Vec3> &to, std::uint32_t begin, std::uint32_t end)
{
    std::copy(from.begin() + begin, from.begin() + end, to.begin() + begin);
}

} // namespace

void Simulation::takeSnapshot(std::size_t c, bool copies)
{
    m_in->lastGood.resize(cloths.size());
    const Particles &p = cloths[c].particles;
    detail::FrameSnapshot &s = m_in->lastGood[c];
    // Until now the snapshot's positions were where the last frame left the particles
    // (keepEndPositions): the kinematic particles' are kept for their motion this frame.
    if (c < m_in->caches.size())
        detail::keepKinematicEnds(p, m_in->caches[c], s.position);
    if (!copies)
        return;
    s.position.resize(p.size());
    s.previous.resize(p.size());
    s.velocity.resize(p.size());
    forClothParticles(*this, *m_in, c, [&](std::uint32_t begin, std::uint32_t end) {
        copyRange(p.position, s.position, begin, end);
        copyRange(p.previous, s.previous, begin, end);
        copyRange(p.velocity, s.velocity, begin, end);
    });
}

void Simulation::keepEndPositions()
{
    m_in->lastGood.resize(cloths.size());
    for (std::size_t c = 0; c < cloths.size() && c < m_in->caches.size(); ++c) {
        const Particles &p = cloths[c].particles;
        std::vector<Vec3> &end = m_in->lastGood[c].position;
        end.resize(p.size());
        forClothParticles(*this, *m_in, c,
            [&](std::uint32_t begin, std::uint32_t last) { copyRange(p.position, end, begin, last); });
        m_in->caches[c].endValid = true;
    }
}

bool Simulation::detectBlowUp()
{
    const float maxSpeed2 = solver.maxSpeed * solver.maxSpeed;
    for (std::size_t c = 0; c < cloths.size(); ++c) {
        const Cloth &cloth = cloths[c];
        const Particles &p = cloth.particles;
        // A frame held in planes is checked there, before it is written.
        detail::ClothSolverCache *held
            = c < m_in->caches.size() && m_in->caches[c].heldFrame.held ? &m_in->caches[c] : nullptr;
        const auto end = [&](std::size_t i) {
            return held ? detail::plainFrameEnd(cloth, *held, std::uint32_t(i))
                        : detail::ParticleEnd { p.position[i], p.previous[i], p.velocity[i] };
        };
        const auto finite = [](const detail::ParticleEnd &e) {
            return isFinite(e.position) && isFinite(e.velocity) && isFinite(e.previous);
        };
        // The first bad particle (the lowest index, whichever thread finds it), so that the
        // message does not depend on the timing.
        std::atomic<std::size_t> first { p.size() };
        forClothParticles(*this, *m_in, c, [&](std::uint32_t begin, std::uint32_t last) {
            std::size_t i = last;
            if (held) {
                i = detail::firstUnsettledPlainFrame(cloth, *held, maxSpeed2, begin, last);
            } else if (!certainlyCalm(p, begin, last, maxSpeed2)) {
                for (i = begin; i < last; ++i) {
                    if (finite(end(i)) && lengthSquared(p.velocity[i]) <= maxSpeed2)
                        continue;
                    break;
                }
            }
            if (i == last)
                return;
            std::size_t seen = first.load(std::memory_order_relaxed);
            while (i < seen && !first.compare_exchange_weak(seen, i, std::memory_order_relaxed)) { }
        });
        const std::size_t i = first.load(std::memory_order_relaxed);
        if (i == p.size())
            continue;
        const detail::ParticleEnd e = end(i);
        std::ostringstream msg;
        if (!finite(e)) {
            msg << "cloth " << c << ", particle " << i << ": position or velocity is not finite";
        } else {
            msg << "cloth " << c << ", particle " << i << ": speed " << length(e.velocity)
                << " m/s exceeds solver.maxSpeed " << solver.maxSpeed << " m/s";
        }
        m_status.blownUp = true;
        m_status.message
            = msg.str() + "; restored the last good frame (lower the time step or soften the material)";
        return true;
    }
    return false;
}

void Simulation::rollBack()
{
    for (std::size_t c = 0; c < cloths.size() && c < m_in->lastGood.size(); ++c) {
        Particles &p = cloths[c].particles;
        const detail::FrameSnapshot &s = m_in->lastGood[c];
        if (c < m_in->caches.size() && m_in->caches[c].heldFrame.held) {
            detail::dropPlainFrame(cloths[c], m_in->caches[c]); // the particles are as they were
        } else {
            const std::size_t n = std::min(p.size(), s.position.size());
            std::copy(s.position.begin(), s.position.begin() + std::ptrdiff_t(n), p.position.begin());
            std::copy(s.previous.begin(), s.previous.begin() + std::ptrdiff_t(n), p.previous.begin());
            std::copy(s.velocity.begin(), s.velocity.begin() + std::ptrdiff_t(n), p.velocity.begin());
        }
        // Particles created by splits during the frame take the state of the particle they
        // were split from (splits are listed in order, so a split of a split resolves too).
        if (c < m_in->caches.size()) {
            for (const ParticleSplit &split : m_in->caches[c].splitsThisFrame) {
                if (split.created < p.size() && split.original < p.size()) {
                    p.position[split.created] = p.position[split.original];
                    p.previous[split.created] = p.previous[split.original];
                    p.velocity[split.created] = p.velocity[split.original];
                }
            }
        }
        // Anything still not finite (a particle added from outside mid-frame) is put at rest.
        for (std::size_t i = 0; i < p.size(); ++i) {
            if (!isFinite(p.position[i]))
                p.position[i] = isFinite(p.rest[i]) ? p.rest[i] : Vec3 {};
            if (!isFinite(p.previous[i]))
                p.previous[i] = p.position[i];
            if (!isFinite(p.velocity[i]))
                p.velocity[i] = {};
        }
        if (c < m_in->caches.size()) {
            m_in->caches[c].invalidateHistory();
            detail::forgetTension(m_in->caches[c]); // of the frame that blew up
        }
    }
}

void Simulation::stepCloth(std::size_t index)
{
    Cloth &cloth = cloths[index];
    detail::ClothSolverCache &cache = m_in->caches[index];
    const std::uint64_t layouts = cache.layouts, remaps = cache.remaps;
    cache.ensure(cloth);
    cache.splitsThisFrame.clear();
    detail::FrameContext ctx { world, solver, m_in->colliderStates, colliders.size(), m_time,
        solver.frameDt(), solver.substepDt(), solver.substeps, m_in->tearScratch };
    if (solver.clothCollision && cloths.size() > 1) {
        ctx.surfaces = &m_in->surfaces;
        ctx.clothIndex = std::uint32_t(index);
    }
    // The rollback's copies of the frame's start, unless the frame is held in planes until it
    // has passed the blow-up check (PlainPlanes): then the particles stay as they are.
    takeSnapshot(index, solver.kind == SolverKind::Springs || !detail::planarFrame(cloth, cache, ctx));
    switch (solver.kind) {
    case SolverKind::Xpbd:
        detail::stepXpbd(cloth, cache, ctx, m_stats);
        break;
    case SolverKind::Verlet:
        detail::stepVerlet(cloth, cache, ctx, m_stats);
        break;
    case SolverKind::Springs:
        detail::stepSprings(cloth, cache, ctx, m_stats);
        break;
    }
    cache.started = true;
    m_stats.streamLayouts += std::uint32_t(cache.layouts - layouts);
    m_stats.streamRemaps += std::uint32_t(cache.remaps - remaps);
}

namespace {
thread_local std::uint64_t t_stepsOnThisThread = 0;
} // namespace

std::uint64_t Simulation::stepsOnThisThread()
{
    return t_stepsOnThisThread;
}

void Simulation::step()
{
    if (m_status.blownUp)
        return;
    ++t_stepsOnThisThread;
    m_stats = {};
    if (!checkSettings())
        return;
    m_in->caches.resize(cloths.size());
    for (std::size_t c = 0; c < cloths.size(); ++c) {
        // One or two threads this frame (the count of the topology laid out last frame).
        detail::ClothSolverCache &cache = m_in->caches[c];
        cache.keepStreams = solver.kind != SolverKind::Springs;
        cache.xpbdWorker.beginFrame(cache.constraintCount == ~std::size_t(0) ? 0 : cache.constraintCount);
        // The cheap check (and the solver's refresh of its parameters) first; the full
        // validation only names what it found.
        const std::uint64_t scans = cache.xpbd.recordScans;
        const bool ok = detail::checkFrame(cloths[c], cache, solver);
        m_stats.recordScans += std::uint32_t(cache.xpbd.recordScans - scans);
        if (ok)
            continue;
        const std::string problem = cloths[c].validate();
        if (!problem.empty()) {
            m_status.blownUp = true;
            m_status.message = "cloth " + std::to_string(c) + " (" + cloths[c].name
                + ") is invalid, not stepping: " + problem;
            return;
        }
    }

    // Collider states for every substep of the frame, from simulation time.
    const int substeps = solver.substeps;
    const double dt = solver.substepDt();
    m_in->colliderStates.resize(std::size_t(substeps) * colliders.size());
    for (int s = 0; s < substeps; ++s) {
        for (std::size_t k = 0; k < colliders.size(); ++k)
            m_in->colliderStates[std::size_t(s) * colliders.size() + k]
                = detail::colliderStateAt(colliders[k], m_time + double(s + 1) * dt);
    }

    if (solver.kind == SolverKind::Springs) {
        const detail::FrameContext ctx { world, solver, m_in->colliderStates, colliders.size(), m_time,
            solver.frameDt(), dt, substeps, m_in->tearScratch };
        for (std::size_t c = 0; c < cloths.size(); ++c) {
            detail::ClothSolverCache &cache = m_in->caches[c];
            const std::uint64_t layouts = cache.layouts, remaps = cache.remaps;
            cache.ensure(cloths[c]);
            m_stats.streamLayouts += std::uint32_t(cache.layouts - layouts);
            m_stats.streamRemaps += std::uint32_t(cache.remaps - remaps);
            const std::string problem = detail::checkSpringStability(cloths[c], m_in->caches[c], ctx);
            if (!problem.empty()) {
                m_status.blownUp = true;
                m_status.message = "cloth " + std::to_string(c) + ", " + problem;
                return;
            }
        }
    }

    if (solver.clothCollision && cloths.size() > 1)
        detail::buildClothSurfaces(cloths, m_in->surfaces);
    for (std::size_t c = 0; c < cloths.size(); ++c) {
        // Timed for the choice between one and two threads (the results are the same).
        const auto start = std::chrono::steady_clock::now();
        stepCloth(c);
        m_in->caches[c].xpbdWorker.endFrame(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }

    if (detectBlowUp()) {
        rollBack();
        return;
    }
    for (std::size_t c = 0; c < cloths.size(); ++c) {
        if (m_in->caches[c].heldFrame.held)
            detail::commitPlainFrame(cloths[c], m_in->caches[c]);
    }
    keepEndPositions();
    m_time += solver.frameDt();
    ++m_frame;
    for (Collider &k : colliders)
        k.updateMotion(m_time);
}

void Simulation::run(int frames)
{
    for (int i = 0; i < frames && !m_status.blownUp; ++i)
        step();
}

std::size_t Simulation::stateBytes(std::size_t cloth) const
{
    return stateBytesByPart(cloth).total();
}

StateBytes Simulation::stateBytesByPart(std::size_t cloth) const
{
    StateBytes bytes;
    if (cloth >= cloths.size())
        return bytes;
    const Cloth &c = cloths[cloth];
    const Particles &p = c.particles;
    bytes.particles
        = (p.position.capacity() + p.previous.capacity() + p.velocity.capacity() + p.rest.capacity())
            * sizeof(Vec3)
        + (p.mass.capacity() + p.invMass.capacity()) * sizeof(float)
        + p.kind.capacity() * sizeof(ParticleKind);
    bytes.constraints = c.constraints.bytes();
    bytes.triangles = c.triangles.capacity() * sizeof(Triangle);
    bytes.clothOther = sizeof(Cloth) + c.name.capacity() + c.uv.capacity() * sizeof(c.uv[0]);
    if (cloth < m_in->caches.size()) {
        const detail::ClothSolverCache::Bytes solverBytes = m_in->caches[cloth].bytes();
        bytes.streams = solverBytes.streams;
        bytes.blockTables = solverBytes.blockTables;
        bytes.solverParticles = solverBytes.particles;
        bytes.solverOther = solverBytes.other;
        bytes.tension = solverBytes.tension;
    }
    if (cloth < m_in->lastGood.size()) {
        const detail::FrameSnapshot &s = m_in->lastGood[cloth];
        bytes.snapshot
            = (s.position.capacity() + s.previous.capacity() + s.velocity.capacity()) * sizeof(Vec3);
    }
    return bytes;
}

void Simulation::constraintTensions(std::size_t cloth, std::vector<float> &out) const
{
    out.clear();
    if (cloth >= cloths.size())
        return;
    if (cloth < m_in->caches.size())
        detail::readTension(cloths[cloth], m_in->caches[cloth], out);
    else
        out.assign(cloths[cloth].constraints.size(), 0.f); // never stepped: unknown
}

std::vector<float> Simulation::constraintTensions(std::size_t cloth) const
{
    std::vector<float> out;
    constraintTensions(cloth, out);
    return out;
}

std::size_t Simulation::memoryBytes() const
{
    // What a copy (a timeline snapshot) holds: every cloth's state and solver caches, plus the
    // simulation-wide arrays, counted from vector capacities.
    std::size_t total = sizeof(Simulation) + sizeof(detail::SimulationCaches)
        + colliders.capacity() * sizeof(Collider)
        + m_in->colliderStates.capacity() * sizeof(detail::ColliderState)
        + m_in->tearScratch.capacity() * sizeof(std::uint64_t);
    for (std::size_t c = 0; c < cloths.size(); ++c)
        total += stateBytes(c);
    for (const Collider &k : colliders)
        total += k.name.capacity();
    return total;
}

std::uint64_t Simulation::stateHash() const
{
    std::uint64_t h = kFnvOffset;
    const std::uint64_t count = cloths.size();
    fnv(h, &count, sizeof count);
    for (const Cloth &c : cloths) {
        fnvArray(h, c.particles.position);
        fnvArray(h, c.particles.velocity);
        fnvArray(h, c.particles.kind);
        const std::uint64_t constraintCount = c.constraints.size();
        fnv(h, &constraintCount, sizeof constraintCount);
        for (const DistanceConstraint &k : c.constraints) {
            // Field by field: the struct has padding bytes whose content is unspecified.
            fnv(h, &k.a, sizeof k.a);
            fnv(h, &k.b, sizeof k.b);
            fnv(h, &k.restLength, sizeof k.restLength);
            fnv(h, &k.kind, sizeof k.kind);
        }
        fnvArray(h, c.triangles);
    }
    return h;
}

} // namespace drape

namespace drape {

void Simulation::resumeAt(double t, std::uint64_t frame)
{
    m_time = t;
    m_frame = frame;
    m_in->caches.resize(cloths.size());
    for (std::size_t c = 0; c < cloths.size(); ++c) {
        detail::ClothSolverCache &cache = m_in->caches[c];
        cache.keepStreams = solver.kind != SolverKind::Springs;
        cache.ensure(cloths[c]);
        cache.started = true;
    }
    keepEndPositions(); // the particles are where the frame before `frame` left them
}

} // namespace drape
