#include "base/outputcheck.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sys/statvfs.h>
#include <unistd.h>

namespace drape {

namespace fs = std::filesystem;

namespace {

// The nearest folder of `p` (or `p` itself) that exists.
fs::path existingAncestor(fs::path p)
{
    std::error_code ec;
    p = fs::absolute(p, ec);
    while (!p.empty() && !fs::exists(p, ec) && p.has_parent_path() && p.parent_path() != p)
        p = p.parent_path();
    return p;
}

// Creates and removes a probe file in `dir`; "" or the OS reason.
std::string probeWritable(const fs::path &dir)
{
    std::string probe = (dir / ".drape-probe-XXXXXX").string();
    const int fd = ::mkstemp(probe.data());
    if (fd < 0)
        return std::strerror(errno);
    ::close(fd);
    ::unlink(probe.c_str());
    return {};
}

std::string checkSpace(const std::string &path, const fs::path &where, std::uint64_t expectedBytes)
{
    if (expectedBytes == 0)
        return {};
    const std::int64_t free = freeBytesAt(where.string());
    if (free >= 0 && std::uint64_t(free) < expectedBytes)
        return "cannot write " + path + ": it needs about " + formatBytes(double(expectedBytes))
            + " but only " + formatBytes(double(free)) + " is free there";
    return {};
}

} // namespace

std::int64_t freeBytesAt(const std::string &path)
{
    const fs::path p = existingAncestor(path.empty() ? fs::path(".") : fs::path(path));
    struct statvfs st { };
    if (::statvfs(p.c_str(), &st) != 0)
        return -1;
    return std::int64_t(st.f_bavail) * std::int64_t(st.f_frsize);
}

std::string formatBytes(double bytes)
{
    const char *units[] = { "bytes", "kB", "MB", "GB", "TB", "PB", "EB" };
    int u = 0;
    while (bytes >= 1000.0 && u < 6) {
        bytes /= 1000.0;
        ++u;
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
    return buf;
}

std::string checkOutputFile(const std::string &path, std::uint64_t expectedBytes)
{
    std::error_code ec;
    const fs::path target = fs::absolute(fs::path(path), ec);
    if (ec || target.filename().empty())
        return "cannot write " + path + ": not a file name";
    const fs::path dir = target.parent_path();
    if (!fs::exists(dir, ec))
        return "cannot write " + path + ": folder " + dir.string() + " does not exist";
    if (!fs::is_directory(dir, ec))
        return "cannot write " + path + ": " + dir.string() + " is not a folder";
    if (fs::is_directory(target, ec))
        return "cannot write " + path + ": it is a folder";
    if (fs::exists(target, ec) && ::access(target.c_str(), W_OK) != 0)
        return "cannot write " + path + ": " + std::strerror(errno);
    const std::string reason = probeWritable(dir);
    if (!reason.empty())
        return "cannot write " + path + ": cannot create files in " + dir.string() + ": " + reason;
    return checkSpace(path, dir, expectedBytes);
}

std::string checkOutputFolder(const std::string &path, std::uint64_t expectedBytes)
{
    std::error_code ec;
    const fs::path folder = fs::absolute(fs::path(path), ec);
    if (ec)
        return "cannot write " + path + ": not a folder name";
    if (fs::exists(folder, ec)) {
        if (!fs::is_directory(folder, ec))
            return "cannot write " + path + ": it exists and is not a folder";
        const std::string reason = probeWritable(folder);
        if (!reason.empty())
            return "cannot write into " + path + ": " + reason;
        return checkSpace(path, folder, expectedBytes);
    }
    const fs::path parent = existingAncestor(folder);
    if (!fs::is_directory(parent, ec))
        return "cannot create folder " + path + ": " + parent.string() + " is not a folder";
    const std::string reason = probeWritable(parent);
    if (!reason.empty())
        return "cannot create folder " + path + ": cannot create files in " + parent.string() + ": " + reason;
    return checkSpace(path, parent, expectedBytes);
}

} // namespace drape
