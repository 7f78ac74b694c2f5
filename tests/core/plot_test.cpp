#include "poslab/plot.hpp"

#include <gtest/gtest.h>

#include <string>

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

TEST(PlotTest, ShortTextIsLeftAlone) {
    const FittedText fitted = fitText("Head 0", 14, 400);
    EXPECT_EQ(fitted.text, "Head 0");
    EXPECT_EQ(fitted.size, 14);
}

TEST(PlotTest, SlightlyLongTextShrinksToFit) {
    const std::string title(40, 'x');                   // 40 glyphs: 0.56 * 14 * 40 = 313.6 px
    const FittedText fitted = fitText(title, 14, 290);  // fits at 12.95 px, above 0.75 * 14
    EXPECT_EQ(fitted.text, title);
    EXPECT_LT(fitted.size, 14);
    EXPECT_GE(fitted.size, 14 * 0.75f);
    EXPECT_LE(estimateTextWidth(fitted.text, fitted.size), 290.001f);
}

TEST(PlotTest, MuchLongerTextIsCutWithAnEllipsis) {
    const std::string title =
        "Sinusoidal encoding (interleaved), d_model = 16, base = 10000, 6 positions";
    const FittedText fitted = fitText(title, 14, 200);
    EXPECT_FLOAT_EQ(fitted.size, 14 * 0.75f);
    ASSERT_GE(fitted.text.size(), 3u);
    EXPECT_EQ(fitted.text.substr(fitted.text.size() - 3), "…");
    EXPECT_EQ(title.rfind(fitted.text.substr(0, fitted.text.size() - 3), 0), 0u);  // a prefix
    EXPECT_LE(estimateTextWidth(fitted.text, fitted.size), 200.0f);
}

TEST(PlotTest, CuttingNeverSplitsAMultiByteCharacter) {
    // "·" and "−" are two and three bytes in UTF-8; every cut length must land between them.
    const std::string title = "bias −m·(i − j) ·········································";
    for (float width = 20; width < 300; width += 3) {
        const FittedText fitted = fitText(title, 14, width);
        EXPECT_TRUE(validUtf8Boundaries(fitted.text)) << width << ": " << fitted.text;
    }
}

}  // namespace
}  // namespace poslab
