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
// [2, 3] of F32 needs 24". Nothing here throws, out-of-memory included.
//
// Usage:
//   auto name = findPositionTable(path);             // "transformer.wpe.weight"
//   auto table = readTensor(path, *name);            // positions x dimensions
//   auto offset = positionOffsetBeside(path);        // OPT: drop 2 rows, with a note saying why
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"

namespace poslab {

inline constexpr std::uint64_t kMaxSafetensorsHeaderBytes = 100'000'000;  // as the reference
// Counts a header may hold; more is refused while parsing (the largest published checkpoints
// hold a few thousand tensors per file and a handful of metadata keys).
inline constexpr std::size_t kMaxSafetensorsTensors = 262144;
inline constexpr std::size_t kMaxSafetensorsMetadata = 65536;

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

// ---- Header
struct SafetensorsTensorInfo {
    std::string name;
    SafetensorsDtype dtype = SafetensorsDtype::F32;
    std::vector<std::uint64_t> shape;    // [] for a scalar
    std::uint64_t begin = 0, end = 0;    // byte range in the data buffer, [begin, end)
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

// ---- Choosing the position table
// Name endings of learned position tables, at a "." boundary: wpe.weight (GPT-2, GPT-Neo),
// position_embeddings.weight (BERT, RoBERTa, ELECTRA), embed_positions.weight (OPT, BART,
// Whisper), position_embedding.weight (CLIP), positional_embedding (OpenAI CLIP), ...
const std::vector<std::string>& positionTableNames();
bool isPositionTableName(std::string_view tensor);
// The first tensor (in header order) whose name ends in a known position-table name; an Error
// listing a few tensor names when none does.
Result<std::string> findPositionTable(const SafetensorsHeader& header, std::string_view name);
Result<std::string> findPositionTable(const std::string& path);

// ---- Rows that are not positions
// Some models' tables start with rows no position uses: OPT, BART and BioGPT add 2 to every
// position id (row p + 2 holds position p); RoBERTa-style models count positions from
// pad_token_id + 1. rowsToDrop leading rows are removed to get row i = position i.
struct PositionOffset {
    int rowsToDrop = 0;
    std::string note;  // one line: "OPT stores position p in row p + 2: the first 2 rows dropped"
};
PositionOffset positionOffsetFor(std::string_view modelType, int padTokenId);  // -1: absent
Result<PositionOffset> positionOffsetFromConfig(std::string_view configJson);
// config.json in the file's directory; no config there gives {0, "no config.json beside ..."}.
Result<PositionOffset> positionOffsetBeside(const std::string& safetensorsPath);

// ---- All of it: the table (named, or found), its offset rows dropped
struct PositionTableFile {
    Matrix table;        // rows = positions from 0, columns = dimensions
    std::string tensor;  // the tensor's name
    PositionOffset offset;
};
Result<PositionTableFile> loadPositionTable(const std::string& path, std::string_view tensor = "");

}  // namespace poslab
