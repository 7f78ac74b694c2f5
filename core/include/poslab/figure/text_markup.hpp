// text_markup.hpp — the small maths markup of figure text: sub- and superscripts, italic letters,
// Greek by name, typeset alike by the screen, Cairo (PNG/PDF), SVG and the layout estimates.
//
// Text outside $...$ is taken literally, so names such as max_position_embeddings or rope_theta
// stay as they are. Inside $...$, as in TeX's maths mode:
//   _x  _{...}   subscript (one character or command, or a braced group)   $θ_i$  $d_{model}$
//   ^x  ^{...}   superscript                                                 $10^4$  $10^{-3}$
//   \theta \Sigma ...   Greek letters by name (the literal glyphs θ, Σ work too)
//   \cdot \le \ge \ne \times \approx \infty \ldots \pm \to \sqrt \lfloor ...  symbols
//   \mathrm{...} \text{...}   upright letters;  {...} a group;  \$ \{ \} \_ \^ \\ literals
//   Latin letters are italic, digits, Greek and symbols upright; '-' is the minus sign U+2212.
// "\$" outside maths is a literal dollar sign. Unbalanced $ or { run to the end of the text, so
// a string cut short (fitText) still draws.
//
// Usage, as a renderer draws a TextItem:
//   for (const TextRun& run : parseMarkup(item.text))   // left to right
//       draw run.text at size item.size * run.scale, baseline raised by run.shift * item.size,
//       slanted when run.style == TextStyle::Italic
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace poslab {

// ---- Runs
enum class TextStyle { Upright, Italic };
struct TextRun {
    std::string text;  // UTF-8, as drawn (commands already replaced by their glyphs)
    float shift = 0;   // baseline shift in units of the item's size; > 0 raises (superscript)
    float scale = 1;   // font size relative to the item's size
    TextStyle style = TextStyle::Upright;
    bool operator==(const TextRun&) const = default;
};
inline constexpr float kScriptScale = 0.72f;       // a sub/superscript's size per level
inline constexpr float kSuperscriptShift = 0.36f;  // raise, in units of the enclosing size
inline constexpr float kSubscriptShift = -0.18f;   // lower, in units of the enclosing size
inline constexpr float kItalicSlant = 0.2f;        // x shift per unit of height above baseline

// ---- Parsing
bool hasMarkup(std::string_view text);                    // contains an unescaped '$' or "\$"
std::vector<TextRun> parseMarkup(std::string_view text);  // adjacent equal-style runs merged
std::string plainText(std::string_view text);  // the runs' text joined ("θi" for $θ_i$)

// ---- Measuring (no font: the layout estimate of figure/plot's estimateTextWidth)
// Width in units of the item's size, each run's glyphs at `glyphWidth` of its own size.
float markupWidth(std::string_view text, float glyphWidth);

}  // namespace poslab
