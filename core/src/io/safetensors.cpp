#include "poslab/io/safetensors.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <new>
#include <nlohmann/json.hpp>
#include <optional>
#include <system_error>
#include <unordered_set>

#include "poslab/base/format.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/io/input_file.hpp"
#include "poslab/io/json_reader.hpp"

namespace poslab {

Error safetensorsFileError(std::string_view name, const std::string& problem) {
    // The path escaped (control bytes, invalid UTF-8) but never cut: its end names the file.
    return Error{escapeForMessage(name, kMessagePathLength) + ": " + problem};
}

std::string shownTensorName(std::string_view text) {
    constexpr std::size_t limit = 60;
    std::string result;
    for (char c : text.substr(0, limit)) result.push_back((unsigned char)c < 0x20 ? '?' : c);
    if (text.size() > limit) result += "...";
    return result;
}

std::string safetensorsTensorProblem(std::string_view tensor, const std::string& problem) {
    return "tensor '" + shownTensorName(tensor) + "': " + problem;
}

namespace {

static_assert(std::endian::native == std::endian::little,
              "safetensors reader assumes little-endian");

// std::map-backed: ordered_json's linear key lookup made parsing quadratic in the key count
// (200k metadata keys took a minute). The file's key order is recorded while parsing instead.
using HeaderJson = nlohmann::json;

// Never a dump of the whole value: a container is named by its size (json_reader.hpp).
std::string describe(const HeaderJson& value) {
    return describeJson(value);
}

// The offset of the first byte that breaks UTF-8 (overlong forms and surrogates included), or
// npos when the text is valid.
std::size_t invalidUtf8At(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size()) {
        const unsigned char c = (unsigned char)text[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        int extra = 0;
        std::uint32_t code = 0, minimum = 0;
        if ((c & 0xE0) == 0xC0)
            extra = 1, code = c & 0x1F, minimum = 0x80;
        else if ((c & 0xF0) == 0xE0)
            extra = 2, code = c & 0x0F, minimum = 0x800;
        else if ((c & 0xF8) == 0xF0)
            extra = 3, code = c & 0x07, minimum = 0x10000;
        else
            return i;
        if (i + extra >= text.size()) return i;
        for (int k = 1; k <= extra; ++k) {
            const unsigned char next = (unsigned char)text[i + k];
            if ((next & 0xC0) != 0x80) return i;
            code = (code << 6) | (next & 0x3F);
        }
        if (code < minimum || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return i;
        i += extra + 1;
    }
    return std::string::npos;
}

// A JSON number that is a non-negative integer fitting 64 bits.
bool toUnsigned(const HeaderJson& value, std::uint64_t& out) {
    if (value.is_number_unsigned()) {
        out = value.get<std::uint64_t>();
        return true;
    }
    if (value.is_number_integer() && value.get<std::int64_t>() >= 0) {
        out = std::uint64_t(value.get<std::int64_t>());
        return true;
    }
    return false;
}

std::uint64_t readLength(std::string_view bytes) {
    std::uint64_t value = 0;
    for (int i = 0; i < 8; ++i) value |= std::uint64_t((unsigned char)bytes[i]) << (8 * i);
    return value;
}

Result<SafetensorsTensorInfo> parseTensorEntry(const std::string& key, const HeaderJson& entry) {
    auto fail = [&](const std::string& problem) {
        return Error{safetensorsTensorProblem(key, problem)};
    };
    if (!entry.is_object()) return fail("expected an object, got " + describe(entry));
    SafetensorsTensorInfo info;
    info.name = key;
    const auto dtype = entry.find("dtype");
    if (dtype == entry.end()) return fail("has no \"dtype\"");
    if (!dtype->is_string()) return fail("\"dtype\" must be a string, got " + describe(*dtype));
    auto parsed = parseDtype(dtype->get_ref<const std::string&>());
    if (!parsed) return fail(parsed.error().message);
    info.dtype = *parsed;

    const auto shape = entry.find("shape");
    if (shape == entry.end()) return fail("has no \"shape\"");
    if (!shape->is_array())
        return fail("\"shape\" must be a list of integers, got " + describe(*shape));
    for (const auto& dim : *shape) {
        std::uint64_t value = 0;
        if (!toUnsigned(dim, value)) {
            return fail("\"shape\" must hold non-negative integers, got " + describe(*shape));
        }
        info.shape.push_back(value);
    }
    std::uint64_t count = 1;
    for (std::uint64_t dim : info.shape) {
        if (dim != 0 && count > std::numeric_limits<std::uint64_t>::max() / dim) {
            return fail("shape " + shapeText(info.shape) + " has more than 2^64 elements");
        }
        count *= dim;
    }
    const int bits = dtypeBits(info.dtype);
    if (count > std::numeric_limits<std::uint64_t>::max() / std::uint64_t(bits)) {
        return fail("shape " + shapeText(info.shape) + " of " + std::string(dtypeName(info.dtype)) +
                    " needs more than 2^64 bits");
    }
    if (count * bits % 8 != 0) {
        return fail("shape " + shapeText(info.shape) + " of " + std::string(dtypeName(info.dtype)) +
                    " does not fill whole bytes");
    }

    const auto offsets = entry.find("data_offsets");
    if (offsets == entry.end()) return fail("has no \"data_offsets\"");
    if (!offsets->is_array() || offsets->size() != 2 || !toUnsigned((*offsets)[0], info.begin) ||
        !toUnsigned((*offsets)[1], info.end)) {
        return fail("\"data_offsets\" must be [begin, end], two non-negative integers, got " +
                    describe(*offsets));
    }
    if (info.end < info.begin) {
        return fail("data_offsets [" + std::to_string(info.begin) + ", " +
                    std::to_string(info.end) + "] end before they begin");
    }
    const std::uint64_t needed = count * bits / 8;
    if (info.end - info.begin != needed) {
        return fail("data_offsets [" + std::to_string(info.begin) + ", " +
                    std::to_string(info.end) + ") hold " + std::to_string(info.end - info.begin) +
                    " bytes, shape " + shapeText(info.shape) + " of " +
                    std::string(dtypeName(info.dtype)) + " needs " + std::to_string(needed));
    }
    return info;
}

// Allocates the result matrix; false instead of std::bad_alloc.
bool allocate(Matrix& matrix, std::size_t rows, std::size_t cols) {
    try {
        matrix = Matrix(rows, cols);
        return true;
    } catch (const std::bad_alloc&) {
        return false;
    }
}

// rows x cols of a readable tensor, or why it is not a table.
Result<std::pair<std::size_t, std::size_t>> tableShape(const SafetensorsTensorInfo& info,
                                                       std::string_view name) {
    if (!isReadableDtype(info.dtype)) {
        return safetensorsFileError(
            name,
            safetensorsTensorProblem(info.name, "dtype " + std::string(dtypeName(info.dtype)) +
                                                    " is not a float table (PosLab reads "
                                                    "F64, F32, F16 and BF16)"));
    }
    // timm stores pos_embed as [1, N, D]: a leading axis of 1 is a table of N rows.
    const bool batchOfOne = info.shape.size() == 3 && info.shape[0] == 1;
    if (info.shape.size() != 1 && info.shape.size() != 2 && !batchOfOne) {
        return safetensorsFileError(
            name, safetensorsTensorProblem(info.name,
                                           "expected a 1-D or 2-D tensor (positions x "
                                           "dimensions) or [1, N, D], got shape " +
                                               shapeText(info.shape)));
    }
    const std::uint64_t rows = info.shape.size() >= 2 ? info.shape[info.shape.size() - 2] : 1;
    const std::uint64_t cols = info.shape.back();
    if (rows == 0 || cols == 0) {
        return safetensorsFileError(
            name, safetensorsTensorProblem(
                      info.name, "the tensor is empty (shape " + shapeText(info.shape) + ")"));
    }
    if (auto s = checkMatrixSize(rows, cols, "tensor '" + shownTensorName(info.name) + "'"); !s) {
        return safetensorsFileError(name, s.error().message);
    }
    return std::pair{std::size_t(rows), std::size_t(cols)};
}

void decodeInto(SafetensorsDtype dtype, const char* data, Matrix& out) {
    decodeSafetensorsValues(dtype, data, out.values.data(), out.values.size());
}

// The raw bytes readTensor holds at once while decoding: the cap counts them with the matrix.
constexpr std::size_t kDecodeChunkBytes = std::size_t(8) << 20;

// The first 8 bytes give N; checks N against the limit and the file size.
Result<std::uint64_t> headerLength(std::string_view first8, std::uint64_t fileSize,
                                   std::string_view name) {
    if (fileSize < 8 || first8.size() < 8) {
        return safetensorsFileError(name, "truncated: " + std::to_string(fileSize) +
                                              " bytes, shorter than the 8-byte header length");
    }
    const std::uint64_t length = readLength(first8);
    if (length > kMaxSafetensorsHeaderBytes) {
        return safetensorsFileError(name,
                                    "header length " + std::to_string(length) + " exceeds the " +
                                        std::to_string(kMaxSafetensorsHeaderBytes) + "-byte limit");
    }
    if (length > fileSize - 8) {
        return safetensorsFileError(
            name, "header length " + std::to_string(length) + " is larger than the file (" +
                      std::to_string(fileSize - 8) + " bytes follow the length)");
    }
    return length;
}

// The open file of a reader: InputFile owns (and closes) it, file is its stream.
struct FileCloser {
    std::FILE* file = nullptr;
    std::optional<InputFile> input;
};

bool readAt(std::FILE* file, std::uint64_t offset, char* out, std::size_t count) {
    if (fseeko(file, off_t(offset), SEEK_SET) != 0) return false;
    return std::fread(out, 1, count, file) == count;
}

struct OpenedHeader {
    SafetensorsHeader header;
    std::uint64_t fileSize = 0;
};

Result<OpenedHeader> openHeader(const std::string& path, FileCloser& closer) {
    // Regular files only (InputFile): a FIFO or a device is refused at once, never read.
    auto input = InputFile::open(path, "cannot read the file");
    if (!input) return input.error();
    const std::uint64_t fileSize = input->size();
    const auto size = &fileSize;
    closer.input = std::move(input).value();
    closer.file = closer.input->stream();
    char first8[8] = {};
    const std::size_t got = std::fread(first8, 1, 8, closer.file);
    auto length = headerLength(std::string_view(first8, got), got < 8 ? got : *size, path);
    if (!length) return length.error();
    if (const std::size_t cap = maxMatrixBytes(); *length > cap) {  // the raw text is counted too
        return safetensorsFileError(path, "header length " + std::to_string(*length) +
                                              " exceeds the memory cap of " +
                                              std::to_string(cap >> 20) + " MiB");
    }
    std::string header;
    try {
        header.resize(std::size_t(*length));
    } catch (const std::bad_alloc&) {
        return safetensorsFileError(path, "out of memory for the header");
    }
    if (!readAt(closer.file, 8, header.data(), header.size())) {
        return safetensorsFileError(path, "truncated: the file ended while reading the header");
    }
    auto parsed = parseSafetensorsHeader(header, *size, path);
    if (!parsed) return parsed.error();
    return OpenedHeader{std::move(parsed).value(), *size};
}

}  // namespace

// ---- Header

const SafetensorsTensorInfo* SafetensorsHeader::find(std::string_view name) const {
    for (const auto& tensor : tensors) {
        if (tensor.name == name) return &tensor;
    }
    return nullptr;
}

std::string shapeText(const std::vector<std::uint64_t>& shape) {
    std::string text = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i > 0) text += ", ";
        text += std::to_string(shape[i]);
    }
    return text + "]";
}

namespace {

// A JSON string token starting at text[at] == '"': its end (one past the closing quote), or npos
// when it does not close.
std::size_t stringEnd(std::string_view text, std::size_t at) {
    for (std::size_t k = at + 1; k < text.size(); ++k) {
        if (text[k] == '\\') {
            ++k;
        } else if (text[k] == '"') {
            return k + 1;
        }
    }
    return std::string_view::npos;
}

// The keys of the header's top-level object and of its "__metadata__" object, in file order and
// without repeats, in one pass over the text (strings skipped, nesting counted; no tree). Keys
// with escapes are decoded by the JSON parser. Malformed text is left for the parser to report.
Status scanHeaderKeys(std::string_view text, std::vector<std::string>& keys,
                      std::vector<std::string>& metadata) {
    std::unordered_set<std::string> seen, metadataSeen;
    int depth = 0;
    bool inMetadata = false;
    std::size_t tensors = 0;
    for (std::size_t at = 0; at < text.size(); ++at) {
        const char c = text[at];
        if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            --depth;
        } else if (c == '"') {
            const std::size_t end = stringEnd(text, at);
            if (end == std::string_view::npos) return success();  // the parser says where
            std::size_t next = end;
            while (next < text.size() && (text[next] == ' ' || text[next] == '\t' ||
                                          text[next] == '\r' || text[next] == '\n'))
                ++next;
            const bool isKey = next < text.size() && text[next] == ':';
            if (isKey && (depth == 1 || (depth == 2 && inMetadata))) {
                const std::string_view raw = text.substr(at, end - at);
                std::string key(raw.substr(1, raw.size() - 2));
                if (raw.find('\\') != std::string_view::npos) {
                    try {
                        key = nlohmann::json::parse(raw).get<std::string>();
                    } catch (const std::exception&) {
                        return success();  // the parser reports the bad escape
                    }
                }
                if (depth == 1) {
                    inMetadata = key == "__metadata__";
                    if (seen.insert(key).second) {
                        keys.push_back(std::move(key));
                        if (!inMetadata && ++tensors > kMaxSafetensorsTensors)
                            return Error{"lists more than " +
                                         std::to_string(kMaxSafetensorsTensors) +
                                         " tensors (PosLab's limit)"};
                    }
                } else if (metadataSeen.insert(key).second) {
                    metadata.push_back(std::move(key));
                    if (metadata.size() > kMaxSafetensorsMetadata)
                        return Error{"\"__metadata__\" holds more than " +
                                     std::to_string(kMaxSafetensorsMetadata) +
                                     " keys (PosLab's limit)"};
                }
            }
            at = end - 1;
        }
    }
    return success();
}

}  // namespace

Result<SafetensorsHeader> parseSafetensorsHeader(std::string_view header, std::uint64_t fileSize,
                                                 std::string_view name) {
    if (const std::size_t bad = invalidUtf8At(header); bad != std::string::npos) {
        return safetensorsFileError(
            name, "header is not valid UTF-8 (byte " + std::to_string(bad) + " of the header)");
    }
    if (header.empty() || header[0] != '{') {
        return safetensorsFileError(name, "header is not a JSON object (it must start with '{')");
    }
    // Top-level keys in file order (tensors are listed as the file has them), and the counts the
    // caps bound, from one linear scan before the parse: a header over a cap is refused at the
    // first excess. (nlohmann's parser with a callback erases discarded values by walking the
    // parent object at every end of an object: quadratic, 100k tensors took minutes.)
    std::vector<std::string> keyOrder;
    std::vector<std::string> metadataOrder;
    if (Status scanned = scanHeaderKeys(header, keyOrder, metadataOrder); !scanned) {
        return safetensorsFileError(name, "header " + scanned.error().message);
    }
    auto parsed = parseJson<HeaderJson>(header);
    if (!parsed) {
        const std::string& why = parsed.error().message;
        return safetensorsFileError(
            name, "header " + std::string(why.rfind("not valid", 0) == 0 ? "is " : "") + why);
    }
    const HeaderJson root = std::move(parsed).value();
    if (!root.is_object()) return safetensorsFileError(name, "header is not a JSON object");

    SafetensorsHeader result;
    result.dataStart = 8 + header.size();
    const std::uint64_t bufferSize = fileSize >= result.dataStart ? fileSize - result.dataStart : 0;
    try {
        for (const std::string& key : keyOrder) {
            const auto found = root.find(key);
            if (found == root.end()) continue;
            const HeaderJson& value = *found;
            if (key == "__metadata__") {
                if (!value.is_object()) {
                    return safetensorsFileError(
                        name,
                        "\"__metadata__\" must be an object of strings, got " + describe(value));
                }
                for (const std::string& metaKey : metadataOrder) {
                    const auto metaFound = value.find(metaKey);
                    if (metaFound == value.end()) continue;
                    const HeaderJson& metaValue = *metaFound;
                    if (!metaValue.is_string()) {
                        return safetensorsFileError(
                            name, "\"__metadata__\" value of '" + shownTensorName(metaKey) +
                                      "' must be a string, got " + describe(metaValue));
                    }
                    result.metadata.emplace_back(metaKey, metaValue.get<std::string>());
                }
                continue;
            }
            auto info = parseTensorEntry(key, value);
            if (!info) return safetensorsFileError(name, info.error().message);
            if (info->end > bufferSize) {
                return safetensorsFileError(
                    name, safetensorsTensorProblem(
                              key, "data_offsets end at " + std::to_string(info->end) +
                                       ", past the end of the file (" + std::to_string(bufferSize) +
                                       " data bytes)"));
            }
            result.tensors.push_back(std::move(info).value());
        }
    } catch (const std::bad_alloc&) {
        return safetensorsFileError(name, "out of memory for the header");
    }

    // The offsets must tile the byte buffer: sorted by start, each begins where the last ended.
    std::vector<const SafetensorsTensorInfo*> order;
    for (const auto& tensor : result.tensors) order.push_back(&tensor);
    std::stable_sort(order.begin(), order.end(), [](auto* a, auto* b) {
        return a->begin != b->begin ? a->begin < b->begin : a->end < b->end;
    });
    std::uint64_t covered = 0;
    const SafetensorsTensorInfo* previous = nullptr;
    for (const auto* tensor : order) {
        if (tensor->begin < covered) {
            return safetensorsFileError(
                name, "tensors '" + shownTensorName(previous->name) + "' and '" +
                          shownTensorName(tensor->name) + "' overlap (bytes " +
                          std::to_string(tensor->begin) + " to " + std::to_string(covered) + ")");
        }
        if (tensor->begin > covered) {
            return safetensorsFileError(name, "data bytes " + std::to_string(covered) + " to " +
                                                  std::to_string(tensor->begin) +
                                                  " belong to no tensor (the spec forbids holes)");
        }
        covered = tensor->end;
        previous = tensor;
    }
    if (covered != bufferSize) {
        return safetensorsFileError(
            name, std::to_string(bufferSize - covered) +
                      " bytes after the last tensor belong to no tensor (the spec "
                      "forbids trailing data)");
    }
    return result;
}

// ---- In memory

Result<SafetensorsHeader> parseSafetensors(std::string_view bytes, std::string_view name) {
    auto length = headerLength(bytes.substr(0, 8), bytes.size(), name);
    if (!length) return length.error();
    return parseSafetensorsHeader(bytes.substr(8, std::size_t(*length)), bytes.size(), name);
}

Result<Matrix> parseSafetensorsTensor(std::string_view bytes, std::string_view tensor,
                                      std::string_view name) {
    auto header = parseSafetensors(bytes, name);
    if (!header) return header.error();
    const SafetensorsTensorInfo* info = header->find(tensor);
    if (info == nullptr)
        return safetensorsFileError(name, "no tensor named '" + shownTensorName(tensor) + "'");
    auto shape = tableShape(*info, name);
    if (!shape) return shape.error();
    Matrix matrix;
    if (!allocate(matrix, shape->first, shape->second)) {
        return safetensorsFileError(name, "out of memory for the tensor");
    }
    decodeInto(info->dtype, bytes.data() + header->dataStart + info->begin, matrix);
    return matrix;
}

// ---- Files

Result<SafetensorsHeader> readSafetensorsHeader(const std::string& path) {
    FileCloser closer;
    auto opened = openHeader(path, closer);
    if (!opened) return opened.error();
    return std::move(opened).value().header;
}

Result<std::vector<SafetensorsTensorInfo>> listTensors(const std::string& path) {
    auto header = readSafetensorsHeader(path);
    if (!header) return header.error();
    return std::move(header).value().tensors;
}

Result<Matrix> readTensor(const std::string& path, std::string_view tensor) {
    FileCloser closer;
    auto opened = openHeader(path, closer);
    if (!opened) return opened.error();
    const SafetensorsTensorInfo* info = opened->header.find(tensor);
    if (info == nullptr)
        return safetensorsFileError(path, "no tensor named '" + shownTensorName(tensor) + "'");
    auto shape = tableShape(*info, path);
    if (!shape) return shape.error();
    Matrix matrix;
    if (!allocate(matrix, shape->first, shape->second)) {
        return safetensorsFileError(path, "out of memory for the tensor");
    }
    const std::uint64_t offset = opened->header.dataStart + info->begin;
    const std::size_t bytes = std::size_t(info->end - info->begin);
    if (info->dtype == SafetensorsDtype::F64) {  // already the Matrix layout: read straight in
        if (!readAt(closer.file, offset, reinterpret_cast<char*>(matrix.values.data()), bytes)) {
            return safetensorsFileError(path, "truncated: the file ended while reading the tensor");
        }
        return matrix;
    }
    // Read and widen in chunks of whole elements: the raw bytes held at once stay at
    // kDecodeChunkBytes, not the tensor's size (a 1 GB BF16 table used to need 1 GB more).
    const std::size_t element = std::size_t(dtypeBits(info->dtype) / 8);
    const std::size_t chunk = std::min(bytes, kDecodeChunkBytes / element * element);
    if (auto s =
            checkMemoryBytes(matrix.values.size() * sizeof(double) + chunk,
                             "tensor '" + shownTensorName(info->name) + "' with its read buffer");
        !s) {
        return safetensorsFileError(path, s.error().message);
    }
    std::vector<char> data;
    try {
        data.resize(chunk);
    } catch (const std::bad_alloc&) {
        return safetensorsFileError(path, "out of memory for the tensor");
    }
    for (std::size_t done = 0; done < bytes; done += chunk) {
        const std::size_t now = std::min(chunk, bytes - done);
        if (!readAt(closer.file, offset + done, data.data(), now)) {
            return safetensorsFileError(path, "truncated: the file ended while reading the tensor");
        }
        decodeSafetensorsValues(info->dtype, data.data(), matrix.values.data() + done / element,
                                now / element);
    }
    return matrix;
}
}  // namespace poslab
