#include "timeline/pc2writer.h"

#include <cerrno>
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

Pc2Writer::~Pc2Writer()
{
    if (m_file) {
        std::fclose(m_file);
        std::remove(m_temp.c_str());
    }
}

bool Pc2Writer::fail(const std::string &message, std::string *error)
{
    if (error)
        *error = message;
    if (m_file) {
        std::fclose(m_file);
        m_file = nullptr;
        std::remove(m_temp.c_str());
    }
    return false;
}

bool Pc2Writer::open(const std::string &path, std::uint64_t startFrame, std::string *error)
{
    m_path = path;
    m_temp = path + ".part";
    m_startFrame = startFrame;
    m_points = m_samples = 0;
    m_file = std::fopen(m_temp.c_str(), "wb");
    if (!m_file)
        return fail("cannot write " + path + ": " + std::strerror(errno), error);
    return true;
}

bool Pc2Writer::append(const CachedFrame &frame, std::string *error)
{
    if (!m_file)
        return fail("cannot write " + m_path + ": not open", error);
    const std::size_t points = drape::pointCount(frame);
    if (m_samples == 0) {
        if (points == 0 || points > std::numeric_limits<std::int32_t>::max())
            return fail(m_path + ": a point cache needs 1 to 2^31 - 1 vertices, the scene has "
                    + std::to_string(points),
                error);
        m_points = std::uint32_t(points);
        std::vector<unsigned char> header(kSignature, kSignature + sizeof kSignature);
        putU32(header, 1); // version
        putU32(header, m_points);
        putF32(header, float(m_startFrame));
        putF32(header, 1.f); // one sample per frame
        putU32(header, 0); // sample count, written by finish()
        if (std::fwrite(header.data(), 1, header.size(), m_file) != header.size())
            return fail("cannot write " + m_path + ": " + std::strerror(errno), error);
    } else if (points != m_points) {
        return fail(m_path + ": the vertex count changes at frame " + std::to_string(frame.frame) + " ("
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
    if (std::fwrite(block.data(), 1, block.size(), m_file) != block.size())
        return fail("cannot write " + m_path + ": " + std::strerror(errno), error);
    ++m_samples;
    return true;
}

bool Pc2Writer::finish(std::string *error)
{
    if (!m_file)
        return fail("cannot write " + m_path + ": not open", error);
    if (m_samples == 0)
        return fail(m_path + ": no frames to write", error);
    std::vector<unsigned char> count;
    putU32(count, m_samples);
    if (std::fseek(m_file, kSampleCountOffset, SEEK_SET) != 0 || std::fwrite(count.data(), 1, 4, m_file) != 4
        || std::fflush(m_file) != 0)
        return fail("cannot write " + m_path + ": " + std::strerror(errno), error);
    std::fclose(m_file);
    m_file = nullptr;
    if (std::rename(m_temp.c_str(), m_path.c_str()) != 0) {
        const std::string reason = std::strerror(errno);
        std::remove(m_temp.c_str());
        if (error)
            *error = "cannot write " + m_path + ": " + reason;
        return false;
    }
    return true;
}

} // namespace drape
