// text_fit.hpp — figure text measured, shrunk, cut and wrapped by estimate (no font needed):
// what every label, title, legend and note is made to fit its room with.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
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
// theme scaled up (presentation mode, fontScale > 1) down to scaledMinTextPx, the size the
// presentation layout check passes (never to the screen's own 14 px: across a lecture hall that
// reads as small print next to the card's text); never below theme.minTextSize (a file's 8 pt),
// so text already at that floor does not shrink at all.
inline constexpr float kReadableTextPx = 14;         // the screen's body text
inline constexpr float kScaledTextTolerance = 0.8f;  // how far scaled-up text may shrink
float scaledMinTextPx(const Theme& theme);  // fontScale > 1: 80 % of 14 px x fontScale; else 0
float readableMinScale(float size, const Theme& theme);
// `size`, raised to the theme's smallest readable size (Theme::minTextSize; print: 8 pt).
float atLeastMinText(float size, const Theme& theme);
// Words wrapped to maxWidth (by estimate) at `size`, never inside $...$ markup nor between a
// function's name and its argument ("sin ωp"): the lines in order (one word wider than maxWidth
// is a line of its own, for fitText to shrink).
std::vector<std::string> wrapText(std::string_view text, float size, float maxWidth);
// Text fitted to a box maxWidth wide and at most maxLines lines tall, wrapped rather than cut:
// whole on one line at `size` when it fits, else wrapped (wrapText) onto as few lines as it
// needs; only when more than maxLines lines would be needed does it shrink (towards
// minScale * size); only when maxLines lines at the smallest size cannot hold it is the last
// line cut with "…". Every line's estimateTextWidth at the returned size is <= maxWidth (a word
// too wide for the box alone is shrunk, then cut, as fitText does).
struct WrappedText {
    std::vector<std::string> lines;
    float size = 0;
    bool cut() const;  // the last line ends in "…"
};
WrappedText wrapToFit(std::string_view text, float size, float maxWidth, int maxLines,
                      float minScale = 0.75f);
// Where a title of two lines breaks: a space with a word of letters or digits on each side ("j -
// i" stays whole) or after a dash, near the middle and where a reader pauses (after "—", ":" or
// ",", before "vs"; not between a name and its value), outside parentheses unless the title has no
// other break, never between "et" and "al.", a function's name and its argument ("cos ωk·sin ωp")
// nor a number and the word after it ("36 layers"); npos when there is none.
std::size_t titleBreak(std::string_view title);
// The two lines of `title` broken at `split` (titleBreak's), without the spaces between them.
std::pair<std::string, std::string> titleHalves(std::string_view title, std::size_t split);

}  // namespace poslab
