#include "objsequencewriter.h"

#include "pngsequencewriter.h"
#include "simulation.h"

#include <QDir>
#include <QSaveFile>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace drape {

namespace {

void appendVec(std::string &out, const char *tag, float a, float b, float c)
{
    char line[96];
    const int n = std::snprintf(line, sizeof line, "%s %.6g %.6g %.6g\n", tag, double(a), double(b), double(c));
    out.append(line, std::size_t(std::max(n, 0)));
}

// OBJ text for every cloth of `sim`. Texture coordinates are the rest positions mapped into
// 0..1 over the cloth's rest bounding box (its two widest axes), so a texture lies flat on
// the cloth as authored.
std::string objText(const Simulation &sim, int frame, double time)
{
    std::string out;
    out.reserve(1 << 16);
    char header[128];
    std::snprintf(header, sizeof header, "# Drape frame %d, t = %.6f s\n", frame, time);
    out += header;
    std::vector<Vec3> normals;
    std::size_t base = 1; // OBJ indices are 1-based and global to the file
    for (std::size_t c = 0; c < sim.cloths.size(); ++c) {
        const Cloth &cloth = sim.cloths[c];
        const Particles &p = cloth.particles;
        out += "o " + (cloth.name.empty() ? "cloth" + std::to_string(c) : cloth.name) + "\n";
        computeVertexNormals(cloth, normals);
        Vec3 lo{1e30f, 1e30f, 1e30f}, hi{-1e30f, -1e30f, -1e30f};
        for (const Vec3 &r : p.rest) {
            lo = {std::min(lo.x, r.x), std::min(lo.y, r.y), std::min(lo.z, r.z)};
            hi = {std::max(hi.x, r.x), std::max(hi.y, r.y), std::max(hi.z, r.z)};
        }
        const Vec3 extent{hi.x - lo.x, hi.y - lo.y, hi.z - lo.z};
        // The two widest rest axes span the texture (x, y for a vertical curtain, x, z for a
        // horizontal sheet).
        const float e[3] = {extent.x, extent.y, extent.z};
        int order[3] = {0, 1, 2};
        std::stable_sort(order, order + 3, [&](int a, int b) { return e[a] > e[b]; });
        const int axisU = std::min(order[0], order[1]);
        const int axisV = std::max(order[0], order[1]);
        auto comp = [](const Vec3 &v, int a) { return a == 0 ? v.x : (a == 1 ? v.y : v.z); };
        for (const Vec3 &x : p.position)
            appendVec(out, "v", x.x, x.y, x.z);
        for (std::size_t i = 0; i < p.size(); ++i) {
            const Vec3 n = i < normals.size() ? normals[i] : Vec3{0.f, 0.f, 1.f};
            appendVec(out, "vn", n.x, n.y, n.z);
        }
        for (const Vec3 &r : p.rest) {
            const float du = comp(extent, axisU), dv = comp(extent, axisV);
            const float u = du > 0.f ? (comp(r, axisU) - comp(lo, axisU)) / du : 0.f;
            const float v = dv > 0.f ? (comp(r, axisV) - comp(lo, axisV)) / dv : 0.f;
            char line[64];
            const int n = std::snprintf(line, sizeof line, "vt %.6g %.6g\n", double(u), double(v));
            out.append(line, std::size_t(std::max(n, 0)));
        }
        for (const Triangle &t : cloth.triangles) {
            char line[128];
            const std::size_t a = base + t.v[0], b = base + t.v[1], d = base + t.v[2];
            const int n = std::snprintf(line, sizeof line, "f %zu/%zu/%zu %zu/%zu/%zu %zu/%zu/%zu\n", a, a, a, b, b, b,
                                        d, d, d);
            out.append(line, std::size_t(std::max(n, 0)));
        }
        base += p.size();
    }
    return out;
}

} // namespace

ObjSequenceWriter::ObjSequenceWriter(QString folder, QString pattern)
    : m_folder(std::move(folder)), m_pattern(std::move(pattern))
{
}

QString ObjSequenceWriter::filePath(int index) const
{
    return QDir(m_folder).filePath(PngSequenceWriter::fileName(m_pattern, index));
}

bool ObjSequenceWriter::open(QString *error)
{
    const QString patternError = PngSequenceWriter::validatePattern(m_pattern);
    if (!patternError.isEmpty()) {
        *error = patternError;
        return false;
    }
    if (!QDir().mkpath(m_folder)) {
        *error = QStringLiteral("Cannot create the folder %1.").arg(QDir::toNativeSeparators(m_folder));
        return false;
    }
    m_written = 0;
    return true;
}

bool ObjSequenceWriter::writeFrame(int index, const QImage &, const Simulation &sim, QString *error)
{
    const QString path = filePath(index);
    const std::string text = objText(sim, index, sim.time());
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), qint64(text.size())) != qint64(text.size()) ||
        !file.commit()) {
        *error = QStringLiteral("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    ++m_written;
    return true;
}

bool ObjSequenceWriter::finish(QString *) { return true; }

} // namespace drape
