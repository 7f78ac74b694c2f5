// libcxx13_compat.hpp — force-included (-include) into every file of the web build only: the
// C++20 library parts PosLab uses that emscripten 3.1.6's libc++ 13 lacks.
//
// std::bit_cast: clang's builtin, which is what later libc++ implements it with.
//
// Emscripten 3.1.6 ships libc++ 13, which has std::from_chars / std::to_chars for integers but
// not for floating point. PosLab's number syntax is defined by those functions on the desktop,
// so the web build supplies the missing overloads from Debian's header-only libraries with the
// same contracts: fast_float's from_chars is an exact, locale-free implementation of
// std::from_chars (general format), and fmt's "{}" is the shortest round-trip representation
// (Dragonbox), as std::to_chars(first, last, value) is. std::to_chars then writes those digits in
// fixed or exponent form, whichever is shorter (fixed on a tie: 1e+06, 100000, 0.001, 1e-05), and a
// whole number in fixed form with its exact digits; fmt's "{}" switches form by the exponent alone
// (1000000), so shortestText rebuilds std::to_chars's choice from fmt's digits (checked against
// libstdc++'s std::to_chars on millions of random doubles and floats). Never included by the
// desktop build.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>
#include <system_error>
#include <type_traits>

#include <fast_float/fast_float.h>
#define FMT_HEADER_ONLY
#include <fmt/format.h>

namespace std {

template <class To, class From>
requires(sizeof(To) == sizeof(From) && is_trivially_copyable_v<To> &&
         is_trivially_copyable_v<From>) constexpr To bit_cast(const From& from) noexcept {
    return __builtin_bit_cast(To, from);
}

namespace poslab_web_detail {
// The two enums give the formats different bit values: map them one by one.
inline fast_float::chars_format fastFloatFormat(chars_format format) {
    switch (format) {
        case chars_format::scientific:
            return fast_float::chars_format::scientific;
        case chars_format::fixed:
            return fast_float::chars_format::fixed;
        case chars_format::hex:
            return fast_float::chars_format::hex;
        default:
            return fast_float::chars_format::general;
    }
}

// std::to_chars(first, last, value)'s text for a finite or non-finite value (see above).
template <class Real>
std::string shortestText(Real value) {
    std::string text = fmt::format("{}", value);  // the shortest digits, in either form
    if (!std::isfinite(value)) return text;
    const bool negative = text[0] == '-';
    if (negative) text.erase(0, 1);
    int exponent = 0;  // of the first significant digit
    if (const std::size_t e = text.find('e'); e != std::string::npos) {
        exponent = std::stoi(text.substr(e + 1));
        text.resize(e);
    }
    const std::size_t point = text.find('.');
    std::string digits = text;
    if (point != std::string::npos) digits.erase(point, 1);
    const int integerDigits = int(point == std::string::npos ? text.size() : point);
    const std::size_t first = digits.find_first_not_of('0');
    if (first == std::string::npos) return negative ? "-0" : "0";
    exponent += integerDigits - 1 - int(first);
    digits = digits.substr(first);
    digits.erase(digits.find_last_not_of('0') + 1);
    const int count = int(digits.size());
    const int magnitude = std::abs(exponent);
    const std::string scientific = digits.substr(0, 1) + (count > 1 ? "." + digits.substr(1) : "") +
                                   (exponent < 0 ? "e-" : "e+") + (magnitude < 10 ? "0" : "") +
                                   std::to_string(magnitude);
    std::string fixed;
    if (exponent >= count - 1)  // a whole number: its exact digits, as std::to_chars writes them
        fixed = fmt::format("{:.0f}", std::abs(value));
    else if (exponent >= 0)
        fixed = digits.substr(0, exponent + 1) + "." + digits.substr(exponent + 1);
    else
        fixed = "0." + std::string(-exponent - 1, '0') + digits;
    const std::string& shorter = fixed.size() <= scientific.size() ? fixed : scientific;
    return negative ? "-" + shorter : shorter;
}

// fast_float's from_chars with std::from_chars's range rule: a text whose value overflows to ±inf
// or underflows to zero is result_out_of_range and leaves `value` alone (fast_float 3 returns
// the saturated value with no error). Subnormal results are in range, as in libstdc++.
template <class Real>
from_chars_result checkedFromChars(const char* first, const char* last, Real& value,
                                   chars_format format) {
    Real parsed = 0;
    const auto result = fast_float::from_chars(first, last, parsed, fastFloatFormat(format));
    if (result.ec != errc{}) return {result.ptr, result.ec};
    const bool hex = format == chars_format::hex;
    bool nonzeroDigit = false, literal = false;  // literal: "inf", "infinity" or "nan"
    for (const char* p = first; p != result.ptr; ++p) {
        const char c = *p;
        if (hex ? (c == 'p' || c == 'P') : (c == 'e' || c == 'E')) break;  // the exponent
        if (c == 'i' || c == 'I' || c == 'n' || c == 'N') literal = true;
        if ((c >= '1' && c <= '9') || (hex && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))))
            nonzeroDigit = true;
    }
    if (!literal && (std::isinf(parsed) || (parsed == 0 && nonzeroDigit)))
        return {result.ptr, errc::result_out_of_range};
    value = parsed;
    return {result.ptr, errc{}};
}
}  // namespace poslab_web_detail

inline from_chars_result from_chars(const char* first, const char* last, double& value,
                                    chars_format format = chars_format::general) {
    return poslab_web_detail::checkedFromChars(first, last, value, format);
}

inline from_chars_result from_chars(const char* first, const char* last, float& value,
                                    chars_format format = chars_format::general) {
    return poslab_web_detail::checkedFromChars(first, last, value, format);
}

// fmt::format_to_n writes at most the room there is and says how much the whole text needs.
#define POSLAB_WEB_FORMAT_INTO(first, last, ...)                         \
    do {                                                                 \
        const auto room = std::size_t(last - first);                     \
        const auto written = fmt::format_to_n(first, room, __VA_ARGS__); \
        if (written.size > room) return {last, errc::value_too_large};   \
        return {written.out, errc{}};                                    \
    } while (false)

inline to_chars_result to_chars(char* first, char* last, double value) {
    POSLAB_WEB_FORMAT_INTO(first, last, "{}", poslab_web_detail::shortestText(value));
}

inline to_chars_result to_chars(char* first, char* last, float value) {
    POSLAB_WEB_FORMAT_INTO(first, last, "{}", poslab_web_detail::shortestText(value));
}

inline to_chars_result to_chars(char* first, char* last, double value, chars_format format,
                                int precision) {
    if (format == chars_format::fixed)
        POSLAB_WEB_FORMAT_INTO(first, last, "{:.{}f}", value, precision);
    if (format == chars_format::scientific)
        POSLAB_WEB_FORMAT_INTO(first, last, "{:.{}e}", value, precision);
    POSLAB_WEB_FORMAT_INTO(first, last, "{:.{}g}", value, precision);
}

#undef POSLAB_WEB_FORMAT_INTO

}  // namespace std
