#include "poslab/base/decimal.hpp"

#include <cctype>
#include <charconv>

namespace poslab {

namespace {

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

// The grammar, checked by hand: from_chars alone would also take "inf", "nan" and "1e" prefixes.
bool isDecimalText(std::string_view text) {
    std::size_t i = 0;
    if (i < text.size() && text[i] == '-') ++i;
    std::size_t digits = 0;
    while (i < text.size() && isDigit(text[i])) ++i, ++digits;
    if (i < text.size() && text[i] == '.') {
        ++i;
        while (i < text.size() && isDigit(text[i])) ++i, ++digits;
    }
    if (digits == 0) return false;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
        std::size_t exponentDigits = 0;
        while (i < text.size() && isDigit(text[i])) ++i, ++exponentDigits;
        if (exponentDigits == 0) return false;
    }
    return i == text.size();
}

}  // namespace

ParsedDecimal parseDecimal(std::string_view text) {
    if (!isDecimalText(text)) return {};
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error == std::errc::result_out_of_range) return {DecimalStatus::OutOfRange, 0};
    if (error != std::errc() || end != text.data() + text.size()) return {};
    return {DecimalStatus::Ok, value};
}

ParsedInteger parseDecimalInteger(std::string_view text) {
    std::size_t i = text.empty() || text[0] != '-' ? 0 : 1;
    if (i == text.size()) return {};
    for (std::size_t k = i; k < text.size(); ++k)
        if (!isDigit(text[k])) return {};
    long long value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error == std::errc::result_out_of_range) return {DecimalStatus::OutOfRange, 0};
    if (error != std::errc() || end != text.data() + text.size()) return {};
    return {DecimalStatus::Ok, value};
}

}  // namespace poslab
