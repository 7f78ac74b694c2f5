#include "poslab/io/npy_reader.hpp"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <new>
#include <system_error>
#include <utility>
#include <vector>

#include "poslab/base/format.hpp"
#include "poslab/io/input_file.hpp"

namespace poslab {

namespace {

static_assert(std::endian::native == std::endian::little, "npy reader assumes little-endian");

constexpr std::string_view kMagic("\x93NUMPY", 6);
constexpr int kMaxNesting = 16;  // deeper brackets than any real header; bounds the recursion

// ---- A parser for the Python literals numpy writes in headers: dict, tuple, list, str, int,
// True, False, None. Enough of Python's grammar that any header numpy (or another writer that
// emits a valid literal) produces is read, and anything else is refused, never guessed at.

struct PyValue {
    enum class Kind { String, Integer, Boolean, None, Tuple, List, Dict };
    Kind kind = Kind::None;
    std::string text;            // String: the contents; Integer: the digits, sign first
    bool flag = false;           // Boolean
    std::vector<PyValue> items;  // Tuple, List; Dict: key, value, key, value, ...
    std::string_view source;     // the literal as written, for messages
};

class LiteralParser {
  public:
    explicit LiteralParser(std::string_view text) : text_(text) {}

    // The whole text must be one value followed only by whitespace (numpy pads with spaces and
    // ends with a newline).
    Result<PyValue> parseAll() {
        PyValue value;
        if (!parseValue(value, 0)) return Error{error_};
        skipSpace();
        if (position_ != text_.size()) return Error{problem("unexpected text after the dict")};
        return value;
    }

  private:
    std::string_view text_;
    std::size_t position_ = 0;
    std::string error_;

    bool fail(std::string message) {
        error_ = problem(std::move(message));
        return false;
    }
    std::string problem(std::string message) const {
        return message + " at header offset " + std::to_string(position_);
    }
    void skipSpace() {
        while (position_ < text_.size() && (text_[position_] == ' ' || text_[position_] == '\t' ||
                                            text_[position_] == '\n' || text_[position_] == '\r')) {
            ++position_;
        }
    }
    bool atEnd() const { return position_ >= text_.size(); }
    char peek() const { return text_[position_]; }
    static bool isWordChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_';
    }

    bool parseValue(PyValue& out, int depth) {
        if (depth > kMaxNesting) return fail("brackets nested too deeply");
        skipSpace();
        if (atEnd()) return fail("unexpected end of header");
        const std::size_t start = position_;
        const char c = peek();
        bool ok = false;
        switch (c) {
            case '{':
                ok = parseDict(out, depth);
                break;
            case '(':
                ok = parseParenthesised(out, depth);
                break;
            case '[':
                ok = parseSequence(out, depth, ']', PyValue::Kind::List);
                break;
            case '\'':
            case '"':
                ok = parseString(out);
                break;
            default:
                if (c == '-' || c == '+' || (c >= '0' && c <= '9')) {
                    ok = parseInteger(out);
                } else if (isWordChar(c)) {
                    ok = parseWord(out);
                } else {
                    return fail("unexpected character " + quoteForMessage(std::string_view(&c, 1)));
                }
        }
        if (ok) out.source = text_.substr(start, position_ - start);
        return ok;
    }

    bool parseString(PyValue& out) {
        const char quote = peek();
        ++position_;
        out.kind = PyValue::Kind::String;
        while (!atEnd() && peek() != quote) {
            if (peek() == '\n') return fail("unterminated string");
            if (peek() == '\\') {  // an escaped character stands for itself (enough for dtypes)
                ++position_;
                if (atEnd()) break;
            }
            out.text.push_back(peek());
            ++position_;
        }
        if (atEnd()) return fail("unterminated string");
        ++position_;  // closing quote
        return true;
    }

    bool parseInteger(PyValue& out) {
        out.kind = PyValue::Kind::Integer;
        if (peek() == '-' || peek() == '+') {
            if (peek() == '-') out.text.push_back('-');
            ++position_;
            skipSpace();  // Python allows "- 1"
        }
        const std::size_t digitsStart = position_;
        while (!atEnd() && peek() >= '0' && peek() <= '9') out.text.push_back(text_[position_++]);
        if (position_ == digitsStart) return fail("expected digits");
        if (!atEnd() && (peek() == 'L' || peek() == 'l')) ++position_;  // Python 2 long: 3L
        if (!atEnd() && (isWordChar(peek()) || peek() == '.')) {
            return fail("expected an integer");
        }
        return true;
    }

    bool parseWord(PyValue& out) {
        const std::size_t start = position_;
        while (!atEnd() && isWordChar(peek())) ++position_;
        const std::string_view word = text_.substr(start, position_ - start);
        if (word == "True" || word == "False") {
            out.kind = PyValue::Kind::Boolean;
            out.flag = word == "True";
        } else if (word == "None") {
            out.kind = PyValue::Kind::None;
        } else {
            position_ = start;
            return fail("unexpected word " + quoteForMessage(word, 40));
        }
        return true;
    }

    // "(" value ")" is the value itself; "()" and anything with a comma are tuples.
    bool parseParenthesised(PyValue& out, int depth) {
        const std::size_t open = position_;
        ++position_;
        skipSpace();
        if (!atEnd() && peek() == ')') {
            ++position_;
            out.kind = PyValue::Kind::Tuple;
            return true;
        }
        PyValue first;
        if (!parseValue(first, depth + 1)) return false;
        skipSpace();
        if (!atEnd() && peek() == ')') {
            ++position_;
            out = std::move(first);
            return true;
        }
        position_ = open;
        return parseSequence(out, depth, ')', PyValue::Kind::Tuple);
    }

    // Items separated by commas, an optional trailing comma, then `close`.
    bool parseSequence(PyValue& out, int depth, char close, PyValue::Kind kind) {
        ++position_;  // the opening bracket
        out.kind = kind;
        for (;;) {
            skipSpace();
            if (atEnd()) return fail(std::string("missing '") + close + "'");
            if (peek() == close) break;
            PyValue item;
            if (!parseValue(item, depth + 1)) return false;
            out.items.push_back(std::move(item));
            skipSpace();
            if (atEnd()) return fail(std::string("missing '") + close + "'");
            if (peek() == ',') {
                ++position_;
                continue;
            }
            if (peek() != close) return fail(std::string("expected ',' or '") + close + "'");
        }
        ++position_;
        return true;
    }

    bool parseDict(PyValue& out, int depth) {
        ++position_;
        out.kind = PyValue::Kind::Dict;
        for (;;) {
            skipSpace();
            if (atEnd()) return fail("missing '}'");
            if (peek() == '}') break;
            PyValue key, value;
            if (!parseValue(key, depth + 1)) return false;
            skipSpace();
            if (atEnd() || peek() != ':') return fail("expected ':' after a dict key");
            ++position_;
            if (!parseValue(value, depth + 1)) return false;
            out.items.push_back(std::move(key));
            out.items.push_back(std::move(value));
            skipSpace();
            if (atEnd()) return fail("missing '}'");
            if (peek() == ',') {
                ++position_;
                continue;
            }
            if (peek() != '}') return fail("expected ',' or '}'");
        }
        ++position_;
        return true;
    }
};

// ---- Messages

// A literal for a message: at most 60 characters, control bytes shown as '?'.
std::string shown(std::string_view text) {  // header text, escaped and cut for a message
    return escapeForMessage(text, 60);
}

std::string shapeText(const std::vector<std::size_t>& shape) {  // as Python prints the tuple
    std::string text = "(";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i > 0) text += ", ";
        text += std::to_string(shape[i]);
    }
    if (shape.size() == 1) text += ",";
    return text + ")";
}

Error fileError(std::string_view name, const std::string& problem) {
    return Error{escapeForMessage(name, kMessagePathLength) + ": " + problem};
}

std::uint32_t littleEndian(std::string_view bytes, std::size_t offset, std::size_t count) {
    std::uint32_t value = 0;
    for (std::size_t i = 0; i < count; ++i) {
        value |= std::uint32_t(static_cast<unsigned char>(bytes[offset + i])) << (8 * i);
    }
    return value;
}

// A non-negative header integer as a size; false when negative or too large for size_t.
bool toSize(const PyValue& value, std::size_t& out) {
    if (value.kind != PyValue::Kind::Integer || value.text.empty() || value.text[0] == '-') {
        return false;
    }
    std::size_t result = 0;
    for (char digit : value.text) {
        const std::size_t d = std::size_t(digit - '0');
        if (result > (std::numeric_limits<std::size_t>::max() - d) / 10) return false;
        result = result * 10 + d;
    }
    out = result;
    return true;
}

// Reads the decoded elements of `info` from `data` into a row-major matrix.
void decodeInto(const NpyArrayInfo& info, const char* data, Matrix& out) {
    const std::size_t count = info.rows * info.cols;
    auto element = [&](std::size_t index) {
        if (info.isFloat32) {
            float value;
            std::memcpy(&value, data + index * 4, 4);
            return double(value);
        }
        double value;
        std::memcpy(&value, data + index * 8, 8);
        return value;
    };
    if (!info.fortranOrder) {
        for (std::size_t k = 0; k < count; ++k) out.values[k] = element(k);
        return;
    }
    // Fortran order stores column c contiguously: element (r, c) is at c * rows + r.
    std::size_t k = 0;
    for (std::size_t c = 0; c < info.cols; ++c) {
        for (std::size_t r = 0; r < info.rows; ++r) out(r, c) = element(k++);
    }
}

// Elements [first, first + n) of the file's order, decoded from `data` into the row-major matrix.
void decodeRange(const NpyArrayInfo& info, const char* data, std::size_t first, std::size_t n,
                 Matrix& out) {
    for (std::size_t i = 0; i < n; ++i) {
        double value;
        if (info.isFloat32) {
            float narrow;
            std::memcpy(&narrow, data + i * 4, 4);
            value = double(narrow);
        } else {
            std::memcpy(&value, data + i * 8, 8);
        }
        const std::size_t k = first + i;
        // Fortran order stores column c contiguously: element (r, c) is at c * rows + r.
        if (info.fortranOrder)
            out(k % info.rows, k / info.rows) = value;
        else
            out.values[k] = value;
    }
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

}  // namespace

Result<NpyArrayInfo> parseNpyHeader(std::string_view bytes, std::string_view name) {
    if (bytes.size() < kMagic.size() || bytes.substr(0, kMagic.size()) != kMagic) {
        return fileError(name, "not a .npy file (it does not start with \\x93NUMPY)");
    }
    if (bytes.size() < 8) return fileError(name, "truncated before the format version");
    NpyArrayInfo info;
    const int major = static_cast<unsigned char>(bytes[6]);
    const int minor = static_cast<unsigned char>(bytes[7]);
    if (major < 1 || major > 3 || minor != 0) {
        return fileError(name, "unsupported .npy format version " + std::to_string(major) + "." +
                                   std::to_string(minor) + " (PosLab reads 1.0, 2.0 and 3.0)");
    }
    info.majorVersion = major;
    // Version 1.0 stores the header length in 2 bytes, 2.0 and 3.0 in 4 (little-endian).
    const std::size_t lengthBytes = major == 1 ? 2 : 4;
    const std::size_t preamble = 8 + lengthBytes;
    if (bytes.size() < preamble) return fileError(name, "truncated before the header length");
    const std::size_t headerLength = littleEndian(bytes, 8, lengthBytes);
    if (headerLength > kMaxNpyHeaderBytes) {
        return fileError(name, "header length " + std::to_string(headerLength) + " exceeds the " +
                                   std::to_string(kMaxNpyHeaderBytes) + "-byte limit");
    }
    if (bytes.size() - preamble < headerLength) {
        return fileError(name, "header is truncated (it declares " + std::to_string(headerLength) +
                                   " bytes, " + std::to_string(bytes.size() - preamble) +
                                   " follow the preamble)");
    }
    info.dataOffset = preamble + headerLength;
    const std::string_view header = bytes.substr(preamble, headerLength);

    auto parsed = LiteralParser(header).parseAll();
    if (!parsed) return fileError(name, "malformed header: " + parsed.error().message);
    const PyValue& dict = *parsed;
    if (dict.kind != PyValue::Kind::Dict) {
        return fileError(name, "malformed header: expected a dict, got " + shown(dict.source));
    }

    // numpy requires exactly these three keys. A repeated key keeps its last value, as in Python.
    const PyValue* descr = nullptr;
    const PyValue* fortran = nullptr;
    const PyValue* shape = nullptr;
    for (std::size_t i = 0; i + 1 < dict.items.size(); i += 2) {
        const PyValue& key = dict.items[i];
        const PyValue& value = dict.items[i + 1];
        const bool isString = key.kind == PyValue::Kind::String;
        if (isString && key.text == "descr") {
            descr = &value;
        } else if (isString && key.text == "fortran_order") {
            fortran = &value;
        } else if (isString && key.text == "shape") {
            shape = &value;
        } else {
            return fileError(name, "unexpected header key " + shown(key.source));
        }
    }
    for (auto [value, key] : {std::pair{descr, "descr"}, std::pair{fortran, "fortran_order"},
                              std::pair{shape, "shape"}}) {
        if (value == nullptr) {
            return fileError(name, std::string("header has no '") + key + "' key");
        }
    }

    if (descr->kind == PyValue::Kind::String && descr->text == "<f4") {
        info.isFloat32 = true;
    } else if (descr->kind == PyValue::Kind::String && descr->text == "<f8") {
        info.isFloat32 = false;
    } else {
        return fileError(name, "unsupported dtype " + shown(descr->source) +
                                   " (PosLab reads little-endian float32 '<f4' and float64 '<f8')");
    }

    if (fortran->kind != PyValue::Kind::Boolean) {
        return fileError(
            name, "fortran_order must be True or False (got " + shown(fortran->source) + ")");
    }
    info.fortranOrder = fortran->flag;

    if (shape->kind != PyValue::Kind::Tuple) {
        return fileError(name,
                         "shape must be a tuple of integers (got " + shown(shape->source) + ")");
    }
    std::vector<std::size_t> dims;
    for (const PyValue& item : shape->items) {
        std::size_t dim = 0;
        if (!toSize(item, dim)) {
            return fileError(name,
                             "shape must hold non-negative integers that fit in 64 bits (got " +
                                 shown(shape->source) + ")");
        }
        dims.push_back(dim);
    }
    if (dims.size() != 2) {
        return fileError(
            name, "expected a 2-D array (positions x dimensions), got shape " + shapeText(dims));
    }
    info.rows = dims[0];
    info.cols = dims[1];
    if (info.rows == 0 || info.cols == 0) {
        return fileError(name, "the array is empty (shape " + shapeText(dims) + ")");
    }
    // rows * cols * itemSize must not wrap around before the memory cap looks at it.
    if (info.rows > std::numeric_limits<std::size_t>::max() / info.cols / info.itemSize()) {
        return fileError(name, "shape " + shapeText(dims) + " is too large");
    }
    if (auto s = checkMatrixSize(info.rows, info.cols, "the array"); !s) {
        return fileError(name, s.error().message);
    }
    return info;
}

Result<Matrix> parseNpy(std::string_view bytes, std::string_view name) {
    auto info = parseNpyHeader(bytes, name);
    if (!info) return info.error();
    const std::size_t available = bytes.size() - info->dataOffset;
    if (available < info->dataBytes()) {
        return fileError(name, "data is truncated (" + std::to_string(info->dataBytes()) +
                                   " bytes expected after the header, " +
                                   std::to_string(available) + " found)");
    }
    Matrix matrix;
    if (!allocate(matrix, info->rows, info->cols)) {
        return fileError(name, "out of memory for the array");
    }
    decodeInto(*info, bytes.data() + info->dataOffset, matrix);
    return matrix;
}

Result<Matrix> loadNpy(const std::string& path) {
    // Regular files only: a FIFO would block the read.
    auto input = InputFile::open(path, "cannot read the file");
    if (!input) return input.error();
    const std::uintmax_t size = input->size();
    if (size > kMaxNpyFileBytes) {
        // In MiB, rounded so that a file over the limit never reads as equal to it.
        return fileError(path,
                         "the file is " + std::to_string((size + (1 << 20) - 1) >> 20) +
                             " MiB, over the " + std::to_string(kMaxNpyFileBytes >> 20) +
                             " MiB limit for .npy input (the largest table PosLab holds here)");
    }
    std::FILE* file = input->stream();

    // The preamble and the longest header allowed; the header parser reports what is missing.
    std::string prefix(std::size_t(std::min<std::uintmax_t>(size, 12 + kMaxNpyHeaderBytes)), '\0');
    prefix.resize(std::fread(prefix.data(), 1, prefix.size(), file));
    auto info = parseNpyHeader(prefix, path);
    if (!info) return info.error();

    const std::uintmax_t available = size - info->dataOffset;
    if (available < info->dataBytes()) {
        return fileError(path, "data is truncated (" + std::to_string(info->dataBytes()) +
                                   " bytes expected after the header, " +
                                   std::to_string(available) + " found)");
    }
    if (std::fseek(file, long(info->dataOffset), SEEK_SET) != 0) {
        return fileError(path,
                         std::string("cannot seek in the file (") + std::strerror(errno) + ")");
    }
    Matrix matrix;
    if (!allocate(matrix, info->rows, info->cols)) {
        return fileError(path, "out of memory for the array");
    }
    const std::size_t count = info->rows * info->cols;
    if (!info->isFloat32 && !info->fortranOrder) {
        // The common case is already the Matrix layout: read straight into it.
        if (std::fread(matrix.values.data(), sizeof(double), count, file) != count) {
            return fileError(path, "data is truncated (the file ended while reading)");
        }
        return matrix;
    }
    // float32 or Fortran order: decoded through a bounded buffer, never a second copy of the
    // array (the memory cap counts the matrix; a 4 GiB array must not need 8).
    const std::size_t elementBytes = info->isFloat32 ? 4 : 8;
    const std::size_t chunkElements = (std::size_t(1) << 20) / elementBytes;
    std::vector<char> chunk(chunkElements * elementBytes);
    for (std::size_t first = 0; first < count; first += chunkElements) {
        const std::size_t n = std::min(chunkElements, count - first);
        if (std::fread(chunk.data(), elementBytes, n, file) != n) {
            return fileError(path, "data is truncated (the file ended while reading)");
        }
        decodeRange(*info, chunk.data(), first, n, matrix);
    }
    return matrix;
}

}  // namespace poslab
