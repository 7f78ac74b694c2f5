#include "poslab/base/format.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>

namespace poslab {

std::string formatValue(double value, int significant) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    char buffer[48];
    // Whole numbers in full up to 1e15 (every one there is exact in a double): a config's
    // rope_theta of 1e7 reads "10000000" in a figure, as "5000000" beside it does, not "1e+07"
    // (issue 28, Layers), and a limit in a message is typed back as it reads (the options take
    // "1e12" but not "1e+12"). No digit grouping: figure text lists values with commas.
    if (value == std::floor(value) && std::abs(value) < 1e15) {
        std::snprintf(buffer, sizeof buffer, "%.0f", value == 0 ? 0.0 : value);
    } else {
        std::snprintf(buffer, sizeof buffer, "%.*g", significant, value);
    }
    return buffer;
}

namespace {

// Length of the valid UTF-8 sequence starting at text[i] (2..4), or 0 if there is none.
std::size_t utf8Length(std::string_view text, std::size_t i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    std::size_t length = 0;
    std::uint32_t point = 0;
    if (lead >= 0xC2 && lead <= 0xDF)
        length = 2, point = lead & 0x1F;
    else if (lead >= 0xE0 && lead <= 0xEF)
        length = 3, point = lead & 0x0F;
    else if (lead >= 0xF0 && lead <= 0xF4)
        length = 4, point = lead & 0x07;
    else
        return 0;
    if (i + length > text.size()) return 0;
    for (std::size_t k = 1; k < length; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) return 0;
        point = (point << 6) | (byte(i + k) & 0x3F);
    }
    // Overlong forms, surrogates and the C1 controls (U+0080..U+009F: 8-bit CSI and friends).
    const std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (point < smallest[length] || point > 0x10FFFF || (point >= 0xD800 && point <= 0xDFFF) ||
        point <= 0x9F)
        return 0;
    return length;
}

}  // namespace

std::string quoteForMessage(std::string_view text, std::size_t maxCharacters) {
    std::string quoted(1, '\'');
    quoted += escapeForMessage(text, maxCharacters);
    quoted += '\'';
    return quoted;
}

std::string escapeForMessage(std::string_view text, std::size_t maxCharacters) {
    std::string out;
    std::size_t characters = 0;
    for (std::size_t i = 0; i < text.size();) {
        if (characters == maxCharacters) {
            out += "…";
            break;
        }
        ++characters;
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c < 0x7F) {
            out += char(c);
            ++i;
        } else if (const std::size_t length = c >= 0x80 ? utf8Length(text, i) : 0; length > 0) {
            out.append(text.substr(i, length));
            i += length;
        } else {
            switch (c) {
                case '\n':
                    out += "\\n";
                    break;
                case '\r':
                    out += "\\r";
                    break;
                case '\t':
                    out += "\\t";
                    break;
                default: {
                    char escaped[8];
                    std::snprintf(escaped, sizeof escaped, "\\x%02x", unsigned(c));
                    out += escaped;
                }
            }
            ++i;
        }
    }
    return out;
}

std::string typesetNumbers(std::string text) {
    auto digit = [](char c) { return c >= '0' && c <= '9'; };
    std::string out;
    out.reserve(text.size() + 8);
    for (std::size_t k = 0; k < text.size(); ++k) {
        const char c = text[k];
        const char before = k > 0 ? text[k - 1] : ' ';
        const char after = k + 1 < text.size() ? text[k + 1] : '\0';
        const bool opens = before == ' ' || before == '(' || before == '[' || before == '=' ||
                           before == ',' || before == ':' || before == '/' || k == 0;
        if (c == '-' && opens && (digit(after) || after == '.')) {
            out += "\u2212";
        } else if (c == 'x' && before == ' ' && after == ' ' && k >= 2 && digit(text[k - 2]) &&
                   k + 2 < text.size() && digit(text[k + 2])) {
            out += "\u00d7";
        } else {
            out += c;
        }
    }
    return out;
}

}  // namespace poslab
