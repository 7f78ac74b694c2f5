#include "poslab/plot.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <variant>

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

namespace poslab {
namespace {

// How many filled rectangles of the theme's masked colour cover exactly the plot area.
int maskedUnderlays(const Figure& figure, const PlotFrame& frame, const Theme& theme) {
    int count = 0;
    for (const auto& item : figure.items) {
        const auto* rect = std::get_if<RectItem>(&item);
        if (!rect || rect->fill.a == 0) continue;
        const bool sameColour = rect->fill.r == theme.masked.r && rect->fill.g == theme.masked.g &&
                                rect->fill.b == theme.masked.b && rect->fill.a == theme.masked.a;
        const Box& b = rect->box;
        if (sameColour && b.x == frame.plot.x && b.y == frame.plot.y &&
            b.width == frame.plot.width && b.height == frame.plot.height) {
            ++count;
        }
    }
    return count;
}

TEST(PlotTest, MaskedColourIsDrawnUnderHeatmapsOnlyWhenCellsAreMasked) {
    const Theme theme = darkTheme();
    auto spec = [](Matrix m) {
        HeatmapSpec s;
        s.values = std::make_shared<const Matrix>(std::move(m));
        s.x = {"x", 0, 2, false, true};
        s.y = {"y", 0, 2, false, true};
        s.range = {-1, 1};
        return s;
    };
    Matrix plain(2, 2);
    plain(0, 1) = 0.5;
    Matrix masked = plain;
    masked(1, 0) = -INFINITY;

    Figure a = emptyFigure(400, 300, theme);
    PlotFrame frameA;
    drawHeatmap(a, {0, 0, 400, 300}, spec(plain), theme, &frameA);
    EXPECT_EQ(maskedUnderlays(a, frameA, theme), 0);  // the cells hide the whole plot area

    Figure b = emptyFigure(400, 300, theme);
    PlotFrame frameB;
    drawHeatmap(b, {0, 0, 400, 300}, spec(masked), theme, &frameB);
    EXPECT_EQ(maskedUnderlays(b, frameB, theme), 1);  // shows through the masked cell
}

}  // namespace
}  // namespace poslab
