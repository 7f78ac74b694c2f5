// Legends inside their plot, wrapped rather than cut, and every key of an outside legend listed.
#include "poslab/figure/legend.hpp"

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

#include "../views/figure_checks.hpp"  // textExtent

namespace poslab {
namespace {

TEST(LegendTest, LegendsStayInsideTheirPlot) {
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

TEST(LegendTest, ALongLegendNameWrapsInsteadOfEndingInAnEllipsis) {
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

TEST(LegendTest, AnOutsideLegendListsEveryKeyOfAShortPlot) {
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

TEST(LegendTest, AShortWidePlotListsEveryKeySideBySide) {
    // The Learned table's "Dimensions 0-3" strip at 1024x768 in presentation mode listed only
    // "dim 0": a column of four keys did not fit its height, and the rest were dropped.
    Theme theme = darkTheme();
    theme.fontSize *= 1.6f;
    LinePlotSpec spec;
    spec.x = {"position", 0, 600};
    spec.y = {"value", -0.05, 0.05};
    for (int k = 0; k < 4; ++k) {
        LineSeries series;
        series.name = "dim " + std::to_string(k);
        series.x = {0, 600};
        series.y = {-0.04 + 0.01 * k, 0.04 - 0.01 * k};
        spec.series.push_back(series);
    }
    Figure figure = emptyFigure(900, 190, theme);
    PlotFrame frame;
    drawLinePlot(figure, {0, 0, 900, 190}, spec, theme, &frame);
    std::set<std::string> names;
    for (const auto& item : figure.items) {
        const auto* text = std::get_if<TextItem>(&item);
        if (text && text->text.rfind("dim ", 0) == 0) {
            names.insert(text->text);
            const auto [left, right] = textExtent(*text);
            EXPECT_GE(left, 0) << text->text;  // beside the plot or inside it, never cut
            EXPECT_LE(right, 900) << text->text;
        }
    }
    EXPECT_EQ(names, (std::set<std::string>{"dim 0", "dim 1", "dim 2", "dim 3"}));
}

// Every key's name somewhere in the figure's horizontal texts (joined, so a wrapped name is
// whole again), nothing left out, cut, outside the figure or over another text.
void expectEveryKeyWhole(const Figure& figure, const std::vector<std::string>& names,
                         const Theme& theme, float height) {
    std::string words;
    for (const FigureItem& item : figure.items) {
        const auto* text = std::get_if<TextItem>(&item);
        if (text && text->color == theme.text && !text->vertical90) words += " " + text->text;
    }
    for (const std::string& name : names)
        EXPECT_NE(words.find(" " + name), std::string::npos) << name << " at height " << height;
    EXPECT_TRUE(figure.leftOut.empty()) << height;
    EXPECT_TRUE(cutTexts(figure).empty()) << height;
    EXPECT_TRUE(textsOutsideFigure(figure).empty()) << height;
    EXPECT_TRUE(overlappingTexts(figure).empty()) << height;
}

// Nine keys of Relative's family plot, and that plot's axes with one flat line per key.
const std::vector<std::string> kFamilyKeys = {"ALiBi",      "T5",         "KERPLE power",
                                              "KERPLE log", "Sandwich",   "FIRE",
                                              "xPos decay", "RoPE bound", "training length 512"};
LinePlotSpec familyPlotSpec() {
    LinePlotSpec spec;
    spec.x = {"distance i - j (log)", 1, 4096, true};
    spec.y = {"bias (log-score)", -20, 1};
    spec.autoRangeY = false;
    for (std::size_t k = 0; k < kFamilyKeys.size(); ++k)
        spec.series.push_back({kFamilyKeys[k], {1, 4096}, {0, -2.0 * double(k)}});
    return spec;
}

// A plot too short for a column of its keys keeps every one: below it, in columns of whole names
// beside it, or wrapped; none left out (Figure::leftOut, which the layout check counts as cut).
// Relative's family curves under a lesson card (tour step 11.2, 1024x768 F5) listed eight of
// nine keys and left the dashed training-length key out.
class ShortPlotLegendTest : public ::testing::TestWithParam<float> {};

TEST_P(ShortPlotLegendTest, KeepsEveryKey) {
    const float height = GetParam();
    Theme theme = scaledTheme(darkTheme(), 1.75f);
    theme.legend = LegendPlacement::Outside;
    const std::vector<std::string>& keys = kFamilyKeys;
    LinePlotSpec spec = familyPlotSpec();
    Figure figure = emptyFigure(1000, height, theme);
    PlotFrame frame;
    drawLinePlot(figure, {0, 0, 1000, height}, spec, theme, &frame);
    ASSERT_LT(frame.plot.height, 9 * theme.fontSize * 1.35f);  // no column of nine rows fits
    expectEveryKeyWhole(figure, keys, theme, height);
}

INSTANTIATE_TEST_SUITE_P(Heights, ShortPlotLegendTest, ::testing::Values(230.f, 300.f, 360.f));

// The same nine keys in a legend the view draws after its curves (legendLater, drawLegendAfter:
// RoPE precision's): the plot keeps the room its keys need, below it or in columns beside a
// narrower plot, as for its own legend. The column beside a short plot used to be kept at the
// plot's share whatever it held, and drawLegendAfter left the last keys out there.
class ShortPlotLaterLegendTest : public ::testing::TestWithParam<float> {};

TEST_P(ShortPlotLaterLegendTest, KeepsEveryKey) {
    const float height = GetParam();
    Theme theme = scaledTheme(darkTheme(), 1.75f);
    theme.legend = LegendPlacement::Outside;
    const std::vector<std::string>& names = kFamilyKeys;
    LinePlotSpec spec = familyPlotSpec();
    spec.legend = false;
    spec.legendLater = true;
    std::vector<LegendKey> keys;
    for (std::size_t k = 0; k < names.size(); ++k)
        keys.push_back({names[k], seriesColor(int(k), theme)});
    Figure figure = emptyFigure(1000, height, theme);
    PlotFrame frame;
    drawLinePlot(figure, {0, 0, 1000, height}, spec, theme, &frame);
    ASSERT_LT(frame.plot.height, 9 * theme.fontSize * 1.35f);  // no column of nine rows fits
    const auto box = drawLegendAfter(figure, frame, keys, LegendCorner::TopRight, 0, theme);
    ASSERT_TRUE(box) << height;
    EXPECT_FALSE(boxesOverlap(*box, frame.plot, 0)) << height;
    expectEveryKeyWhole(figure, names, theme, height);
}

INSTANTIATE_TEST_SUITE_P(Heights, ShortPlotLaterLegendTest, ::testing::Values(230.f, 300.f, 360.f));

TEST(LegendTest, AKeyWithNoRoomAnywhereIsRecordedAsLeftOut) {
    // 1000 x 90 at a projector's font: not a row of nine keys below a readable plot, nor columns
    // of them beside it.
    Theme theme = scaledTheme(darkTheme(), 1.75f);
    theme.legend = LegendPlacement::Outside;
    LinePlotSpec spec;
    spec.x = {"x", 0, 1};
    spec.y = {"y", 0, 1};
    for (int k = 0; k < 9; ++k)
        spec.series.push_back({"series number " + std::to_string(k), {0, 1}, {0, 1}});
    Figure figure = emptyFigure(400, 90, theme);
    drawLinePlot(figure, {0, 0, 400, 90}, spec, theme);
    std::size_t shown = 0;
    for (const FigureItem& item : figure.items)
        if (const auto* text = std::get_if<TextItem>(&item))
            shown += text->text.rfind("series number ", 0) == 0;
    ASSERT_LT(shown, 9u);
    ASSERT_EQ(shown + figure.leftOut.size(), 9u);              // each key drawn or recorded, once
    EXPECT_EQ(figure.leftOut.back().text, "series number 8");  // the last keys go
}

}  // namespace
}  // namespace poslab

namespace poslab {
namespace {

// Curves through every part of a plot: no free place inside, so the legend goes outside, and
// the recorded marks say it hides none of them; the check (legendsOverMarks) finds a legend
// drawn over them.
LinePlotSpec noiseEverywhere() {
    LinePlotSpec spec;
    spec.x = {"x", 0, 200};
    spec.y = {"y", -1, 1};
    spec.autoRangeY = false;
    for (int k = 0; k < 4; ++k) {
        LineSeries s;
        s.name = "series " + std::to_string(k);
        s.segments = k % 2 == 0;  // drawn as segments, their footprints recorded as well
        for (int i = 0; i <= 200; ++i) {
            s.x.push_back(i);
            s.y.push_back((i + k) % 2 == 0 ? -0.98 : 0.98);
        }
        spec.series.push_back(s);
    }
    return spec;
}

TEST(LegendPlacementTest, ALegendWithNoFreePlaceInsideGoesOutsideAndHidesNoMark) {
    Figure figure = emptyFigure(800, 300, darkTheme());
    PlotFrame frame;
    drawLinePlot(figure, {0, 0, 800, 300}, noiseEverywhere(), darkTheme(), &frame);
    ASSERT_GT(frame.legend.width, 0);
    // Beside the plot or, where a row there leaves it more area (drawLinePlot's one rule), under
    // it: not in it.
    EXPECT_TRUE(frame.legend.x >= frame.plot.right() || frame.legend.y >= frame.plot.bottom())
        << "outside the plot, not in it";
    EXPECT_EQ(marksCovered(figure, frame.legend), 0);
    EXPECT_TRUE(legendsOverMarks(figure).empty());
    for (int k = 0; k < 4; ++k) EXPECT_TRUE(hasText(figure, "series " + std::to_string(k)));
}

TEST(LegendPlacementTest, TheCheckCountsALegendDrawnOverData) {
    Figure figure = emptyFigure(800, 300, darkTheme());
    LinePlotSpec spec = noiseEverywhere();
    spec.legend = false;
    spec.legendLater = true;  // the view draws it
    PlotFrame frame;
    drawLinePlot(figure, {0, 0, 800, 300}, spec, darkTheme(), &frame);
    frame.legendColumn = {};  // as if the plot had kept no room beside it: nowhere free to go
    drawLegendAfter(figure, frame, {{"a", seriesColor(0)}, {"b", seriesColor(1)}},
                    LegendCorner::TopRight, 0, darkTheme());
    const auto over = legendsOverMarks(figure);
    ASSERT_EQ(over.size(), 1u);
    EXPECT_TRUE(std::get<RectItem>(figure.items[over[0].legend]).legend);
}

// A legend the view draws after its own marks (drawLegendAfter: RoPE precision) goes beside or
// below the plot as the plot's own does when the curves leave it no free place inside: the plot
// keeps the room and the legend hides nothing. It used to go over the curves (the precision
// figure in a 480x320 window: its three keys over the curves and under its note).
TEST(LegendPlacementTest, ALegendDrawnLaterMovesOutOfTheCurvesToo) {
    for (const Box area : {Box{0, 0, 800, 300}, Box{0, 0, 240, 330}}) {
        Figure figure = emptyFigure(area.width, area.height, darkTheme());
        LinePlotSpec spec = noiseEverywhere();
        spec.legend = false;
        spec.legendLater = true;
        PlotFrame frame;
        drawLinePlot(figure, area, spec, darkTheme(), &frame);
        ASSERT_GT(frame.legendColumn.width, 0) << area.width;
        std::vector<LegendKey> keys;
        for (const LineSeries& s : spec.series) keys.push_back({s.name, seriesColor(0)});
        const auto box =
            drawLegendAfter(figure, frame, keys, LegendCorner::BottomRight, 0, darkTheme());
        ASSERT_TRUE(box) << area.width;
        EXPECT_FALSE(boxesOverlap(*box, frame.plot, 0)) << area.width;
        EXPECT_TRUE(legendsOverMarks(figure).empty()) << area.width;
        for (int k = 0; k < 4; ++k)
            EXPECT_TRUE(hasText(figure, "series " + std::to_string(k))) << area.width;
    }
}

}  // namespace
}  // namespace poslab

namespace poslab {
namespace {

// A zigzag through the whole height of a short plot with a title (Linear shift's vectors and
// Frequencies' distances in a 480x320 window): no corner is free of the curves, and a column
// beside the plot would be too narrow for the names.
LinePlotSpec shortZigzag() {
    LinePlotSpec spec;
    spec.title = "$T_k$ · PE(10) lands on PE(15)";
    spec.x = {"dimension", 0, 15};
    spec.y = {"value", -1.2, 1.2};
    spec.autoRangeY = false;
    for (const char* name : {"PE(p)", "PE(p + k)"}) {
        LineSeries s;
        s.name = name;
        for (int i = 0; i <= 15; ++i) {
            s.x.push_back(i);
            s.y.push_back((i + int(s.name.size())) % 2 ? 1 : -1);
        }
        spec.series.push_back(s);
    }
    return spec;
}

TEST(LegendPlacementTest, ALegendInAPlotTooShortForItGoesBelowInOneRowAndCoversNoMark) {
    // Before: the legend stayed on the curves (a column of two keys, 45 px of a 56 px plot).
    const Theme theme = darkTheme();
    Figure figure = emptyFigure(248, 140, theme);
    PlotFrame frame;
    drawLinePlot(figure, {0, 0, 248, 140}, shortZigzag(), theme, &frame);
    ASSERT_GT(frame.legend.width, 0);
    EXPECT_GE(frame.legend.y, frame.plot.bottom()) << "below the plot, not in it";
    EXPECT_LE(frame.legend.bottom(), 140.5f);
    EXPECT_GE(frame.plot.height, theme.fontSize * 1.5f) << "the plot keeps 1.5 lines";
    EXPECT_TRUE(legendsOverMarks(figure).empty());
    EXPECT_TRUE(textsOverMarks(figure).empty());
    // Both keys, side by side on one row: the fewest rows leave the plot the most height.
    std::vector<float> rows;
    for (const auto& item : figure.items)
        if (const auto* text = std::get_if<TextItem>(&item);
            text && (text->text == "PE(p)" || text->text == "PE(p + k)"))
            rows.push_back(text->anchor.y);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_FLOAT_EQ(rows[0], rows[1]);
    EXPECT_LE(frame.legend.height, theme.fontSize * 1.35f + 8.5f);
}

TEST(LegendPlacementTest, ABelowLegendTooWideForOneRowTakesTheFewestRowsThatFit) {
    // Six keys below a plot about 167 px wide. By estimate (0.56 em a character, 14 px, a
    // swatch and padding of 34 px) "PE(p + k)" takes 104.6 px and "k2" 49.7 px: three columns
    // of two rows need 204 px, two columns of three rows 154 px, so three rows; every key
    // listed, none past the figure's right edge.
    const Theme theme = darkTheme();
    LinePlotSpec spec = shortZigzag();
    for (int k = 2; k < 6; ++k) {
        LineSeries s = spec.series[std::size_t(k % 2)];
        s.name = "k" + std::to_string(k);
        spec.series.push_back(s);
    }
    Figure figure = emptyFigure(248, 220, theme);
    PlotFrame frame;
    drawLinePlot(figure, {0, 0, 248, 220}, spec, theme, &frame);
    ASSERT_GT(frame.legend.width, 0);
    EXPECT_TRUE(legendsOverMarks(figure).empty());
    std::set<float> rows;
    int keys = 0;
    for (const auto& item : figure.items) {
        const auto* text = std::get_if<TextItem>(&item);
        if (!text || text->anchor.y < frame.legend.y) continue;
        if (text->text.size() != 2 && text->text.rfind("PE(", 0) != 0) continue;
        ++keys;
        rows.insert(text->anchor.y);
        EXPECT_LE(textExtent(*text).second, 248) << text->text;
    }
    EXPECT_EQ(keys, 6);
    EXPECT_GE(frame.legend.y, frame.plot.bottom()) << "below the plot, not in it";
    EXPECT_EQ(rows.size(), 3u) << "two columns of three rows";
}

// Notes with no free place in the plot go to the corner over the fewest marks, not always the
// top left: in a crowded plot they hide as little data as they can (RoPE precision's "open
// circles" note sat on the curves at the top left of a 640x480 window while the bottom right
// was nearly clear).
TEST(LegendPlacementTest, ANoteWithNoFreePlaceTakesTheLeastCrowdedCorner) {
    const Theme theme = darkTheme();
    Figure figure = emptyFigure(300, 200, theme);
    figure.recordingMarks = true;
    PlotFrame frame;
    frame.plot = {50, 50, 200, 100};
    const Box& p = frame.plot;
    // Lines across the top 70 % of the plot; below them, lines in the left third only.
    for (float y = p.y; y <= p.y + 70; y += 4)
        figure.addCurveMark({{p.x, y}, {p.right(), y}}, 1.5f);
    for (float y = p.y + 72; y <= p.bottom(); y += 4)
        figure.addCurveMark({{p.x, y}, {p.x + 70, y}}, 1.5f);
    const std::vector<NoteLine> lines = {{"a first note", theme.text},
                                         {"and a second", theme.text}};
    const Box box = drawNoteLines(figure, frame, lines, theme);
    ASSERT_GT(box.width, 0);
    EXPECT_GT(box.x + box.width / 2, p.x + p.width / 2) << "the right half";
    EXPECT_GT(box.y + box.height / 2, p.y + p.height / 2) << "the bottom half";
    EXPECT_TRUE(hasText(figure, "a first note"));
    EXPECT_TRUE(hasText(figure, "and a second"));
}

}  // namespace
}  // namespace poslab
