#include "poslab/io/json_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "poslab/base/format.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/io/input_file.hpp"

namespace poslab {

// ---- Reading a file

Result<std::string> readUserTextFile(const std::string& path, std::size_t maxBytes,
                                     std::string_view what) {
    auto input = InputFile::open(path);  // regular files only: a FIFO would block the read
    if (!input) return input.error();
    const std::string name = escapeForMessage(path, kMessagePathLength);
    const std::size_t cap = maxMatrixBytes();
    const auto tooLarge = [&] {
        return Error{name + ": larger than " + std::to_string(maxBytes >> 20) + " MiB, not " +
                     std::string(what)};
    };
    const auto overCap = [&] {
        return Error{name + ": " + std::to_string(input->size()) +
                     " bytes exceed the memory cap of " + std::to_string(cap >> 20) + " MiB"};
    };
    if (input->size() > maxBytes) return tooLarge();
    if (input->size() > cap) return overCap();
    std::string contents;
    try {
        contents.reserve(std::size_t(input->size()));
        char buffer[65536];
        while (const std::size_t got = std::fread(buffer, 1, sizeof buffer, input->stream())) {
            contents.append(buffer, got);
            if (contents.size() > maxBytes) return tooLarge();  // grown since the fstat
            if (contents.size() > cap) return overCap();
        }
    } catch (const std::bad_alloc&) {
        return Error{name + ": out of memory reading the file"};
    }
    if (std::ferror(input->stream()))
        return Error{name + ": read error (" + std::strerror(errno) + ")"};
    return contents;
}

// ---- Parsing

JsonShape scanJsonShape(std::string_view text, int maxDepth) {
    JsonShape shape;
    int depth = 0;
    bool inString = false;
    bool valueOpen = false;  // inside a scalar outside strings (a number, true, null)
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;  // the escaped character, whatever it is, cannot end the string
            else if (c == '"')
                inString = false;
            continue;
        }
        switch (c) {
            case '"':
                inString = true;
                ++shape.values;
                valueOpen = false;
                break;
            case '[':
            case '{':
                ++shape.values;
                valueOpen = false;
                if (++depth > shape.depth) shape.depth = depth;
                if (depth > maxDepth) return shape;  // refused: no need to read further
                break;
            case ']':
            case '}':
                if (depth > 0) --depth;
                valueOpen = false;
                break;
            case ',':
            case ':':
            case ' ':
            case '\t':
            case '\n':
            case '\r':
                valueOpen = false;
                break;
            default:
                if (!valueOpen) ++shape.values;  // a number or a literal begins
                valueOpen = true;
                break;
        }
    }
    shape.treeBytes = shape.values * kJsonBytesPerValue + text.size();
    return shape;
}

Status checkJsonShape(std::string_view text, int maxDepth) {
    const JsonShape shape = scanJsonShape(text, maxDepth);
    if (shape.depth > maxDepth) {
        return Error{"nested deeper than " + std::to_string(maxDepth) +
                     " levels of [ and { (PosLab's limit for JSON files)"};
    }
    const std::size_t cap = maxMatrixBytes();
    if (shape.treeBytes > cap || text.size() > cap - shape.treeBytes) {
        return Error{std::to_string(shape.values) + " JSON values would take about " +
                     std::to_string((shape.treeBytes >> 20) + 1) + " MiB, over the memory cap of " +
                     std::to_string(cap >> 20) + " MiB"};
    }
    return success();
}

std::string jsonErrorText(const std::exception& error) {
    std::string_view message = error.what();
    if (message.rfind("[json.exception.", 0) == 0) {
        if (const std::size_t end = message.find("] "); end != std::string_view::npos)
            message.remove_prefix(end + 2);
    }
    return escapeForMessage(message, 200);
}

namespace {

// Records the keys of the objects open at each point and where the parser gave up.
struct SyntaxErrorFinder {
    using json = nlohmann::json;
    std::vector<std::string> keys;  // one per open object or array ("" until a key is read)
    std::size_t position = 0;       // bytes read when the error was found
    std::string token;              // the token read last
    bool failed = false;
    bool endOfInput = false;  // the text stopped before the value was complete

    bool null() { return true; }
    bool boolean(bool) { return true; }
    bool number_integer(json::number_integer_t) { return true; }
    bool number_unsigned(json::number_unsigned_t) { return true; }
    bool number_float(json::number_float_t, const json::string_t&) { return true; }
    bool string(json::string_t&) { return true; }
    bool binary(json::binary_t&) { return true; }
    bool start_object(std::size_t) { return keys.emplace_back(), true; }
    bool key(json::string_t& name) {
        if (!keys.empty()) keys.back() = name;
        return true;
    }
    bool end_object() { return keys.empty() || (keys.pop_back(), true); }
    bool start_array(std::size_t) { return keys.emplace_back(), true; }
    bool end_array() { return keys.empty() || (keys.pop_back(), true); }
    bool parse_error(std::size_t at, const std::string& last,
                     const nlohmann::detail::exception& error) {
        position = at;
        token = last;
        failed = true;
        endOfInput = std::string_view(error.what()).find("end of input") != std::string_view::npos;
        return false;
    }
};

}  // namespace

std::string jsonSyntaxErrorPlace(std::string_view text) {
    SyntaxErrorFinder finder;
    try {
        nlohmann::json::sax_parse(text.begin(), text.end(), &finder);
    } catch (const std::exception&) {
        return "";  // sax_parse reports through parse_error; nothing else is expected
    }
    if (!finder.failed) return "";
    const std::size_t end = std::min(finder.position, text.size());
    const long long line = 1 + std::count(text.begin(), text.begin() + std::ptrdiff_t(end), '\n');
    std::string path;
    for (const std::string& key : finder.keys) {
        if (key.empty()) continue;
        path += (path.empty() ? "" : ".") + key;
    }
    std::string place = "line " + std::to_string(line);
    if (!path.empty()) place += ", after \"" + escapeForMessage(path, 60) + "\"";
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
        return place + ": the text is empty";
    if (finder.endOfInput) return place + ": the text ends too soon";
    // The character the parser stopped at: the end of the token it was reading ("8,," for a
    // doubled comma, "5e," for a broken number), one UTF-8 character.
    std::size_t first = finder.token.empty() ? 0 : finder.token.size() - 1;
    while (first > 0 && (static_cast<unsigned char>(finder.token[first]) & 0xC0) == 0x80) --first;
    return place + ": unexpected '" + escapeForMessage(finder.token.substr(first), 24) + "'";
}

// ---- Messages

template <class Json>
std::string describeJson(const Json& value) {
    // A short list of scalars ("[2.5]", "[8,-1]") is shown as written: one level, no recursion.
    if (value.is_array() && !value.empty() && value.size() <= 8) {
        std::string text = "[";
        bool shown = true;
        for (const auto& item : value) {
            if (item.is_structured()) {
                shown = false;
                break;
            }
            if (text.size() > 1) text += ',';
            text += describeJson(item);
        }
        if (shown && text.size() < 60) return text + "]";
    }
    if (value.is_array()) {
        return value.empty() ? "an empty array"
                             : "an array of " + std::to_string(value.size()) +
                                   (value.size() == 1 ? " value" : " values");
    }
    if (value.is_object()) {
        return value.empty() ? "an empty object"
                             : "an object of " + std::to_string(value.size()) +
                                   (value.size() == 1 ? " key" : " keys");
    }
    if (value.is_string()) {
        // Double quotes, as JSON writes it; escaped, so no control byte reaches the terminal.
        return '"' +
               escapeForMessage(value.template get_ref<const typename Json::string_t&>(), 60) + '"';
    }
    try {  // a number, true, false or null: short by construction
        return escapeForMessage(value.dump(), 60);
    } catch (...) {
        return value.type_name();
    }
}

template std::string describeJson(const nlohmann::json&);
template std::string describeJson(const nlohmann::ordered_json&);

}  // namespace poslab
