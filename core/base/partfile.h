// A file written beside its target as TARGET.part and renamed over the target only when it is
// complete, for outputs too large to build in memory first (point caches, baked frames): a
// write that fails (disk full) or is abandoned removes the partial file and leaves an earlier
// target untouched. Errors name the target and the OS reason ("cannot write x.pc2: No space
// left on device"). (writeFileAtomically in atomicfile.h does the same for data in memory.)
#pragma once

#include <cstdio>
#include <string>

namespace drape {

class PartFile {
public:
    PartFile() = default;
    ~PartFile() { abandon(); }
    PartFile(const PartFile &) = delete;
    PartFile &operator=(const PartFile &) = delete;

    bool open(const std::string &path, std::string *error);
    bool write(const void *data, std::size_t bytes, std::string *error);
    /// Moves the write position to `offset` bytes from the start (to patch a header).
    bool seek(long offset, std::string *error);
    /// Flushes, closes and renames the file over the target.
    bool commit(std::string *error);
    /// Closes and removes the partial file (nothing happens when none is open).
    void abandon();
    /// Abandons and sets `error` to `message`; returns false, for `return fail(...)`.
    bool fail(const std::string &message, std::string *error);

    bool isOpen() const { return m_file != nullptr; }
    const std::string &path() const { return m_path; }

private:
    bool failWithErrno(std::string *error);

    std::string m_path;
    std::string m_temp;
    std::FILE *m_file = nullptr;
};

} // namespace drape
