// enum_names.hpp — one name table per enum: printing and parsing read the same list, so a name
// cannot be printed that does not read back, and an error lists exactly the accepted names.
//   EnumName<Enum>          one {value, "name"} pair
//   EnumNames<Enum, N>      a table: std::array of N pairs, the first is the fallback name
//   enumName(table, value)  the value's name; the first entry's for a value not listed
//   parseEnum(table, text, what[, count])  the value named; else "what must be a, b or c (got 'x')"
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include "poslab/base/format.hpp"
#include "poslab/base/result.hpp"

namespace poslab {

template <class Enum>
struct EnumName {
    Enum value;
    std::string_view name;  // as written in files and on the command line: "blue-white-red"
};

template <class Enum, std::size_t N>
using EnumNames = std::array<EnumName<Enum>, N>;

template <class Enum, std::size_t N>
constexpr std::string_view enumName(const EnumNames<Enum, N>& table, Enum value) {
    for (const EnumName<Enum>& entry : table)
        if (entry.value == value) return entry.name;
    return table[0].name;
}

// "a, b or c": the first `count` names of the table.
template <class Enum, std::size_t N>
std::string enumNameList(const EnumNames<Enum, N>& table, std::size_t count = N) {
    std::string names;
    for (std::size_t i = 0; i < count && i < N; ++i) {
        if (i > 0) names += i + 1 == count ? " or " : ", ";
        names += table[i].name;
    }
    return names;
}

// Only the first `count` entries are accepted (an enum with values a name alone cannot set lists
// those last).
template <class Enum, std::size_t N>
Result<Enum> parseEnum(const EnumNames<Enum, N>& table, std::string_view text,
                       std::string_view what, std::size_t count = N) {
    for (std::size_t i = 0; i < count && i < N; ++i)
        if (table[i].name == text) return table[i].value;
    return Error{std::string(what) + " must be " + enumNameList(table, count) + " (got " +
                 quoteForMessage(text) + ")"};
}

}  // namespace poslab
