// POSIX write-temp-then-rename (rename(2) is atomic within one file system, which is why the
// temporary file lives in the target's directory).
#include "base/atomicfile.h"

#include <cerrno>
#include <cstdint>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <map>
#include <mutex>
#include <sys/stat.h>
#include <unistd.h>

namespace drape {

namespace {

bool fail(std::string *error, const std::string &what, const std::string &path, int err)
{
    if (error)
        *error = what + " " + path + ": " + std::strerror(err);
    return false;
}

constexpr std::string_view kTempTag = ".drape-";

// The PID in a temporary's name `.NAME.drape-PID-XXXXXX`, or -1 when `name` is not one.
long temporaryPid(const std::string &name)
{
    if (name.size() < 2 || name[0] != '.')
        return -1;
    const std::size_t tag = name.rfind(kTempTag);
    if (tag == std::string::npos || tag < 2)
        return -1;
    const std::string rest = name.substr(tag + kTempTag.size()); // "PID-XXXXXX"
    const std::size_t dash = rest.find('-');
    if (dash == std::string::npos || dash == 0 || dash > 10 || rest.size() != dash + 7)
        return -1;
    long pid = 0;
    for (std::size_t i = 0; i < dash; ++i) {
        if (rest[i] < '0' || rest[i] > '9')
            return -1;
        pid = pid * 10 + (rest[i] - '0');
    }
    for (std::size_t i = dash + 1; i < rest.size(); ++i) {
        const char c = rest[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
            return -1;
    }
    return pid;
}

// Scans a folder at most once a minute per process: an OBJ sequence writes thousands of
// files into one folder and must not list it thousands of times.
void removeStaleTemporariesOnce(const std::string &dir)
{
    static std::mutex mutex;
    static std::map<std::string, std::time_t> lastScan;
    const std::time_t now = std::time(nullptr);
    {
        const std::lock_guard lock(mutex);
        const auto it = lastScan.find(dir);
        if (it != lastScan.end() && std::difftime(now, it->second) < 60.0)
            return;
        lastScan[dir] = now;
    }
    removeStaleTemporaries(dir);
}

} // namespace

int removeStaleTemporaries(const std::string &dir, double quietSeconds)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::directory_iterator it(dir.empty() ? fs::path(".") : fs::path(dir), ec);
    if (ec)
        return 0;
    const std::time_t now = std::time(nullptr);
    int removed = 0;
    for (; it != fs::directory_iterator(); it.increment(ec)) {
        if (ec)
            break;
        const std::string name = it->path().filename().string();
        const long pid = temporaryPid(name);
        if (pid <= 0)
            continue;
        struct stat st { };
        if (::lstat(it->path().c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid())
            continue;
        const double quiet = std::difftime(now, st.st_mtime);
        const bool processGone = ::kill(pid_t(pid), 0) != 0 && errno == ESRCH;
        if ((processGone && quiet >= quietSeconds) || quiet >= 3600.0) {
            if (::unlink(it->path().c_str()) == 0)
                ++removed;
        }
    }
    return removed;
}

bool writeFileAtomically(const std::string &path, std::string_view data, std::string *error)
{
    namespace fs = std::filesystem;
    const fs::path target(path);
    if (target.filename().empty()) {
        if (error)
            *error = "cannot write " + path + ": not a file name";
        return false;
    }
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    removeStaleTemporariesOnce(dir.string());
    std::string temp = (dir
        / ("." + target.filename().string() + std::string(kTempTag) + std::to_string(::getpid()) + "-XXXXXX"))
                           .string();
    const int fd = ::mkstemp(temp.data());
    if (fd < 0)
        return fail(error, "cannot write", path, errno);

    // mkstemp creates 0600; give the new file the target's mode, or the usual 0666 & ~umask.
    struct stat st { };
    mode_t mode = 0;
    if (::stat(path.c_str(), &st) == 0) {
        mode = st.st_mode & 07777;
    } else {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        mode = 0666 & ~mask;
    }
    ::fchmod(fd, mode);

    const char *p = data.data();
    std::size_t left = data.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, p, left);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            const int err = errno;
            ::close(fd);
            ::unlink(temp.c_str());
            return fail(error, "cannot write", path, err);
        }
        p += n;
        left -= std::size_t(n);
    }
    if (::fsync(fd) != 0) {
        const int err = errno;
        ::close(fd);
        ::unlink(temp.c_str());
        return fail(error, "cannot write", path, err);
    }
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlink(temp.c_str());
        return fail(error, "cannot write", path, err);
    }
    if (::rename(temp.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(temp.c_str());
        return fail(error, "cannot write", path, err);
    }
    return true;
}

bool readWholeFile(const std::string &path, std::string *data, std::string *error, std::size_t maxBytes)
{
    std::FILE *f = std::fopen(path.c_str(), "rb");
    if (!f)
        return fail(error, "cannot read", path, errno);
    // A device, pipe or directory has no size to check and may never end (/dev/zero).
    struct stat st { };
    if (::fstat(::fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        std::fclose(f);
        if (error)
            *error = "cannot read " + path + ": not a regular file";
        return false;
    }
    const auto tooLarge = [&] {
        std::fclose(f);
        if (error)
            *error = "cannot read " + path + ": larger than the limit of " + std::to_string(maxBytes >> 20)
                + " MB for this kind of file";
        return false;
    };
    if (std::uint64_t(st.st_size) > maxBytes)
        return tooLarge();
    std::string out;
    char buf[65536];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
        if (out.size() + n > maxBytes) // the file grew while being read
            return tooLarge();
        out.append(buf, n);
    }
    const bool bad = std::ferror(f) != 0;
    const int err = errno;
    std::fclose(f);
    if (bad)
        return fail(error, "cannot read", path, err ? err : EIO);
    *data = std::move(out);
    return true;
}

} // namespace drape
