#include "poslab/io/output_file.hpp"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <random>

#if defined(__linux__)
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace poslab {

std::string fileExtension(const std::string& path) {
    const auto slash = path.find_last_of('/');
    const auto dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    std::string extension = path.substr(dot);
    for (char& c : extension) c = char(std::tolower(static_cast<unsigned char>(c)));
    return extension;
}

namespace {

// Runs write(file), closes the file and reports the first failure, naming `path`.
Status writeAndClose(std::FILE* file, const std::string& path,
                     const std::function<Status(std::FILE*)>& write) {
    Status status = write(file);
    const bool writeFailed = std::fflush(file) != 0 || std::ferror(file) != 0;
    const int savedErrno = errno;
    const bool closeFailed = std::fclose(file) != 0;
    if (status && (writeFailed || closeFailed)) {
        status = Error{"cannot write '" + path + "': " + std::strerror(savedErrno)};
    }
    return status;
}

#if defined(__linux__)
// Puts `temporary` in place of `path`. A plain rename over an existing file makes ext4 write the
// new file's data out before the rename returns (its auto_da_alloc heuristic, ~80 ms for 64 MiB);
// exchanging the two names is just as atomic and skips that, then the old file is removed.
int replaceFile(const std::string& temporary, const std::string& path) {
    struct stat target {};
    if (::lstat(path.c_str(), &target) == 0 && S_ISREG(target.st_mode) &&
        ::renameat2(AT_FDCWD, temporary.c_str(), AT_FDCWD, path.c_str(), RENAME_EXCHANGE) == 0) {
        ::unlink(temporary.c_str());  // now the previous file
        return 0;
    }
    return std::rename(temporary.c_str(), path.c_str());
}

// Linux: the data goes to an unnamed O_TMPFILE first, so a process killed mid-export leaves
// nothing behind at all; only the finished file is given a (temporary, then final) name.
// Returns false when the filesystem has no O_TMPFILE, and the portable path takes over.
bool writeThroughUnnamedFile(const std::string& directory, const std::string& path,
                             const std::string& temporary,
                             const std::function<Status(std::FILE*)>& write, Status& status) {
    const int descriptor =
        ::open(directory.empty() ? "." : directory.c_str(), O_TMPFILE | O_WRONLY, 0666);
    if (descriptor < 0) return false;
    std::FILE* file = ::fdopen(descriptor, "wb");
    if (!file) {
        ::close(descriptor);
        return false;
    }
    const std::string procPath = "/proc/self/fd/" + std::to_string(descriptor);
    status = write(file);
    bool failed = std::fflush(file) != 0 || std::ferror(file) != 0;
    int savedErrno = errno;
    if (status && !failed &&
        ::linkat(AT_FDCWD, procPath.c_str(), AT_FDCWD, temporary.c_str(), AT_SYMLINK_FOLLOW) != 0) {
        failed = true;
        savedErrno = errno;
    }
    std::fclose(file);
    if (status && failed)
        status = Error{"cannot write '" + path + "': " + std::strerror(savedErrno)};
    if (status && replaceFile(temporary, path) != 0) {
        status = Error{"cannot write '" + path + "': " + std::strerror(errno)};
        std::remove(temporary.c_str());
    }
    return true;
}
#endif

}  // namespace

Status writeFileAtomically(const std::string& path,
                           const std::function<Status(std::FILE*)>& write) {
    const auto slash = path.find_last_of('/');
    const std::string directory = slash == std::string::npos ? "" : path.substr(0, slash + 1);
    const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    if (name.empty()) return Error{"output path '" + path + "' names a directory, not a file"};

    std::random_device entropy;
#if defined(__linux__)
    {
        Status status = success();
        const std::string temporary = directory + "." + name + ".tmp" + std::to_string(entropy());
        if (writeThroughUnnamedFile(directory, path, temporary, write, status)) return status;
    }
#endif
    std::string temporary;
    std::FILE* file = nullptr;
    for (int attempt = 0; attempt < 8 && !file; ++attempt) {
        temporary = directory + "." + name + ".tmp" + std::to_string(entropy());
        file = std::fopen(temporary.c_str(), "wbx");  // x: fail if it exists, never clobber
        if (!file && errno != EEXIST) break;
    }
    if (!file) {
        return Error{"cannot write '" + path + "': " + std::strerror(errno)};
    }
    Status status = writeAndClose(file, path, write);
    if (status && std::rename(temporary.c_str(), path.c_str()) != 0) {
        status = Error{"cannot write '" + path + "': " + std::strerror(errno)};
    }
    if (!status) std::remove(temporary.c_str());
    return status;
}

}  // namespace poslab
