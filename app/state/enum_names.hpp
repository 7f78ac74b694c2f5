// enum_names.hpp — one name table per enum: printing and parsing read the same list, so a name
// cannot be written that does not read back.
//   EnumNames<Enum, N>  the app's own enums: {value, "name"} pairs and the key named in errors
//   EnumCodec<Enum>     an enum defined in core: its name/parse pair (one table, in core)
// Both answer name(value) and parse(text); the session format takes either.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include "poslab/base/result.hpp"

namespace poslab::state {

template <class Enum>
struct EnumName {
    Enum value;
    std::string_view name;  // as written in files: "add-vs-concat"
};

template <class Enum, std::size_t N>
struct EnumNames {
    std::string_view label;  // what parse errors call the value: "figure"
    std::array<EnumName<Enum>, N> entries;

    std::string_view name(Enum value) const {  // the first entry's name for a value not listed
        for (const EnumName<Enum>& entry : entries)
            if (entry.value == value) return entry.name;
        return entries[0].name;
    }
    // "figure must be terms, near-orthogonality or add-vs-concat (got 'x')"
    Result<Enum> parse(std::string_view text) const {
        for (const EnumName<Enum>& entry : entries)
            if (entry.name == text) return entry.value;
        std::string names;
        for (std::size_t i = 0; i < N; ++i) {
            if (i > 0) names += i + 1 == N ? " or " : ", ";
            names += entries[i].name;
        }
        return Error{std::string(label) + " must be " + names + " (got '" + std::string(text) +
                     "')"};
    }
};

template <class Enum>
struct EnumCodec {
    std::string_view (*name)(Enum);                // colormapName
    Result<Enum> (*parse)(std::string_view text);  // parseColormap
};

}  // namespace poslab::state
