#include "poslab/output_file.hpp"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <random>

namespace poslab {

std::string fileExtension(const std::string& path) {
    const auto slash = path.find_last_of('/');
    const auto dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    std::string extension = path.substr(dot);
    for (char& c : extension) c = char(std::tolower(static_cast<unsigned char>(c)));
    return extension;
}

Status writeFileAtomically(const std::string& path,
                           const std::function<Status(std::FILE*)>& write) {
    const auto slash = path.find_last_of('/');
    const std::string directory = slash == std::string::npos ? "" : path.substr(0, slash + 1);
    const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    if (name.empty()) return Error{"output path '" + path + "' names a directory, not a file"};

    std::random_device entropy;
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
    Status status = write(file);
    const bool writeFailed = std::ferror(file) != 0;
    const int savedErrno = errno;
    const bool closeFailed = std::fclose(file) != 0;
    if (status && (writeFailed || closeFailed)) {
        status = Error{"cannot write '" + path + "': " + std::strerror(savedErrno)};
    }
    if (status && std::rename(temporary.c_str(), path.c_str()) != 0) {
        status = Error{"cannot write '" + path + "': " + std::strerror(errno)};
    }
    if (!status) std::remove(temporary.c_str());
    return status;
}

}  // namespace poslab
