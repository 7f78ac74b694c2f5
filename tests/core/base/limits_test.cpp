// Size caps: the documented constants, the memory cap read from /proc/meminfo, and the error a
// matrix over the cap gets before anything is allocated.
#include "poslab/base/limits.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

namespace poslab {
namespace {

TEST(LimitsTest, ConstantsAreTheDocumentedValues) {
    EXPECT_EQ(kMaxDModel, 8192);
    EXPECT_EQ(kMaxSeqLen, 1048576);  // 2^20
    EXPECT_EQ(kMaxGuiSeqLen, 65536);
    // 4 GiB; 1 GiB where size_t has 32 bits (the page), where 4 GiB once wrapped to 0.
    const unsigned long long gib = 1024ull * 1024 * 1024;
    EXPECT_EQ((unsigned long long)kHardMatrixCap, sizeof(std::size_t) >= 8 ? 4 * gib : gib);
}

// MemAvailable in bytes, read here on its own; 0 when the line is missing.
std::size_t memAvailableFromProc() {
    std::ifstream meminfo("/proc/meminfo");
    std::string line;
    while (std::getline(meminfo, line)) {
        if (line.rfind("MemAvailable:", 0) == 0)
            return std::size_t(std::min<unsigned long long>(std::stoull(line.substr(13)) * 1024,
                                                            SIZE_MAX));  // "... kB"
    }
    return 0;
}

TEST(LimitsTest, MemoryCapIsTheSmallerOfFourGibAndHalfTheAvailableMemory) {
    const std::size_t proc = memAvailableFromProc();
    const std::size_t available = availableMemoryBytes();
    if (proc == 0) {
        EXPECT_EQ(available, 0u);
        EXPECT_EQ(maxMatrixBytes(), kHardMatrixCap);
        return;
    }
    // Two reads of a live counter: equal within 10% (other processes allocate meanwhile).
    EXPECT_NEAR(double(available), double(proc), 0.1 * double(proc));
    const std::size_t cap = maxMatrixBytes();
    EXPECT_LE(cap, kHardMatrixCap);
    EXPECT_NEAR(double(cap), double(std::min(kHardMatrixCap, proc / 2)), 0.1 * double(proc));
}

// 4 GiB available is 2^32 bytes: where size_t has 32 bits (the page's core tests under node)
// that once wrapped to 0, a cap of 0 MiB, and every figure was refused. It is size_t's largest
// value there, and 4 GiB itself where size_t is wider.
TEST(LimitsTest, AvailableMemoryPastSizeTSaturates) {
    std::istringstream meminfo(
        "MemTotal:       8388608 kB\nMemFree:        1000 kB\n"
        "MemAvailable:   4194304 kB\nBuffers:        10 kB\n");
    const unsigned long long fourGib = 4ull << 30;
    EXPECT_EQ((unsigned long long)availableMemoryBytes(meminfo),
              std::min<unsigned long long>(fourGib, SIZE_MAX));
    std::istringstream missing("MemTotal:       8388608 kB\n");
    EXPECT_EQ(availableMemoryBytes(missing), 0u);
}

TEST(LimitsTest, MatricesOverTheCapAreRefusedByName) {
    EXPECT_TRUE(checkMatrixSize(1000, 1000, "table").ok());  // 8 MB
    EXPECT_TRUE(checkMatrixSize(1, 0, "table").ok());
    EXPECT_TRUE(checkMatrixSize(0, 1, "table").ok());
    // 2^40 x 2^20 doubles (8 EiB) is over any cap. Where size_t has 32 bits (wasm32, the page's
    // core tests) 2^40 does not fit (the shift would pass the type's width): 2^30 rows there
    // (8 PiB), over its 1 GiB cap all the same.
    constexpr bool wideSize = sizeof(std::size_t) >= 8;
    const std::size_t hugeRows = std::size_t(1) << (wideSize ? 40 : 30);
    const Status huge = checkMatrixSize(hugeRows, std::size_t(1) << 20, "similarity");
    ASSERT_FALSE(huge.ok());
    const std::string& message = huge.error().message;
    const std::string expected = wideSize ? "similarity of 1099511627776 x 1048576 values"
                                          : "similarity of 1073741824 x 1048576 values";
    EXPECT_EQ(message.rfind(expected + " exceeds the memory cap of ", 0), 0u) << message;
    EXPECT_NE(message.find(" MiB (the smaller of 4 GiB and half the available memory)"),
              std::string::npos);
    // The edge, where the cap does not move with the free memory: 4 GiB of doubles fit, one row
    // more does not.
    if (maxMatrixBytes() != kHardMatrixCap) GTEST_SKIP() << "cap follows the available memory";
    const std::size_t cols = 1024;
    const std::size_t rows = kHardMatrixCap / sizeof(double) / cols;  // 2^19
    EXPECT_TRUE(checkMatrixSize(rows, cols, "x").ok());
    EXPECT_FALSE(checkMatrixSize(rows + 1, cols, "x").ok());
}

TEST(LimitsTest, TheCapMessageNamesTheVariableThatSetIt) {
    ::setenv("POSLAB_MEMORY_CAP_MIB", "16", 1);
    const Status matrix = checkMatrixSize(2048, 2048, "table");  // 32 MiB
    const Status bytes = checkMemoryBytes((std::size_t(16) << 20) + 1, "read");
    const Status fits = checkMemoryBytes(std::size_t(16) << 20, "read");
    const std::string source = memoryCapSource();
    ::unsetenv("POSLAB_MEMORY_CAP_MIB");
    ASSERT_FALSE(matrix.ok());
    EXPECT_EQ(matrix.error().message,
              "table of 2048 x 2048 values exceeds the memory cap of 16 MiB (set by "
              "POSLAB_MEMORY_CAP_MIB)");
    ASSERT_FALSE(bytes.ok());
    EXPECT_EQ(bytes.error().message,
              "read needs 17 MiB, over the memory cap of 16 MiB (set by POSLAB_MEMORY_CAP_MIB)");
    EXPECT_TRUE(fits.ok());
    EXPECT_EQ(source, "POSLAB_MEMORY_CAP_MIB");
    EXPECT_EQ(memoryCapSource(), "the smaller of 4 GiB and half the available memory");
}

}  // namespace
}  // namespace poslab
