// drawLinePlot: dots once per pixel where denser than the pixels, titles of two lines.
#include "poslab/figure/line_plot.hpp"

#include "poslab/base/heatmap_sample.hpp"
#include "poslab/figure/colorbar.hpp"
#include "poslab/figure/figure_controls.hpp"
#include "poslab/figure/legend.hpp"
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

namespace poslab {
namespace {

// Dots denser than the pixels (Context > Randomized: 16 draws of 4,096 positions on ~1,000 pixel
// columns) are drawn once per pixel they touch: the set of pixels with a dot is the set every
// point maps to (the identity), with far fewer circles; a sparse series keeps every dot.
TEST(LinePlotTest, DotsDenserThanThePixelsAreDrawnOncePerPixel) {
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

// A plot title too long for its plot's width takes two lines at a readable size instead of being
// cut, broken between words rather than inside "j - i", and the plot starts one line lower
// (T5's panels on a projector showed "Bucket of j - i (32 b…").
TEST(LinePlotTest, LongPlotTitlesTakeTwoLinesBetweenWords) {
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

// Issue #28: "context length 4096" sat on RoPE's wavelength curve at the right end of its line
// while the left end was free. A horizontal line's label now takes the first place beside its
// line (right above, right below, left above, left below) that hides no data.
TEST(LinePlotTest, AHorizontalMarkersLabelMovesAlongItsLineOffTheCurve) {
    const Theme theme = scaledTheme(darkTheme(), 1.75f);
    LinePlotSpec spec;
    spec.x = {"pair", 0, 10};
    spec.y = {"wavelength", 0, 10};
    spec.autoRangeY = false;
    LineSeries rising;  // y = x: crosses the line y = 8 at the right, far from its left end
    for (int i = 0; i <= 100; ++i) {
        rising.x.push_back(i / 10.0);
        rising.y.push_back(i / 10.0);
    }
    spec.series = {rising};
    spec.legend = false;
    Marker marker;
    marker.vertical = false;
    marker.value = 8;
    marker.label = "context length 4096";
    spec.markers = {marker};
    Figure figure = emptyFigure(700, 450, theme);
    PlotFrame frame;
    drawLinePlot(figure, {0, 0, 700, 450}, spec, theme, &frame);
    const float lineY = frame.plot.bottom() - frame.plot.height * 0.8f;  // y = 8 of 0..10
    const TextItem* label = nullptr;
    for (const FigureItem& item : figure.items)
        if (const auto* text = std::get_if<TextItem>(&item); text && text->text == marker.label)
            label = text;
    ASSERT_NE(label, nullptr);
    const Box box = textBox(*label);
    EXPECT_EQ(marksCovered(figure, box), 0);
    EXPECT_LT(std::min(std::abs(box.bottom() - lineY), std::abs(box.y - lineY)),
              theme.fontSize);  // beside its line
    EXPECT_TRUE(textsOverMarks(figure).empty());
}

// A series that zig-zags between `low` and `high` across the whole x range 0..10: a band of data
// the height of [low, high] with no free gap in it.
LineSeries zigZagBand(double low, double high) {
    LineSeries band;
    for (int i = 0; i <= 400; ++i) {
        band.x.push_back(i / 40.0);
        band.y.push_back(i % 2 == 0 ? low : high);
    }
    return band;
}

// Issue #28: Near-orthogonality's legend sat on its dashed ±1/√d line: the placement counted
// curves, points and areas as data but not a marker's reference line. Here the data fill all of
// the plot but its top right (y above 6 right of x = 5), and a dashed line at y = 9.5 runs
// through that corner, where the legend's first place (6 px below the plot's top) would cover
// it. The legend keeps off the line: its box and the line's stroke (y = 9.5 of 0..10, half the
// stroke either side) do not meet, and the layout check finds no legend over data.
TEST(LinePlotTest, ALegendKeepsOffAReferenceLineInItsOnlyFreeCorner) {
    const Theme theme = paperTheme();
    LinePlotSpec spec;
    spec.x = {"x", 0, 10};
    spec.y = {"y", 0, 10};
    spec.autoRangeY = false;
    LineSeries low = zigZagBand(0, 6);  // the bottom six tenths, all across
    low.name = "below";
    LineSeries left;  // the top left: x 0..5, y 6..10
    for (int i = 0; i <= 200; ++i) {
        left.x.push_back(i / 40.0);
        left.y.push_back(i % 2 == 0 ? 6 : 10);
    }
    left.name = "left";
    spec.series = {low, left};
    Marker reference;
    reference.vertical = false;
    reference.value = 9.5;
    spec.markers = {reference};
    Figure figure = emptyFigure(700, 450, theme);
    PlotFrame frame;
    drawLinePlot(figure, {0, 0, 700, 450}, spec, theme, &frame);
    const float lineY = frame.plot.bottom() - frame.plot.height * 0.95f;
    const float half = strokeWidth(theme, 1.5f) / 2;
    const RectItem* legend = nullptr;
    for (const FigureItem& item : figure.items)
        if (const auto* rect = std::get_if<RectItem>(&item); rect && rect->legend) legend = rect;
    ASSERT_NE(legend, nullptr);
    const Box& box = legend->box;
    const bool acrossLine = box.x < frame.plot.right() && box.right() > frame.plot.x;
    EXPECT_FALSE(acrossLine && box.y < lineY + half && box.bottom() > lineY - half)
        << "legend " << box.x << ", " << box.y << " " << box.width << "x" << box.height
        << ", line at y " << lineY;
    EXPECT_TRUE(legendsOverMarks(figure).empty());
}

const TextItem* zigZagPlotText(const Figure& figure, const std::string& wanted) {
    for (const FigureItem& item : figure.items)
        if (const auto* text = std::get_if<TextItem>(&item); text && text->text == wanted)
            return text;
    return nullptr;
}

// A line's label that has no place beside its line hiding no data (a band of data all along
// it) used to be drawn over the band anyway ("standard table's closest pair" over Frequencies'
// one-frequency curve). It is listed in the legend instead: the key is a dashed line in the
// marker's colour, the name whole, and no text hides data.
TEST(LinePlotTest, AMarkersLabelWithNoFreePlaceIsListedInTheLegend) {
    const Theme theme = darkTheme();
    LinePlotSpec spec;
    spec.x = {"offset", 0, 10};
    spec.y = {"distance", 0, 10};
    spec.autoRangeY = false;
    LineSeries band = zigZagBand(0, 10);  // data everywhere: the legend goes beside the plot
    band.name = "one frequency";
    spec.series = {band};
    Marker marker;
    marker.vertical = false;
    marker.value = 5;
    marker.label = "closest pair";
    marker.color = {200, 100, 50, 255};
    spec.markers = {marker};
    Figure figure = emptyFigure(600, 400, theme);
    PlotFrame frame;
    drawLinePlot(figure, {0, 0, 600, 400}, spec, theme, &frame);
    EXPECT_TRUE(textsOverMarks(figure).empty());
    const TextItem* label = zigZagPlotText(figure, marker.label);
    ASSERT_NE(label, nullptr);
    ASSERT_GT(frame.legend.width, 0);
    EXPECT_TRUE(boxesOverlap(textBox(*label), frame.legend, 0));  // a row of the legend
    EXPECT_NE(zigZagPlotText(figure, band.name), nullptr);        // with the series' own row
    // Its swatch: a short dashed line in the marker's colour inside the legend box (the marker's
    // own line spans the plot).
    bool swatch = false;
    for (const FigureItem& item : figure.items) {
        const auto* line = std::get_if<LineItem>(&item);
        if (!line || !line->dashed || !(line->color == marker.color)) continue;
        swatch = swatch || (frame.legend.contains(line->from) && frame.legend.contains(line->to));
    }
    EXPECT_TRUE(swatch);
}

// A legend with no free place inside the plot, in an area too narrow for a column of names
// beside it, goes below the plot (under its x label) rather than over the data.
TEST(LinePlotTest, ALegendWithNoRoomInsideOrBesideGoesBelowThePlot) {
    const Theme theme = darkTheme();
    LinePlotSpec spec;
    spec.x = {"distance", 0, 10};
    spec.y = {"score", 0, 1};
    spec.autoRangeY = false;
    LineSeries first = zigZagBand(0, 1), second = zigZagBand(0.2, 0.8);
    first.name = "the first series with a long name";
    second.name = "the second series, also long";
    spec.series = {first, second};
    Figure figure = emptyFigure(280, 500, theme);
    PlotFrame frame;
    drawLinePlot(figure, {0, 0, 280, 500}, spec, theme, &frame);
    EXPECT_TRUE(textsOverMarks(figure).empty());
    EXPECT_TRUE(overlappingTexts(figure).empty());
    EXPECT_TRUE(textsOutsideFigure(figure).empty());
    const TextItem* xLabel = zigZagPlotText(figure, spec.x.label);
    ASSERT_NE(xLabel, nullptr);
    ASSERT_GT(frame.legend.width, 0);
    EXPECT_GE(frame.legend.y, textBox(*xLabel).bottom());  // below the plot and its x label
    EXPECT_LE(frame.legend.bottom(), 500.5f);
    for (const char* word : {"first", "second"}) {  // both names, wrapped, none cut
        bool found = false;
        for (const FigureItem& item : figure.items)
            if (const auto* text = std::get_if<TextItem>(&item))
                found = found || text->text.find(word) != std::string::npos;
        EXPECT_TRUE(found) << word;
    }
    EXPECT_TRUE(cutTexts(figure).empty());
}

// Near-orthogonality under a lesson card (1024x768 F5): a 396 x 318 plot at a projector's font
// (24.5 px), data everywhere, two keys too wide for a column beside it. Below the plot is the
// only place that hides nothing; the old rule (fourteen lines of text left above the legend)
// kept it on the data.
TEST(LinePlotTest, AProjectorsShortPlotPutsItsLegendBelowRatherThanOnTheData) {
    const Theme theme = withFontScale(darkTheme(), 24.5f / darkTheme().fontSize);
    LinePlotSpec spec;
    spec.x = {"d_model", 0, 10};
    spec.y = {"std of the cosine", 0, 1};
    spec.autoRangeY = false;
    LineSeries law = zigZagBand(0, 1), sampled = zigZagBand(0.2, 0.8);
    law.name = "the 1/sqrt(d) law";
    sampled.name = "sampled";
    spec.series = {law, sampled};
    Figure figure = emptyFigure(396, 318, theme);
    PlotFrame frame;
    drawLinePlot(figure, {0, 0, 396, 318}, spec, theme, &frame);
    ASSERT_GT(frame.legend.width, 0);
    EXPECT_TRUE(legendsOverMarks(figure).empty());
    EXPECT_GE(frame.legend.y, frame.plot.bottom());
    EXPECT_LE(frame.legend.bottom(), 318.5f);
    EXPECT_TRUE(textsOverMarks(figure).empty());
    EXPECT_TRUE(textsOutsideFigure(figure).empty());
}

// Issue #28, the one legend rule: a legend beside the plot, or one that splits a name over
// lines, goes in rows under the plot when they leave it more area, or show every name whole,
// with the plot at least six lines tall. Three curves fill the plot (no free corner) and their
// names, 20 to 26 characters, are each wider than a third of a narrow figure.
LinePlotSpec crowdedThreeCurves() {
    LinePlotSpec spec;
    spec.x = {"distance", 0, 10};
    spec.y = {"score", 0, 1};
    spec.autoRangeY = false;
    const char* names[] = {"query i = 511 (training)", "query i = 1023 (twice L)",
                           "query i = 2047 (four times L)"};
    for (int k = 0; k < 3; ++k) {
        LineSeries band = zigZagBand(0.1 * k, 1 - 0.1 * k);
        band.name = names[k];
        spec.series.push_back(band);
    }
    return spec;
}

// The legend's texts: those drawn in frame.legend.
std::vector<const TextItem*> legendTexts(const Figure& figure, const PlotFrame& frame) {
    std::vector<const TextItem*> texts;
    for (const FigureItem& item : figure.items) {
        const auto* text = std::get_if<TextItem>(&item);
        if (!text) continue;
        const Box box = textBox(*text);
        if (frame.legend.contains({box.x + box.width / 2, box.y + box.height / 2}))
            texts.push_back(text);
    }
    return texts;
}

// A narrow figure (a one-column print, a small window): the names do not fit a column beside a
// readable plot; before, they went there wrapped a word or two a line and left the plot under
// two thirds of the width. In rows under the plot each reads whole on one line.
TEST(LinePlotTest, TheOneRuleMovesASplitLegendBelowANarrowPlot) {
    const Theme theme = darkTheme();
    const LinePlotSpec spec = crowdedThreeCurves();
    for (float width : {420.f, 520.f, 600.f}) {
        Figure figure = emptyFigure(width, 420, theme);
        PlotFrame frame;
        drawLinePlot(figure, {0, 0, width, 420}, spec, theme, &frame);
        ASSERT_GT(frame.legend.width, 0) << width;
        const TextItem* xLabel = zigZagPlotText(figure, spec.x.label);
        ASSERT_NE(xLabel, nullptr);
        EXPECT_GE(frame.legend.y, textBox(*xLabel).bottom()) << width << ": under the x label";
        EXPECT_GE(frame.plot.width, 0.75f * width) << width;
        EXPECT_GE(frame.plot.height, 6 * theme.fontSize) << width;
        // Every name one whole line: as many texts in the legend as keys, each a name.
        const std::vector<const TextItem*> texts = legendTexts(figure, frame);
        ASSERT_EQ(texts.size(), spec.series.size()) << width;
        for (std::size_t k = 0; k < texts.size(); ++k) {
            EXPECT_EQ(texts[k]->text, spec.series[k].name) << width;
            EXPECT_EQ(texts[k]->size, theme.fontSize) << width;
        }
        EXPECT_TRUE(legendsOverMarks(figure).empty()) << width;
        EXPECT_TRUE(cutTexts(figure).empty()) << width;
        EXPECT_TRUE(overlappingTexts(figure).empty()) << width;
        EXPECT_TRUE(textsOutsideFigure(figure).empty()) << width;
    }
}

// A wide figure keeps its legend where it costs the plot least: inside, where the curves leave
// a corner free (it costs nothing); beside a short plot, where a narrow column of short names
// takes less of the width (under a tenth) than a row under the plot would of its height (a
// fifth).
TEST(LinePlotTest, TheOneRuleKeepsALegendInsideOrBesideAWidePlot) {
    const Theme theme = darkTheme();
    {
        LinePlotSpec spec = crowdedThreeCurves();
        spec.y.high = 2;  // the curves in the lower half: the top is free
        Figure figure = emptyFigure(1400, 600, theme);
        PlotFrame frame;
        drawLinePlot(figure, {0, 0, 1400, 600}, spec, theme, &frame);
        ASSERT_GT(frame.legend.width, 0);
        EXPECT_LT(frame.legend.x, frame.plot.right()) << "inside";
        EXPECT_LT(frame.legend.bottom(), frame.plot.bottom()) << "inside";
        EXPECT_EQ(legendTexts(figure, frame).size(), spec.series.size());
        EXPECT_TRUE(legendsOverMarks(figure).empty());
    }
    {
        LinePlotSpec spec = crowdedThreeCurves();
        const char* names[] = {"L = 512", "L = 1024", "L = 2048"};
        for (int k = 0; k < 3; ++k) spec.series[std::size_t(k)].name = names[k];
        Figure figure = emptyFigure(1400, 220, theme);
        PlotFrame frame;
        drawLinePlot(figure, {0, 0, 1400, 220}, spec, theme, &frame);
        ASSERT_GT(frame.legend.width, 0);
        EXPECT_GE(frame.legend.x, frame.plot.right()) << "beside the plot";
        EXPECT_LT(frame.legend.y, frame.plot.bottom());
        EXPECT_EQ(legendTexts(figure, frame).size(), spec.series.size());
        EXPECT_TRUE(legendsOverMarks(figure).empty());
        EXPECT_TRUE(cutTexts(figure).empty());
    }
}

// Wherever rows under the plot would show every name whole on one line (and keep the plot six
// lines tall), no name is wrapped or shrunk, whatever the figure's size.
class OneLegendRuleTest : public ::testing::TestWithParam<std::pair<float, float>> {};
TEST_P(OneLegendRuleTest, NoNameSplitWhereRowsBelowShowItWhole) {
    const Theme theme = darkTheme();
    const auto [width, height] = GetParam();
    const LinePlotSpec spec = crowdedThreeCurves();
    Figure figure = emptyFigure(width, height, theme);
    PlotFrame frame;
    drawLinePlot(figure, {0, 0, width, height}, spec, theme, &frame);
    ASSERT_GT(frame.legend.width, 0);
    // Rows under the plot hold each name whole when the widest key (swatch, padding and name)
    // fits the figure's width; they leave the plot its height less the rows (three at most) and
    // the axes' room (title-less: some five lines).
    float widest = 0;
    for (const LineSeries& s : spec.series)
        widest = std::max(widest, estimateTextWidth(s.name, theme.fontSize));
    const float key = widest + strokeWidth(theme, 18) + 16;
    const float rowsLeave = height - 3 * 1.35f * theme.fontSize - 5 * theme.fontSize;
    if (key > width - 8 || rowsLeave < 6 * theme.fontSize + 8) GTEST_SKIP();
    const std::vector<const TextItem*> texts = legendTexts(figure, frame);
    EXPECT_EQ(texts.size(), spec.series.size()) << "a name wrapped";
    for (const TextItem* text : texts) EXPECT_EQ(text->size, theme.fontSize) << text->text;
    EXPECT_TRUE(cutTexts(figure).empty());
    EXPECT_TRUE(legendsOverMarks(figure).empty());
}
INSTANTIATE_TEST_SUITE_P(Sizes, OneLegendRuleTest,
                         ::testing::Values(std::pair{360.f, 360.f}, std::pair{420.f, 300.f},
                                           std::pair{480.f, 320.f}, std::pair{600.f, 400.f},
                                           std::pair{700.f, 500.f}, std::pair{900.f, 300.f},
                                           std::pair{1200.f, 800.f}));

// Issue #28: Compare's cosine plot at 1024x768 (310 px wide, short above its three legend rows)
// has no room for a second title line: the title read "Vector encodings: cosine similarity to
// the query…". The view's short title is drawn instead, whole; where the long one fits, it is.
TEST(LinePlotTest, AShortTitleStandsInForOneThatWouldBeCut) {
    Theme theme = darkTheme();
    theme.titleSize = theme.fontSize * 1.05f;  // Compare's plot titles
    LinePlotSpec spec;
    spec.title = "Vector encodings: cosine similarity to the query at 64";
    spec.shortTitle = "Vector encodings: cosine to the query at 64";
    spec.x = {"offset", -64, 64};
    spec.y = {"cosine", -1, 1};
    spec.autoRangeY = false;
    spec.legend = false;
    spec.series = {LineSeries{"", {-64, 64}, {0, 0}}};
    auto drawnTitle = [&](Box area) {
        Figure figure = emptyFigure(area.width, area.height, theme);
        PlotFrame frame;
        drawLinePlot(figure, area, spec, theme, &frame);
        std::string title;
        for (const FigureItem& item : figure.items)
            if (const auto* text = std::get_if<TextItem>(&item);
                text && text->anchor.y < frame.plot.y && text->vertical == VerticalAlign::Top)
                title += (title.empty() ? "" : " ") + text->text;
        EXPECT_TRUE(cutTexts(figure).empty()) << area.width << " x " << area.height;
        return title;
    };
    EXPECT_EQ(drawnTitle({0, 0, 310, 120}), spec.shortTitle);
    EXPECT_EQ(drawnTitle({0, 0, 900, 400}), spec.title);
    spec.shortTitle.clear();  // without one, the short plot cuts the title: the case above
    Figure figure = emptyFigure(310, 120, theme);
    drawLinePlot(figure, {0, 0, 310, 120}, spec, theme);
    EXPECT_FALSE(cutTexts(figure).empty());
}

// Bars (a histogram's bins) are the plot's marks: its legend goes where it covers none of them.
// Tall bars fill the right half, where the legend goes first (top right); a low curve leaves the
// top left free. Each bar's rectangle is worked out here from its edges and the frame.
TEST(LinePlotTest, TheLegendIsPlacedClearOfTheBars) {
    const Theme theme = paperTheme();
    LinePlotSpec spec;
    spec.x = {"cosine", 0, 10};
    spec.y = {"density", 0, 1};
    spec.autoRangeY = false;
    LineSeries low;
    low.name = "a curve along the bottom";
    low.x = {0, 10};
    low.y = {0.05, 0.05};
    spec.series = {low};
    BarSeries bars;
    for (int edge = 5; edge <= 10; ++edge) bars.edges.push_back(edge);
    bars.heights = {0.95, 0.95, 0.95, 0.95, 0.95};
    bars.fill = withAlpha(seriesColor(0), 170);
    spec.bars = {bars};
    Figure figure = emptyFigure(600, 400, theme);
    PlotFrame frame;
    drawLinePlot(figure, {0, 0, 600, 400}, spec, theme, &frame);
    ASSERT_GT(frame.legend.width, 0);
    for (std::size_t b = 0; b < bars.heights.size(); ++b) {
        const Point corner = frame.toPixel(bars.edges[b], bars.heights[b]),
                    base = frame.toPixel(bars.edges[b + 1], 0);
        const Box bar{corner.x, corner.y, base.x - corner.x, base.y - corner.y};
        const bool overlaps =
            frame.legend.x < bar.right() - 1 && bar.x < frame.legend.right() - 1 &&
            frame.legend.y < bar.bottom() - 1 && bar.y < frame.legend.bottom() - 1;
        EXPECT_FALSE(overlaps) << "the legend covers bar " << b;
    }
    EXPECT_TRUE(legendsOverMarks(figure).empty());
    EXPECT_TRUE(textsOverMarks(figure).empty());
}

// dashSeries against patterns written out by hand: a point at pixel offset p from the centre is
// in a gap when (|p| + on / 2) mod (on + off) >= on, ends kept.
std::string dashPattern(const LineSeries& s) {
    std::string out;
    for (double y : s.y) out += std::isfinite(y) ? '-' : ' ';
    return out;
}
LineSeries flatSeries(double from, double to, double step) {
    LineSeries s;
    for (double x = from; x <= to + 1e-9; x += step) s.x.push_back(x), s.y.push_back(1);
    return s;
}

TEST(LinePlotTest, DashSeriesBreaksTheLineInSevenOnFiveOff) {
    // One point a pixel from x = 0: on for |x| < 3.5, off to 8.5, on to 15.5, off to 20.5.
    LineSeries s = flatSeries(0, 20, 1);
    dashSeries(s, 1);
    EXPECT_EQ(dashPattern(s), "----     -------    -");  // x = 20, the last point, kept
    // Centred: the same on both sides.
    LineSeries centred = flatSeries(-10, 10, 1);
    dashSeries(centred, 1);
    EXPECT_EQ(dashPattern(centred), "--     -------     --");
    // Two pixels a unit: the same pattern in pixels, over twice the pixels.
    LineSeries doubled = flatSeries(0, 20, 0.5);
    dashSeries(doubled, 2);
    EXPECT_EQ(dashPattern(doubled), "----     -------     -------     --------");
    // A centre elsewhere moves the pattern: the dash around x = 10.
    LineSeries moved = flatSeries(0, 20, 1);
    dashSeries(moved, 1, 10);
    EXPECT_EQ(dashPattern(moved), "--     -------     --");
}

TEST(LinePlotTest, DashSeriesKeepsTwoPointsADashWherePointsAreFarApart) {
    // 10 px apart: dashes of 20 px (two points) and gaps of 10 (one point).
    LineSeries s = flatSeries(0, 10, 1);
    dashSeries(s, 10);
    EXPECT_EQ(dashPattern(s), "- -- -- ---");
    // Points already broken stay broken; nothing changes without a scale.
    LineSeries unscaled = flatSeries(0, 5, 1);
    unscaled.y[2] = NAN;
    dashSeries(unscaled, 0);
    EXPECT_EQ(dashPattern(unscaled), "-- ---");
}

}  // namespace
}  // namespace poslab
