// Axes and frames: ticks of short, huge and degenerate ranges end with a bounded number of finite
// ticks, and axis labels run on rather than being cut.
#include "poslab/figure/axes.hpp"

#include "../views/figure_checks.hpp"  // finishesPromptly
#include "poslab/base/heatmap_sample.hpp"
#include "poslab/figure/colorbar.hpp"
#include "poslab/figure/plot.hpp"
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
#include "../test_math.hpp"

namespace poslab {
namespace {

std::vector<double> tickValues(const std::vector<Tick>& ticks) {
    std::vector<double> values;
    for (const Tick& t : ticks) values.push_back(t.value);
    return values;
}

TEST(AxesTest, ShortAxesStillGetTwoTicks) {
    // Two labels' room on 0 .. 4095 used to give the nice step 5000 and a lone "0". Room for
    // two labels is room for two steps, as the usual step counts it (0 .. 10 in 2: 0, 5, 10):
    // 0, 2000, 4000 (this read 0, 4000, a step of 4000 that is no nice step).
    EXPECT_EQ(tickValues(linearTicks(0, 4095, 2, true)), (std::vector<double>{0, 2000, 4000}));
    EXPECT_EQ(tickValues(linearTicks(0, 10, 2, true)), (std::vector<double>{0, 5, 10}));
    EXPECT_EQ(tickValues(linearTicks(3, 4095, 2, true)), (std::vector<double>{2000, 4000}));
    // Likewise 0.25, 0.5, 0.75 (was 0.25, 0.75).
    const std::vector<double> fractions = tickValues(linearTicks(0.2, 0.9, 2));
    ASSERT_EQ(fractions.size(), 3u);
    EXPECT_NEAR(fractions[0], 0.25, 1e-12);
    EXPECT_NEAR(fractions[1], 0.5, 1e-12);
    EXPECT_NEAR(fractions[2], 0.75, 1e-12);
    // Unchanged where the usual step already gives two or more, or one label is all there is.
    EXPECT_EQ(tickValues(linearTicks(0, 100, 5, true)),
              (std::vector<double>{0, 20, 40, 60, 80, 100}));
    EXPECT_EQ(tickValues(linearTicks(0, 4095, 1, true)), (std::vector<double>{0}));
    EXPECT_EQ(tickValues(linearTicks(0, 0.5, 2, true)), (std::vector<double>{0}));
}

// ---- Extreme ranges: every tick and range computation ends, with a bounded number of ticks.
// The ranges came from data: T5 biases of +-1.7e308, q.k of 1e154 components, .npy tables.

constexpr double kMax = 1.7976931348623157e308;
constexpr double kDenorm = 4.9406564584124654e-324;

struct TickRange {
    double low, high;
};
class ExtremeTicksTest : public ::testing::TestWithParam<TickRange> {};

TEST_P(ExtremeTicksTest, LinearTicksEndWithFewFiniteTicksInsideTheRange) {
    const double low = GetParam().low, high = GetParam().high;  // lambdas capture these (clang 14)
    for (int maxCount : {1, 2, 5, 12}) {
        for (bool integers : {false, true}) {
            std::vector<Tick> ticks;
            finishesPromptly([&] { ticks = linearTicks(low, high, maxCount, integers); }, 2);
            EXPECT_LE(ticks.size(), std::size_t(3 * maxCount + 1)) << low << " .. " << high;
            const bool valid = std::isfinite(low) && std::isfinite(high) && low <= high;
            // An integer axis over a range holding no integer (0.1 .. 0.1 + 1e-10) has no tick.
            const bool holdsInteger = !integers || std::ceil(low - 1e-9) <= std::floor(high + 1e-9);
            if (valid && holdsInteger) {
                EXPECT_FALSE(ticks.empty()) << low << " .. " << high;
            }
            for (const Tick& t : ticks) {
                if (integers) {
                    EXPECT_EQ(t.value, std::round(t.value)) << low << " .. " << high;
                }
            }
            for (const Tick& t : ticks) {
                EXPECT_TRUE(std::isfinite(t.value));
                // Inside the range, up to the 1e-9 step slack the ticks allow at the ends.
                EXPECT_GE(t.value, low - std::abs(low) * 1e-9 - 1e-300);
                EXPECT_LE(t.value, high + std::abs(high) * 1e-9 + 1e-300);
                EXPECT_FALSE(t.label.empty());
            }
        }
    }
}

TEST_P(ExtremeTicksTest, LogTicksEndWithFewTicks) {
    const double low = GetParam().low, high = GetParam().high;  // lambdas capture these (clang 14)
    for (int maxCount : {-3, 0, 1, 5}) {
        std::vector<Tick> ticks;
        finishesPromptly([&] { ticks = logTicks(low, high, maxCount); }, 2);
        EXPECT_LE(ticks.size(), std::size_t(std::max(maxCount, 1)) + 1);
        for (const Tick& t : ticks) EXPECT_TRUE(std::isfinite(t.value) && t.value > 0);
    }
}

TEST_P(ExtremeTicksTest, RangeHelpersStayFinite) {
    const double low = GetParam().low, high = GetParam().high;  // lambdas capture these (clang 14)
    if (!std::isfinite(low) || !std::isfinite(high) || !(low <= high)) return;
    const ValueRange padded = paddedRange(low, high, 0.06);
    EXPECT_TRUE(std::isfinite(padded.low) && std::isfinite(padded.high));
    EXPECT_LE(padded.low, low);
    EXPECT_GE(padded.high, high);
    EXPECT_TRUE(padded.low < padded.high);
    // The fraction of the ends is 0 and 1 (0 and 0 for an empty range), never NaN.
    EXPECT_EQ(rangeFraction(low, low, high), 0.0);
    EXPECT_NEAR(rangeFraction(high, low, high), low == high ? 0.0 : 1.0, 1e-12);
    // A quarter of the way along, where the range holds enough doubles to have one there.
    const double width = high / 2 - low / 2;
    if (width > 1e-290 && width > 1e-9 * std::max(std::abs(low), std::abs(high))) {
        EXPECT_NEAR(rangeFraction(rangeValue(0.25, low, high), low, high), 0.25, 1e-9);
    }
}

TEST_P(ExtremeTicksTest, HeatmapsAndLinePlotsOfTheRangeAreDrawn) {
    const double low = GetParam().low, high = GetParam().high;  // lambdas capture these (clang 14)
    auto values = std::make_shared<Matrix>(2, 2);
    values->values = {low, high, kInf, -kInf};
    finishesPromptly(
        [&] {
            Figure figure = emptyFigure(400, 300, darkTheme());
            HeatmapSpec spec;
            spec.values = values;
            spec.range = {low, high};
            spec.x = {"x", low, high, false, false};
            drawHeatmap(figure, {0, 0, 400, 300}, spec, darkTheme());
            LinePlotSpec plot;
            plot.x = {"x", std::min(low, 0.0), std::max(high, 1.0)};
            plot.series.push_back({"s", {low, 0, high}, {high, low, 0}});
            drawLinePlot(figure, {0, 0, 400, 300}, plot, darkTheme());
            const ImageRgba image = colorize(*values, ColormapId::Viridis, {low, high});
            EXPECT_EQ(image.pixels.size(), 16u);
        },
        2);
}

INSTANTIATE_TEST_SUITE_P(
    Ranges, ExtremeTicksTest,
    ::testing::Values(TickRange{-kMax, kMax}, TickRange{-1.7e308, 1.7e308}, TickRange{0, kMax},
                      TickRange{-kMax, 0}, TickRange{kMax, kMax}, TickRange{-kMax, -kMax},
                      TickRange{1e308, kMax}, TickRange{0, kDenorm},
                      TickRange{kDenorm, 2 * kDenorm}, TickRange{-kDenorm, kDenorm},
                      TickRange{1, std::nextafter(1.0, 2.0)}, TickRange{1e16, 1e16 + 2},
                      TickRange{-1e-300, 1e-300}, TickRange{5, 5}, TickRange{0, 0},
                      TickRange{0, 4095}, TickRange{-kInf, kInf}, TickRange{0, kInf},
                      TickRange{-kInf, 0}, TickRange{NAN, 1}, TickRange{0, NAN}, TickRange{1, 0},
                      TickRange{1e-320, 1e308}, TickRange{2.2250738585072014e-308, 1},
                      TickRange{0.1, 0.1 + 1e-17}));

// Issue #28: a short plot at a projector's font cut its y label ("positi…", "bias a…"); the
// label now runs on down its strip past the plot's bottom, whole, over no other text.
TEST(AxesTest, AShortPlotsYLabelRunsPastItsBottomRatherThanBeingCut) {
    const Theme theme = scaledTheme(darkTheme(), 1.6f);
    LinePlotSpec spec;
    spec.x = {"position", 0, 100};
    spec.y = {"bias added to the score", -10, 0};
    spec.series.push_back({"", {0, 100}, {0, -10}});
    Figure figure = emptyFigure(600, 260, theme);
    PlotFrame frame;
    drawLinePlot(figure, {0, 0, 600, 260}, spec, theme, &frame);
    // The plot alone is too short for it even at the smallest size fitText allows.
    ASSERT_GT(estimateTextWidth(spec.y.label, theme.fontSize * 0.75f), frame.plot.height);
    bool found = false;
    for (const FigureItem& item : figure.items) {
        const auto* text = std::get_if<TextItem>(&item);
        if (text && text->vertical90 && text->text == spec.y.label) found = true;
    }
    EXPECT_TRUE(found);
    EXPECT_TRUE(cutTexts(figure).empty());
    EXPECT_TRUE(overlappingTexts(figure).empty());
    EXPECT_TRUE(textsOutsideFigure(figure).empty());
}

// Issue #28, print: at one column (--width 600, text 1.6x with an 8 pt floor) a long x label
// was cut with "…"; it wraps onto lines under the tick labels, each within the plot's width
// (measured as the view tests measure), and the plot gives up the rows they take.
TEST(AxesTest, ALongXLabelAtPrintSizeWrapsUnderTheTicks) {
    Theme theme = scaledTheme(paperTheme(), 1.6f);
    theme.minTextSize = 8 / 0.42f / 0.859f;  // 8 pt at 0.42 pt a pixel, as a line height
    LinePlotSpec spec;
    spec.x = {"distance between query and key positions, in tokens (log scale from 1 to 65536)", 0,
              100};
    spec.y = {"score", -1, 1};
    spec.series.push_back({"", {0, 100}, {-1, 1}});
    Figure figure = emptyFigure(600, 400, theme);
    PlotFrame frame;
    drawLinePlot(figure, {0, 0, 600, 400}, spec, theme, &frame);
    // Too long for one line even at the floor size.
    ASSERT_GT(estimateTextWidth(spec.x.label, theme.minTextSize), frame.plot.width);
    std::string joined;
    int lines = 0;
    for (const FigureItem& item : figure.items) {
        const auto* text = std::get_if<TextItem>(&item);
        if (!text || text->vertical90 || spec.x.label.find(text->text) == std::string::npos ||
            text->text.size() < 8)
            continue;
        ++lines;
        joined += (joined.empty() ? "" : " ") + text->text;
        const auto [left, right] = textExtent(*text);
        EXPECT_GE(left, frame.plot.x - 0.5f) << text->text;
        EXPECT_LE(right, frame.plot.right() + 0.5f) << text->text;
        EXPECT_GE(text->size, theme.minTextSize - 1e-3f);
    }
    EXPECT_GE(lines, 2);
    EXPECT_EQ(joined, spec.x.label);  // every word, in order, none cut
    EXPECT_TRUE(cutTexts(figure).empty());
    EXPECT_TRUE(overlappingTexts(figure).empty());
    EXPECT_TRUE(textsOutsideFigure(figure).empty());
}

// Issue 28 (Similarity at 1024x768 F5): an x label too long for its plot at full size was
// shrunk below its tick labels. AxisSpec::shortLabel is drawn instead, at full size, with the
// plot laid out for it; where the long label fits it is drawn whole.
TEST(AxesTest, AnXLabelTooLongForThePlotDrawsItsShortForm) {
    const Theme theme;
    LinePlotSpec spec;
    spec.x = {"offset j − i (key − query)", -10, 10};
    spec.x.shortLabel = "offset j − i";
    spec.y = {"", -1, 1};
    spec.series.push_back({"", {-10, 10}, {-1, 1}});
    auto draw = [&](const LinePlotSpec& s, float width, PlotFrame& frame) {
        Figure figure = emptyFigure(width, 300, theme);
        drawLinePlot(figure, {0, 0, width, 300}, s, theme, &frame);
        return figure;
    };
    auto labelOf = [&](const Figure& figure) -> const TextItem* {
        for (const FigureItem& item : figure.items)
            if (const auto* text = std::get_if<TextItem>(&item))
                if (text->text.rfind("offset", 0) == 0) return text;
        return nullptr;
    };
    PlotFrame narrowFrame, shortFrame, wideFrame;
    const Figure narrow = draw(spec, 220, narrowFrame);
    // The long label is wider than the plot at full size (0.56 em a character), the short not.
    ASSERT_GT(0.56f * theme.fontSize * 26, narrowFrame.plot.width);
    ASSERT_LT(0.56f * theme.fontSize * 12, narrowFrame.plot.width);
    const TextItem* label = labelOf(narrow);
    ASSERT_NE(label, nullptr);
    EXPECT_EQ(label->text, "offset j − i");
    EXPECT_FLOAT_EQ(label->size, theme.fontSize);
    // Laid out as a plot labelled with the short form alone: no rows kept for the long one.
    LinePlotSpec shortOnly = spec;
    shortOnly.x = {"offset j − i", -10, 10};
    draw(shortOnly, 220, shortFrame);
    EXPECT_FLOAT_EQ(narrowFrame.plot.bottom(), shortFrame.plot.bottom());
    const Figure wide = draw(spec, 600, wideFrame);
    ASSERT_NE(labelOf(wide), nullptr);
    EXPECT_EQ(labelOf(wide)->text, "offset j − i (key − query)");
    EXPECT_FLOAT_EQ(labelOf(wide)->size, theme.fontSize);
}

// Issue 28: at one column many axes named only their ends (pair 0 and 50, bucket 0 and 20). An
// axis shows at least three labelled values wherever a nice step's labels fit with half an em
// between them (x) or a quarter em (y): at integers on an integer axis, evenly spaced, and the
// figure records which values it labelled (Figure::axes).
TEST(AxesTest, AOneColumnPlotNamesThreeValuesOnEachAxis) {
    Theme theme = scaledTheme(paperTheme(), 1.6f);
    theme.minTextSize = 8 / 0.42f / 0.859f;
    LinePlotSpec spec;
    spec.x = integerAxis("pair", 0, 63);
    spec.y = {"bucket", 0, 32, false, false, true};
    spec.autoRangeY = false;
    spec.series.push_back({"", {0, 63}, {0, 32}});
    Figure figure = emptyFigure(330, 260, theme);
    PlotFrame frame;
    drawLinePlot(figure, {0, 0, 330, 260}, spec, theme, &frame);
    ASSERT_EQ(figure.axes.size(), 2u);
    for (const AxisRecord& axis : figure.axes) {
        const std::string which = axis.vertical ? "y" : "x";
        ASSERT_GE(axis.labelled.size(), 3u) << which;
        const double step = axis.labelled[1] - axis.labelled[0];
        for (std::size_t k = 0; k < axis.labelled.size(); ++k) {
            EXPECT_EQ(axis.labelled[k], std::round(axis.labelled[k])) << which;
            if (k > 0) {
                EXPECT_DOUBLE_EQ(axis.labelled[k] - axis.labelled[k - 1], step) << which;
            }
        }
    }
    // The labels as drawn: below the plot side by side, left of it one above another, clear.
    std::vector<Box> below, left;
    for (const FigureItem& item : figure.items) {
        const auto* t = std::get_if<TextItem>(&item);
        if (!t || t->vertical90 || t->text.empty()) continue;
        if (t->vertical == VerticalAlign::Top && t->anchor.y > frame.plot.bottom() &&
            t->anchor.y < frame.plot.bottom() + theme.fontSize)
            below.push_back(textBox(*t));
        if (t->horizontal == HorizontalAlign::Right && t->anchor.x < frame.plot.x)
            left.push_back(textBox(*t));
    }
    ASSERT_GE(below.size(), 3u);
    ASSERT_GE(left.size(), 3u);
    for (std::size_t k = 1; k < below.size(); ++k)
        EXPECT_GE(below[k].x - below[k - 1].right(), theme.fontSize * 0.5f - 1e-3f);
    for (std::size_t k = 1; k < left.size(); ++k)
        EXPECT_GE(left[k - 1].y - left[k].bottom(), theme.fontSize * 0.25f - 1e-3f);
}

TEST(AxesTest, TicksOfARangeWiderThanTheLargestDoubleAreRoundNumbers) {
    // Failed before (hung): -1.7e308 .. 1.7e308 has width inf; the fallback search divided an
    // infinite step by 10 forever. Now a tenth of the range is ticked, then scaled back.
    std::vector<Tick> ticks;
    finishesPromptly([&] { ticks = linearTicks(-1.7e308, 1.7e308, 5); }, 2);
    ASSERT_EQ(ticks.size(), 3u);
    EXPECT_NEAR(ticks[0].value, -1e308, 1e293);  // within 1e-15 relative: scaled by 10 back
    EXPECT_EQ(ticks[1].value, 0.0);
    EXPECT_NEAR(ticks[2].value, 1e308, 1e293);
    EXPECT_EQ(ticks[0].label, "$-10^{308}$");  // one style per axis, the minus sign
    EXPECT_EQ(ticks[2].label, "$10^{308}$");
}

TEST(AxesTest, AHugeTickCountIsCapped) {
    const auto ticks = linearTicks(0, 1e6, 2000000000);
    EXPECT_LE(ticks.size(), 3001u);
    EXPECT_GE(ticks.size(), 2u);
}

}  // namespace
}  // namespace poslab

namespace poslab {
namespace {

TEST(AxisLabelTest, OnAProjectorAYLabelIsNotShrunkPastFourFifthsOfItsSize) {
    // Presentation mode (1.75 times the screen's text, no file's floor): "period (positions)"
    // is about 247 px long by estimate (18 characters x 0.56 x 24.5 px), longer than its short
    // plot's side. It used to be shrunk whole to about 70 % (17 px, small print on a projector
    // and a fault of the layout check); now it takes two columns or drops its unit instead.
    const Theme theme = scaledTheme(darkTheme(), 1.75f);
    LinePlotSpec spec;
    spec.x = {"pair", 0, 64};
    spec.y = {"period (positions)", 1, 1e5, true};
    spec.autoRangeY = false;
    LineSeries s;
    s.x = {0, 64};
    s.y = {10, 1e4};
    spec.series = {s};
    spec.legend = false;
    Figure figure = emptyFigure(700, 240, theme);
    drawLinePlot(figure, {0, 0, 700, 240}, spec, theme);
    std::string label;
    for (const auto& item : figure.items) {
        const auto* text = std::get_if<TextItem>(&item);
        if (!text || !text->vertical90) continue;
        label += (label.empty() ? "" : " ") + text->text;
        EXPECT_GE(text->size, theme.fontSize * 0.8f - 0.01f) << text->text;
    }
    EXPECT_EQ(label.rfind("period", 0), 0u) << label;
    EXPECT_EQ(label.find("…"), std::string::npos) << label;
}

}  // namespace
}  // namespace poslab
