// limits.hpp — caps on sizes that come from user input.
//
// A matrix is refused before allocation when it would need more than maxMatrixBytes(): the
// smaller of 4 GiB and half of the memory the system reports as available. This turns a typo
// such as --seq-len 10000000 into a clear error instead of an out-of-memory kill.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string_view>

#include "poslab/base/result.hpp"

namespace poslab {

inline constexpr int kMaxDModel = 8192;         // d_model / head_dim upper bound everywhere
inline constexpr int kMaxSeqLen = 1 << 20;      // positions: exports, and the RoPE views (they
                                                // sample only what is visible)
inline constexpr int kMaxGuiSeqLen = 65536;     // views holding whole L x L tables or L-row
                                                // tables (sinusoidal, ALiBi, T5, learned, ...)
// 4 GiB; 1 GiB where size_t has 32 bits (WebAssembly, the page: 4 GiB would wrap to 0, and the
// whole heap is at most 2 GiB there).
inline constexpr std::size_t kHardMatrixCap =
    sizeof(std::size_t) >= 8 ? std::size_t(4) << 30 : std::size_t(1) << 30;

std::size_t availableMemoryBytes();  // MemAvailable from /proc/meminfo, or 0 when unknown
std::size_t availableMemoryBytes(std::istream& meminfo);  // the same from that text, <= SIZE_MAX
std::size_t maxMatrixBytes();        // min(4 GiB, availableMemoryBytes() / 2)

// Ok when rows x cols doubles fit under maxMatrixBytes(); the error names `what`.
Status checkMatrixSize(std::size_t rows, std::size_t cols, std::string_view what);
// Ok when `bytes` (a matrix and the buffers read alongside it) fit under maxMatrixBytes().
Status checkMemoryBytes(std::size_t bytes, std::string_view what);
// What set the cap, for messages: "POSLAB_MEMORY_CAP_MIB" when it lowered the cap, else "the
// smaller of 4 GiB and half the available memory".
std::string memoryCapSource();

}  // namespace poslab
