// format.hpp — numbers as short text for titles, labels, notes and messages.
#pragma once

#include <string>
#include <string_view>

namespace poslab {

// Compact: 0.25, 3.142, -3.2e-05, 1.235e+05; whole numbers below 1e15 in full (10000000), larger
// ones to `significant` digits (2e+300).
std::string formatValue(double value, int significant = 4);
// Running text with its numbers set as the figures set them: a hyphen-minus that begins a number
// ("value -0.89", "(-3", "= -2") as U+2212, and x between two numbers ("12 x 12") as ×. Hyphens
// in words ("lag-1", "i-j"), exponents ("1e-05") and a lone "a - b" stay.
std::string typesetNumbers(std::string text);

// Text from input (file names, keys, header fields) made safe for a one-line message: in single
// quotes, control characters and escape sequences shown as \n, \t, \x1b, bytes that are not
// UTF-8 as \xNN, and cut after maxCharacters characters with "…". A terminal showing the message
// runs no escape sequence from a file, and the line stays one line.
inline constexpr std::size_t kMessageTextLength = 80;
// File paths are escaped but kept up to PATH_MAX: their end (the file name) is what tells.
inline constexpr std::size_t kMessagePathLength = 4096;
std::string quoteForMessage(std::string_view text, std::size_t maxCharacters = kMessageTextLength);
// The same without the quotes, for text that shows its own (a Python or JSON literal).
std::string escapeForMessage(std::string_view text, std::size_t maxCharacters = kMessageTextLength);

}  // namespace poslab
