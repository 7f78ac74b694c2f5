#include "poslab/io/input_file.hpp"

#include <cerrno>
#include <cstring>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "poslab/base/format.hpp"

namespace poslab {

namespace {

const char* fileKind(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a file";
}

}  // namespace

Result<InputFile> InputFile::open(const std::string& path, const char* cannotOpen) {
    const std::string name =
        escapeForMessage(path, kMessagePathLength);  // "path: problem", as the readers say
    // O_NONBLOCK: opening a FIFO for reading waits for a writer otherwise.
    const int descriptor = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (descriptor < 0) {
        return Error{name + ": " + cannotOpen + " (" + std::strerror(errno) + ")"};
    }
    struct stat info {};
    if (::fstat(descriptor, &info) != 0) {
        const int saved = errno;
        ::close(descriptor);
        return Error{name + ": cannot read the file (" + std::strerror(saved) + ")"};
    }
    if (!S_ISREG(info.st_mode)) {
        ::close(descriptor);
        return Error{name + ": not a regular file (" + fileKind(info.st_mode) + ")"};
    }
    // Regular files never block; clear the flag so that reads behave as usual anyway.
    const int flags = ::fcntl(descriptor, F_GETFL);
    if (flags >= 0) ::fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK);
    std::FILE* file = ::fdopen(descriptor, "rb");
    if (file == nullptr) {
        const int saved = errno;
        ::close(descriptor);
        return Error{name + ": cannot open the file (" + std::strerror(saved) + ")"};
    }
    return InputFile(file, std::uintmax_t(info.st_size));
}

InputFile::InputFile(InputFile&& other) noexcept
    : file_(std::exchange(other.file_, nullptr)), size_(other.size_) {}

InputFile& InputFile::operator=(InputFile&& other) noexcept {
    if (this != &other) {
        if (file_) std::fclose(file_);
        file_ = std::exchange(other.file_, nullptr);
        size_ = other.size_;
    }
    return *this;
}

InputFile::~InputFile() {
    if (file_) std::fclose(file_);
}

}  // namespace poslab
