// Cutting: removing every constraint that a knife stroke passes through, and the triangles
// that lose an edge with them (the same rule as tearing, so nothing renders across a cut).
//
// The UI turns a mouse stroke from pixel p0 to pixel p1 into two camera rays r0 and r1. The
// knife is the surface the ray sweeps between them: the quad r0.origin, r1.origin,
// r1.at(far), r0.at(far), handled as two triangles (a perspective camera makes the origins
// equal and the quad a single triangle; an orthographic one makes it a strip). A constraint
// is cut when its segment crosses that surface or passes within `radius` of it.
#pragma once

#include "base/ray.h"
#include "edit/clothedit.h"
#include "sim/simulation.h"

#include <cstdint>
#include <string>
#include <vector>

namespace drape {

struct CutSettings {
    float radius = 0.f; ///< m, extra thickness of the knife (>= 0); 0 = exact crossings only
    float farDistance = 100.f; ///< m, how far along the rays the swept surface reaches (> 0)
    bool removeTriangles = true; ///< also remove triangles that lose an edge
};

/// The constraints (ascending indices) of `cloth` that the stroke from r0 to r1 cuts.
std::vector<std::uint32_t> constraintsCutByStroke(
    const Cloth &cloth, const Ray &r0, const Ray &r1, const CutSettings &settings = {});
/// The edit removing them (and the triangles that lose an edge), or an error for bad input
/// (non-finite rays, zero direction, negative radius, farDistance <= 0).
ClothEditResult makeCutStroke(
    const Cloth &cloth, const Ray &r0, const Ray &r1, const CutSettings &settings = {});

/// The constraints within `radius` (m, > 0) of the 3D segment p0–p1 (a point when p0 == p1).
std::vector<std::uint32_t> constraintsNearSegment(
    const Cloth &cloth, const Vec3 &p0, const Vec3 &p1, float radius);
ClothEditResult makeCutSegment(
    const Cloth &cloth, const Vec3 &p0, const Vec3 &p1, float radius, bool removeTriangles = true);

/// One edit per cloth that the stroke touches, for a whole simulation.
struct SimulationCut {
    std::vector<int> cloths; ///< indices into Simulation::cloths
    std::vector<ClothEdit> edits; ///< parallel to `cloths`
    std::string error;

    bool ok() const { return error.empty(); }
    bool empty() const { return cloths.empty(); }
};
SimulationCut makeCutStroke(
    const Simulation &sim, const Ray &r0, const Ray &r1, const CutSettings &settings = {});

// Geometry helpers, exposed for tests and for the tools' overlays.

/// Squared distance between segments p0–p1 and q0–q1 (Ericson, Real-Time Collision
/// Detection, 5.1.9); `s` and `t` receive the parameters of the closest points.
float segmentSegmentDistanceSquared(
    const Vec3 &p0, const Vec3 &p1, const Vec3 &q0, const Vec3 &q1, float *s = nullptr, float *t = nullptr);
/// Whether segment p0–p1 crosses triangle a, b, c (Möller & Trumbore 1997, restricted to the
/// segment); false for a degenerate triangle or a segment parallel to its plane. The test a
/// stroke applies to each constraint when its knife has no radius.
bool segmentCrossesTriangle(const Vec3 &p0, const Vec3 &p1, const Vec3 &a, const Vec3 &b, const Vec3 &c);
/// Squared distance between segment p0–p1 and triangle a, b, c (0 when they intersect).
float segmentTriangleDistanceSquared(
    const Vec3 &p0, const Vec3 &p1, const Vec3 &a, const Vec3 &b, const Vec3 &c);

} // namespace drape
