#include "poslab/io/safetensors_dtype.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "safetensors_files.hpp"

namespace poslab {
namespace {

using namespace safetensors_files;

// ---- 16-bit floats: values whose bit patterns are fixed by IEEE 754 and bfloat16's definition

TEST(SafetensorsDtypeTest, HalfDecodesKnownPatterns) {
    EXPECT_EQ(halfToDouble(0x3C00), 1.0);
    EXPECT_EQ(halfToDouble(0xC100), -2.5);
    EXPECT_EQ(halfToDouble(0x7BFF), 65504.0);                      // largest finite half
    EXPECT_EQ(halfToDouble(0x0001), std::ldexp(1.0, -24));         // smallest subnormal
    EXPECT_EQ(halfToDouble(0x03FF), 1023 * std::ldexp(1.0, -24));  // largest subnormal
    EXPECT_EQ(halfToDouble(0x0400), std::ldexp(1.0, -14));         // smallest normal
    EXPECT_EQ(halfToDouble(0x3555), 1365.0 / 4096.0);              // 0.333251953125
    EXPECT_TRUE(std::signbit(halfToDouble(0x8000)));
    EXPECT_EQ(halfToDouble(0x7C00), std::numeric_limits<double>::infinity());
    EXPECT_EQ(halfToDouble(0xFC00), -std::numeric_limits<double>::infinity());
    EXPECT_TRUE(std::isnan(halfToDouble(0x7E00)));
    EXPECT_TRUE(std::isnan(halfToDouble(0x7C01)));
}

TEST(SafetensorsDtypeTest, Bfloat16DecodesKnownPatterns) {
    EXPECT_EQ(bfloat16ToDouble(0x3F80), 1.0);
    EXPECT_EQ(bfloat16ToDouble(0xC020), -2.5);
    EXPECT_EQ(bfloat16ToDouble(0x4049), 3.140625);                    // pi rounded to 8 bits
    EXPECT_EQ(bfloat16ToDouble(0x0001), std::ldexp(1.0, -133));       // smallest subnormal
    EXPECT_EQ(bfloat16ToDouble(0x7F7F), std::ldexp(255.0, 127 - 7));  // largest finite
    EXPECT_EQ(bfloat16ToDouble(0x7F80), std::numeric_limits<double>::infinity());
    EXPECT_EQ(bfloat16ToDouble(0xFF80), -std::numeric_limits<double>::infinity());
    EXPECT_TRUE(std::isnan(bfloat16ToDouble(0x7FC0)));
}

// ---- Names and widths, as the safetensors spec's Dtype enum writes them

TEST(SafetensorsDtypeTest, NamesAndWidthsFollowTheSpec) {
    EXPECT_EQ(dtypeName(SafetensorsDtype::BF16), "BF16");
    EXPECT_EQ(dtypeName(SafetensorsDtype::F8E4M3), "F8_E4M3");
    EXPECT_EQ(parseDtype("F6_E3M2").value(), SafetensorsDtype::F6E3M2);
    EXPECT_EQ(parseDtype("BOOL").value(), SafetensorsDtype::Bool);
    auto unknown = parseDtype("F128");
    ASSERT_FALSE(unknown);
    EXPECT_EQ(unknown.error().message.rfind("unknown dtype 'F128'", 0), 0u)
        << unknown.error().message;
    EXPECT_EQ(dtypeBits(SafetensorsDtype::F4), 4);
    EXPECT_EQ(dtypeBits(SafetensorsDtype::F6E2M3), 6);
    EXPECT_EQ(dtypeBits(SafetensorsDtype::C64), 64);
    EXPECT_EQ(dtypeBits(SafetensorsDtype::U16), 16);
    EXPECT_TRUE(isReadableDtype(SafetensorsDtype::BF16));
    EXPECT_FALSE(isReadableDtype(SafetensorsDtype::I64));
}

// Little-endian bytes widened exactly: 1.5 and -2 in each float format, written as bit patterns.
TEST(SafetensorsDtypeTest, DecodesLittleEndianValuesOfEachReadableDtype) {
    double out[2] = {0, 0};
    const std::uint16_t f16[2] = {0x3E00, 0xC000};  // 1.5, -2
    decodeSafetensorsValues(SafetensorsDtype::F16, reinterpret_cast<const char*>(f16), out, 2);
    EXPECT_EQ(out[0], 1.5);
    EXPECT_EQ(out[1], -2.0);
    const std::uint16_t bf16[2] = {0x3FC0, 0xC000};
    decodeSafetensorsValues(SafetensorsDtype::BF16, reinterpret_cast<const char*>(bf16), out, 2);
    EXPECT_EQ(out[0], 1.5);
    EXPECT_EQ(out[1], -2.0);
    const std::uint32_t f32[2] = {0x3FC00000u, 0xC0000000u};
    decodeSafetensorsValues(SafetensorsDtype::F32, reinterpret_cast<const char*>(f32), out, 2);
    EXPECT_EQ(out[0], 1.5);
    EXPECT_EQ(out[1], -2.0);
    const std::uint64_t f64[2] = {0x3FF8000000000000ull, 0xC000000000000000ull};
    decodeSafetensorsValues(SafetensorsDtype::F64, reinterpret_cast<const char*>(f64), out, 2);
    EXPECT_EQ(out[0], 1.5);
    EXPECT_EQ(out[1], -2.0);
    out[0] = 7;
    decodeSafetensorsValues(SafetensorsDtype::I32, reinterpret_cast<const char*>(f32), out, 1);
    EXPECT_EQ(out[0], 7.0);  // not readable: nothing written
}

}  // namespace
}  // namespace poslab
