#include "poslab/io/output_file.hpp"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <random>
#include <string_view>

#include "poslab/base/format.hpp"

#if defined(__linux__)
#include <dirent.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
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

Error writeError(const std::string& path, int error) {
    return Error{"cannot write " + quoteForMessage(path, kMessagePathLength) + ": " +
                 std::strerror(error)};
}

// Runs write(file), closes the file and reports the first failure, naming `path`.
Status writeAndClose(std::FILE* file, const std::string& path,
                     const std::function<Status(std::FILE*)>& write) {
    Status status = writeToStream(file, path, write);
    errno = 0;
    if (std::fclose(file) != 0 && status) status = writeError(path, errno ? errno : EIO);
    return status;
}

// The read/write/execute bits of the regular file being replaced, or -1 when there is none (the
// temporary is then created 0666 & ~umask). Never setuid, setgid or sticky: the new file belongs
// to the writer, and a nobody-owned 6755 file replaced by root must not become a root setuid
// program. lstat: a symlink is replaced by a new file (see output_file.hpp), its target's bits
// are not borrowed.
int existingMode(const std::string& path) {
#if defined(__linux__)
    struct stat target {};
    if (::lstat(path.c_str(), &target) == 0 && S_ISREG(target.st_mode))
        return int(target.st_mode & 0777);
#else
    (void)path;
#endif
    return -1;
}

#if defined(__linux__)
// True when linkat(fd, "", ..., AT_EMPTY_PATH) may name an unnamed file: the caller holds
// CAP_DAC_READ_SEARCH (root does). Asked of the kernel with capget; no libcap needed.
bool mayLinkByDescriptor() {
    __user_cap_header_struct header{};
    header.version = _LINUX_CAPABILITY_VERSION_3;
    header.pid = 0;
    __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};
    if (::syscall(SYS_capget, &header, data) != 0) return false;
    return (data[CAP_DAC_READ_SEARCH / 32].effective >> (CAP_DAC_READ_SEARCH % 32)) & 1u;
}

// Named temporaries are ".NAME.poslab-tmp.PID.RANDOM": a run killed before its rename leaves one
// (when no unnamed file could be used), and the next write of NAME removes those whose process
// is gone (kill(pid, 0) says ESRCH; a live process of that id keeps its file).
std::string temporaryPrefix(const std::string& name) {
    return "." + name + ".poslab-tmp.";
}

void removeAbandonedTemporaries(const std::string& directory, const std::string& name) {
    DIR* folder = ::opendir(directory.empty() ? "." : directory.c_str());
    if (folder == nullptr) return;
    const std::string prefix = temporaryPrefix(name);
    while (const dirent* entry = ::readdir(folder)) {
        const std::string_view file = entry->d_name;
        if (file.substr(0, prefix.size()) != prefix) continue;
        const std::string_view rest = file.substr(prefix.size());  // "PID.RANDOM"
        const std::size_t dot = rest.find('.');
        long long pid = 0;
        const auto [end, error] = std::from_chars(rest.data(), rest.data() + dot, pid);
        if (dot == std::string_view::npos || error != std::errc() || end != rest.data() + dot ||
            pid <= 0 || pid > 1 << 22)
            continue;
        if (::kill(pid_t(pid), 0) != 0 && errno == ESRCH)
            ::unlinkat(::dirfd(folder), entry->d_name, 0);
    }
    ::closedir(folder);
}

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
                             const std::string& temporary, int mode,
                             const std::function<Status(std::FILE*)>& write, Status& status) {
    // The unnamed file is given a name with linkat(AT_EMPTY_PATH) where the process may (it
    // needs CAP_DAC_READ_SEARCH), else through /proc/self/fd; with neither (no /proc, not
    // privileged) the named temporary below takes over before anything is written.
    const bool emptyPath = mayLinkByDescriptor();
    if (!emptyPath && ::access("/proc/self/fd", X_OK) != 0) return false;
    const int descriptor =
        ::open(directory.empty() ? "." : directory.c_str(), O_TMPFILE | O_WRONLY, 0666);
    if (descriptor < 0) return false;
    std::FILE* file = ::fdopen(descriptor, "wb");
    if (!file) {
        ::close(descriptor);
        return false;
    }
    const std::string procPath = "/proc/self/fd/" + std::to_string(descriptor);
    status = writeToStream(file, path, write);
    bool failed = false;
    int savedErrno = 0;
    if (status && mode >= 0 && ::fchmod(descriptor, mode_t(mode)) != 0) {
        failed = true;
        savedErrno = errno;
    }
    const bool linked =
        status && !failed &&
        (emptyPath ? ::linkat(descriptor, "", AT_FDCWD, temporary.c_str(), AT_EMPTY_PATH) == 0
                   : ::linkat(AT_FDCWD, procPath.c_str(), AT_FDCWD, temporary.c_str(),
                              AT_SYMLINK_FOLLOW) == 0);
    if (status && !failed && !linked) {
        failed = true;
        savedErrno = errno;
    }
    std::fclose(file);
    if (status && failed) status = writeError(path, savedErrno);
    if (status && replaceFile(temporary, path) != 0) {
        status = writeError(path, errno);
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
    if (name.empty())
        return Error{"output path " + quoteForMessage(path, kMessagePathLength) +
                     " names a directory, not a file"};

#if defined(__linux__)
    // A device or a pipe (/dev/full, /dev/stdout, a shell's >(gzip)) is written in place: renaming
    // a temporary over it would replace the device node itself (the tests run as root).
    struct stat target {};
    if (::stat(path.c_str(), &target) == 0 &&
        (S_ISCHR(target.st_mode) || S_ISFIFO(target.st_mode))) {
        // O_NONBLOCK: a FIFO nobody reads fails at once (ENXIO) instead of hanging the write.
        const int descriptor = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (descriptor < 0) return writeError(path, errno);
        ::fcntl(descriptor, F_SETFL, ::fcntl(descriptor, F_GETFL) & ~O_NONBLOCK);
        std::FILE* stream = ::fdopen(descriptor, "wb");
        if (!stream) {
            const int saved = errno;
            ::close(descriptor);
            return writeError(path, saved);
        }
        return writeAndClose(stream, path, write);
    }
#endif
    const int mode = existingMode(path);
    std::random_device entropy;
#if defined(__linux__)
    removeAbandonedTemporaries(directory, name);
    const std::string prefix = directory + temporaryPrefix(name) + std::to_string(::getpid()) + ".";
    {
        Status status = success();
        const std::string temporary = prefix + std::to_string(entropy());
        if (writeThroughUnnamedFile(directory, path, temporary, mode, write, status)) return status;
    }
#else
    const std::string prefix = directory + "." + name + ".tmp";
#endif
    std::string temporary;
    std::FILE* file = nullptr;
    for (int attempt = 0; attempt < 8 && !file; ++attempt) {
        temporary = prefix + std::to_string(entropy());
        file = std::fopen(temporary.c_str(), "wbx");  // x: fail if it exists, never clobber
        if (!file && errno != EEXIST) break;
    }
    if (!file) return writeError(path, errno);
#if defined(__linux__)
    if (mode >= 0 && ::fchmod(::fileno(file), mode_t(mode)) != 0) {
        const int saved = errno;
        std::fclose(file);
        std::remove(temporary.c_str());
        return writeError(path, saved);
    }
#endif
    Status status = writeAndClose(file, path, write);
    if (status && std::rename(temporary.c_str(), path.c_str()) != 0)
        status = writeError(path, errno);
    if (!status) std::remove(temporary.c_str());
    return status;
}

Status writeToStream(std::FILE* file, const std::string& path,
                     const std::function<Status(std::FILE*)>& write) {
    errno = 0;
    Status status = write(file);
    // errno holds the failed fwrite's reason only until the next call: read it at once. A
    // stream error outranks the callback's own "write failed", which names neither.
    const int writeErrno = errno;
    if (std::ferror(file)) return writeError(path, writeErrno ? writeErrno : EIO);
    if (!status) return status;
    if (std::fflush(file) != 0) return writeError(path, errno ? errno : EIO);
    return status;
}

}  // namespace poslab
