#include "base/partfile.h"

#include <cerrno>
#include <cstring>

namespace drape {

bool PartFile::open(const std::string &path, std::string *error)
{
    abandon();
    m_path = path;
    m_temp = path + ".part";
    m_file = std::fopen(m_temp.c_str(), "wb");
    return m_file ? true : failWithErrno(error);
}

void PartFile::abandon()
{
    if (!m_file)
        return;
    std::fclose(m_file);
    m_file = nullptr;
    std::remove(m_temp.c_str());
}

bool PartFile::fail(const std::string &message, std::string *error)
{
    abandon();
    if (error)
        *error = message;
    return false;
}

bool PartFile::failWithErrno(std::string *error)
{
    const std::string reason = errno ? std::strerror(errno) : "write failed";
    return fail("cannot write " + m_path + ": " + reason, error);
}

bool PartFile::write(const void *data, std::size_t bytes, std::string *error)
{
    if (!m_file)
        return fail("cannot write " + m_path + ": not open", error);
    errno = 0;
    return std::fwrite(data, 1, bytes, m_file) == bytes || failWithErrno(error);
}

bool PartFile::seek(long offset, std::string *error)
{
    if (!m_file)
        return fail("cannot write " + m_path + ": not open", error);
    return std::fseek(m_file, offset, SEEK_SET) == 0 || failWithErrno(error);
}

bool PartFile::commit(std::string *error)
{
    if (!m_file)
        return fail("cannot write " + m_path + ": not open", error);
    errno = 0;
    // A full disk may only show when the buffered tail is flushed or the file closed.
    const bool flushed = std::fflush(m_file) == 0;
    const bool closed = std::fclose(m_file) == 0;
    m_file = nullptr;
    if (flushed && closed && std::rename(m_temp.c_str(), m_path.c_str()) == 0)
        return true;
    const std::string reason = errno ? std::strerror(errno) : "write failed";
    std::remove(m_temp.c_str());
    if (error)
        *error = "cannot write " + m_path + ": " + reason;
    return false;
}

} // namespace drape
