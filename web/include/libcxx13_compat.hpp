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
// (Dragonbox), as std::to_chars(first, last, value) is. The one visible difference: where
// std::to_chars picks exponent form because it is shorter (1e+05), fmt writes 100000; both read
// back to the same double. Never included by the desktop build.
#pragma once

#include <charconv>
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
}  // namespace poslab_web_detail

inline from_chars_result from_chars(const char* first, const char* last, double& value,
                                    chars_format format = chars_format::general) {
    const auto parsed =
        fast_float::from_chars(first, last, value, poslab_web_detail::fastFloatFormat(format));
    return {parsed.ptr, parsed.ec};
}

inline from_chars_result from_chars(const char* first, const char* last, float& value,
                                    chars_format format = chars_format::general) {
    const auto parsed =
        fast_float::from_chars(first, last, value, poslab_web_detail::fastFloatFormat(format));
    return {parsed.ptr, parsed.ec};
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
    POSLAB_WEB_FORMAT_INTO(first, last, "{}", value);
}

inline to_chars_result to_chars(char* first, char* last, float value) {
    POSLAB_WEB_FORMAT_INTO(first, last, "{}", value);
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
