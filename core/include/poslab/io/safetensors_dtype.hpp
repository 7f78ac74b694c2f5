// safetensors_dtype.hpp — the element types a .safetensors header may name (the spec's Dtype enum),
// their widths, and the bit-exact widening of the four float types PosLab reads (F64, F32, F16,
// BF16) to double: subnormals, infinities and NaN kept. Used by io/safetensors.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "poslab/base/result.hpp"

namespace poslab {

// ---- Dtypes
enum class SafetensorsDtype {
    Bool,
    U8,
    I8,
    F8E5M2,
    F8E4M3,
    F8E8M0,
    I16,
    U16,
    F16,
    BF16,
    I32,
    U32,
    F32,
    I64,
    U64,
    F64,
    C64,
    F4,
    F6E2M3,
    F6E3M2
};
std::string_view dtypeName(SafetensorsDtype dtype);          // as written in headers: "BF16"
Result<SafetensorsDtype> parseDtype(std::string_view name);  // an Error for names not in the spec
int dtypeBits(SafetensorsDtype dtype);                       // bits per element (F4: 4)
bool isReadableDtype(SafetensorsDtype dtype);                // F64, F32, F16, BF16

// Bit-exact decoding of the 16-bit float formats (IEEE binary16 and bfloat16).
double halfToDouble(std::uint16_t bits);
double bfloat16ToDouble(std::uint16_t bits);
// count little-endian values of a readable dtype at data, widened to double at out (a dtype
// that is not readable writes nothing).
void decodeSafetensorsValues(SafetensorsDtype dtype, const char* data, double* out,
                             std::size_t count);

}  // namespace poslab
