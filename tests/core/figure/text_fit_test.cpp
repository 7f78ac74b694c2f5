// fitText, wrapText and titleBreak against texts and widths worked out by hand: shrink before
// cutting, never cut inside a UTF-8 character, break between words and never inside maths.
#include "poslab/figure/text_fit.hpp"

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
        if (line.find(' ') != std::string::npos && line.find('$') == std::string::npos)
            EXPECT_LE(estimateTextWidth(line, size), width) << line;
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
}

}  // namespace
}  // namespace poslab
