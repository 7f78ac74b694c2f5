// The paper controls: titles replaced or left out, legends outside or none, square plots, text
// scaled, one panel of several. Each is checked on the Figure's items, which every renderer
// replays as they are.
#include "poslab/figure/figure_controls.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include <algorithm>
#include <string>
#include <variant>
#include <vector>

#include "poslab/figure/layout.hpp"
#include "poslab/figure/panel_grid.hpp"
#include "poslab/figure/text_boxes.hpp"
#include "poslab/views/t5_figures.hpp"

namespace poslab {
namespace {

std::vector<const TextItem*> texts(const Figure& figure) {
    std::vector<const TextItem*> found;
    for (const FigureItem& item : figure.items)
        if (const auto* t = std::get_if<TextItem>(&item)) found.push_back(t);
    return found;
}

const TextItem* findText(const Figure& figure, const std::string& text) {
    for (const TextItem* t : texts(figure))
        if (t->text == text) return t;
    return nullptr;
}

bool hasTextContaining(const Figure& figure, const std::string& part) {
    for (const TextItem* t : texts(figure))
        if (t->text.find(part) != std::string::npos) return true;
    return false;
}

// One line plot of two named curves, titled "Two curves"; its frame goes to *frame.
LinePlotSpec twoCurves() {
    LinePlotSpec spec;
    spec.title = "Two curves";
    spec.x = {"x", 0, 10};
    spec.y = {"y", 0, 10};
    for (int c = 0; c < 2; ++c) {
        LineSeries s;
        s.name = c == 0 ? "rising" : "falling";
        for (int i = 0; i <= 10; ++i) {
            s.x.push_back(i);
            s.y.push_back(c == 0 ? i : 10 - i);
        }
        spec.series.push_back(s);
    }
    return spec;
}

Result<Figure> onePlot(const Theme& theme, PlotFrame* frame = nullptr, float width = 900,
                       float height = 600) {
    Figure figure = emptyFigure(width, height, theme);
    drawLinePlot(figure, {0, 0, width, height}, twoCurves(), theme, frame);
    return figure;
}

// Three plots side by side under a figure title: "Panel 1" .. "Panel 3".
Result<Figure> threePlots(const Theme& theme) {
    Figure figure = emptyFigure(1200, 500, theme);
    drawTitle(figure, {0, 0, 1200, 40}, "Three panels", theme);
    for (int i = 0; i < 3; ++i) {
        LinePlotSpec spec = twoCurves();
        spec.title = "Panel " + std::to_string(i + 1);
        drawLinePlot(figure, gridCell({0, 40, 1200, 460}, 1, 3, 0, i), spec, theme);
    }
    return figure;
}

TEST(FigureControlsTest, TitleReplacesThePlotTitleOfASinglePlotView) {
    Theme theme = paperTheme();
    theme.titleMode = TitleMode::Replace;
    theme.titleText = "Figure 3: my curves";
    auto figure = buildWithControls([](const Theme& t) { return onePlot(t); }, theme);
    ASSERT_TRUE(figure.ok());
    EXPECT_NE(findText(*figure, "Figure 3: my curves"), nullptr);
    EXPECT_EQ(findText(*figure, "Two curves"), nullptr);
}

TEST(FigureControlsTest, TitleReplacesTheFigureTitleOfAMultiPanelView) {
    Theme theme = paperTheme();
    theme.titleMode = TitleMode::Replace;
    theme.titleText = "Replaced";
    auto figure = buildWithControls(threePlots, theme);
    ASSERT_TRUE(figure.ok());
    EXPECT_NE(findText(*figure, "Replaced"), nullptr);
    EXPECT_EQ(findText(*figure, "Three panels"), nullptr);
    EXPECT_NE(findText(*figure, "Panel 2"), nullptr);  // the panels keep theirs
}

TEST(FigureControlsTest, NoTitleLeavesEveryTitleOutAndGivesTheRoomToThePlot) {
    PlotFrame titled, untitled;
    ASSERT_TRUE(onePlot(paperTheme(), &titled).ok());
    Theme theme = paperTheme();
    theme.titleMode = TitleMode::Hidden;
    auto figure = buildWithControls([&](const Theme& t) { return onePlot(t, &untitled); }, theme);
    ASSERT_TRUE(figure.ok());
    EXPECT_EQ(findText(*figure, "Two curves"), nullptr);
    EXPECT_LT(untitled.plot.y, titled.plot.y);
    auto three = buildWithControls(threePlots, theme);
    ASSERT_TRUE(three.ok());
    EXPECT_FALSE(hasTextContaining(*three, "Panel"));
    EXPECT_FALSE(hasTextContaining(*three, "Three panels"));
}

TEST(FigureControlsTest, LegendOutsideSitsRightOfThePlotBox) {
    Theme theme = paperTheme();
    theme.legend = LegendPlacement::Outside;
    PlotFrame frame;
    auto figure = onePlot(theme, &frame);
    ASSERT_TRUE(figure.ok());
    for (const char* name : {"rising", "falling"}) {
        const TextItem* label = findText(*figure, name);
        ASSERT_NE(label, nullptr) << name;
        const Box box = textBox(*label);
        EXPECT_GT(box.x, frame.plot.right()) << name;
        EXPECT_LE(box.right(), figure->width) << name;
    }
    // Auto keeps it inside the plot box.
    PlotFrame inside;
    auto autoFigure = onePlot(paperTheme(), &inside);
    const TextItem* label = findText(*autoFigure, "rising");
    ASSERT_NE(label, nullptr);
    EXPECT_LT(textBox(*label).right(), inside.plot.right());
    EXPECT_GT(inside.plot.width, frame.plot.width);  // outside took room from the plot
}

TEST(FigureControlsTest, LegendNoneDrawsNoLegend) {
    Theme theme = paperTheme();
    theme.legend = LegendPlacement::None;
    auto figure = onePlot(theme);
    ASSERT_TRUE(figure.ok());
    EXPECT_EQ(findText(*figure, "rising"), nullptr);
    EXPECT_EQ(findText(*figure, "falling"), nullptr);
}

TEST(FigureControlsTest, SquareAspectMakesPlotBoxesSquare) {
    Theme theme = paperTheme();
    theme.aspect = AspectMode::Square;
    for (auto [width, height] : {std::pair{900.f, 600.f}, {400.f, 900.f}}) {
        PlotFrame line;
        ASSERT_TRUE(onePlot(theme, &line, width, height).ok());
        EXPECT_NEAR(line.plot.width, line.plot.height, 0.01) << width << "x" << height;

        Figure figure = emptyFigure(width, height, theme);
        HeatmapSpec spec;
        spec.title = "heat";
        spec.x = {"col", 0, 40, false, true};
        spec.y = {"row", 0, 10, false, true};
        spec.values = share(Matrix(10, 40, 0.5));
        spec.range = {0, 1};
        PlotFrame heat;
        drawHeatmap(figure, {0, 0, width, height}, spec, theme, &heat);
        EXPECT_NEAR(heat.plot.width, heat.plot.height, 0.01) << width << "x" << height;
    }
    PlotFrame wide;  // auto: the plot fills the area
    ASSERT_TRUE(onePlot(paperTheme(), &wide).ok());
    EXPECT_GT(wide.plot.width, wide.plot.height * 1.3);
}

TEST(FigureControlsTest, FontScaleScalesEveryText) {
    auto plain = onePlot(paperTheme(), nullptr, 2400, 1600);
    auto big = onePlot(withFontScale(paperTheme(), 1.5f), nullptr, 2400, 1600);
    ASSERT_TRUE(plain.ok() && big.ok());
    for (const char* text : {"Two curves", "rising", "x", "y"}) {
        const TextItem* a = findText(*plain, text);
        const TextItem* b = findText(*big, text);
        ASSERT_TRUE(a && b) << text;
        EXPECT_NEAR(b->size, a->size * 1.5f, 1e-4) << text;
    }
    EXPECT_FLOAT_EQ(withFontScale(paperTheme(), 2).fontScale, 2);
    EXPECT_TRUE(checkFontScale(0.5) && checkFontScale(3));
    EXPECT_FALSE(checkFontScale(0.49));
    EXPECT_FALSE(checkFontScale(3.01));
    EXPECT_FALSE(checkFontScale(std::nan("")));
}

TEST(FigureControlsTest, PanelKeepsOnlyThatPanelDrawnOverTheFigure) {
    Theme theme = paperTheme();
    theme.focusPanel = 2;
    auto figure = buildWithControls(threePlots, theme);
    ASSERT_TRUE(figure.ok()) << figure.error().message;
    EXPECT_NE(findText(*figure, "Panel 2"), nullptr);
    EXPECT_EQ(findText(*figure, "Panel 1"), nullptr);
    EXPECT_EQ(findText(*figure, "Panel 3"), nullptr);
    EXPECT_EQ(findText(*figure, "Three panels"), nullptr);
    ASSERT_EQ(figure->panels.size(), 1u);
    EXPECT_FLOAT_EQ(figure->panels[0].area.width, 1200);  // the whole figure, not a third
    EXPECT_TRUE(overlappingTexts(*figure).empty());
    // --title with --panel names the panel.
    theme.titleMode = TitleMode::Replace;
    theme.titleText = "Only the middle";
    auto titled = buildWithControls(threePlots, theme);
    ASSERT_TRUE(titled.ok());
    EXPECT_NE(findText(*titled, "Only the middle"), nullptr);
    EXPECT_EQ(findText(*titled, "Panel 2"), nullptr);
}

TEST(FigureControlsTest, PanelOutOfRangeNamesTheViewsRange) {
    Theme theme = paperTheme();
    theme.focusPanel = 4;
    auto figure = buildWithControls(threePlots, theme);
    ASSERT_FALSE(figure.ok());
    EXPECT_EQ(figure.error().message, "panel must be 1..3 for this view (got 4)");
    theme.focusPanel = 2;
    auto single = buildWithControls([](const Theme& t) { return onePlot(t); }, theme);
    ASSERT_FALSE(single.ok());
    EXPECT_EQ(single.error().message, "panel must be 1..1 for this view (got 2)");
    theme.focusPanel = 1;  // a view of one plot: panel 1 is the whole figure
    EXPECT_TRUE(buildWithControls([](const Theme& t) { return onePlot(t); }, theme).ok());
}

// A real multi-panel view: every panel of the T5 figure alone, laid out without overlaps.
TEST(FigureControlsTest, EveryPanelOfTheT5FigureStandsAlone) {
    auto build = [](const Theme& t) -> Result<Figure> {
        Figure figure = emptyFigure(1024, 768, t);
        if (auto s = drawT5Figure(figure, {0, 0, 1024, 768}, T5FigureOptions{}, t); !s)
            return s.error();
        return figure;
    };
    auto whole = build(paperTheme());
    ASSERT_TRUE(whole.ok());
    const std::size_t count = whole->panels.size();
    ASSERT_GE(count, 2u);
    for (std::size_t n = 1; n <= count; ++n) {
        Theme theme = paperTheme();
        theme.focusPanel = int(n);
        auto panel = buildWithControls(build, theme);
        ASSERT_TRUE(panel.ok()) << n;
        EXPECT_FALSE(texts(*panel).empty()) << n;
        EXPECT_TRUE(overlappingTexts(*panel).empty()) << "panel " << n;
        EXPECT_TRUE(textsOutsideFigure(*panel).empty()) << "panel " << n;
    }
}

// The content box, worked out by hand: a stroked rectangle, a text (0.56 em a glyph), a line
// clipped to a box, and an invisible page-coloured fill that does not count.
TEST(FigureControlsTest, ContentBoundsCoverWhatIsDrawn) {
    Figure figure = emptyFigure(500, 400, paperTheme());
    figure.add(RectItem{{0, 0, 500, 400}, figure.background, {0, 0, 0, 0}, 1});  // page colour
    figure.add(RectItem{{50, 60, 100, 40}, {0, 0, 0, 0}, {0, 0, 0, 255}, 1});
    figure.add(makeText({300, 30}, "abcd", 10, {0, 0, 0, 255}));  // 22.4 x 10 at (300, 30)
    figure.add(ClipPush{{0, 0, 320, 200}});
    figure.add(LineItem{{200, 150}, {450, 150}, {0, 0, 0, 255}, 2, false});  // cut at x = 320
    figure.add(ClipPop{});
    const Box box = contentBounds(figure);
    EXPECT_FLOAT_EQ(box.x, 50);
    EXPECT_FLOAT_EQ(box.y, 30);
    EXPECT_FLOAT_EQ(box.right(), 322.4f);
    EXPECT_FLOAT_EQ(box.bottom(), 151);  // the line's half width below y = 150
    EXPECT_FLOAT_EQ(contentBounds(emptyFigure(10, 10, paperTheme())).width, 0);
}

// A square plot as wide as the canvas allows: built at 600 x 400 it is 380 px wide with empty
// sides; fitted, it is built taller until the width limits it (580 px), then cut to it.
TEST(FigureControlsTest, SquareContentGetsAWidthWideCanvas) {
    int builds = 0;
    auto build = [&](const Theme& t, float w, float h) -> Result<Figure> {
        ++builds;
        Figure figure = emptyFigure(w, h, t);
        const float side = std::min(w - 20, h - 20);
        figure.add(RectItem{{w / 2 - side / 2, 10, side, side}, {0, 0, 0, 0}, {0, 0, 0, 255}, 1});
        return figure;
    };
    Theme theme = paperTheme();
    theme.aspect = AspectMode::Square;
    EXPECT_TRUE(fitsCanvasToContent(theme));
    auto fitted = buildFittedToContent(build, theme, 600, 400, 8192);
    ASSERT_TRUE(fitted.ok());
    EXPECT_EQ(fitted->width, 600);
    EXPECT_EQ(fitted->height, 596);  // rows 2 .. 598: the 580 px square and 8 px either side
    const auto* square = std::get_if<RectItem>(&fitted->items.at(0));
    ASSERT_NE(square, nullptr);
    EXPECT_FLOAT_EQ(square->box.y, 8);
    EXPECT_FLOAT_EQ(square->box.width, 580);
    EXPECT_EQ(builds, 2);
    EXPECT_FALSE(fitsCanvasToContent(paperTheme()));
}

// ---- Every panel in a file (issue 28, print)
// Seven panels designed for 3 columns, each at least 20 x 12 font sizes: at print size (22.4 px)
// a 600 px column holds one (20 em = 448 px), so seven rows of 268.8 px + 6 gaps of 10.
TEST(AllPanelsTest, ANarrowCanvasGrowsToShowEveryPanelInOneColumn) {
    const PanelShape shape{7, 3, 20, 12, 10};
    Theme theme = scaledTheme(paperTheme(), 1.6f);
    PanelGrid seen;
    const SizedBuild build = [&](const Theme& t, float w, float h) -> Result<Figure> {
        seen = reflowPanels({0, 0, w, h}, shape, t);
        Figure figure = emptyFigure(w, h, t);
        for (int k = 0; k < shape.count; ++k)
            if (seen.shows(k)) figure.add(RectItem{seen.cell(k), t.text, {}, 1});
        return figure;
    };
    // The GUI's theme (no PanelRoom): one panel at a time on 600 x 400.
    EXPECT_TRUE(reflowPanels({0, 0, 600, 400}, shape, theme).oneAtATime());
    const float minHeight = 12 * theme.fontSize;
    auto grown = buildWithAllPanels(build, theme, 600, 400, true, 16384);
    ASSERT_TRUE(grown.ok());
    EXPECT_FALSE(seen.oneAtATime());
    EXPECT_EQ(seen.columns, 1);
    EXPECT_EQ(seen.rows, 7);
    EXPECT_NEAR(grown->height, std::ceil(7 * minHeight + 6 * 10), 1);
    for (int k = 0; k < 7; ++k) EXPECT_GE(seen.cell(k).height, std::floor(minHeight) - 1) << k;
    // A given height is kept: every panel squeezed into it, none left out.
    auto kept = buildWithAllPanels(build, theme, 600, 400, false, 16384);
    ASSERT_TRUE(kept.ok());
    EXPECT_EQ(kept->height, 400);
    EXPECT_FALSE(seen.oneAtATime());
    EXPECT_EQ(seen.rows * seen.columns >= 7, true);
}

}  // namespace
}  // namespace poslab
