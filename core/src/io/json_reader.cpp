#include "poslab/io/json_reader.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

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
