#include "timeline/pc2writer.h"

#include <cstring>
#include <limits>
#include <vector>

namespace drape {

namespace {

constexpr char kSignature[12] = { 'P', 'O', 'I', 'N', 'T', 'C', 'A', 'C', 'H', 'E', '2', '\0' };
constexpr long kSampleCountOffset = 28; // signature 12 + version 4 + points 4 + start 4 + rate 4

void putU32(std::vector<unsigned char> &out, std::uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        out.push_back((unsigned char)(v >> (8 * i)));
}

void putF32(std::vector<unsigned char> &out, float f)
{
    std::uint32_t bits;
    std::memcpy(&bits, &f, 4);
    putU32(out, bits);
}

} // namespace

std::size_t pointCount(const CachedFrame &frame)
{
    std::size_t n = 0;
    for (const ClothFrame &c : frame.cloths)
        n += c.position.size();
    return n;
}

bool Pc2Writer::open(const std::string &path, std::uint64_t startFrame, std::string *error)
{
    m_startFrame = startFrame;
    m_points = m_samples = 0;
    return m_file.open(path, error);
}

bool Pc2Writer::append(const CachedFrame &frame, std::string *error)
{
    const std::string &path = m_file.path();
    const std::size_t points = drape::pointCount(frame);
    if (m_samples == 0) {
        if (points == 0 || points > std::numeric_limits<std::int32_t>::max())
            return m_file.fail(path + ": a point cache needs 1 to 2^31 - 1 vertices, the scene has "
                    + std::to_string(points),
                error);
        m_points = std::uint32_t(points);
        std::vector<unsigned char> header(kSignature, kSignature + sizeof kSignature);
        putU32(header, 1); // version
        putU32(header, m_points);
        putF32(header, float(m_startFrame));
        putF32(header, 1.f); // one sample per frame
        putU32(header, 0); // sample count, written by finish()
        if (!m_file.write(header.data(), header.size(), error))
            return false;
    } else if (points != m_points) {
        return m_file.fail(path + ": the vertex count changes at frame " + std::to_string(frame.frame) + " ("
                + std::to_string(m_points) + " -> " + std::to_string(points)
                + ", the cloth tore or was cut); a PC2 point cache holds a fixed vertex count, "
                  "export an OBJ sequence instead (drape simulate --obj-sequence DIR)",
            error);
    }
    std::vector<unsigned char> block;
    block.reserve(points * 12);
    for (const ClothFrame &c : frame.cloths)
        for (const Vec3 &p : c.position) {
            putF32(block, p.x);
            putF32(block, p.y);
            putF32(block, p.z);
        }
    if (!m_file.write(block.data(), block.size(), error))
        return false;
    ++m_samples;
    return true;
}

bool Pc2Writer::finish(std::string *error)
{
    if (m_samples == 0)
        return m_file.fail(m_file.path() + ": no frames to write", error);
    std::vector<unsigned char> count;
    putU32(count, m_samples);
    return m_file.seek(kSampleCountOffset, error) && m_file.write(count.data(), 4, error) && m_file.commit(error);
}

} // namespace drape
