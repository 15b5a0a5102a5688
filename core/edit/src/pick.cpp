#include "edit/pick.h"

#include <cmath>
#include <limits>

namespace drape {

namespace {

// A candidate under the ray: its depth t and its distance from the ray.
struct Candidate {
    int cloth = -1;
    std::uint32_t index = 0;
    float t = 0.f;
    float distance = 0.f;
    Vec3 point;
};

// The depth rule shared by particles and constraints: the front-most candidate within
// tolerance fixes a depth window of one tolerance; inside it the closest to the ray wins.
// Candidates are gathered first so the rule does not depend on the order of the arrays.
template <class Visit>
bool pickNearest(const Simulation &sim, const PickSettings &s, Visit visit, Candidate &best)
{
    std::vector<Candidate> hits;
    for (int c = 0; c < int(sim.cloths.size()); ++c)
        visit(c, sim.cloths[std::size_t(c)], hits);
    if (hits.empty())
        return false;
    float front = std::numeric_limits<float>::infinity();
    for (const Candidate &h : hits)
        front = std::min(front, h.t);
    const float window = front + s.radius + s.radiusPerMeter * front;
    bool found = false;
    for (const Candidate &h : hits) {
        if (h.t > window)
            continue;
        if (!found || h.distance < best.distance || (h.distance == best.distance && h.t < best.t)) {
            best = h;
            found = true;
        }
    }
    return found;
}

float tolerance(const PickSettings &s, float t)
{
    return s.radius + s.radiusPerMeter * std::max(t, 0.f);
}

// Closest points of the ray o + t d (|d| = 1, t >= 0) and the segment p + s (q - p), s in
// [0, 1]; Ericson, Real-Time Collision Detection 5.1.9 with the first segment unbounded
// beyond its start. Done on the ray directly (not as a long segment) to keep float precision.
float raySegmentDistanceSquared(
    const Vec3 &o, const Vec3 &d, const Vec3 &p, const Vec3 &q, float &t, float &s)
{
    const Vec3 e2 = q - p;
    const Vec3 r = o - p;
    const float e = dot(e2, e2);
    const float b = dot(d, e2);
    const float c = dot(d, r);
    const float f = dot(e2, r);
    if (e <= 1e-20f) {
        s = 0.f;
        t = std::max(0.f, -c);
    } else {
        const float denom = e - b * b; // a = |d|² = 1
        t = denom > 1e-12f * e ? std::max(0.f, (b * f - c * e) / denom) : 0.f;
        s = (b * t + f) / e;
        if (s < 0.f) {
            s = 0.f;
            t = std::max(0.f, -c);
        } else if (s > 1.f) {
            s = 1.f;
            t = std::max(0.f, b - c);
        }
    }
    return lengthSquared(o + d * t - (p + e2 * s));
}

} // namespace

std::string validatePick(const Ray &ray, const PickSettings &s)
{
    if (!isFinite(ray.origin) || !isFinite(ray.direction))
        return "pick: the ray is not finite";
    if (lengthSquared(ray.direction) < 1e-12f)
        return "pick: the ray direction is zero";
    if (!(s.radius > 0.f) || !std::isfinite(s.radius))
        return "pick: radius " + std::to_string(s.radius) + " m must be positive";
    if (!(s.radiusPerMeter >= 0.f) || !std::isfinite(s.radiusPerMeter))
        return "pick: radius per meter " + std::to_string(s.radiusPerMeter) + " must be >= 0";
    if (!(s.maxDistance > 0.f))
        return "pick: max distance " + std::to_string(s.maxDistance) + " m must be positive";
    return {};
}

ParticleHit pickParticle(const Simulation &sim, const Ray &ray, const PickSettings &settings)
{
    ParticleHit hit;
    hit.error = validatePick(ray, settings);
    if (!hit.error.empty())
        return hit;
    const Vec3 d = normalized(ray.direction);
    auto visit = [&](int c, const Cloth &cloth, std::vector<Candidate> &out) {
        const std::vector<Vec3> &x = cloth.particles.position;
        for (std::size_t i = 0; i < x.size(); ++i) {
            const Vec3 rel = x[i] - ray.origin;
            const float t = dot(rel, d);
            if (t < 0.f || t > settings.maxDistance)
                continue;
            const float dist = length(rel - d * t);
            if (dist <= tolerance(settings, t))
                out.push_back({ c, std::uint32_t(i), t, dist, x[i] });
        }
    };
    Candidate best;
    if (pickNearest(sim, settings, visit, best)) {
        hit.found = true;
        hit.cloth = best.cloth;
        hit.particle = best.index;
        hit.t = best.t;
        hit.point = best.point;
        hit.distance = best.distance;
    }
    return hit;
}

ConstraintHit pickConstraint(const Simulation &sim, const Ray &ray, const PickSettings &settings)
{
    ConstraintHit hit;
    hit.error = validatePick(ray, settings);
    if (!hit.error.empty())
        return hit;
    const Vec3 d = normalized(ray.direction);
    auto visit = [&](int c, const Cloth &cloth, std::vector<Candidate> &out) {
        const std::vector<Vec3> &x = cloth.particles.position;
        for (std::size_t k = 0; k < cloth.constraints.size(); ++k) {
            const DistanceConstraint &dc = cloth.constraints[k];
            if (dc.a >= x.size() || dc.b >= x.size())
                continue;
            float t = 0.f, s = 0.f;
            const float d2 = raySegmentDistanceSquared(ray.origin, d, x[dc.a], x[dc.b], t, s);
            if (t > settings.maxDistance)
                continue;
            const float dist = std::sqrt(d2);
            if (dist <= tolerance(settings, t))
                out.push_back({ c, std::uint32_t(k), t, dist, lerp(x[dc.a], x[dc.b], s) });
        }
    };
    Candidate best;
    if (pickNearest(sim, settings, visit, best)) {
        hit.found = true;
        hit.cloth = best.cloth;
        hit.constraint = best.index;
        hit.t = best.t;
        hit.point = best.point;
        hit.distance = best.distance;
    }
    return hit;
}

std::vector<std::uint32_t> particlesWithin(const Cloth &cloth, const Vec3 &centre, float radius)
{
    std::vector<std::uint32_t> out;
    if (!(radius > 0.f) || !isFinite(centre))
        return out;
    const float r2 = radius * radius;
    const std::vector<Vec3> &x = cloth.particles.position;
    for (std::size_t i = 0; i < x.size(); ++i)
        if (lengthSquared(x[i] - centre) <= r2)
            out.push_back(std::uint32_t(i));
    return out;
}

std::vector<ParticleRef> particlesWithin(const Simulation &sim, const Vec3 &centre, float radius)
{
    std::vector<ParticleRef> out;
    for (int c = 0; c < int(sim.cloths.size()); ++c)
        for (std::uint32_t i : particlesWithin(sim.cloths[std::size_t(c)], centre, radius))
            out.push_back({ c, i });
    return out;
}

std::vector<std::uint32_t> particlesWhere(const Cloth &cloth, const std::function<bool(const Vec3 &)> &inside)
{
    std::vector<std::uint32_t> out;
    if (!inside)
        return out;
    const std::vector<Vec3> &x = cloth.particles.position;
    for (std::size_t i = 0; i < x.size(); ++i)
        if (inside(x[i]))
            out.push_back(std::uint32_t(i));
    return out;
}

std::vector<ParticleRef> particlesWhere(
    const Simulation &sim, const std::function<bool(const Vec3 &)> &inside)
{
    std::vector<ParticleRef> out;
    for (int c = 0; c < int(sim.cloths.size()); ++c)
        for (std::uint32_t i : particlesWhere(sim.cloths[std::size_t(c)], inside))
            out.push_back({ c, i });
    return out;
}

} // namespace drape
