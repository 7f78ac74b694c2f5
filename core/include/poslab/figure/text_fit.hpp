// text_fit.hpp — figure text measured, shrunk, cut and wrapped by estimate (no font needed):
// what every label, title, legend and note is made to fit its room with.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "poslab/figure/theme.hpp"

namespace poslab {

// ---- Measuring and fitting
// Layout estimate, no font needed: 0.56 em per character, markup's scripts at their own size.
float estimateTextWidth(std::string_view text, float size);
// Text made to fit maxWidth (by estimate): first a smaller size, down to minScale * size, then
// cut at a character boundary with "…" appended. Titles of narrow plots stay inside them.
struct FittedText {
    std::string text;
    float size = 0;
};
FittedText fitText(std::string_view text, float size, float maxWidth, float minScale = 0.75f);
// The minScale for fitText that keeps text readable: 75 % of size on a screen or page; in a
// theme scaled up (presentation mode, fontScale > 1) down to kReadableTextPx (the screen's own
// text size, presentation's floor) but never below it.
inline constexpr float kReadableTextPx = 14;
float readableMinScale(float size, const Theme& theme);
// Words wrapped to maxWidth (by estimate) at `size`, never inside $...$ markup: the lines in
// order (one word wider than maxWidth is a line of its own, for fitText to shrink).
std::vector<std::string> wrapText(std::string_view text, float size, float maxWidth);
// Where a title of two lines breaks: the space nearest the middle with a word of letters or
// digits on each side ("j - i" stays whole); npos when there is none.
std::size_t titleBreak(std::string_view title);

}  // namespace poslab
