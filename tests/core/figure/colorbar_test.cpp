// The one colour bar: a ramp per colormap with its own texture version (bars of two colormaps in
// one frame once shared one, so the second showed the first's colours), one width and one tick
// spacing for the heatmaps' bars, the bars on their own and the bars beside a grid.
#include <gtest/gtest.h>

#include <cmath>
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
        const auto ticks = colorbarTicks({0, 1}, height, 14);
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

// A bar with only its two ends labelled (0 and 2π on Compare's RoPE bar at one column, 0 and
// −1000 on ALiBi's in the Relative family) says neither how the scale runs between them nor
// whether it is even. Wherever three labels fit with their clearance, at least three are drawn,
// no two closer than a label's height plus the clearance, each at its value's place on the bar.
TEST(ColorbarTest, EveryBarThatHoldsThreeLabelsShowsThreeValues) {
    const double pi = 3.141592653589793;
    struct Case {
        ValueRange range;
        BarTicks kind;
    };
    const Case cases[] = {{{0, 2 * pi}, BarTicks::Angles},  {{-pi, pi}, BarTicks::Angles},
                          {{-1023, 0}, BarTicks::Numbers},  {{-0.72, 1.81}, BarTicks::Numbers},
                          {{-63.5, 0}, BarTicks::Numbers},  {{0, 99}, BarTicks::Integers},
                          {{0, 7}, BarTicks::Integers},     {{-0.386, -0.317}, BarTicks::Numbers},
                          {{3.2, 58.7}, BarTicks::Numbers}, {{1e-5, 3e-4}, BarTicks::Numbers},
                          {{-220.5, 0}, BarTicks::Numbers}, {{0, 1}, BarTicks::Numbers}};
    for (const Case& c : cases) {
        for (float labelHeight : {16.5f, 22.2f, 28.f}) {
            for (float length = 3 * labelHeight + 2 * kColorbarLabelClearance; length < 260;
                 length += 3) {
                ASSERT_TRUE(threeLabelsFit(length, labelHeight));
                const auto ticks = colorbarTicks(c.range, length, labelHeight, c.kind);
                const std::string where = std::to_string(c.range.low) + ".." +
                                          std::to_string(c.range.high) + " on " +
                                          std::to_string(length) + " px";
                EXPECT_GE(ticks.size(), 3u) << where;
                for (std::size_t k = 0; k < ticks.size(); ++k) {
                    EXPECT_GE(ticks[k].value, c.range.low - 1e-9) << where;
                    EXPECT_LE(ticks[k].value, c.range.high + 1e-9) << where;
                    if (k == 0) continue;
                    const double apart = (ticks[k].value - ticks[k - 1].value) /
                                         (c.range.high - c.range.low) * length;
                    EXPECT_GE(apart, labelHeight + kColorbarLabelClearance - 1e-3)
                        << ticks[k - 1].label << " / " << ticks[k].label << " at " << where;
                    if (c.kind == BarTicks::Integers) {
                        EXPECT_EQ(ticks[k].value, std::round(ticks[k].value)) << where;
                    }
                    // Evenly spaced, always (#28: xPos's 6, 25, 50 were not, nor the rounded
                    // ends and middle a bar too short for a nice step fell back to).
                    if (k >= 2) {
                        const double step = ticks[1].value - ticks[0].value;
                        EXPECT_NEAR(ticks[k].value - ticks[k - 1].value, step, step * 1e-9)
                            << ticks[k - 2].label << ", " << ticks[k - 1].label << ", "
                            << ticks[k].label << " at " << where;
                    }
                }
            }
            // Too short for three: two at most, as before.
            const float short_ = 3 * labelHeight;
            EXPECT_FALSE(threeLabelsFit(short_, labelHeight));
        }
    }
    // No nice step fits: every other tick of a finer one, evenly spaced (the ends rounded inward
    // and the middle, −0.7, 0.5, 1.8, were not), labelled with the minus sign.
    std::vector<std::string> labels;
    for (const Tick& t : colorbarTicks({-0.72, 1.81}, 75, 22.2f)) labels.push_back(t.label);
    EXPECT_EQ(labels, (std::vector<std::string>{"\u22120.5", "0.5", "1.5"}));
    // xPos's score bar at one column read 6, 25, 50 (issue 28): 10, 30, 50, twenty apart.
    labels.clear();
    for (const Tick& t : colorbarTicks({5.6, 56}, 100, 22.4f)) labels.push_back(t.label);
    EXPECT_EQ(labels, (std::vector<std::string>{"10", "30", "50"}));
    // A finer nice step where it fits: 0 and −1000 became 0, −500 and −1000.
    labels.clear();
    for (const Tick& t : colorbarTicks({-1023, 0}, 75, 22.2f)) labels.push_back(t.label);
    EXPECT_EQ(labels, (std::vector<std::string>{"\u22121000", "\u2212500", "0"}));
    labels.clear();
    for (const Tick& t : colorbarTicks({0, 2 * pi}, 100, 22.2f, BarTicks::Angles))
        labels.push_back(t.label);
    EXPECT_EQ(labels, (std::vector<std::string>{"0", "π", "2π"}));
}

// A bar too short for any nice step's three labels (nor every other tick of a finer one) got
// the range's ends rounded inward and a rounded middle: 1e-5, 1.5e-4, 3e-4 from 1e-5 to 3e-4
// (gaps of 1.4e-4 and 1.5e-4). Worked by hand, 57.5 px of bar, labels 16.5 px: a gap must be
// 20.5 px, 1.034e-4 of the 2.9e-4 range; steps of 1e-4 (19.8 px) are too close and 2e-4 has one
// multiple in range. The ends in units of 1e-5 are 1 and 30, 29 apart (odd): one unit off the
// less round end gives 2, 16, 30, i.e. 2e-5, 1.6e-4, 3e-4, 27.8 px apart. An integer bar from 0.5
// to 3.4 holds no three (1, 2, 3 are 19.8 px apart): the two rounded ends, 1 and 3, in order
// (it drew 3 and 1).
TEST(ColorbarTest, ABarTooShortForANiceStepGetsEvenlySpacedTicks) {
    std::vector<double> values;
    for (const Tick& t : colorbarTicks({1e-5, 3e-4}, 57.5f, 16.5f)) values.push_back(t.value);
    ASSERT_EQ(values.size(), 3u);
    EXPECT_NEAR(values[0], 2e-5, 1e-15);
    EXPECT_NEAR(values[1], 1.6e-4, 1e-15);
    EXPECT_NEAR(values[2], 3e-4, 1e-15);
    values.clear();
    for (const Tick& t : colorbarTicks({0.5, 3.4}, 57.5f, 16.5f, BarTicks::Integers))
        values.push_back(t.value);
    EXPECT_EQ(values, (std::vector<double>{1, 3}));
}

}  // namespace
}  // namespace poslab
