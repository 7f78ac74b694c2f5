// safetensors_dtype.cpp — the safetensors spec's dtypes (io/safetensors_dtype.hpp): names, widths
// and the bit-exact widening of the float ones to double.
#include "poslab/io/safetensors_dtype.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "poslab/io/safetensors.hpp"

namespace poslab {

namespace {

struct DtypeEntry {
    SafetensorsDtype dtype;
    std::string_view name;
    int bits;
};
// Every dtype the safetensors spec names (safetensors' Dtype enum), with its width.
constexpr std::array<DtypeEntry, 20> kDtypes{{
    {SafetensorsDtype::Bool, "BOOL", 8},      {SafetensorsDtype::U8, "U8", 8},
    {SafetensorsDtype::I8, "I8", 8},          {SafetensorsDtype::F8E5M2, "F8_E5M2", 8},
    {SafetensorsDtype::F8E4M3, "F8_E4M3", 8}, {SafetensorsDtype::F8E8M0, "F8_E8M0", 8},
    {SafetensorsDtype::I16, "I16", 16},       {SafetensorsDtype::U16, "U16", 16},
    {SafetensorsDtype::F16, "F16", 16},       {SafetensorsDtype::BF16, "BF16", 16},
    {SafetensorsDtype::I32, "I32", 32},       {SafetensorsDtype::U32, "U32", 32},
    {SafetensorsDtype::F32, "F32", 32},       {SafetensorsDtype::I64, "I64", 64},
    {SafetensorsDtype::U64, "U64", 64},       {SafetensorsDtype::F64, "F64", 64},
    {SafetensorsDtype::C64, "C64", 64},       {SafetensorsDtype::F4, "F4", 4},
    {SafetensorsDtype::F6E2M3, "F6_E2M3", 6}, {SafetensorsDtype::F6E3M2, "F6_E3M2", 6},
}};

}  // namespace

std::string_view dtypeName(SafetensorsDtype dtype) {
    for (const auto& entry : kDtypes) {
        if (entry.dtype == dtype) return entry.name;
    }
    return "?";
}

Result<SafetensorsDtype> parseDtype(std::string_view name) {
    for (const auto& entry : kDtypes) {
        if (entry.name == name) return entry.dtype;
    }
    return Error{"unknown dtype '" + shownTensorName(name) +
                 "' (the safetensors spec names BOOL, U8, I8, " +
                 "F8_E5M2, F8_E4M3, F8_E8M0, I16, U16, F16, BF16, I32, U32, F32, I64, U64, F64, "
                 "C64, F4, F6_E2M3, F6_E3M2)"};
}

int dtypeBits(SafetensorsDtype dtype) {
    for (const auto& entry : kDtypes) {
        if (entry.dtype == dtype) return entry.bits;
    }
    return 8;
}

bool isReadableDtype(SafetensorsDtype dtype) {
    return dtype == SafetensorsDtype::F64 || dtype == SafetensorsDtype::F32 ||
           dtype == SafetensorsDtype::F16 || dtype == SafetensorsDtype::BF16;
}

double halfToDouble(std::uint16_t bits) {
    const double sign = (bits & 0x8000) ? -1.0 : 1.0;
    const int exponent = (bits >> 10) & 0x1F;
    const int fraction = bits & 0x3FF;
    if (exponent == 0) return sign * std::ldexp(double(fraction), -24);  // zero, subnormal
    if (exponent == 31) {
        return fraction == 0 ? sign * std::numeric_limits<double>::infinity()
                             : std::numeric_limits<double>::quiet_NaN();
    }
    return sign * std::ldexp(double(1024 + fraction), exponent - 25);
}

double bfloat16ToDouble(std::uint16_t bits) {
    // bfloat16 is the top half of a binary32: widening is exact.
    return double(std::bit_cast<float>(std::uint32_t(bits) << 16));
}
// count values of dtype at data, widened to double at out.
void decodeSafetensorsValues(SafetensorsDtype dtype, const char* data, double* out,
                             std::size_t count) {
    switch (dtype) {
        case SafetensorsDtype::F64:
            std::memcpy(out, data, count * 8);
            break;
        case SafetensorsDtype::F32:
            for (std::size_t k = 0; k < count; ++k) {
                float value;
                std::memcpy(&value, data + 4 * k, 4);
                out[k] = value;
            }
            break;
        case SafetensorsDtype::F16:
        case SafetensorsDtype::BF16:
            for (std::size_t k = 0; k < count; ++k) {
                std::uint16_t bits;
                std::memcpy(&bits, data + 2 * k, 2);
                out[k] =
                    dtype == SafetensorsDtype::F16 ? halfToDouble(bits) : bfloat16ToDouble(bits);
            }
            break;
        default:
            break;  // refused by tableShape
    }
}

}  // namespace poslab
