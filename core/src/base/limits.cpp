#include "poslab/base/limits.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

namespace poslab {

std::size_t availableMemoryBytes() {
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    std::size_t kib = 0;
    std::string unit;
    while (meminfo >> key >> kib >> unit) {
        if (key == "MemAvailable:") return kib * 1024;
    }
    return 0;
}

std::size_t maxMatrixBytes() {
    const std::size_t available = availableMemoryBytes();
    if (available == 0) return kHardMatrixCap;
    return std::min(kHardMatrixCap, available / 2);
}

Status checkMatrixSize(std::size_t rows, std::size_t cols, std::string_view what) {
    const std::size_t cap = maxMatrixBytes();
    const std::size_t capValues = cap / sizeof(double);
    if (cols != 0 && rows > capValues / cols) {
        std::ostringstream message;
        message << what << " of " << rows << " x " << cols << " values exceeds the memory cap of "
                << (cap >> 20) << " MiB (the smaller of 4 GiB and half the available memory)";
        return Error{message.str()};
    }
    return success();
}

}  // namespace poslab
