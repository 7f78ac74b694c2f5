// fitText, wrapText and titleBreak against texts and widths worked out by hand: shrink before
// cutting, never cut inside a UTF-8 character, break between words and never inside maths.
#include "poslab/figure/text_fit.hpp"

#include "../views/figure_checks.hpp"  // textExtent

#include "poslab/base/heatmap_sample.hpp"
#include "poslab/figure/colorbar.hpp"
#include "poslab/figure/text_boxes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <future>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace poslab {
namespace {

// True when every UTF-8 continuation byte follows a lead byte or another continuation byte.
bool validUtf8Boundaries(const std::string& text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if ((c & 0xC0) == 0x80 && (i == 0 || static_cast<unsigned char>(text[i - 1]) < 0x80)) {
            return false;
        }
    }
    return true;
}

TEST(TextFitTest, ShortTextIsLeftAlone) {
    const FittedText fitted = fitText("Head 0", 14, 400);
    EXPECT_EQ(fitted.text, "Head 0");
    EXPECT_EQ(fitted.size, 14);
}

TEST(TextFitTest, SlightlyLongTextShrinksToFit) {
    const std::string title(40, 'x');                   // 40 glyphs: 0.56 * 14 * 40 = 313.6 px
    const FittedText fitted = fitText(title, 14, 290);  // fits at 12.95 px, above 0.75 * 14
    EXPECT_EQ(fitted.text, title);
    EXPECT_LT(fitted.size, 14);
    EXPECT_GE(fitted.size, 14 * 0.75f);
    EXPECT_LE(estimateTextWidth(fitted.text, fitted.size), 290.001f);
}

TEST(TextFitTest, MuchLongerTextIsCutWithAnEllipsis) {
    const std::string title =
        "Sinusoidal encoding (interleaved), d_model = 16, base = 10000, 6 positions";
    const FittedText fitted = fitText(title, 14, 200);
    EXPECT_FLOAT_EQ(fitted.size, 14 * 0.75f);
    ASSERT_GE(fitted.text.size(), 3u);
    EXPECT_EQ(fitted.text.substr(fitted.text.size() - 3), "…");
    EXPECT_EQ(title.rfind(fitted.text.substr(0, fitted.text.size() - 3), 0), 0u);  // a prefix
    EXPECT_LE(estimateTextWidth(fitted.text, fitted.size), 200.0f);
}

TEST(TextFitTest, CuttingNeverSplitsAMultiByteCharacter) {
    // "·" and "−" are two and three bytes in UTF-8; every cut length must land between them.
    const std::string title = "bias −m·(i − j) ·········································";
    for (float width = 20; width < 300; width += 3) {
        const FittedText fitted = fitText(title, 14, width);
        EXPECT_TRUE(validUtf8Boundaries(fitted.text)) << width << ": " << fitted.text;
    }
}

// A text that fits once shrunk in proportion is shrunk, never cut: the shrunk width equals
// maxWidth only up to float rounding (a presentation title lost its last letters to it).
TEST(TextFitTest, FitTextShrinksWithoutCuttingWhenTheProportionalSizeFits) {
    const std::string title =
        "Past the training length (512 → 2048 positions): what each encoding does";  // 72 glyphs
    const float size = 17 * 1.75f, maxWidth = 1010 - size;
    const FittedText fitted = fitText(title, size, maxWidth);
    EXPECT_EQ(fitted.text, title);
    // 0.56 * s * 72 = maxWidth: s = 980.25 / 40.32 = 24.31 px (within 0.75 of 29.75 = 22.3).
    EXPECT_NEAR(fitted.size, maxWidth / (0.56f * 72), 0.01f);
}

// Two-line titles break at the space nearest the middle that has a word on both sides.
TEST(TextFitTest, TitleBreakKeepsOperatorsWithTheirOperands) {
    // Nearest the middle is the space in "(i - j)"; the break goes to the nearest between words.
    EXPECT_EQ(titleBreak("8 heads, bias -m·(i - j), future masked"),
              std::string_view("8 heads, bias -m·(i - j),").size());
    EXPECT_EQ(titleBreak("Bucket id against j - i (bidirectional)"),
              std::string_view("Bucket id against").size());
    EXPECT_EQ(titleBreak("one two"), 3u);
    EXPECT_EQ(titleBreak("single"), std::string_view::npos);
    EXPECT_EQ(titleBreak("a - b"), std::string_view::npos);  // only spaces beside "-"
    // RoPE's angle title broke as "… $m·θ_i$ mod" over "2π — head_dim …": "mod" is an operator
    // too, so the break goes to the nearest space with no operator beside it.
    const std::string_view angles =
        "Rotation angle $m·θ_i$ mod 2π — head_dim 128, base 10000, half pairs";
    const std::size_t split = titleBreak(angles);
    ASSERT_NE(split, std::string_view::npos);
    EXPECT_NE(angles.substr(0, split).find("mod 2π"), std::string_view::npos)
        << angles.substr(0, split);
    EXPECT_EQ(titleBreak("x mod y"), std::string_view::npos);
    EXPECT_EQ(titleBreak("q / k"), std::string_view::npos);
    // Nor inside brackets: Add-vs-concat's "Concatenate: [x;" over "p], width 2d = 128".
    EXPECT_EQ(titleBreak("Concatenate: [x; p], width 2d = 128"),
              std::string_view("Concatenate: [x; p],").size());
    // Nor inside parentheses while the title has a break outside them (issue 28: "Bucket of
    // j−i (32 buckets," over "max_distance 128)" at one column): the parenthesis stays whole,
    // and "512" does not start a line.
    EXPECT_EQ(titleBreak("Learned table (seed 0, std 0.02): 512 × 64"),
              std::string_view("Learned table").size());
}

// Issue 28, print: a title's two lines keep a parenthesis whole and a citation's "et al."
// together; inside parentheses only when there is no other break at all.
TEST(TextFitTest, TitleBreakKeepsParenthesesAndEtAlWhole) {
    using Lines = std::pair<std::string, std::string>;
    auto halves = [](std::string_view title) { return titleHalves(title, titleBreak(title)); };
    EXPECT_EQ(halves("Bucket of $j-i$ (32 buckets, max_distance 128)"),
              Lines("Bucket of $j-i$", "(32 buckets, max_distance 128)"));
    EXPECT_EQ(halves("T5 relative attention bias (Raffel et al. 2020, bidirectional)"),
              Lines("T5 relative attention bias", "(Raffel et al. 2020, bidirectional)"));
    EXPECT_EQ(halves("Long-term decay of RoPE (RoFormer, Su et al. 2021, Fig. 2) — d = 128"),
              Lines("Long-term decay of RoPE", "(RoFormer, Su et al. 2021, Fig. 2) — d = 128"));
    // Outside parentheses, "et" never ends a line before "al.".
    for (const std::string_view title :
         {std::string_view("As in Press et al. 2022 linear biases"),
          std::string_view("Su et al. RoFormer decay"), std::string_view("Press et al.")}) {
        const auto [head, tail] = halves(title);
        EXPECT_NE(head.substr(head.size() >= 3 ? head.size() - 3 : 0), " et") << title;
        EXPECT_NE(tail.substr(0, 3), "al.") << title;
    }
    // A title that is one parenthesis may still break inside it (no other place).
    EXPECT_EQ(halves("(seed 0, std 0.02)"), Lines("(seed 0,", "std 0.02)"));
}

// Titles seen broken mid-phrase at 1024x768 in presentation mode (session 20's audit): a name
// cut from its value ("head_dim" over "64", "(rms" over "0.535)"), a unit from its number ("0.1"
// over "rad"), a parenthesis opened at a line's end ("(a" over "first-token flag"). The break
// goes where a reader pauses: after the dash, before the parenthesis, between the phrases.
TEST(TextFitTest, TitleBreakFallsWhereAReaderPauses) {
    auto halves = [](std::string_view title) {
        const std::size_t split = titleBreak(title);
        EXPECT_NE(split, std::string_view::npos) << title;
        return titleHalves(title, split);
    };
    using Lines = std::pair<std::string, std::string>;
    EXPECT_EQ(halves("Attention score $q_m·k_n$ — head_dim 64, base 10000, half pairs"),
              Lines("Attention score $q_m·k_n$ —", "head_dim 64, base 10000, half pairs"));
    EXPECT_EQ(halves("Wavelength $2π/θ_i$ of each pair — head_dim 64, base 10000, half pairs"),
              Lines("Wavelength $2π/θ_i$ of each pair —", "head_dim 64, base 10000, half pairs"));
    EXPECT_EQ(halves("First position where the RoPE phase error passes 0.1 rad — head_dim 64, "
                     "base 10000, half pairs, positions 0..16384"),
              Lines("First position where the RoPE phase error passes 0.1 rad —",
                    "head_dim 64, base 10000, half pairs, positions 0..16384"));
    // A run of two spaces is one break, and neither line keeps a space from it.
    EXPECT_EQ(halves("content·position  $x_i·p_j$  (rms 0.535)"),
              Lines("content·position", "$x_i·p_j$  (rms 0.535)"));
    EXPECT_EQ(halves("NoPE: t read back from 1/(t+1) (a first-token flag, causally averaged)"),
              Lines("NoPE: t read back from 1/(t+1)", "(a first-token flag, causally averaged)"));
    // A dash never starts a line, and a title of one word has no break.
    EXPECT_EQ(titleBreak("x —"), std::string_view::npos);
    EXPECT_EQ(titleHalves("one", std::string_view::npos), Lines("one", ""));
}

// Issue 28: Layers' title broke as "Layers of smollm3: 36" over "layers, 9 without RoPE (NoPE)".
// A number and the word after it are one phrase; the break goes after the colon or the comma.
// Issue 28: Linear shift's sine-only title broke "cos ωk·sin" over "ωp", a function's name cut
// from its argument; and RoPE A/B's at one column "RoPE A/B: A:" over "base 10000  vs  B: …".
// A function's name keeps its argument (titleBreak and wrapText alike), so a formula too wide for
// a line breaks at its operators; a title pauses before "vs".
TEST(TextFitTest, TitlesBreakBetweenTermsOfAFormulaAndBeforeVs) {
    using Lines = std::pair<std::string, std::string>;
    auto halves = [](std::string_view title) { return titleHalves(title, titleBreak(title)); };
    EXPECT_EQ(halves("Why: cos ωk·sin ωp needs it"), Lines("Why: cos ωk·sin ωp", "needs it"));
    EXPECT_EQ(titleBreak("cos ωk·sin ωp"), std::string_view::npos);
    EXPECT_EQ(halves("RoPE A/B: A: base 10000  vs  B: base 500000"),
              Lines("RoPE A/B: A: base 10000", "vs  B: base 500000"));
    // 20 characters a line at size 10 (5.6 px each: 112 px): the formula (42 characters) breaks
    // before its "=" and "+", each function with its argument.
    const std::string formula = "sin ω(p+k) = cos ωk·sin ωp + sin ωk·cos ωp";
    EXPECT_EQ(wrapText(formula, 10, 20 * 5.6f),
              (std::vector<std::string>{"sin ω(p+k)", "= cos ωk·sin ωp", "+ sin ωk·cos ωp"}));
}

TEST(TextFitTest, TitleBreakNeverCutsANumberFromItsNoun) {
    using Lines = std::pair<std::string, std::string>;
    auto halves = [](std::string_view title) { return titleHalves(title, titleBreak(title)); };
    EXPECT_EQ(halves("Layers of smollm3: 36 layers, 9 without RoPE (NoPE)"),
              Lines("Layers of smollm3: 36 layers,", "9 without RoPE (NoPE)"));
    EXPECT_EQ(halves("phase error passes 0.1 rad at position 4096"),
              Lines("phase error passes 0.1 rad", "at position 4096"));
    EXPECT_EQ(halves("Bucket of $j-i$ (32 buckets here)"),
              Lines("Bucket of $j-i$", "(32 buckets here)"));
    // A title whose only space sits between a number and its noun has no break.
    EXPECT_EQ(titleBreak("36 layers"), std::string_view::npos);
    EXPECT_EQ(titleBreak("−3 dB"), std::string_view::npos);
    // A number that closes its phrase may end a line.
    EXPECT_EQ(halves("head_dim 64, base 10000"), Lines("head_dim 64,", "base 10000"));
}

TEST(TextFitTest, WrapTextBreaksAtSpacesOutsideMathsAndKeepsEqualsWhole) {
    const float size = 14, width = 120;
    const std::string text = "head 2, m = 0.125 with $\\mathrm{base}^{2i / d}$ scaled by eight";
    const std::vector<std::string> lines = wrapText(text, size, width);
    ASSERT_GT(lines.size(), 1u);
    std::string joined;
    for (const std::string& line : lines) {
        joined += (joined.empty() ? "" : " ") + line;
        // Every line whole maths (an even number of unescaped $) and within the width, unless
        // it is one unbreakable piece.
        EXPECT_EQ(std::count(line.begin(), line.end(), '$') % 2, 0) << line;
        if (line.find(' ') != std::string::npos && line.find('$') == std::string::npos) {
            EXPECT_LE(estimateTextWidth(line, size), width) << line;
        }
    }
    EXPECT_EQ(joined, text);  // nothing lost, nothing cut
    bool equalsWhole = false;
    for (const std::string& line : lines)
        equalsWhole |= line.find("m = 0.125") != std::string::npos;
    EXPECT_TRUE(equalsWhole);
    EXPECT_TRUE(wrapText("", size, width).empty());
    // A lone minus stays between its operands.
    for (const std::string& line : wrapText("exact density (1 − c²)^((d−3)/2)", size, 60))
        EXPECT_NE(line, "−");
    // "mod" and "/" keep their operands on their line too ("angle mθ mod" over "2π").
    for (const std::string& line : wrapText("the angle $m·θ_i$ mod 2π of pair i", size, 80)) {
        EXPECT_NE(line.substr(line.size() >= 3 ? line.size() - 3 : 0), "mod") << line;
        EXPECT_NE(line.rfind("2π", 0), 0u) << line;
    }
    for (const std::string& line : wrapText("the logit q·k / √d of each pair", size, 70)) {
        EXPECT_NE(line.back(), '/') << line;
        EXPECT_NE(line.front(), '/') << line;
    }
}

}  // namespace
}  // namespace poslab

namespace poslab {
namespace {

// ---- wrapToFit (issue 28: print sizes at one column wrap notes and labels instead of cutting)
// Widths by hand: the estimate is 0.56 em a character, so at size 10 a character is 5.6 px, a
// four-letter word 22.4 px and two of them with their space (9 characters) 50.4 px.
const std::string kSixWords = "aaaa bbbb cccc dddd eeee ffff";

TEST(WrapToFitTest, ALongNoteAtANarrowWidthWrapsOntoLinesThatEachFit) {
    // 51 px holds two words (50.4 px) but not three (14 characters, 78.4 px): three lines.
    const WrappedText wrapped = wrapToFit(kSixWords, 10, 51, 10);
    ASSERT_EQ(wrapped.lines.size(), 3u);
    EXPECT_EQ(wrapped.size, 10);  // the full size: wrapping needs no shrinking
    EXPECT_EQ(wrapped.lines[0], "aaaa bbbb");
    EXPECT_EQ(wrapped.lines[2], "eeee ffff");
    EXPECT_FALSE(wrapped.cut());
    for (const std::string& line : wrapped.lines) {
        const TextItem item = makeText({0, 0}, line, wrapped.size, {});
        const auto [left, right] = textExtent(item);  // as the view tests measure
        EXPECT_LE(right - left, 51.f) << line;
        EXPECT_EQ(line.find("…"), std::string::npos);
    }
}

// Extrapolation's y label at one column: "L ÷ angle" kept whole took three lines where two
// were allowed, and the label was cut ("angle at L ÷ angle…"). A break before the operator
// keeps two lines at full size; never one after it.
TEST(WrapToFitTest, ABreakBeforeAnOperatorBeatsShrinking) {
    const std::string label = "angle at L ÷ angle seen";
    const float size = 10;
    // 70 px: "÷ angle seen" (12 characters, 67.2 px) fits, "L ÷ angle seen" (14, 78.4) not, so
    // "L ÷ angle" kept whole leaves "seen" a third line.
    const WrappedText wrapped = wrapToFit(label, size, 70, 2, 0.75f);
    EXPECT_EQ(wrapped.size, size);
    EXPECT_EQ(wrapped.lines, (std::vector<std::string>{"angle at L", "÷ angle seen"}));
    EXPECT_FALSE(wrapped.cut());
}

TEST(WrapToFitTest, TooManyLinesShrinkBeforeAnythingIsCut) {
    // Two lines of three words (14 characters) fit 70 px at size <= 70 / (14 * 0.56) = 8.93,
    // above the smallest 7.5: the text shrinks in 4 % steps (10, 9.6, 9.216, 8.847) and wraps.
    const WrappedText wrapped = wrapToFit(kSixWords, 10, 70, 2);
    ASSERT_EQ(wrapped.lines.size(), 2u);
    EXPECT_NEAR(wrapped.size, 10 * 0.96f * 0.96f * 0.96f, 1e-3);
    EXPECT_FALSE(wrapped.cut());
    EXPECT_EQ(wrapped.lines[0] + " " + wrapped.lines[1], kSixWords);
    for (const std::string& line : wrapped.lines)
        EXPECT_LE(estimateTextWidth(line, wrapped.size), 70.001f) << line;
}

TEST(WrapToFitTest, OnlyWhatNoLinesCanHoldIsCut) {
    // One line of 30 px holds 30 / (0.56 * 7.5) = 7.1 characters at the smallest size.
    const WrappedText wrapped = wrapToFit(kSixWords, 10, 30, 1);
    ASSERT_EQ(wrapped.lines.size(), 1u);
    EXPECT_TRUE(wrapped.cut());
    EXPECT_FLOAT_EQ(wrapped.size, 7.5f);
    EXPECT_LE(estimateTextWidth(wrapped.lines[0], wrapped.size), 30.001f);
    // Whole on one line when it fits, and nothing for an empty text.
    EXPECT_EQ(wrapToFit("aaaa", 10, 30, 1).lines, std::vector<std::string>{"aaaa"});
    EXPECT_TRUE(wrapToFit("", 10, 30, 3).lines.empty());
}

TEST(WrapToFitTest, ThePrintFloorKeepsFittedTextAtEightPoint) {
    // A file's paper theme: nothing fitted shrinks below 8 pt at 0.42 pt a pixel (19.05 px).
    Theme theme = paperTheme();
    theme.minTextSize = 8 / 0.42f;
    EXPECT_FLOAT_EQ(20 * readableMinScale(20, theme), 8 / 0.42f);
    EXPECT_FLOAT_EQ(readableMinScale(15, theme), 1.f);  // already below: no shrinking at all
    EXPECT_FLOAT_EQ(atLeastMinText(15, theme), 8 / 0.42f);
    EXPECT_FLOAT_EQ(readableMinScale(20, paperTheme()), 0.75f);  // no floor: as before
}

TEST(WrapToFitTest, PresentationTextShrinksNoFurtherThanTheProjectorFloor) {
    // Presentation (the screen's 14 px body text x 1.75) passes text down to 80 % of its body
    // size, 19.6 px (the layout check, #28); fitting used to go on to the screen's 14 px, which
    // the check then failed ("training length 2048" at 15.5 px on a projector).
    const Theme projector = scaledTheme(darkTheme(), 1.75f);
    const float bodyPx = 14 * 1.75f, floorPx = 0.8f * 14 * 1.75f;
    EXPECT_FLOAT_EQ(scaledMinTextPx(projector), floorPx);
    const float label = 0.9f * bodyPx;  // a marker's label
    EXPECT_FLOAT_EQ(label * readableMinScale(label, projector), floorPx);
    const FittedText fitted =
        fitText("training length 2048", label, 100, readableMinScale(label, projector));
    EXPECT_GE(fitted.size, floorPx - 1e-4f);  // cut, for the layout to place it elsewhere
    EXPECT_NE(fitted.text, "training length 2048");
    // Text already at or below the floor does not shrink; the screen and files are unchanged.
    EXPECT_FLOAT_EQ(readableMinScale(floorPx, projector), 1.f);
    EXPECT_FLOAT_EQ(readableMinScale(20, darkTheme()), 0.75f);
    EXPECT_FLOAT_EQ(scaledMinTextPx(darkTheme()), 0.f);
    // A slightly enlarged export (font scale 1.1) keeps the screen's 14 px floor.
    EXPECT_FLOAT_EQ(scaledMinTextPx(scaledTheme(darkTheme(), 1.1f)), 14.f);
}

}  // namespace
}  // namespace poslab
