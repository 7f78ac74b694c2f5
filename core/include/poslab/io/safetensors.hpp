// safetensors.hpp — reading position tables out of Hugging Face .safetensors checkpoints.
//
// The format (huggingface/safetensors, "Format"): 8 bytes, a little-endian unsigned 64-bit N;
// N bytes of UTF-8 JSON, an object that maps each tensor name to
//   {"dtype": "F32", "shape": [1024, 768], "data_offsets": [begin, end]}
// (offsets in bytes, relative to the byte buffer that follows the header), plus an optional
// "__metadata__" object of string -> string; the header may end with spaces (0x20); then the
// byte buffer, little-endian, row-major. Offsets must cover the buffer exactly: no overlaps, no
// holes, nothing past its end (the reference implementation refuses polyglot files the same way).
//
// Every dtype of the spec is accepted in a header (so a checkpoint that also holds I64 buffers
// or F8 weights lists fine); F64, F32, F16 and BF16 tensors can be read, converted to double
// bit-exactly (subnormals, infinities and NaN kept). Reading a tensor reads only its byte range
// (seek + read), so a table from a 5 GB checkpoint costs the table's memory, not the file's.
//
// Every failure is an Error of one line that starts with the file name, in the .npy reader's
// style: "model.safetensors: tensor 'wpe.weight': data_offsets [0, 12) hold 12 bytes, shape
//
// Usage:
//   auto header = readSafetensorsHeader(path);       // names, dtypes, shapes, byte ranges
//   auto table = readTensor(path, "wpe.weight");     // positions x dimensions
// Finding the position table and the rows before position 0: io/position_table.hpp. The dtypes:
// io/safetensors_dtype.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"
#include "poslab/io/safetensors_dtype.hpp"

namespace poslab {

inline constexpr std::uint64_t kMaxSafetensorsHeaderBytes = 100'000'000;  // as the reference
// Counts a header may hold; more is refused while parsing (the largest published checkpoints
// hold a few thousand tensors per file and a handful of metadata keys).
inline constexpr std::size_t kMaxSafetensorsTensors = 262144;
inline constexpr std::size_t kMaxSafetensorsMetadata = 65536;
// ---- Header
struct SafetensorsTensorInfo {
    std::string name;
    SafetensorsDtype dtype = SafetensorsDtype::F32;
    std::vector<std::uint64_t> shape;  // [] for a scalar
    std::uint64_t begin = 0, end = 0;  // byte range in the data buffer, [begin, end)
};
struct SafetensorsHeader {
    std::vector<SafetensorsTensorInfo> tensors;  // in the order the header lists them
    std::vector<std::pair<std::string, std::string>> metadata;  // "__metadata__", in order
    std::uint64_t dataStart = 0;  // 8 + N: file offset of the byte buffer
    const SafetensorsTensorInfo* find(std::string_view name) const;  // null when absent
};
std::string shapeText(const std::vector<std::uint64_t>& shape);  // "[1024, 768]"

// header: the N header bytes; fileSize: the whole file's size, to check the offsets against.
// name: what messages call the file.
Result<SafetensorsHeader> parseSafetensorsHeader(std::string_view header, std::uint64_t fileSize,
                                                 std::string_view name = "safetensors data");

// ---- Whole files in memory (tests, the fuzzer)
Result<SafetensorsHeader> parseSafetensors(std::string_view bytes,
                                           std::string_view name = "safetensors data");
Result<Matrix> parseSafetensorsTensor(std::string_view bytes, std::string_view tensor,
                                      std::string_view name = "safetensors data");

// ---- Files: only the header and the chosen tensor's bytes are read
Result<SafetensorsHeader> readSafetensorsHeader(const std::string& path);
Result<std::vector<SafetensorsTensorInfo>> listTensors(const std::string& path);
// A 1-D tensor becomes 1 x n; 2-D is rows x cols; anything else, or a non-float dtype, is an
// Error. The matrix must fit the memory cap (checkMatrixSize).
Result<Matrix> readTensor(const std::string& path, std::string_view tensor);

// ---- Messages (every reader of a checkpoint words its errors alike)
Error safetensorsFileError(std::string_view file,
                           const std::string& problem);  // "file: problem", the path escaped
std::string shownTensorName(
    std::string_view tensor);  // <= 60 characters, control bytes '?', "..." when cut
std::string safetensorsTensorProblem(std::string_view tensor,
                                     const std::string& problem);  // "tensor 'name': problem"

}  // namespace poslab
