// Panel triangulation. Delaunay by Bowyer–Watson with exact-enough double predicates (the
// points are on a lattice with spacing h, so no four are nearly cocircular at a scale where
// double rounding matters for outlines up to kilometres). A boundary segment that the
// Delaunay triangulation did not keep would leave a notch cut off or bridged; it is detected
// (every outline segment must be an edge of exactly one kept triangle) and reported.
#include "mesh/panel.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>

namespace drape {

namespace {

struct P {
    double x, y;
};

double cross2(const P &o, const P &a, const P &b)
{
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

bool inside(const std::vector<P> &poly, const P &p)
{
    bool in = false; // crossing number (Jordan curve theorem)
    for (std::size_t i = 0, j = poly.size() - 1; i < poly.size(); j = i++) {
        if ((poly[i].y > p.y) != (poly[j].y > p.y)
            && p.x < (poly[j].x - poly[i].x) * (p.y - poly[i].y) / (poly[j].y - poly[i].y) + poly[i].x)
            in = !in;
    }
    return in;
}

double segmentDistance(const P &p, const P &a, const P &b)
{
    const double dx = b.x - a.x, dy = b.y - a.y;
    const double l2 = dx * dx + dy * dy;
    const double t = l2 > 0 ? std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / l2, 0.0, 1.0) : 0.0;
    return std::hypot(p.x - a.x - t * dx, p.y - a.y - t * dy);
}

bool segmentsCross(const P &a, const P &b, const P &c, const P &d)
{
    const double d1 = cross2(a, b, c), d2 = cross2(a, b, d), d3 = cross2(c, d, a), d4 = cross2(c, d, b);
    return ((d1 > 0) != (d2 > 0)) && ((d3 > 0) != (d4 > 0)) && d1 != 0 && d2 != 0 && d3 != 0 && d4 != 0;
}

struct Tri {
    std::uint32_t v[3];
    double cx, cy, r2; // circumcircle
};

Tri makeTri(const std::vector<P> &pts, std::uint32_t a, std::uint32_t b, std::uint32_t c)
{
    if (cross2(pts[a], pts[b], pts[c]) < 0)
        std::swap(b, c); // counter-clockwise
    const P &A = pts[a], &B = pts[b], &C = pts[c];
    const double d = 2.0 * (A.x * (B.y - C.y) + B.x * (C.y - A.y) + C.x * (A.y - B.y));
    const double a2 = A.x * A.x + A.y * A.y, b2 = B.x * B.x + B.y * B.y, c2 = C.x * C.x + C.y * C.y;
    const double ux = (a2 * (B.y - C.y) + b2 * (C.y - A.y) + c2 * (A.y - B.y)) / d;
    const double uy = (a2 * (C.x - B.x) + b2 * (A.x - C.x) + c2 * (B.x - A.x)) / d;
    return { { a, b, c }, ux, uy, (A.x - ux) * (A.x - ux) + (A.y - uy) * (A.y - uy) };
}

std::vector<Tri> delaunay(std::vector<P> &pts)
{
    // A super-triangle far around every point; its corners are removed at the end.
    double lo = 1e300, hi = -1e300;
    for (const P &p : pts)
        lo = std::min({ lo, p.x, p.y }), hi = std::max({ hi, p.x, p.y });
    const double span = (hi - lo) * 20.0 + 1.0, mid = 0.5 * (lo + hi);
    const auto n = std::uint32_t(pts.size());
    pts.push_back({ mid - span, mid - span });
    pts.push_back({ mid + span, mid - span });
    pts.push_back({ mid, mid + span });
    std::vector<Tri> tris { makeTri(pts, n, n + 1, n + 2) };
    std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
    for (std::uint32_t i = 0; i < n; ++i) {
        const P &p = pts[i];
        edges.clear();
        std::vector<Tri> kept;
        kept.reserve(tris.size() + 2);
        for (const Tri &t : tris) {
            const double dx = p.x - t.cx, dy = p.y - t.cy;
            if (dx * dx + dy * dy < t.r2 * (1.0 - 1e-12)) {
                for (int k = 0; k < 3; ++k)
                    edges.push_back({ t.v[k], t.v[(k + 1) % 3] });
            } else {
                kept.push_back(t);
            }
        }
        // The cavity's boundary: edges that belong to one removed triangle only.
        for (std::size_t a = 0; a < edges.size(); ++a) {
            bool shared = false;
            for (std::size_t b = 0; b < edges.size() && !shared; ++b)
                shared = a != b && edges[a].first == edges[b].second && edges[a].second == edges[b].first;
            if (!shared)
                kept.push_back(makeTri(pts, edges[a].first, edges[a].second, i));
        }
        tris = std::move(kept);
    }
    pts.resize(n);
    std::erase_if(tris, [n](const Tri &t) { return t.v[0] >= n || t.v[1] >= n || t.v[2] >= n; });
    return tris;
}

bool fail(std::string *error, const std::string &message)
{
    if (error)
        *error = message;
    return false;
}

} // namespace

std::vector<Point2> discOutline(float radius, int segments)
{
    std::vector<Point2> out;
    segments = std::max(segments, 3);
    for (int i = 0; i < segments; ++i) {
        const float a = 2.f * std::numbers::pi_v<float> * float(i) / float(segments);
        out.push_back({ radius * std::cos(a), radius * std::sin(a) });
    }
    return out;
}

MeshGeometry makePanelMesh(const PanelSpec &spec, std::string *error)
{
    const double h = spec.edgeLength;
    std::vector<P> poly;
    for (const Point2 &q : spec.outline)
        poly.push_back({ q[0], q[1] });
    for (std::size_t i = 0; i < poly.size(); ++i)
        for (std::size_t j = i + 2; j < poly.size(); ++j)
            if ((j + 1) % poly.size() != i
                && segmentsCross(poly[i], poly[(i + 1) % poly.size()], poly[j], poly[(j + 1) % poly.size()]))
                return fail(error,
                           "the outline crosses itself (edges " + std::to_string(i) + " and "
                               + std::to_string(j) + ")"),
                       MeshGeometry {};
    double area = 0.0;
    for (std::size_t i = 0; i < poly.size(); ++i)
        area += cross2({ 0, 0 }, poly[i], poly[(i + 1) % poly.size()]) * 0.5;
    if (poly.size() < 3 || !(std::fabs(area) > 0.0) || !std::isfinite(area))
        return fail(error, "the outline needs at least 3 corners around a non-zero area"), MeshGeometry {};
    if (!(h > 0.0) || !std::isfinite(h) || std::fabs(area) / (h * h) > 20000.0)
        return fail(error,
                   "edge length " + std::to_string(h)
                       + " m is not positive or makes more than 20,000 points"),
               MeshGeometry {};
    if (area < 0)
        std::reverse(poly.begin(), poly.end());

    // Boundary points, then the lattice inside.
    std::vector<P> pts;
    std::vector<std::uint32_t> boundaryStart;
    for (std::size_t i = 0; i < poly.size(); ++i) {
        const P &a = poly[i], &b = poly[(i + 1) % poly.size()];
        const int pieces = std::max(1, int(std::ceil(std::hypot(b.x - a.x, b.y - a.y) / h - 1e-9)));
        boundaryStart.push_back(std::uint32_t(pts.size()));
        for (int k = 0; k < pieces; ++k)
            pts.push_back({ a.x + (b.x - a.x) * k / pieces, a.y + (b.y - a.y) * k / pieces });
    }
    const auto boundaryCount = std::uint32_t(pts.size());
    double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300;
    for (const P &p : poly)
        x0 = std::min(x0, p.x), x1 = std::max(x1, p.x), y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
    const double rowStep = h * std::sqrt(3.0) / 2.0;
    int row = 0;
    for (double y = y0 + rowStep * 0.5; y < y1; y += rowStep, ++row) {
        for (double x = x0 + (row % 2 ? h * 0.5 : 0.0); x < x1; x += h) {
            const P p { x, y };
            if (!inside(poly, p))
                continue;
            double nearest = 1e300;
            for (std::size_t i = 0; i < poly.size(); ++i)
                nearest = std::min(nearest, segmentDistance(p, poly[i], poly[(i + 1) % poly.size()]));
            if (nearest >= 0.5 * h)
                pts.push_back(p);
        }
    }

    std::vector<Tri> tris = delaunay(pts);
    std::erase_if(tris, [&](const Tri &t) {
        const P c { (pts[t.v[0]].x + pts[t.v[1]].x + pts[t.v[2]].x) / 3.0,
            (pts[t.v[0]].y + pts[t.v[1]].y + pts[t.v[2]].y) / 3.0 };
        return !inside(poly, c);
    });
    // Every outline segment (consecutive boundary points) must be a kept edge.
    std::set<std::pair<std::uint32_t, std::uint32_t>> edges;
    for (const Tri &t : tris)
        for (int k = 0; k < 3; ++k)
            edges.insert({ t.v[k], t.v[(k + 1) % 3] });
    for (std::uint32_t i = 0; i < boundaryCount; ++i) {
        const std::uint32_t j = (i + 1) % boundaryCount;
        if (!edges.count({ i, j }))
            return fail(error,
                       "the outline has parts narrower than the edge length " + std::to_string(h)
                           + " m can fill; use a shorter edge length"),
                   MeshGeometry {};
    }

    MeshGeometry m;
    for (const P &p : pts) {
        const auto u = float(p.x), v = float(p.y);
        m.positions.push_back(
            spec.horizontal ? spec.origin + Vec3 { u, 0.f, -v } : spec.origin + Vec3 { u, v, 0.f });
        m.uv.push_back({ float((p.x - x0) / std::max(x1 - x0, y1 - y0)),
            float((p.y - y0) / std::max(x1 - x0, y1 - y0)) });
    }
    for (const Tri &t : tris)
        m.triangles.push_back({ { t.v[0], t.v[1], t.v[2] } });
    return m;
}

} // namespace drape
