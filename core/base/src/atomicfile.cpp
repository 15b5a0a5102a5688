// POSIX write-temp-then-rename (rename(2) is atomic within one file system, which is why the
// temporary file lives in the target's directory).
#include "base/atomicfile.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
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

} // namespace

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
    std::string temp = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
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

bool readWholeFile(const std::string &path, std::string *data, std::string *error)
{
    std::FILE *f = std::fopen(path.c_str(), "rb");
    if (!f)
        return fail(error, "cannot read", path, errno);
    std::string out;
    char buf[65536];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
        out.append(buf, n);
    const bool bad = std::ferror(f) != 0;
    const int err = errno;
    std::fclose(f);
    if (bad)
        return fail(error, "cannot read", path, err ? err : EIO);
    *data = std::move(out);
    return true;
}

} // namespace drape
