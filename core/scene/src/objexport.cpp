#include "scene/objexport.h"

#include "base/atomicfile.h"
#include "base/printable.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace drape {

namespace {

void appendFloat(std::string &out, float f)
{
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, f); // shortest round-trip form
    out.append(buf, r.ptr);
}

void appendLine(std::string &out, const char *tag, std::initializer_list<float> values)
{
    out += tag;
    for (float v : values) {
        out += ' ';
        appendFloat(out, v);
    }
    out += '\n';
}

// Texture coordinates from the rest shape: the rest positions projected onto the two axes
// along which the rest shape extends most, normalised to 0..1 (a grid gets u across, v down).
std::vector<std::pair<float, float>> restUv(const Cloth &cloth)
{
    const std::vector<Vec3> &rest = cloth.particles.rest;
    std::vector<std::pair<float, float>> uv(rest.size(), { 0.f, 0.f });
    if (rest.empty())
        return uv;
    Vec3 lo = rest[0], hi = rest[0];
    for (const Vec3 &p : rest) {
        lo = { std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z) };
        hi = { std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z) };
    }
    const Vec3 ext = hi - lo;
    int axes[3] = { 0, 1, 2 };
    std::sort(axes, axes + 3, [&](int a, int b) { return ext[a] > ext[b]; });
    int ua = std::min(axes[0], axes[1]), va = std::max(axes[0], axes[1]); // keep x before y before z
    const float du = ext[ua] > 0.f ? ext[ua] : 1.f, dv = ext[va] > 0.f ? ext[va] : 1.f;
    for (std::size_t i = 0; i < rest.size(); ++i) {
        const float u = (rest[i][ua] - lo[ua]) / du;
        float v = (rest[i][va] - lo[va]) / dv;
        if (va == 1)
            v = 1.f - v; // vertical cloth: v grows downwards from the top edge, like the grid rows
        uv[i] = { u, v };
    }
    return uv;
}

} // namespace

std::string objFromSimulation(const Simulation &sim)
{
    std::string out = "# Drape cloth export\n";
    out += "# time " + std::to_string(sim.time()) + " s, frame " + std::to_string(sim.frame()) + "\n";
    std::size_t base = 0;
    std::vector<Vec3> normals;
    for (std::size_t c = 0; c < sim.cloths.size(); ++c) {
        const Cloth &cloth = sim.cloths[c];
        const std::size_t n = cloth.particles.size();
        // The name is user text: one line only, or a newline in it would add OBJ statements.
        out += "o " + (cloth.name.empty() ? "cloth" + std::to_string(c) : singleLine(cloth.name)) + "\n";
        for (const Vec3 &p : cloth.particles.position)
            appendLine(out, "v", { p.x, p.y, p.z });
        for (const auto &[u, v] : restUv(cloth))
            appendLine(out, "vt", { u, v });
        computeVertexNormals(cloth, normals);
        for (std::size_t i = 0; i < n; ++i) {
            const Vec3 nn = i < normals.size() && isFinite(normals[i]) ? normals[i] : Vec3 { 0.f, 0.f, 1.f };
            appendLine(out, "vn", { nn.x, nn.y, nn.z });
        }
        for (const Triangle &t : cloth.triangles) {
            out += 'f';
            for (std::uint32_t v : t.v) {
                const std::string i = std::to_string(base + v + 1);
                out += ' ' + i + '/' + i + '/' + i;
            }
            out += '\n';
        }
        if (cloth.triangles.empty()) {
            // A rope (no faces): its links as line elements.
            for (const DistanceConstraint &k : cloth.constraints) {
                if (k.kind == ConstraintKind::Structural)
                    out += "l " + std::to_string(base + k.a + 1) + ' ' + std::to_string(base + k.b + 1)
                        + '\n';
            }
        }
        base += n;
    }
    return out;
}

bool writeObjFile(const std::string &path, const Simulation &sim, std::string *error)
{
    return writeFileAtomically(path, objFromSimulation(sim), error);
}

} // namespace drape
