#include "timeline/diskcache.h"

#include "scene/scenefile.h"

#include <cstring>
#include <filesystem>
#include <limits>

namespace drape {

namespace {

constexpr char kSignature[12] = { 'D', 'R', 'A', 'P', 'E', 'C', 'A', 'C', 'H', 'E', '1', '\0' };
constexpr std::uint32_t kVersion = 2; // 2: particle kinds
constexpr long kFirstFrameOffset = 12 + 4 + 8; // signature, version, hash
constexpr const char *kFileName = "frames.bin";

// Little-endian encoding, whatever the host.
class Bytes {
public:
    void u8(std::uint8_t v) { m_data.push_back(v); }
    void u32(std::uint32_t v)
    {
        for (int i = 0; i < 4; ++i)
            m_data.push_back(std::uint8_t(v >> (8 * i)));
    }
    void u64(std::uint64_t v)
    {
        for (int i = 0; i < 8; ++i)
            m_data.push_back(std::uint8_t(v >> (8 * i)));
    }
    void f32(float f)
    {
        std::uint32_t bits;
        std::memcpy(&bits, &f, 4);
        u32(bits);
    }
    void f64(double d)
    {
        std::uint64_t bits;
        std::memcpy(&bits, &d, 8);
        u64(bits);
    }
    void vec3s(const std::vector<Vec3> &v)
    {
        for (const Vec3 &p : v) {
            f32(p.x);
            f32(p.y);
            f32(p.z);
        }
    }
    const std::vector<std::uint8_t> &data() const { return m_data; }

private:
    std::vector<std::uint8_t> m_data;
};

// Reads what Bytes wrote, from a whole file in memory; every read is bounds-checked, and a
// count is accepted only when the bytes it announces are there (a damaged or hostile file
// cannot make the reader allocate more than the file holds).
class Reader {
public:
    explicit Reader(std::vector<std::uint8_t> data) : m_data(std::move(data)) { }
    bool ok() const { return m_ok; }
    bool atEnd() const { return m_pos == m_data.size(); }
    bool has(std::uint64_t count, std::uint64_t size)
    {
        if (!m_ok || size == 0 || count > (m_data.size() - m_pos) / size)
            m_ok = false;
        return m_ok;
    }
    std::uint64_t uint(int bytes)
    {
        if (!has(1, std::uint64_t(bytes)))
            return 0;
        std::uint64_t v = 0;
        for (int i = 0; i < bytes; ++i)
            v |= std::uint64_t(m_data[m_pos++]) << (8 * i);
        return v;
    }
    float f32()
    {
        const std::uint32_t bits = std::uint32_t(uint(4));
        float f;
        std::memcpy(&f, &bits, 4);
        return f;
    }
    double f64()
    {
        const std::uint64_t bits = uint(8);
        double d;
        std::memcpy(&d, &bits, 8);
        return d;
    }
    std::vector<Vec3> vec3s(std::uint64_t count)
    {
        std::vector<Vec3> out;
        if (!has(count, 12))
            return out;
        out.resize(count);
        for (Vec3 &p : out)
            p = { f32(), f32(), f32() };
        return out;
    }
    bool signature()
    {
        if (!has(1, sizeof kSignature) || std::memcmp(m_data.data(), kSignature, sizeof kSignature) != 0)
            return m_ok = false;
        m_pos += sizeof kSignature;
        return true;
    }

private:
    std::vector<std::uint8_t> m_data;
    std::size_t m_pos = 0;
    bool m_ok = true;
};

bool readFile(const std::string &path, std::vector<std::uint8_t> *out)
{
    std::FILE *f = std::fopen(path.c_str(), "rb");
    if (!f)
        return false;
    std::uint8_t buffer[1 << 16];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0)
        out->insert(out->end(), buffer, buffer + n);
    const bool ok = !std::ferror(f);
    std::fclose(f);
    return ok;
}

// One frame; `previous` gives the topology records it shares. Null when inconsistent.
std::shared_ptr<const CachedFrame> readFrame(Reader &in, const CachedFrame *previous)
{
    auto frame = std::make_shared<CachedFrame>();
    frame->frame = in.uint(8);
    frame->time = in.f64();
    frame->simFrame = frame->frame; // a scene saved with state: BakedReplay adds its start
    frame->stateHash = in.uint(8);
    frame->blownUp = in.uint(1) != 0;
    const std::uint64_t cloths = in.uint(4);
    if (!in.has(cloths, 5)) // at least a particle count and a flag each
        return nullptr;
    frame->cloths.resize(cloths);
    for (std::uint64_t c = 0; c < cloths; ++c) {
        ClothFrame &cloth = frame->cloths[c];
        const std::uint64_t particles = in.uint(4);
        if (in.uint(1) != 0) {
            auto topology = std::make_shared<ClothTopology>();
            topology->revision = in.uint(8);
            topology->particleCount = particles;
            const std::uint64_t triangles = in.uint(4);
            if (!in.has(triangles, 12))
                return nullptr;
            topology->triangles.resize(triangles);
            for (Triangle &t : topology->triangles)
                for (std::uint32_t &v : t.v) {
                    v = std::uint32_t(in.uint(4));
                    if (v >= particles)
                        return nullptr; // the viewport would read out of range
                }
            topology->rest = in.vec3s(particles);
            cloth.topology = std::move(topology);
        } else if (previous && c < previous->cloths.size()) {
            cloth.topology = previous->cloths[c].topology;
        }
        if (!cloth.topology || cloth.topology->particleCount != particles)
            return nullptr;
        if (in.uint(1) != 0) {
            if (!in.has(particles, 1))
                return nullptr;
            std::vector<ParticleKind> kinds(particles);
            for (ParticleKind &k : kinds) {
                const std::uint64_t v = in.uint(1);
                if (v > std::uint64_t(ParticleKind::Static))
                    return nullptr;
                k = ParticleKind(v);
            }
            cloth.kind = std::make_shared<const std::vector<ParticleKind>>(std::move(kinds));
        } else if (previous && c < previous->cloths.size()) {
            cloth.kind = previous->cloths[c].kind;
        }
        if (!cloth.kind || cloth.kind->size() != particles)
            return nullptr;
        cloth.position = in.vec3s(particles);
    }
    frame->colliderCenters = in.vec3s(in.uint(4));
    return in.ok() ? frame : nullptr;
}

} // namespace

std::string diskCacheFolder(const std::string &scenePath)
{
    std::filesystem::path path(scenePath);
    path.replace_extension(".drape-cache");
    return path.string();
}

std::uint64_t documentHash(const Scene &scene, const Take &take)
{
    SaveOptions options;
    options.withState = scene.state.has_value();
    options.take = &take;
    const std::string text = serializeScene(withoutPresentation(scene), options);
    std::uint64_t hash = 0xcbf29ce484222325ull; // FNV-1a, 64 bits
    for (unsigned char c : text) {
        hash ^= c;
        hash *= 0x100000001b3ull;
    }
    return hash;
}

bool DiskCacheWriter::open(const std::string &folder, std::uint64_t documentHash, std::string *error)
{
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (ec) {
        if (error)
            *error = "cannot create the cache folder " + folder + ": " + ec.message();
        return false;
    }
    m_count = 0;
    m_previous.clear();
    m_previousKinds.clear();
    if (!m_file.open((std::filesystem::path(folder) / kFileName).string(), error))
        return false;
    Bytes header;
    for (char c : kSignature)
        header.u8(std::uint8_t(c));
    header.u32(kVersion);
    header.u64(documentHash);
    header.u64(0); // first frame, written by finish()
    header.u64(0); // frame count, written by finish()
    return m_file.write(header.data().data(), header.data().size(), error);
}

bool DiskCacheWriter::append(const CachedFrame &frame, std::string *error)
{
    if (m_count == 0)
        m_first = frame.frame;
    else if (frame.frame != m_first + m_count)
        return m_file.fail("cache " + m_file.path() + ": frame " + std::to_string(frame.frame)
                + " does not follow frame " + std::to_string(m_first + m_count - 1),
            error);
    Bytes out;
    out.u64(frame.frame);
    out.f64(frame.time);
    out.u64(frame.stateHash);
    out.u8(frame.blownUp ? 1 : 0);
    out.u32(std::uint32_t(frame.cloths.size()));
    for (std::size_t c = 0; c < frame.cloths.size(); ++c) {
        const ClothFrame &cloth = frame.cloths[c];
        out.u32(std::uint32_t(cloth.position.size()));
        const bool shared = c < m_previous.size() && m_previous[c] == cloth.topology;
        out.u8(shared ? 0 : 1);
        if (!shared) {
            out.u64(cloth.topology->revision);
            out.u32(std::uint32_t(cloth.topology->triangles.size()));
            for (const Triangle &t : cloth.topology->triangles)
                for (std::uint32_t v : t.v)
                    out.u32(v);
            out.vec3s(cloth.topology->rest);
        }
        // The kinds, when they differ from the previous frame's (a pin or a grab changed).
        const bool sameKinds = cloth.kind && c < m_previousKinds.size() && m_previousKinds[c] == cloth.kind;
        out.u8(sameKinds ? 0 : 1);
        if (!sameKinds)
            for (std::size_t i = 0; i < cloth.position.size(); ++i)
                out.u8(std::uint8_t(cloth.kind && i < cloth.kind->size() ? (*cloth.kind)[i] : ParticleKind::Dynamic));
        out.vec3s(cloth.position);
    }
    out.u32(std::uint32_t(frame.colliderCenters.size()));
    out.vec3s(frame.colliderCenters);
    if (!m_file.write(out.data().data(), out.data().size(), error))
        return false;
    m_previous.clear();
    m_previousKinds.clear();
    for (const ClothFrame &cloth : frame.cloths) {
        m_previous.push_back(cloth.topology);
        m_previousKinds.push_back(cloth.kind);
    }
    ++m_count;
    return true;
}

bool DiskCacheWriter::finish(std::string *error)
{
    if (m_count == 0)
        return m_file.fail(m_file.path() + ": no frames to write", error);
    Bytes tail;
    tail.u64(m_first);
    tail.u64(m_count);
    return m_file.seek(kFirstFrameOffset, error) && m_file.write(tail.data().data(), tail.data().size(), error)
        && m_file.commit(error);
}

DiskCacheLoad readDiskCache(const std::string &folder, std::uint64_t documentHash)
{
    DiskCacheLoad result;
    const std::string path = (std::filesystem::path(folder) / kFileName).string();
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        return result; // Missing
    std::vector<std::uint8_t> data;
    auto damaged = [&](const std::string &why) {
        result.status = DiskCacheStatus::Damaged;
        result.message = "the frame cache " + folder + " " + why + "; it is ignored and the frames are simulated again";
        result.frames.clear();
        return result;
    };
    if (!readFile(path, &data))
        return damaged("cannot be read");
    Reader in(std::move(data));
    if (!in.signature() || in.uint(4) != kVersion)
        return damaged("is not a Drape frame cache of this version");
    const std::uint64_t hash = in.uint(8);
    result.firstFrame = in.uint(8);
    const std::uint64_t count = in.uint(8);
    if (!in.ok())
        return damaged("is damaged (too short)");
    if (hash != documentHash) {
        result.status = DiskCacheStatus::Stale;
        result.message = "the frame cache " + folder
            + " was baked from another version of this scene (or from another scene); it is ignored and the "
              "frames are simulated again";
        return result;
    }
    if (!in.has(count, 1))
        return damaged("is damaged (frame count)");
    for (std::uint64_t i = 0; i < count; ++i) {
        auto frame = readFrame(in, result.frames.empty() ? nullptr : result.frames.back().get());
        if (!frame || frame->frame != result.firstFrame + i)
            return damaged("is damaged at frame " + std::to_string(result.firstFrame + i));
        result.frames.push_back(std::move(frame));
    }
    if (!in.atEnd())
        return damaged("is damaged (data after the last frame)");
    result.status = DiskCacheStatus::Loaded;
    return result;
}

} // namespace drape
