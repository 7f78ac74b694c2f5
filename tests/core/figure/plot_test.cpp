#include "poslab/figure/plot.hpp"

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

// Masked (-inf) cells are painted in the theme's masked colour by the heatmap itself, opaque,
// so renderers need neither a plot-sized underlay nor blending (software GL pays per pixel for
// both). Only a heatmap with no cells leaves the masked colour showing in the plot.
TEST(PlotTest, MaskedCellsTakeTheThemesColourInTheHeatmapWithNoUnderlay) {
    const Theme theme = darkTheme();
    auto spec = [](std::shared_ptr<const Matrix> m) {
        HeatmapSpec s;
        s.values = std::move(m);
        s.x = {"x", 0, 2, false, true};
        s.y = {"y", 0, 2, false, true};
        s.range = {-1, 1};
        return s;
    };
    Matrix masked(2, 2);
    masked(0, 1) = 0.5;
    masked(1, 0) = -INFINITY;

    Figure a = emptyFigure(400, 300, theme);
    PlotFrame frameA;
    const auto cellsShown = std::make_shared<const Matrix>(masked);
    drawHeatmap(a, {0, 0, 400, 300}, spec(cellsShown), theme, &frameA);
    EXPECT_EQ(maskedUnderlays(a, frameA, theme), 0);
    int heatmaps = 0;
    for (const auto& item : a.items) {
        const auto* heatmap = std::get_if<HeatmapItem>(&item);
        if (!heatmap || heatmap->values != cellsShown) continue;  // not the colour bar
        ++heatmaps;
        EXPECT_EQ(heatmap->masked, theme.masked);
        EXPECT_EQ(heatmap->masked.a, 255);
        // The colour the renderers get for the masked cell, and for the others the colormap's.
        const ImageRgba cells =
            colorize(*heatmap->values, heatmap->colormap, heatmap->range, heatmap->masked);
        const std::uint8_t* m = &cells.pixels[(1 * 2 + 0) * 4];
        EXPECT_EQ((Rgba{m[0], m[1], m[2], m[3]}), theme.masked);
        const std::uint8_t* top = &cells.pixels[(0 * 2 + 1) * 4];
        // 0.5 in [-1, 1] is three quarters up the scale: entry round(0.75 * 255) = 191.
        EXPECT_EQ((Rgba{top[0], top[1], top[2], top[3]}), colormapTable(heatmap->colormap)[191]);
    }
    EXPECT_EQ(heatmaps, 1);

    Figure b = emptyFigure(400, 300, theme);
    PlotFrame frameB;
    drawHeatmap(b, {0, 0, 400, 300}, spec(std::make_shared<const Matrix>()), theme, &frameB);
    EXPECT_EQ(maskedUnderlays(b, frameB, theme), 1);  // no cells: the plot shows masked
}

// The horizontal extent [left, right] of a text item, by the same estimate the layout uses.
std::pair<float, float> textExtent(const TextItem& t) {
    const float width = estimateTextWidth(t.text, t.size);
    switch (t.horizontal) {
        case HorizontalAlign::Left:
            return {t.anchor.x, t.anchor.x + width};
        case HorizontalAlign::Center:
            return {t.anchor.x - width / 2, t.anchor.x + width / 2};
        default:
            return {t.anchor.x - width, t.anchor.x};
    }
}

TEST(PlotTest, CornerNotesKeepClearOfTheAxisLabelOrStayOut) {
    // A narrow heatmap (the ALiBi figure at 500 px wide) once drew "each pixel: mean of ..."
    // over its "key j" label. The note now ends left of the area's edge and starts right of the
    // label, or is left out.
    const Theme theme = paperTheme();
    const std::string note = "each pixel: mean of unmasked 19x19 cells";
    int drawnCount = 0;
    for (float width : {90.0f, 160.0f, 240.0f, 400.0f, 900.0f}) {
        const Box area{10, 0, width, 200};
        HeatmapSpec spec;
        spec.values = std::make_shared<const Matrix>(2, 2);
        spec.x = {"key j", 0, 2, false, true};
        spec.y = {"query i", 0, 2, false, true};
        spec.range = {0, 1};
        Figure figure = emptyFigure(width + 20, 200, theme);
        PlotFrame frame;
        drawHeatmap(figure, area, spec, theme, &frame);
        const std::size_t before = figure.items.size();
        drawCornerNote(figure, area, &frame, note, theme);
        const TextItem* axisLabel = nullptr;
        for (std::size_t i = 0; i < before; ++i) {
            const auto* text = std::get_if<TextItem>(&figure.items[i]);
            // "key j", or fitted to a narrow plot's width ("ke…"): the label under the plot.
            if (text && text->vertical == VerticalAlign::Bottom && text->anchor.y == 198)
                axisLabel = text;
        }
        ASSERT_NE(axisLabel, nullptr) << width;
        if (figure.items.size() == before) continue;  // no room: left out
        ASSERT_EQ(figure.items.size(), before + 1);
        const auto* drawn = std::get_if<TextItem>(&figure.items.back());
        ASSERT_NE(drawn, nullptr);
        EXPECT_GT(textExtent(*drawn).first, textExtent(*axisLabel).second) << width;
        EXPECT_LE(textExtent(*drawn).second, area.right()) << width;
        if (width >= 900) {
            EXPECT_EQ(drawn->text, note);  // room enough: unchanged
        }
        ++drawnCount;
    }
    EXPECT_GE(drawnCount, 2);  // shrunk or cut at 400 px, whole at 900 px
}

std::vector<double> tickValues(const std::vector<Tick>& ticks) {
    std::vector<double> values;
    for (const Tick& t : ticks) values.push_back(t.value);
    return values;
}

TEST(PlotTest, ShortAxesStillGetTwoTicks) {
    // Two labels' room on 0 .. 4095 used to give the nice step 5000 and a lone "0".
    EXPECT_EQ(tickValues(linearTicks(0, 4095, 2, true)), (std::vector<double>{0, 4000}));
    EXPECT_EQ(tickValues(linearTicks(3, 4095, 2, true)), (std::vector<double>{2000, 4000}));
    const std::vector<double> fractions = tickValues(linearTicks(0.2, 0.9, 2));
    ASSERT_EQ(fractions.size(), 2u);
    EXPECT_NEAR(fractions[0], 0.25, 1e-12);
    EXPECT_NEAR(fractions[1], 0.75, 1e-12);
    // Unchanged where the usual step already gives two or more, or one label is all there is.
    EXPECT_EQ(tickValues(linearTicks(0, 100, 5, true)),
              (std::vector<double>{0, 20, 40, 60, 80, 100}));
    EXPECT_EQ(tickValues(linearTicks(0, 4095, 1, true)), (std::vector<double>{0}));
    EXPECT_EQ(tickValues(linearTicks(0, 0.5, 2, true)), (std::vector<double>{0}));
}

TEST(PlotTest, BlockNotesSayHowManyCellsEachPixelHolds) {
    HeatmapSample sample;
    EXPECT_EQ(blockNote(sample, "mean of"), "");  // one cell per texel: nothing to say
    sample.rowsPerTexel = 19;
    sample.colsPerTexel = 1;
    EXPECT_EQ(blockNote(sample, "mean of unmasked"), "each pixel: mean of unmasked 19x1 cells");
}

TEST(PlotTest, ColourBarCaptionsNoLongerThanTheBar) {
    // Rotated along the bar, a long caption on a short plot used to run past the figure's top
    // and bottom edges. Now it takes two lines, split at "; ", and each line is cut to fit.
    const Theme theme = paperTheme();
    const std::string label =
        "score, mean of 3328 x 2560 cells per pixel; range from |m - n| < 16384";
    for (float height : {140.0f, 400.0f, 1200.0f}) {
        HeatmapSpec spec;
        spec.title = "Attention score";
        spec.values = std::make_shared<const Matrix>(2, 2);
        spec.range = {-1, 1};
        spec.colorbarLabel = label;
        Figure figure = emptyFigure(600, height, theme);
        PlotFrame frame;
        drawHeatmap(figure, {0, 0, 600, height}, spec, theme, &frame);
        std::vector<std::string> lines;
        for (const auto& item : figure.items) {
            const auto* text = std::get_if<TextItem>(&item);
            if (!text || !text->vertical90 || text->text == "position") continue;
            lines.push_back(text->text);
            EXPECT_LE(estimateTextWidth(text->text, text->size), frame.plot.height + 0.01f)
                << height << ": " << text->text;
            EXPECT_LT(text->anchor.x + text->size, 600.0f) << height;  // inside the figure
        }
        if (height >= 1200) {
            EXPECT_EQ(lines, std::vector<std::string>{label});
        } else if (height >= 400) {  // two whole lines
            EXPECT_EQ(lines,
                      (std::vector<std::string>{"score, mean of 3328 x 2560 cells per pixel;",
                                                "range from |m - n| < 16384"}));
        } else {
            EXPECT_EQ(lines.size(), 2u) << height;
        }
    }
}

TEST(PlotTest, LegendsStayInsideTheirPlot) {
    // A long series name once pushed the legend box past the plot's left edge and out of the
    // figure (the learned similarity curve's "query i = 2000 (the mean over all queries ...)").
    const Theme theme = paperTheme();
    for (float width : {260.0f, 420.0f, 1000.0f}) {
        LinePlotSpec spec;
        spec.x = {"offset", -10, 10};
        spec.y = {"cosine", -1, 1};
        LineSeries series;
        series.name = "query i = 2000 (no mean over all queries: it costs O(L²·d))";
        series.x = {-10, 10};
        series.y = {0, 1};
        spec.series = {series};
        Figure figure = emptyFigure(width, 300, theme);
        PlotFrame frame;
        drawLinePlot(figure, {0, 0, width, 300}, spec, theme, &frame);
        int names = 0;
        for (const auto& item : figure.items) {
            const auto* text = std::get_if<TextItem>(&item);
            if (!text || text->text.rfind("query i", 0) != 0) continue;
            ++names;
            const auto [left, right] = textExtent(*text);
            EXPECT_GE(left, frame.plot.x) << width;
            EXPECT_LE(right, frame.plot.right()) << width;
            if (width >= 1000) {
                EXPECT_EQ(text->text, series.name);
            }
        }
        EXPECT_EQ(names, 1) << width;
    }
}
// ---- Extreme ranges: every tick and range computation ends, with a bounded number of ticks.
// The ranges came from data: T5 biases of +-1.7e308, q.k of 1e154 components, .npy tables.

constexpr double kMax = 1.7976931348623157e308;
constexpr double kInf = INFINITY;
constexpr double kDenorm = 4.9406564584124654e-324;

// Runs `call` on another thread and fails (instead of hanging the suite) past two seconds.
template <typename Call>
bool finishesPromptly(Call call) {
    auto done = std::async(std::launch::async, call);
    if (done.wait_for(std::chrono::seconds(2)) == std::future_status::ready) return true;
    // A hung tick loop cannot be stopped; leave the thread and end the test run here.
    ADD_FAILURE() << "did not finish within 2 s";
    std::_Exit(1);
}

struct TickRange {
    double low, high;
};
class ExtremeTicksTest : public ::testing::TestWithParam<TickRange> {};

TEST_P(ExtremeTicksTest, LinearTicksEndWithFewFiniteTicksInsideTheRange) {
    const auto [low, high] = GetParam();
    for (int maxCount : {1, 2, 5, 12}) {
        for (bool integers : {false, true}) {
            std::vector<Tick> ticks;
            finishesPromptly([&] { ticks = linearTicks(low, high, maxCount, integers); });
            EXPECT_LE(ticks.size(), std::size_t(3 * maxCount + 1)) << low << " .. " << high;
            const bool valid = std::isfinite(low) && std::isfinite(high) && low <= high;
            // An integer axis over a range holding no integer (0.1 .. 0.1 + 1e-10) has no tick.
            const bool holdsInteger = !integers || std::ceil(low - 1e-9) <= std::floor(high + 1e-9);
            if (valid && holdsInteger) {
                EXPECT_FALSE(ticks.empty()) << low << " .. " << high;
            }
            for (const Tick& t : ticks) {
                if (integers) EXPECT_EQ(t.value, std::round(t.value)) << low << " .. " << high;
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
    const auto [low, high] = GetParam();
    for (int maxCount : {-3, 0, 1, 5}) {
        std::vector<Tick> ticks;
        finishesPromptly([&] { ticks = logTicks(low, high, maxCount); });
        EXPECT_LE(ticks.size(), std::size_t(std::max(maxCount, 1)) + 1);
        for (const Tick& t : ticks) EXPECT_TRUE(std::isfinite(t.value) && t.value > 0);
    }
}

TEST_P(ExtremeTicksTest, RangeHelpersStayFinite) {
    const auto [low, high] = GetParam();
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
    const auto [low, high] = GetParam();
    auto values = std::make_shared<Matrix>(2, 2);
    values->values = {low, high, kInf, -kInf};
    finishesPromptly([&] {
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
    });
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
TEST(PlotTest, AShortPlotsYLabelRunsPastItsBottomRatherThanBeingCut) {
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

TEST(PlotTest, TicksOfARangeWiderThanTheLargestDoubleAreRoundNumbers) {
    // Failed before (hung): -1.7e308 .. 1.7e308 has width inf; the fallback search divided an
    // infinite step by 10 forever. Now a tenth of the range is ticked, then scaled back.
    std::vector<Tick> ticks;
    finishesPromptly([&] { ticks = linearTicks(-1.7e308, 1.7e308, 5); });
    ASSERT_EQ(ticks.size(), 3u);
    EXPECT_NEAR(ticks[0].value, -1e308, 1e293);  // within 1e-15 relative: scaled by 10 back
    EXPECT_EQ(ticks[1].value, 0.0);
    EXPECT_NEAR(ticks[2].value, 1e308, 1e293);
    EXPECT_EQ(ticks[0].label, "$-10^{308}$");  // one style per axis, the minus sign
    EXPECT_EQ(ticks[2].label, "$10^{308}$");
}

TEST(PlotTest, AHugeTickCountIsCapped) {
    const auto ticks = linearTicks(0, 1e6, 2000000000);
    EXPECT_LE(ticks.size(), 3001u);
    EXPECT_GE(ticks.size(), 2u);
}

TEST(PlotTest, ColorbarOnItsOwnFillsItsBoxAndLabelsIntegerTicks) {
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

TEST(PlotTest, AngleTicksSitAtMultiplesOfPi) {
    const double pi = 3.141592653589793;
    auto labels = [](const std::vector<Tick>& ticks) {
        std::vector<std::string> out;
        for (const Tick& t : ticks) out.push_back(t.label);
        return out;
    };
    const std::vector<Tick> full = piTicks(0, 2 * pi, 10);
    EXPECT_EQ(labels(full), (std::vector<std::string>{"0", "π/2", "π", "3π/2", "2π"}));
    for (std::size_t k = 0; k < full.size(); ++k) EXPECT_NEAR(full[k].value, k * pi / 2, 1e-12);
    EXPECT_EQ(labels(piTicks(0, 2 * pi, 3)), (std::vector<std::string>{"0", "π", "2π"}));
    EXPECT_EQ(labels(piTicks(-pi, pi, 5)),
              (std::vector<std::string>{"\u2212π", "\u2212π/2", "0", "π/2", "π"}));
    EXPECT_EQ(labels(piTicks(0, 8 * pi, 5)),
              (std::vector<std::string>{"0", "2π", "4π", "6π", "8π"}));
    EXPECT_TRUE(piTicks(1, 0, 5).empty());
    EXPECT_TRUE(piTicks(-1.7e308, 1.7e308, 5).empty());  // no multiple of π worth a label

    // A heatmap asking for angle ticks labels its colour bar with them.
    HeatmapSpec spec;
    spec.values = std::make_shared<const Matrix>(2, 2);
    spec.colormap = ColormapId::Twilight;
    spec.range = {0, 2 * pi};
    spec.angleTicks = true;
    Figure figure = emptyFigure(600, 400, paperTheme());
    drawHeatmap(figure, {0, 0, 600, 400}, spec, paperTheme());
    bool threeHalves = false;
    for (const auto& item : figure.items) {
        if (const auto* t = std::get_if<TextItem>(&item)) threeHalves |= t->text == "3π/2";
    }
    EXPECT_TRUE(threeHalves);
}

TEST(PlotTest, SquareCellsAreAsWideAsTall) {
    // An L x L matrix in a wide area: without squareCells the plot fills the width and a cell
    // is wider than tall; with it, pixels per cell agree across and down.
    HeatmapSpec spec;
    spec.values = std::make_shared<const Matrix>(64, 64);
    spec.x = {"key", 0, 64, false, true};
    spec.y = {"query", 0, 64, false, true};
    spec.range = {0, 1};
    for (bool square : {false, true}) {
        spec.squareCells = square;
        for (Box area : {Box{0, 0, 1200, 500}, Box{0, 0, 400, 900}}) {
            Figure figure = emptyFigure(area.width, area.height, paperTheme());
            PlotFrame frame;
            drawHeatmap(figure, area, spec, paperTheme(), &frame);
            const float across = frame.plot.width / 64, down = frame.plot.height / 64;
            if (square) {
                EXPECT_NEAR(across, down, 1e-3f) << area.width;
                // Inside the area, and centred across it (the colour bar follows the plot).
                EXPECT_GE(frame.plot.x, area.x);
                EXPECT_LE(frame.plot.bottom(), area.bottom());
            } else {
                EXPECT_GT(std::abs(across - down), 1.f) << area.width;
            }
        }
    }
}

// A square heatmap in a tall, narrow area (the Similarity view at 1024x768) has a bar shorter
// than the area: its caption, running along the bar, stays within the bar's length.
TEST(PlotTest, ColourBarCaptionOfSquareCellsStaysAlongTheBar) {
    HeatmapSpec spec;
    spec.values = std::make_shared<const Matrix>(64, 64);
    spec.x = {"position j", 0, 64, false, true};
    spec.y = {"position i", 0, 64, false, true};
    spec.range = {-1, 1};
    spec.squareCells = true;
    spec.colorbarLabel = "cosine similarity (mean of 1 x 2 cells per pixel)";
    const Box area{0, 0, 375, 678};
    Figure figure = emptyFigure(area.width, area.height, darkTheme());
    PlotFrame frame;
    drawHeatmap(figure, area, spec, darkTheme(), &frame);
    ASSERT_LT(frame.plot.height, 300);  // square: about as tall as the plot is wide
    int captions = 0;
    for (const FigureItem& item : figure.items) {
        const auto* text = std::get_if<TextItem>(&item);
        if (!text || !text->vertical90 || text->anchor.x < frame.plot.right()) continue;
        ++captions;
        EXPECT_LE(estimateTextWidth(text->text, text->size), frame.plot.height + 0.5f)
            << text->text;
    }
    EXPECT_GE(captions, 1);
}

// A text that fits once shrunk in proportion is shrunk, never cut: the shrunk width equals
// maxWidth only up to float rounding (a presentation title lost its last letters to it).
TEST(PlotTest, FitTextShrinksWithoutCuttingWhenTheProportionalSizeFits) {
    const std::string title =
        "Past the training length (512 → 2048 positions): what each encoding does";  // 72 glyphs
    const float size = 17 * 1.75f, maxWidth = 1010 - size;
    const FittedText fitted = fitText(title, size, maxWidth);
    EXPECT_EQ(fitted.text, title);
    // 0.56 * s * 72 = maxWidth: s = 980.25 / 40.32 = 24.31 px (within 0.75 of 29.75 = 22.3).
    EXPECT_NEAR(fitted.size, maxWidth / (0.56f * 72), 0.01f);
}

// Presentation mode and HiDPI scale a figure as a whole: a plot drawn at theme scale 2 in an
// area twice the size has every stroke twice as wide, every dot twice the radius, every tick
// and legend swatch twice as long as at scale 1 (the same figure, magnified).
TEST(PlotTest, ScaledThemeScalesLinesMarkersTicksAndSwatches) {
    LinePlotSpec spec;
    spec.title = "t";
    spec.x = {"x", 0, 10};
    spec.y = {"y", 0, 1};
    LineSeries series;
    series.name = "series";
    series.markers = true;
    for (int i = 0; i <= 10; ++i) series.x.push_back(i), series.y.push_back(0.05 * i);
    spec.series = {series};
    spec.markers = {Marker{true, 5, "", Rgba{255, 0, 0, 255}, false, false}};
    auto strokes = [&](float factor) {
        const Theme theme = scaledTheme(darkTheme(), factor);
        EXPECT_FLOAT_EQ(theme.lineScale, factor);
        Figure figure = emptyFigure(600 * factor, 400 * factor, theme);
        drawLinePlot(figure, {0, 0, 600 * factor, 400 * factor}, spec, theme);
        std::set<int> sizes;  // in 1/100 px: stroke widths, dot radii, tick and swatch lengths
        auto add = [&](float size) { sizes.insert(int(std::lround(size / factor * 100))); };
        for (const FigureItem& item : figure.items) {
            if (const auto* line = std::get_if<LineItem>(&item)) {
                add(line->width);
                const float length =
                    std::hypot(line->to.x - line->from.x, line->to.y - line->from.y);
                if (length < 40 * factor) add(length);  // ticks and swatches, not grid lines
            } else if (const auto* poly = std::get_if<PolylineItem>(&item)) {
                add(poly->width);
            } else if (const auto* dot = std::get_if<CircleItem>(&item)) {
                add(dot->radius);
            }
        }
        return sizes;
    };
    // Divided by the factor, the sizes at scale 2 are those at scale 1.
    const std::set<int> one = strokes(1), two = strokes(2);
    EXPECT_EQ(one, two);
    // 1 px axes, 1.5 px marker, 1.8 px series, 2.5 px dots and swatches, 4 px ticks, 18 px swatch.
    EXPECT_EQ(one, (std::set<int>{100, 150, 180, 250, 400, 1800}));
    // The unscaled sizes are the documented ones: 1 px axes, 4 px ticks, 2.5 px dots.
    EXPECT_FLOAT_EQ(strokeWidth(darkTheme(), 4), 4);
    EXPECT_FLOAT_EQ(strokeWidth(scaledTheme(darkTheme(), 1.75f), 4), 7);
}

// Dots denser than the pixels (Context > Randomized: 16 draws of 4,096 positions on ~1,000 pixel
// columns) are drawn once per pixel they touch: the set of pixels with a dot is the set every
// point maps to (the identity), with far fewer circles; a sparse series keeps every dot.
TEST(PlotTest, DotsDenserThanThePixelsAreDrawnOncePerPixel) {
    auto dotsOf = [](int points) {
        LinePlotSpec spec;
        spec.title = "t";
        spec.x = {"x", 0, 1};
        spec.y = {"y", 0, 1};
        LineSeries series;
        series.markers = true;
        series.width = 0;
        for (int i = 0; i < points; ++i) {
            series.x.push_back(double(i) / (points - 1));
            series.y.push_back(0.5);
        }
        spec.series = {series};
        spec.legend = false;
        Figure figure = emptyFigure(400, 300, darkTheme());
        drawLinePlot(figure, {0, 0, 400, 300}, spec, darkTheme());
        std::vector<Point> dots;
        for (const FigureItem& item : figure.items)
            if (const auto* dot = std::get_if<CircleItem>(&item)) dots.push_back(dot->center);
        return dots;
    };
    const std::vector<Point> sparse = dotsOf(50);
    EXPECT_EQ(sparse.size(), 50u);
    const std::vector<Point> dense = dotsOf(20000);
    ASSERT_FALSE(dense.empty());
    // The plot is under 400 pixels wide, and the points lie on one row: one dot per column.
    EXPECT_LT(dense.size(), 400u);
    std::set<long> columns;
    for (const Point& p : dense) EXPECT_TRUE(columns.insert(std::lround(p.x)).second);
    // Every column a point falls in has its dot: the first and last points' columns, and no gap
    // wider than one pixel between neighbouring dots.
    EXPECT_NEAR(dense.front().x, sparse.front().x, 1e-3);
    EXPECT_NEAR(dense.back().x, sparse.back().x, 1.0);
    for (std::size_t i = 1; i < dense.size(); ++i) EXPECT_LE(dense[i].x - dense[i - 1].x, 1.5f);
}

// A square map in a narrow figure (Similarity at 480x320: 138 x 230 pixels) has a bar too short
// for any of its caption: a lone "…" said nothing and sat on the top tick label. No caption then,
// and the bar's tick labels keep clear of everything.
TEST(PlotTest, ColourBarCaptionTooLongForAShortBarIsLeftOut) {
    HeatmapSpec spec;
    spec.values = std::make_shared<const Matrix>(64, 64);
    spec.x = {"position j", 0, 64, false, true};
    spec.y = {"position i", 0, 64, false, true};
    spec.range = {-1, 1};
    spec.squareCells = true;
    spec.colorbarLabel = "cosine similarity";
    const Box area{0, 0, 138, 230};
    Figure figure = emptyFigure(area.width, area.height, darkTheme());
    PlotFrame frame;
    drawHeatmap(figure, area, spec, darkTheme(), &frame);
    for (const FigureItem& item : figure.items) {  // the caption: rotated, right of the plot
        const auto* text = std::get_if<TextItem>(&item);
        if (text && text->vertical90 && text->anchor.x > frame.plot.right()) {
            EXPECT_NE(text->text, "…") << text->anchor.x;
        }
    }
    EXPECT_TRUE(overlappingTexts(figure).empty());
}

// A plot title too long for its plot's width takes two lines at a readable size instead of being
// cut, broken between words rather than inside "j - i", and the plot starts one line lower
// (T5's panels on a projector showed "Bucket of j - i (32 b…").
TEST(PlotTest, LongPlotTitlesTakeTwoLinesBetweenWords) {
    const Theme theme = scaledTheme(darkTheme(), 1.75f);
    const std::string title = "Bucket id against j - i (bidirectional)";
    LinePlotSpec spec;
    spec.x = {"relative position", -10, 10};
    spec.y = {"bucket", 0, 32};
    spec.legend = false;
    spec.series.push_back({"", {-10, 10}, {0, 32}});
    auto draw = [&](const std::string& text, PlotFrame& frame) {
        spec.title = text;
        Figure figure = emptyFigure(420, 400, theme);
        drawLinePlot(figure, {0, 0, 420, 400}, spec, theme, &frame);
        std::vector<TextItem> lines;
        for (const FigureItem& item : figure.items) {
            const auto* t = std::get_if<TextItem>(&item);
            if (t && t->anchor.y < frame.plot.y - theme.fontSize) lines.push_back(*t);
        }
        return lines;
    };
    PlotFrame wrapped, single;
    const std::vector<TextItem> lines = draw(title, wrapped);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0].text + " " + lines[1].text, title);  // nothing cut
    EXPECT_EQ(lines[1].text, "j - i (bidirectional)");      // the middle space between words
    EXPECT_GE(lines[0].size, theme.titleSize * 0.75f);
    EXPECT_GT(lines[1].anchor.y, lines[0].anchor.y + lines[0].size);
    ASSERT_EQ(draw("Bucket id", single).size(), 1u);
    EXPECT_NEAR(wrapped.plot.y - single.plot.y, lines[1].anchor.y - lines[0].anchor.y, 0.01);
}

// Two-line titles break at the space nearest the middle that has a word on both sides.
TEST(PlotTest, TitleBreakKeepsOperatorsWithTheirOperands) {
    // Nearest the middle is the space in "(i - j)"; the break goes to the nearest between words.
    EXPECT_EQ(titleBreak("8 heads, bias -m·(i - j), future masked"),
              std::string_view("8 heads, bias -m·(i - j),").size());
    EXPECT_EQ(titleBreak("Bucket id against j - i (bidirectional)"),
              std::string_view("Bucket id against").size());
    EXPECT_EQ(titleBreak("one two"), 3u);
    EXPECT_EQ(titleBreak("single"), std::string_view::npos);
    EXPECT_EQ(titleBreak("a - b"), std::string_view::npos);  // only spaces beside "-"
}

// A note longer than its area is wide wraps between words and stays inside (RoPE's Layers
// figure at 480x320 ran its "load a config.json …" note 150 px past both edges).
TEST(PlotTest, NotesWrapInsideANarrowArea) {
    const std::string message =
        "load a config.json (path and Load, or drop it here) to see its layers";
    Figure figure = emptyFigure(248, 204, darkTheme());
    drawNote(figure, {0, 0, 248, 204}, message, darkTheme());
    std::string joined;
    int lines = 0;
    for (const FigureItem& item : figure.items) {
        const auto* text = std::get_if<TextItem>(&item);
        if (!text) continue;
        ++lines;
        joined += (joined.empty() ? "" : " ") + text->text;
    }
    EXPECT_GE(lines, 2);
    EXPECT_EQ(joined, message);  // every word, in order, none cut
    EXPECT_TRUE(textsOutsideFigure(figure).empty());
    EXPECT_TRUE(overlappingTexts(figure).empty());
}

// ---- Issue #28: text wrapped or moved, never cut while a legal place exists

TEST(PlotTest, WrapTextBreaksAtSpacesOutsideMathsAndKeepsEqualsWhole) {
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

TEST(PlotTest, ALongLegendNameWrapsInsteadOfEndingInAnEllipsis) {
    const Theme theme = scaledTheme(darkTheme(), 1.75f);  // a projector's font
    LinePlotSpec spec;
    spec.x = {"pair", 0, 10};
    spec.y = {"value", 0, 1};
    LineSeries series;
    series.name = "18 of 64 pairs never complete a turn within the training length 4096";
    series.x = {0, 10};
    series.y = {1, 1};  // along the top: the lower part of the plot is free
    spec.series = {series};
    Figure figure = emptyFigure(700, 420, theme);
    drawLinePlot(figure, {0, 0, 700, 420}, spec, theme);
    ASSERT_GT(estimateTextWidth(series.name, theme.fontSize), 700);  // one line cannot hold it
    EXPECT_TRUE(cutTexts(figure).empty());
    EXPECT_TRUE(textsOverMarks(figure).empty());
    std::string words;
    for (const FigureItem& item : figure.items) {
        const auto* text = std::get_if<TextItem>(&item);
        if (text && text->color == theme.text && !text->vertical90)
            words += (words.empty() ? "" : " ") + text->text;
    }
    EXPECT_NE(words.find(series.name), std::string::npos) << words;
}

TEST(PlotTest, AnOutsideLegendListsEveryKeyOfAShortPlot) {
    // Extrapolation's ALiBi panel at 1024x768 F5: a plot ~70 px high showed 1 of 4 heads.
    Theme theme = scaledTheme(darkTheme(), 1.75f);
    theme.legend = LegendPlacement::Outside;
    LinePlotSpec spec;
    spec.x = {"distance", 0, 4096};
    spec.y = {"bias", -500, 0};
    spec.autoRangeY = false;
    for (int h = 0; h < 4; ++h)
        spec.series.push_back(
            {"head " + std::to_string(2 * h) + ", m = 0.5", {0, 4096}, {0, -500}});
    Figure figure = emptyFigure(1000, 220, theme);
    PlotFrame frame;
    drawLinePlot(figure, {0, 0, 1000, 220}, spec, theme, &frame);
    ASSERT_LT(frame.plot.height, 4 * theme.fontSize * 1.35f);  // the plot alone holds fewer rows
    for (int h = 0; h < 4; ++h) {
        const std::string key = "head " + std::to_string(2 * h) + ", m = 0.5";
        bool found = false;
        for (const FigureItem& item : figure.items) {
            const auto* text = std::get_if<TextItem>(&item);
            found |= text && text->text == key;
        }
        EXPECT_TRUE(found) << key;
    }
    EXPECT_TRUE(textsOutsideFigure(figure).empty());
    EXPECT_TRUE(overlappingTexts(figure).empty());
}

TEST(PlotTest, AVerticalMarkersLabelOnAHeatmapSitsAboveItsCells) {
    // "query 31" sat on ALiBi's peak attention weights: every cell of a heatmap is data.
    const Theme theme = darkTheme();
    Matrix values(8, 32);
    for (std::size_t r = 0; r < 8; ++r)
        for (std::size_t c = 0; c < 32; ++c) values.row(r)[c] = double((r + c) % 7);
    HeatmapSpec spec;
    spec.title = "Query 31: softmax(bias) per head";
    spec.x = {"key j", 0, 32, false, true};
    spec.y = {"head", 0, 8, false, true};
    spec.values = std::make_shared<const Matrix>(values);
    spec.range = {0, 6};
    Marker marker;
    marker.value = 31.5;
    marker.label = "query 31";
    spec.markers = {marker};
    Figure figure = emptyFigure(600, 400, theme);
    PlotFrame frame;
    drawHeatmap(figure, {0, 0, 600, 400}, spec, theme, &frame);
    bool found = false;
    for (const FigureItem& item : figure.items) {
        const auto* text = std::get_if<TextItem>(&item);
        if (!text || text->text != "query 31") continue;
        found = true;
        EXPECT_LE(textBox(*text).bottom(), frame.plot.y + 1);
    }
    EXPECT_TRUE(found);
    EXPECT_TRUE(textsOverMarks(figure).empty());
    EXPECT_TRUE(overlappingTexts(figure).empty());
}

}  // namespace
}  // namespace poslab
