// json_reader.hpp — the one bounded way to read a user's JSON (config.json, safetensors headers,
// sessions, specs, lessons).
//
// [SECTION] Reading a file   regular files only (InputFile), a byte limit, the memory cap
// [SECTION] Parsing          a linear pre-scan bounds nesting depth and the tree's memory before
//                            nlohmann builds anything; every exception becomes one Error line
// [SECTION] Messages         values described without dumping them
//
// Why a pre-scan: nlohmann parses iteratively, but copying, comparing and dumping a value recurse
// once per level, so a file nested 100k deep overflows the stack far from the parser. Refusing
// depth above kMaxJsonDepth before the parse makes every later recursion bounded. The same scan
// counts the values, so the tree (about 100 bytes a value, far more than the text) is refused
// before it is built when it would not fit under maxMatrixBytes().
//
// Usage:
//   auto text = readUserTextFile(path, 16 << 20, "a spec");   // "f: not a regular file (a FIFO)"
//   auto root = parseJson(*text);                              // "nested deeper than 64 levels"
//   if (!root) return Error{name + ": " + root.error().message};
#pragma once

#include <cstddef>
#include <exception>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>

#include "poslab/base/result.hpp"

namespace poslab {

// [SECTION] Reading a file
// The file's bytes. Refused with "PATH: ..." when it is not a regular file (a FIFO or a device
// is refused at once, never read), is larger than maxBytes ("larger than 16 MiB, not <what>") or
// than the memory cap, or cannot be read. The path is escaped in every message.
Result<std::string> readUserTextFile(const std::string& path, std::size_t maxBytes,
                                     std::string_view what);

// [SECTION] Parsing
inline constexpr int kMaxJsonDepth = 64;               // configs nest 3 deep, sessions 4
inline constexpr std::size_t kJsonBytesPerValue = 96;  // a parsed value's share of the heap

struct JsonShape {
    int depth = 0;              // deepest nesting of [ and {
    std::size_t values = 0;     // scalars, arrays, objects and object keys
    std::size_t treeBytes = 0;  // estimated heap of the parsed tree
};
// One linear pass, no recursion; stops at maxDepth + 1. Strings and escapes are skipped, so
// brackets inside strings do not count. Never fails: malformed text is the parser's to report.
JsonShape scanJsonShape(std::string_view text, int maxDepth = kMaxJsonDepth);
// Ok when the text nests at most maxDepth deep and its tree fits under maxMatrixBytes().
Status checkJsonShape(std::string_view text, int maxDepth = kMaxJsonDepth);

// "syntax error ... at line 3, column 5" from any nlohmann exception: the "[json.exception...]"
// tag removed, control bytes and invalid UTF-8 (the parser quotes what it last read) escaped,
// at most 200 characters.
std::string jsonErrorText(const std::exception& error);

// Where a text that is not valid JSON goes wrong, for a message a status line can hold: "line 3,
// after \"rope_scaling.factor\": unexpected '}'" (the keys of the objects open there, the token
// read last, escaped and cut short). "" when the text parses. One SAX pass, no tree, no recursion.
std::string jsonSyntaxErrorPlace(std::string_view text);

// Thrown by a parser callback to stop at a reader's own cap ("more than 262144 tensors");
// parseJson returns its message as it is, without "not valid JSON".
struct JsonLimitExceeded : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// checkJsonShape, then nlohmann's parse (with the optional callback). Every exception —
// parse_error, out_of_range (1e400), type_error, bad_alloc, and whatever the callback throws —
// is returned as an Error; nothing escapes.
template <class Json = nlohmann::json>
Result<Json> parseJson(std::string_view text, typename Json::parser_callback_t callback = nullptr,
                       int maxDepth = kMaxJsonDepth) {
    if (auto shape = checkJsonShape(text, maxDepth); !shape) return shape.error();
    try {
        return Json::parse(text.begin(), text.end(), std::move(callback));
    } catch (const JsonLimitExceeded& limit) {
        return Error{limit.what()};
    } catch (const std::bad_alloc&) {
        return Error{"out of memory for the JSON"};
    } catch (const std::exception& error) {
        return Error{"not valid JSON: " + jsonErrorText(error)};
    }
}

// [SECTION] Messages
// What a value is, for "expected a string, got ...": a short scalar as written (escaped, at
// most 60 characters) or a short list of scalars ("[2.5]"), else "an array of 3 values" / "an
// object of 2 keys". Never recurses below one level.
template <class Json>
std::string describeJson(const Json& value);

}  // namespace poslab
