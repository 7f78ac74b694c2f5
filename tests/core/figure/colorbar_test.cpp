// The one colour bar: a ramp per colormap with its own texture version (bars of two colormaps in
// one frame once shared one, so the second showed the first's colours), one width and one tick
// spacing for the heatmaps' bars, the bars on their own and the bars beside a grid.
#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "poslab/figure/colorbar.hpp"
#include "poslab/figure/layout.hpp"

namespace poslab {
namespace {

std::vector<HeatmapItem> heatmaps(const Figure& figure) {
    std::vector<HeatmapItem> found;
    for (const FigureItem& item : figure.items)
        if (const auto* h = std::get_if<HeatmapItem>(&item)) found.push_back(*h);
    return found;
}

TEST(ColorbarTest, TheRampRunsFromOneAtTheTopToZero) {
    const auto ramp = colorbarRamp();
    ASSERT_EQ(ramp->rows, std::size_t(kColormapSize));
    ASSERT_EQ(ramp->cols, 1u);
    EXPECT_EQ((*ramp)(0, 0), 1.0);
    EXPECT_EQ((*ramp)(kColormapSize - 1, 0), 0.0);
    for (int i = 1; i < kColormapSize; ++i) EXPECT_LT((*ramp)(i, 0), (*ramp)(i - 1, 0));
}

TEST(ColorbarTest, EachColormapHasItsOwnVersionInEveryKindOfBar) {
    const Theme theme = paperTheme();
    Figure figure = emptyFigure(400, 300, theme);
    // Beside a grid (layout) and on its own, two colormaps in one figure.
    drawColorbar(figure, {10, 10, 12, 200}, ColormapId::Viridis, {0, 1}, "bias", 60, false, theme);
    drawColorbar(figure, {100, 10, 12, 200}, ColormapId::Magma, {0, 1}, "bias", 150, true, theme);
    drawColorbar(figure, {200, 10, 12, 200}, ColormapId::Viridis, {0, 1}, theme);
    const auto bars = heatmaps(figure);
    ASSERT_EQ(bars.size(), 3u);
    EXPECT_NE(bars[0].version, bars[1].version);  // viridis vs magma
    EXPECT_EQ(bars[0].version, bars[2].version);  // the same ramp: one texture
    EXPECT_EQ(bars[0].version, colorbarVersion(ColormapId::Viridis));
    EXPECT_EQ(bars[1].colormap, ColormapId::Magma);
}

TEST(ColorbarTest, OneTickSpacingAndWidth) {
    // linearTicks with at most 1 + height / 50 ticks: 0..1 over 100 px gets 0, 0.5, 1 at most.
    for (float height : {60.f, 100.f, 500.f}) {
        const auto ticks = colorbarTicks({0, 1}, height);
        EXPECT_LE(double(ticks.size()), 1 + height / kColorbarTickSpacing + 1) << height;
        EXPECT_GE(ticks.size(), 2u) << height;
    }
    Theme theme = paperTheme();
    theme.fontSize = 20;
    EXPECT_FLOAT_EQ(barWidthFor(theme), 18);  // 0.9 em
    theme.fontSize = 8;
    EXPECT_FLOAT_EQ(barWidthFor(theme), 10);  // at least 10 px
}

TEST(ColorbarTest, ColorbarOnItsOwnFillsItsBoxAndLabelsIntegerTicks) {
    Figure figure;
    const Box bar{100, 20, 12, 300};
    drawColorbar(figure, bar, ColormapId::Magma, {0, 99}, darkTheme(), true);
    const HeatmapItem* ramp = nullptr;
    std::vector<std::string> labels;
    for (const FigureItem& item : figure.items) {
        if (auto* heatmap = std::get_if<HeatmapItem>(&item)) ramp = heatmap;
        if (auto* text = std::get_if<TextItem>(&item)) {
            labels.push_back(text->text);
            // A tick label's height on the bar is its value's share of the range, top = 99.
            const double value = std::stod(text->text);
            EXPECT_NEAR(text->anchor.y, bar.bottom() - value / 99 * bar.height, 1e-3);
            EXPECT_GT(text->anchor.x, bar.right());
        }
    }
    ASSERT_NE(ramp, nullptr);
    EXPECT_EQ(ramp->colormap, ColormapId::Magma);
    EXPECT_EQ(ramp->box.y, bar.y);
    EXPECT_EQ(ramp->box.height, bar.height);
    EXPECT_NEAR((*ramp->values)(0, 0), 1.0, 1e-15);  // top of the ramp: the range's high end
    ASSERT_GE(labels.size(), 2u);
    for (const std::string& label : labels) EXPECT_EQ(label.find('.'), std::string::npos) << label;
    EXPECT_GT(colorbarTickWidth({0, 99}, 300, darkTheme(), true), 10.f);
}

// A tick's end and its label keep a gap that grows with the text: at F5 (24.5 px text) a tick
// 4 px from "0.25" read as a minus sign; at the screen's 14 px the gap stays 4 px.
TEST(ColorbarTest, TheGapBetweenATickAndItsLabelGrowsWithTheText) {
    for (float scale : {1.f, 1.75f, 2.5f}) {
        const Theme theme = scaledTheme(darkTheme(), scale);
        Figure figure;
        const Box bar{100, 20, barWidthFor(theme), 300};
        drawColorbar(figure, bar, ColormapId::Viridis, {-1, 1}, theme);
        float tickEnd = 0;
        int labels = 0;
        for (const FigureItem& item : figure.items) {
            if (const auto* line = std::get_if<LineItem>(&item);
                line && line->from.x == bar.right())
                tickEnd = std::max(tickEnd, line->to.x);
            if (const auto* text = std::get_if<TextItem>(&item)) {
                ++labels;
                ASSERT_GT(tickEnd, bar.right());
                EXPECT_GE(text->anchor.x - tickEnd, std::max(4.f, theme.fontSize * 0.28f) - 1e-3f)
                    << text->text << " at " << theme.fontSize << " px";
            }
        }
        EXPECT_GE(labels, 2);
        // The room a bar's labels are given includes the gap.
        EXPECT_GE(colorbarTickWidth({-1, 1}, 300, theme),
                  tickEnd - bar.right() + (theme.fontSize * 0.28f) +
                      estimateTextWidth("−1", theme.fontSize) - 1e-3f);
    }
}

}  // namespace
}  // namespace poslab
