// decimal.hpp — the one number syntax of every option, spec field and text box.
//
// A number is written in decimal: an optional '-', digits with an optional fraction (or a
// fraction alone, ".5"), and an optional exponent whose sign may be '+' or '-' ("1e+300" is how
// JSON numbers print). Nothing else: no leading '+', no hexadecimal, no inf or nan, no spaces,
// nothing after the number. An integer is an optional '-' and digits only. A value beyond a double
// (1e400) or a long long is out of range rather than clamped.
#pragma once

#include <string_view>

namespace poslab {

enum class DecimalStatus { Ok, NotANumber, OutOfRange };

struct ParsedDecimal {
    DecimalStatus status = DecimalStatus::NotANumber;
    double value = 0;  // set when Ok
};
struct ParsedInteger {
    DecimalStatus status = DecimalStatus::NotANumber;
    long long value = 0;  // set when Ok
};

ParsedDecimal parseDecimal(std::string_view text);         // "1e4", "-0.5", ".5"; never inf or nan
ParsedInteger parseDecimalInteger(std::string_view text);  // "-12", "4096"

}  // namespace poslab
