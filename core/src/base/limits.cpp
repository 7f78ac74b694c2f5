#include "poslab/base/limits.hpp"

#include "poslab/base/decimal.hpp"

#include <algorithm>
#include <cstdlib>
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
    std::size_t cap = available == 0 ? kHardMatrixCap : std::min(kHardMatrixCap, available / 2);
    // POSLAB_MEMORY_CAP_MIB lowers the cap (a shared machine, the peak-memory tests); it never
    // raises it. Anything but a plain positive integer is ignored.
    if (const char* text = std::getenv("POSLAB_MEMORY_CAP_MIB")) {
        const ParsedInteger mib = parseDecimalInteger(text);
        if (mib.status == DecimalStatus::Ok && mib.value > 0 && mib.value < (1LL << 40))
            cap = std::min(cap, std::size_t(mib.value) << 20);
    }
    return cap;
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
