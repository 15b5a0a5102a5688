#include "edit/cut.h"

#include "base/closestpoint.h"

#include <algorithm>
#include <cmath>

namespace drape {

namespace {

float clamp01(float v)
{
    return std::clamp(v, 0.f, 1.f);
}

bool degenerate(const Vec3 &a, const Vec3 &b, const Vec3 &c)
{
    const float area2 = lengthSquared(cross(b - a, c - a));
    const float scale = std::max({ lengthSquared(b - a), lengthSquared(c - a), lengthSquared(c - b) });
    return area2 <= 1e-12f * scale * scale || scale == 0.f;
}

std::string validateRay(const Ray &r, const char *name)
{
    if (!isFinite(r.origin) || !isFinite(r.direction))
        return std::string("cut: ray ") + name + " is not finite";
    if (lengthSquared(r.direction) < 1e-12f)
        return std::string("cut: ray ") + name + " has a zero direction";
    return {};
}

std::string validateCut(const Ray &r0, const Ray &r1, const CutSettings &s)
{
    if (std::string e = validateRay(r0, "r0"); !e.empty())
        return e;
    if (std::string e = validateRay(r1, "r1"); !e.empty())
        return e;
    if (!(s.radius >= 0.f) || !std::isfinite(s.radius))
        return "cut: radius " + std::to_string(s.radius) + " m must be >= 0";
    if (!(s.farDistance > 0.f) || !std::isfinite(s.farDistance))
        return "cut: far distance " + std::to_string(s.farDistance) + " m must be positive";
    return {};
}

} // namespace

bool segmentCrossesTriangle(const Vec3 &p0, const Vec3 &p1, const Vec3 &a, const Vec3 &b, const Vec3 &c)
{
    const Vec3 dir = p1 - p0;
    const Vec3 e1 = b - a, e2 = c - a;
    const Vec3 h = cross(dir, e2);
    const float det = dot(e1, h);
    const float scale = length(e1) * length(e2) * length(dir);
    if (std::fabs(det) <= 1e-7f * scale || scale == 0.f)
        return false; // parallel to the plane (a coplanar touch is caught by the distance test)
    const float inv = 1.f / det;
    const Vec3 s = p0 - a;
    const float u = dot(s, h) * inv;
    if (u < 0.f || u > 1.f)
        return false;
    const Vec3 q = cross(s, e1);
    const float v = dot(dir, q) * inv;
    if (v < 0.f || u + v > 1.f)
        return false;
    const float t = dot(e2, q) * inv;
    return t >= 0.f && t <= 1.f;
}

float segmentSegmentDistanceSquared(
    const Vec3 &p0, const Vec3 &p1, const Vec3 &q0, const Vec3 &q1, float *sOut, float *tOut)
{
    const Vec3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
    const float a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r);
    float s = 0.f, t = 0.f;
    const float eps = 1e-20f;
    if (a <= eps && e <= eps) {
        s = t = 0.f;
    } else if (a <= eps) {
        t = clamp01(f / e);
    } else {
        const float c = dot(d1, r);
        if (e <= eps) {
            s = clamp01(-c / a);
        } else {
            const float b = dot(d1, d2);
            const float denom = a * e - b * b;
            s = denom > 1e-12f * a * e ? clamp01((b * f - c * e) / denom) : 0.f;
            t = (b * s + f) / e;
            if (t < 0.f) {
                t = 0.f;
                s = clamp01(-c / a);
            } else if (t > 1.f) {
                t = 1.f;
                s = clamp01((b - c) / a);
            }
        }
    }
    if (sOut)
        *sOut = s;
    if (tOut)
        *tOut = t;
    return lengthSquared(p0 + d1 * s - (q0 + d2 * t));
}

float segmentTriangleDistanceSquared(
    const Vec3 &p0, const Vec3 &p1, const Vec3 &a, const Vec3 &b, const Vec3 &c)
{
    if (segmentCrossesTriangle(p0, p1, a, b, c))
        return 0.f;
    // Otherwise the closest pair involves an endpoint of the segment or an edge of the triangle.
    float best = std::min(lengthSquared(p0 - closestPointOnTriangle(p0, a, b, c)),
        lengthSquared(p1 - closestPointOnTriangle(p1, a, b, c)));
    best = std::min(best, segmentSegmentDistanceSquared(p0, p1, a, b));
    best = std::min(best, segmentSegmentDistanceSquared(p0, p1, b, c));
    best = std::min(best, segmentSegmentDistanceSquared(p0, p1, c, a));
    return best;
}

namespace {

// Which side of a knife triangle's plane each particle lies on, to set aside at little cost
// the constraints that lie clearly on one side of it, further than the knife's radius: no
// point of such a segment is within the radius of the plane, so neither
// segmentCrossesTriangle nor segmentTriangleDistanceSquared can find it, and the exact tests
// run only on the few constraints near the plane. The plane is the one those tests see (the
// triangle's edges and the particle's offset from its first corner rounded to float as they
// round them), its normal and the distances taken in double so that a thin triangle (a short
// perspective stroke) still has an accurate normal. "Clearly" leaves a margin of 1e-4 of the
// lengths involved (the triangle's longest edge and the particle's distance from its first
// corner, in the L-infinity norm), orders of magnitude above the float rounding of the tests.
std::vector<std::int8_t> sidesOfPlane(
    const std::vector<Vec3> &x, const Vec3 &a, const Vec3 &b, const Vec3 &c, float radius)
{
    const auto linf = [](const Vec3 &v) {
        return std::max({ std::fabs(v.x), std::fabs(v.y), std::fabs(v.z) });
    };
    const Vec3 e1 = b - a, e2 = c - a;
    double n[3] = { double(e1.y) * e2.z - double(e1.z) * e2.y, double(e1.z) * e2.x - double(e1.x) * e2.z,
        double(e1.x) * e2.y - double(e1.y) * e2.x };
    const double norm = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (double &v : n)
        v /= norm;
    const float scale = std::max({ linf(e1), linf(e2), linf(c - b) });
    std::vector<std::int8_t> side(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
        const Vec3 r = x[i] - a;
        const double d = n[0] * r.x + n[1] * r.y + n[2] * r.z;
        const double reach = double(radius) + 1e-4 * (double(scale) + double(linf(r)));
        side[i] = std::int8_t(d > reach ? 1 : d < -reach ? -1 : 0);
    }
    return side;
}

} // namespace

std::vector<std::uint32_t> constraintsCutByStroke(
    const Cloth &cloth, const Ray &r0, const Ray &r1, const CutSettings &settings)
{
    std::vector<std::uint32_t> out;
    if (!validateCut(r0, r1, settings).empty())
        return out;
    const Vec3 o0 = r0.origin, o1 = r1.origin;
    const Vec3 f0 = o0 + normalized(r0.direction) * settings.farDistance;
    const Vec3 f1 = o1 + normalized(r1.direction) * settings.farDistance;
    // The swept quad o0, o1, f1, f0 as two triangles; a perspective stroke (o0 == o1) makes
    // the first one degenerate, a click (r0 == r1) makes both so: then the knife is the ray.
    const bool useA = !degenerate(o0, o1, f1);
    const bool useB = !degenerate(o0, f1, f0);
    const float r2 = settings.radius * settings.radius;
    const std::vector<Vec3> &x = cloth.particles.position;
    const std::vector<std::int8_t> sideA
        = useA ? sidesOfPlane(x, o0, o1, f1, settings.radius) : std::vector<std::int8_t> {};
    const std::vector<std::int8_t> sideB
        = useB ? sidesOfPlane(x, o0, f1, f0, settings.radius) : std::vector<std::int8_t> {};
    const auto near = [](const std::vector<std::int8_t> &side, std::uint32_t a, std::uint32_t b) {
        return side[a] == 0 || side[a] != side[b];
    };
    cloth.constraints.forEachPacked([&](std::size_t k, const PackedConstraint &dc) {
        if (dc.a >= x.size() || dc.b >= x.size())
            return;
        const bool nearA = useA && near(sideA, dc.a, dc.b);
        const bool nearB = useB && near(sideB, dc.a, dc.b);
        if (!nearA && !nearB && (useA || useB))
            return;
        const Vec3 &p = x[dc.a], &q = x[dc.b];
        bool cut = false;
        if (settings.radius == 0.f) {
            cut = (nearA && segmentCrossesTriangle(p, q, o0, o1, f1))
                || (nearB && segmentCrossesTriangle(p, q, o0, f1, f0));
        } else if (useA || useB) {
            cut = (nearA && segmentTriangleDistanceSquared(p, q, o0, o1, f1) <= r2)
                || (nearB && segmentTriangleDistanceSquared(p, q, o0, f1, f0) <= r2);
        } else {
            cut = segmentSegmentDistanceSquared(p, q, o0, f0) <= r2;
        }
        if (cut)
            out.push_back(std::uint32_t(k));
    });
    return out;
}

ClothEditResult makeCutStroke(const Cloth &cloth, const Ray &r0, const Ray &r1, const CutSettings &settings)
{
    if (std::string e = validateCut(r0, r1, settings); !e.empty())
        return { {}, e };
    const std::vector<std::uint32_t> cut = constraintsCutByStroke(cloth, r0, r1, settings);
    return makeRemoveConstraints(cloth, cut, settings.removeTriangles);
}

std::vector<std::uint32_t> constraintsNearSegment(
    const Cloth &cloth, const Vec3 &p0, const Vec3 &p1, float radius)
{
    std::vector<std::uint32_t> out;
    if (!(radius > 0.f) || !std::isfinite(radius) || !isFinite(p0) || !isFinite(p1))
        return out;
    const float r2 = radius * radius;
    const std::vector<Vec3> &x = cloth.particles.position;
    for (std::size_t k = 0; k < cloth.constraints.size(); ++k) {
        const DistanceConstraint &dc = cloth.constraints[k];
        if (dc.a < x.size() && dc.b < x.size()
            && segmentSegmentDistanceSquared(x[dc.a], x[dc.b], p0, p1) <= r2)
            out.push_back(std::uint32_t(k));
    }
    return out;
}

ClothEditResult makeCutSegment(
    const Cloth &cloth, const Vec3 &p0, const Vec3 &p1, float radius, bool removeTriangles)
{
    if (!isFinite(p0) || !isFinite(p1))
        return { {}, "cut: the segment's end points are not finite" };
    if (!(radius > 0.f) || !std::isfinite(radius))
        return { {}, "cut: radius " + std::to_string(radius) + " m must be positive" };
    return makeRemoveConstraints(cloth, constraintsNearSegment(cloth, p0, p1, radius), removeTriangles);
}

SimulationCut makeCutStroke(const Simulation &sim, const Ray &r0, const Ray &r1, const CutSettings &settings)
{
    SimulationCut result;
    if (std::string e = validateCut(r0, r1, settings); !e.empty()) {
        result.error = e;
        return result;
    }
    for (int c = 0; c < int(sim.cloths.size()); ++c) {
        ClothEditResult r = makeCutStroke(sim.cloths[std::size_t(c)], r0, r1, settings);
        if (!r.ok()) {
            result = {};
            result.error = "cloth " + std::to_string(c) + ": " + r.error;
            return result;
        }
        if (!r.edit.empty()) {
            result.cloths.push_back(c);
            result.edits.push_back(std::move(r.edit));
        }
    }
    return result;
}

} // namespace drape
