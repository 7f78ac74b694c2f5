#include "poslab/base/limits.hpp"

#include "poslab/base/decimal.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace poslab {

std::size_t availableMemoryBytes(std::istream& meminfo) {
    std::string key;
    std::uint64_t kib = 0;
    std::string unit;
    while (meminfo >> key >> kib >> unit) {
        if (key != "MemAvailable:") continue;
        // In 64 bits: where size_t has 32 (the page's wasm32 core) kib * 1024 wrapped, so 4 GiB
        // available read as 0 and every matrix was refused. More than size_t holds is its max.
        const std::uint64_t bytes = kib > UINT64_MAX / 1024 ? UINT64_MAX : kib * 1024;
        return std::size_t(std::min<std::uint64_t>(bytes, SIZE_MAX));
    }
    return 0;
}

std::size_t availableMemoryBytes() {
    std::ifstream meminfo("/proc/meminfo");
    return availableMemoryBytes(meminfo);
}

namespace {

struct MemoryCap {
    std::size_t bytes = 0;
    bool fromEnvironment = false;  // POSLAB_MEMORY_CAP_MIB set it
};

MemoryCap memoryCap() {
    const std::size_t available = availableMemoryBytes();
    MemoryCap cap{available == 0 ? kHardMatrixCap : std::min(kHardMatrixCap, available / 2)};
    // POSLAB_MEMORY_CAP_MIB lowers the cap (a shared machine, the peak-memory tests); it never
    // raises it. Anything but a plain positive integer is ignored.
    if (const char* text = std::getenv("POSLAB_MEMORY_CAP_MIB")) {
        const ParsedInteger mib = parseDecimalInteger(text);
        if (mib.status == DecimalStatus::Ok && mib.value > 0 && mib.value < (1LL << 40) &&
            (std::size_t(mib.value) << 20) < cap.bytes) {
            cap = {std::size_t(mib.value) << 20, true};
        }
    }
    return cap;
}

std::string capText(const MemoryCap& cap) {
    return std::to_string(cap.bytes >> 20) + " MiB (" +
           (cap.fromEnvironment ? std::string("set by POSLAB_MEMORY_CAP_MIB")
                                : std::string("the smaller of 4 GiB and half the available "
                                              "memory")) +
           ")";
}

}  // namespace

std::size_t maxMatrixBytes() {
    return memoryCap().bytes;
}

std::string memoryCapSource() {
    return memoryCap().fromEnvironment ? "POSLAB_MEMORY_CAP_MIB"
                                       : "the smaller of 4 GiB and half the available memory";
}

Status checkMemoryBytes(std::size_t bytes, std::string_view what) {
    const MemoryCap cap = memoryCap();
    if (bytes > cap.bytes) {
        return Error{std::string(what) + " needs " + std::to_string((bytes + (1 << 20) - 1) >> 20) +
                     " MiB, over the memory cap of " + capText(cap)};
    }
    return success();
}

Status checkMatrixSize(std::size_t rows, std::size_t cols, std::string_view what) {
    const MemoryCap cap = memoryCap();
    const std::size_t capValues = cap.bytes / sizeof(double);
    if (cols != 0 && rows > capValues / cols) {
        std::ostringstream message;
        message << what << " of " << rows << " x " << cols << " values exceeds the memory cap of "
                << capText(cap);
        return Error{message.str()};
    }
    return success();
}

}  // namespace poslab
