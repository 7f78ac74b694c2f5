#include "poslab/views/learned_structure_figures.hpp"

#include "poslab/encodings/learned.hpp"
#include "poslab/figure/figure_controls.hpp"
#include "poslab/figure/text_boxes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <variant>
#include <vector>
#include "../test_math.hpp"
#include "figure_checks.hpp"  // hasText

namespace poslab {
namespace {

// The paper's interleaved sinusoidal table, written out.
Matrix sinusoidalTable(int rows, int d) {
    Matrix table(rows, d);
    for (int p = 0; p < rows; ++p) {
        for (int i = 0; i < d / 2; ++i) {
            const double angle = p / std::pow(10000.0, 2.0 * i / d);
            table(p, 2 * i) = std::sin(angle);
            table(p, 2 * i + 1) = std::cos(angle);
        }
    }
    return table;
}

TEST(LearnedStructureFiguresTest, HoldsEveryPlotWithItsTitle) {
    LearnedStructureOptions options;
    options.source = "sinusoidal test table";
    options.components = 8;
    auto figure = learnedStructureFigure(sinusoidalTable(100, 32), options, 1500, 900, darkTheme());
    ASSERT_TRUE(figure) << figure.error().message;
    for (const char* title :
         {"Structure of sinusoidal test table (100 positions × 32 dims)",
          "explained variance per component", "principal components against position",
          "PC1 vs PC2, coloured by position", "mean spectrum over dimensions",
          "dominant frequency per dimension vs sinusoidal", "rows shuffled (seed 1)",
          "position index", "PC1 (lag-1 r", "sinusoidal, base 10000", "rows shuffled"}) {
        EXPECT_TRUE(hasText(*figure, title)) << title;
    }
    EXPECT_TRUE(hasText(*figure, "PCA of 100 positions × 32 dims"));  // the analysis note
}

// Issue #28: at 480 x 320 the designed 3 x 2 grid left plots about 47 px tall, and the spectrum's
// and frequencies' "table" keys sat on their curves. A window that small shows one plot at a time
// (the GUI's layout): each of the six, alone, keeps its texts off the data and its title at the
// theme's size.
TEST(LearnedStructureFiguresTest, SmallWindowShowsEachPlotAloneClearOfItsData) {
    LearnedStructureOptions options;
    options.source = "sinusoidal, 256 x 16, base 10000";
    for (const Theme& theme : {paperTheme(), darkTheme()}) {
        for (int panel = 0; panel < 6; ++panel) {
            auto figure =
                learnedStructureFigure(sinusoidalTable(256, 16), options, 480, 320, theme, panel);
            ASSERT_TRUE(figure) << figure.error().message;
            for (const TextOverMark& over : textsCrowdingMarks(*figure)) {
                const auto& text = std::get<TextItem>(figure->items[over.text]);
                ADD_FAILURE() << "panel " << panel << ": \"" << text.text << "\" on the data";
            }
        }
    }
}

// Issue #28: at 1440x900 (a 1090 x 760 figure, the GUI's layout) the components' legend went
// beside the plot, its "PC1 (lag-1 r 0.14)" names wrapped into a column, and left the plot about
// 120 px of its 330 px cell: the curves of a seeded table fill the plot, so no corner was free.
// Every key is shown (in rows under the plot, drawLinePlot's rule; above it until session 24) and
// the plot keeps most of its cell's width.
TEST(LearnedStructureFiguresTest, ComponentsLegendLeavesThePlotItsWidth) {
    LearnedParams params;  // the GUI's default table: seed 0, std 0.02, 512 x 64
    auto table = learnedTable(params);
    ASSERT_TRUE(table) << table.error().message;
    auto structure = analyzeTableStructure(*table, StructureOptions{});
    ASSERT_TRUE(structure) << structure.error().message;
    const Theme theme = darkTheme();
    for (const float width : {1090.f, 1500.f}) {
        const LearnedStructureLayout layout =
            learnedStructureLayout({0, 0, width, 760}, theme, 0, structure->note);
        Figure figure = emptyFigure(width, 760, theme);
        LearnedStructureFrames frames;
        drawLearnedStructureFigure(figure, layout, LearnedStructureOptions{}, *structure, theme,
                                   &frames);
        EXPECT_GE(frames.components.plot.width, 0.7f * layout.components.width) << width;
        for (const char* key : {"PC1 (lag-1 r", "PC2 (lag-1 r", "PC3 (lag-1 r"})
            EXPECT_TRUE(hasText(figure, key)) << width << ": " << key;
        EXPECT_TRUE(figure.leftOut.empty()) << width;
        EXPECT_EQ(layoutFaults(figure), "") << width;
    }
}

// A table's structure as `render learned-pca --width 600` builds it: every panel, the height
// derived from the width.
Result<Figure> oneColumnStructure(const Matrix& table) {
    return buildWithAllPanels(
        [&](const Theme& t, float width, float height) {
            return learnedStructureFigure(table, {}, width, height, t);
        },
        forFiles(paperTheme(), 1), 600, 400, true, 8192);
}

// Issue #28: at one column (`render learned-pca --width 600`) the components' keys stood between
// the plot's title and the plot, a view's own rule. As render builds the file, the legend that
// keys PC1 is inside the plot or under it, by drawLinePlot's one rule, its names whole.
TEST(LearnedStructureFiguresTest, OneColumnComponentsLegendIsInsideOrUnderThePlot) {
    auto table = learnedTable(LearnedParams{});
    ASSERT_TRUE(table) << table.error().message;
    auto figure = oneColumnStructure(*table);
    ASSERT_TRUE(figure) << figure.error().message;
    ASSERT_EQ(figure->panels.size(), 6u);
    const Box plot = figure->panels[1].plot;
    std::optional<Box> keyed;  // the legend box holding the PC1 key
    for (std::size_t i = 0; i < figure->items.size(); ++i) {
        const auto* text = std::get_if<TextItem>(&figure->items[i]);
        if (!text || text->text.rfind("PC1 (lag-1 r", 0) != 0) continue;
        const Box t = textBox(*text);
        for (const FigureItem& item : figure->items)
            if (const auto* r = std::get_if<RectItem>(&item);
                r && r->legend && r->box.contains({t.x + t.width / 2, t.y + t.height / 2}))
                keyed = r->box;
    }
    ASSERT_TRUE(keyed.has_value());
    const bool inside =
        plot.contains({keyed->x, keyed->y}) && plot.contains({keyed->right(), keyed->bottom()});
    EXPECT_TRUE(inside || keyed->y >= plot.bottom())
        << "legend at y " << keyed->y << ".." << keyed->bottom() << ", plot " << plot.y << ".."
        << plot.bottom();
    const std::vector<std::string> shown = texts(*figure);
    for (const char* key : {"PC1 (lag-1 r 0.14)", "PC2 (lag-1 r −0.02)", "PC3 (lag-1 r −0.02)"})
        EXPECT_NE(std::find(shown.begin(), shown.end(), key), shown.end()) << key;
    EXPECT_TRUE(figure->leftOut.empty());
    EXPECT_EQ(layoutFaults(*figure), "");
}

// Issue #28: the "mean spectrum" and "dominant frequency" legends stood in a column beside their
// plots and squeezed them to about half the width, at one column in print (`render learned-pca
// --width 600`) and at 1024x768 F5 (each plot alone, 1008 x 548 at 1.75 times the font). By
// drawLinePlot's one rule they go inside where the curves leave room, else in rows under the
// plot: each plot keeps most of the width, every key whole on one line.
TEST(LearnedStructureFiguresTest, SpectrumLegendsLeaveThePlotsTheirWidth) {
    auto table = learnedTable(LearnedParams{});  // the GUI's default table
    ASSERT_TRUE(table) << table.error().message;
    const std::vector<std::string> keys = {"table", "rows shuffled", "sinusoidal, base 10000"};
    auto checkKeys = [&](const std::vector<std::string>& shown, const std::string& where) {
        for (const std::string& key : keys) {
            bool whole = false;
            for (const std::string& text : shown) whole = whole || text == key;
            EXPECT_TRUE(whole) << where << ": " << key;
        }
    };
    {
        // One column: every panel, the height derived from the width (panels 4 and 5 of six).
        auto figure = oneColumnStructure(*table);
        ASSERT_TRUE(figure) << figure.error().message;
        ASSERT_EQ(figure->panels.size(), 6u);
        for (std::size_t panel : {3u, 4u})
            EXPECT_GE(figure->panels[panel].plot.width, 0.7f * 600) << "one column " << panel;
        checkKeys(texts(*figure), "one column");
        EXPECT_TRUE(figure->leftOut.empty());
        EXPECT_EQ(layoutFaults(*figure), "");
    }
    // At F5: the spectrum (3) and the dominant frequencies (4), each alone.
    auto structure = analyzeTableStructure(*table, StructureOptions{});
    ASSERT_TRUE(structure) << structure.error().message;
    const Theme theme = scaledTheme(darkTheme(), 1.75f);
    std::vector<std::string> shown;
    for (int selected : {3, 4}) {
        const LearnedStructureLayout layout =
            learnedStructureLayout({0, 0, 1008, 548}, theme, selected, structure->note);
        ASSERT_TRUE(layout.grid.oneAtATime());
        Figure figure = emptyFigure(1008, 548, theme);
        LearnedStructureFrames frames;
        drawLearnedStructureFigure(figure, layout, LearnedStructureOptions{}, *structure, theme,
                                   &frames);
        const PlotFrame& frame = selected == 3 ? frames.spectrum : frames.frequencies;
        const std::string where = "F5 panel " + std::to_string(selected);
        EXPECT_GE(frame.plot.width, 0.7f * 1008) << where;
        EXPECT_EQ(layoutFaults(figure), "") << where;
        EXPECT_TRUE(figure.leftOut.empty()) << where;
        for (const std::string& text : texts(figure)) shown.push_back(text);
    }
    checkKeys(shown, "F5");
}

// At 1024x768 F5 (a 1008 x 548 figure, the theme scaled 1.75) each plot comes alone below the
// figure's title: the 30 px band left the plot's title touching it. A gap of a fifth of a line.
TEST(LearnedStructureFiguresTest, OnAProjectorThePlotTitleStandsClearOfTheFigureTitle) {
    auto table = learnedTable(LearnedParams{});
    ASSERT_TRUE(table) << table.error().message;
    auto structure = analyzeTableStructure(*table, StructureOptions{});
    ASSERT_TRUE(structure) << structure.error().message;
    const Theme theme = scaledTheme(darkTheme(), 1.75f);
    const LearnedStructureLayout layout =
        learnedStructureLayout({0, 0, 1008, 548}, theme, 1, structure->note);
    ASSERT_TRUE(layout.grid.oneAtATime());
    Figure figure = emptyFigure(1008, 548, theme);
    drawLearnedStructureFigure(figure, layout, LearnedStructureOptions{}, *structure, theme);
    std::optional<Box> title, plotTitle;
    for (const FigureItem& item : figure.items) {
        const auto* text = std::get_if<TextItem>(&item);
        if (!text) continue;
        if (text->text.rfind("Structure of", 0) == 0) title = textBox(*text);
        if (text->text == "principal components against position") plotTitle = textBox(*text);
    }
    ASSERT_TRUE(title && plotTitle);
    EXPECT_GE(plotTitle->y - title->bottom(), 0.2f * theme.fontSize);
    EXPECT_EQ(layoutFaults(figure), "");
}

TEST(LearnedStructureFiguresTest, OneDotPerPositionInEachTrajectory) {
    const int rows = 150;
    auto figure = learnedStructureFigure(sinusoidalTable(rows, 16), {}, 1500, 900, paperTheme());
    ASSERT_TRUE(figure);
    const auto dots = itemsOf<CircleItem>(*figure);
    // The dominant-frequency series has markers too (16 dims: one dot each); the rest are the
    // two trajectories.
    ASSERT_EQ(dots.size(), std::size_t(2 * rows + 16));
    // The first trajectory's dots run through the position colormap: first and last position.
    std::vector<const CircleItem*> coloured;
    for (const CircleItem* dot : dots) {
        if (dot->radius == 3.f && dot->fill == sampleColormap(ColormapId::Viridis, 0.0)) {
            coloured.push_back(dot);
        }
    }
    EXPECT_EQ(coloured.size(), 2u);  // position 0, once in each trajectory
}

TEST(LearnedStructureFiguresTest, HasAColourBarPerTrajectoryForThePositionIndex) {
    const int rows = 64;
    auto figure = learnedStructureFigure(sinusoidalTable(rows, 16), {}, 1500, 900, darkTheme());
    ASSERT_TRUE(figure);
    int bars = 0;
    for (const HeatmapItem* heatmap : itemsOf<HeatmapItem>(*figure)) {
        if (heatmap->colormap == ColormapId::Viridis && heatmap->values->cols == 1) ++bars;
    }
    EXPECT_EQ(bars, 2);
    // Its ticks are position indices up to rows - 1.
    EXPECT_TRUE(hasText(*figure, "60"));
}

TEST(LearnedStructureFiguresTest, ExplainedVarianceBarsMatchTheAnalysis) {
    // A table whose rows lie on a circle: two bars of 50% each and nothing after them.
    const int rows = 40;
    Matrix table(rows, 4);
    for (int p = 0; p < rows; ++p) {
        table(p, 0) = std::cos(2 * kPi * p / rows);
        table(p, 1) = std::sin(2 * kPi * p / rows);
    }
    LearnedStructureOptions options;
    options.components = 4;
    Figure figure = emptyFigure(1500, 900, darkTheme());
    const LearnedStructureLayout layout = learnedStructureLayout({0, 0, 1500, 900});
    StructureOptions analysis;
    analysis.components = 4;
    auto structure = analyzeTableStructure(table, analysis);
    ASSERT_TRUE(structure);
    LearnedStructureFrames frames;
    drawLearnedStructureFigure(figure, layout, options, *structure, darkTheme(), &frames);
    std::vector<const RectItem*> bars;
    for (const RectItem* rect : itemsOf<RectItem>(figure)) {
        if (rect->fill == seriesColor(0) &&
            layout.variance.contains({rect->box.x + 1, rect->box.y + 1})) {
            bars.push_back(rect);
        }
    }
    ASSERT_EQ(bars.size(), 4u);
    const float fifty = frames.variance.toPixel(1, 50).y, zero = frames.variance.toPixel(1, 0).y;
    EXPECT_NEAR(bars[0]->box.y, fifty, 0.01);
    EXPECT_NEAR(bars[1]->box.y, fifty, 0.01);
    EXPECT_NEAR(bars[2]->box.height, 0, 0.01);
    EXPECT_NEAR(bars[0]->box.bottom(), zero, 0.01);
    EXPECT_TRUE(hasText(figure, "components 1-3: 100.0% of 4"));
}

// Issue #28: on a projector (presentation fonts, 1008x512) the six plots used to share three
// columns and cut 22 labels with "…"; they now come one at a time, each whole, and the
// analysis note wraps below the plot instead of ending in "…".
TEST(LearnedStructureFiguresTest, OnAProjectorEachPlotComesAloneAndNothingIsCut) {
    const Theme theme = scaledTheme(darkTheme(), 1.6f);
    StructureOptions analysis;
    analysis.components = 12;
    auto structure = analyzeTableStructure(sinusoidalTable(512, 64), analysis);
    ASSERT_TRUE(structure);
    ASSERT_GT(structure->note.size(), 100u);  // longer than one line at this size
    LearnedStructureOptions options;
    for (int panel = 0; panel < 6; ++panel) {
        const LearnedStructureLayout layout =
            learnedStructureLayout({0, 0, 1008, 512}, theme, panel, structure->note);
        ASSERT_TRUE(layout.grid.oneAtATime());
        Figure figure = emptyFigure(1008, 512, theme);
        drawLearnedStructureFigure(figure, layout, options, *structure, theme);
        EXPECT_TRUE(cutTexts(figure).empty()) << "panel " << panel + 1;
        EXPECT_TRUE(overlappingTexts(figure).empty()) << "panel " << panel + 1;
        EXPECT_TRUE(textsOutsideFigure(figure).empty()) << "panel " << panel + 1;
    }
    // The old three-column layout, still what a large export gets, cuts texts at this size.
    Figure crowded = emptyFigure(1008, 512, theme);
    drawLearnedStructureFigure(crowded, learnedStructureLayout({0, 0, 1008, 512}), options,
                               *structure, theme);
    EXPECT_FALSE(cutTexts(crowded).empty());
    // At an ordinary size and font all six share one figure, in three columns.
    const LearnedStructureLayout wide =
        learnedStructureLayout({0, 0, 1500, 900}, darkTheme(), 0, structure->note);
    EXPECT_FALSE(wide.grid.oneAtATime());
    EXPECT_EQ(wide.grid.columns, 3);
}

TEST(LearnedStructureFiguresTest, ManyPositionsAreThinnedToThePointCap) {
    auto figure = learnedStructureFigure(sinusoidalTable(5000, 8), {}, 1500, 900, darkTheme());
    ASSERT_TRUE(figure);
    const auto dots = itemsOf<CircleItem>(*figure);
    // 5000 positions at a stride of 3: 1667 dots per trajectory, plus 8 frequency markers.
    EXPECT_EQ(dots.size(), std::size_t(2 * 1667 + 8));
}

TEST(LearnedStructureFiguresTest, BadInputIsAOneLineError) {
    Matrix table = sinusoidalTable(10, 4);
    table(3, 2) = INFINITY;
    auto nonFinite = learnedStructureFigure(table, {}, 800, 600, darkTheme());
    ASSERT_FALSE(nonFinite);
    EXPECT_EQ(nonFinite.error().message,
              "the table holds a non-finite value at row 3, dimension 2");
    LearnedStructureOptions options;
    options.sinusoidalBase = 1;
    auto base = learnedStructureFigure(sinusoidalTable(10, 4), options, 800, 600, darkTheme());
    ASSERT_FALSE(base);
    EXPECT_EQ(base.error().message, "sinusoidal base must be a finite number > 1 (got 1)");
    options = {};
    options.components = 65;
    auto components =
        learnedStructureFigure(sinusoidalTable(10, 4), options, 800, 600, darkTheme());
    ASSERT_FALSE(components);
    EXPECT_EQ(components.error().message, "components must be 1..64 (got 65)");
    auto size = learnedStructureFigure(sinusoidalTable(10, 4), {}, 10, 600, darkTheme());
    ASSERT_FALSE(size);
    EXPECT_EQ(size.error().message,
              "figure size must be 200..16384 x 150..16384 pixels (got 10 x 600)");
}

// The GUI's canvas beside the control panel is about 1090 px wide at 1440 x 900; there the
// spectrum's and the shuffled plot's titles used to end in "…". Every title must be whole (on one
// line, or wrapped onto two) at that width and at the other common window sizes.
class StructureTitleWidthTest : public ::testing::TestWithParam<float> {};

TEST_P(StructureTitleWidthTest, NoTitleIsShortened) {
    const float width = GetParam();
    LearnedStructureOptions options;
    options.source = "sinusoidal, 512 x 64, base 10000";
    const Matrix table = sinusoidalTable(512, 64);
    for (TrajectoryStyle style : {TrajectoryStyle::Flat, TrajectoryStyle::Rotatable}) {
        options.trajectory = style;
        auto figure = learnedStructureFigure(table, options, width, 780, darkTheme());
        ASSERT_TRUE(figure) << figure.error().message;
        std::string all;  // every text, space-separated: a wrapped title reads whole in it
        for (const FigureItem& item : figure->items) {
            if (auto* text = std::get_if<TextItem>(&item)) {
                EXPECT_EQ(text->text.find("\u2026"), std::string::npos)
                    << "at " << width << " px: \"" << text->text << "\" was shortened";
                all += text->text + " ";
            }
        }
        const bool flat = style == TrajectoryStyle::Flat;
        for (std::string title :
             {std::string(
                  "Structure of sinusoidal, 512 x 64, base 10000 (512 positions × 64 dims)"),
              std::string("explained variance per component"),
              std::string("principal components against position"),
              std::string(flat ? "PC1 vs PC2, coloured by position"
                               : "PC1-PC3 trajectory, coloured by position"),
              std::string("mean spectrum over dimensions (dashed: sinusoidal \u03C9\u2080)"),
              std::string("dominant frequency per dimension vs sinusoidal"),
              std::string("rows shuffled (seed 1): lag-1 r")}) {
            EXPECT_NE(all.find(title), std::string::npos) << "at " << width << " px: " << title;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(GuiWidths, StructureTitleWidthTest,
                         ::testing::Values(960.f, 1090.f, 1280.f, 1600.f));

}  // namespace
}  // namespace poslab

namespace poslab {
namespace {

// Issue #28 (integer axes with fractional ticks): under the 12 bars of the explained variance at
// 1440x900 (a 1090 x 760 figure) the component axis read 2.5, 5, 7.5, 10, 12.5. Every tick
// label under the variance plot is a whole component, 1..12.
TEST(LearnedStructureFiguresTest, ComponentAxisIsTickedAtWholeComponents) {
    LearnedParams params;  // the GUI's default table: seed 0, std 0.02, 512 x 64
    auto table = learnedTable(params);
    ASSERT_TRUE(table) << table.error().message;
    StructureOptions analysis;
    analysis.components = 12;
    auto structure = analyzeTableStructure(*table, analysis);
    ASSERT_TRUE(structure) << structure.error().message;
    LearnedStructureOptions options;
    options.components = 12;
    for (const float width : {1090.f, 1500.f, 700.f}) {
        const Box area{0, 0, width, 760};
        Figure figure = emptyFigure(width, 760, darkTheme());
        LearnedStructureFrames frames;
        drawLearnedStructureFigure(figure, learnedStructureLayout(area), options, *structure,
                                   darkTheme(), &frames);
        const Box& plot = frames.variance.plot;
        int ticks = 0;
        for (const TextItem* text : itemsOf<TextItem>(figure)) {
            // The x tick labels: centred under the plot, within its width, on the first row.
            if (text->horizontal != HorizontalAlign::Center || text->anchor.x < plot.x ||
                text->anchor.x > plot.right() || text->anchor.y < plot.bottom() ||
                text->anchor.y > plot.bottom() + 2 * darkTheme().fontSize ||
                text->text == "component")
                continue;
            ++ticks;
            std::size_t end = 0;
            int value = 0;
            try {
                value = std::stoi(text->text, &end);
            } catch (...) {
            }
            EXPECT_EQ(end, text->text.size()) << width << ": tick \"" << text->text << "\"";
            EXPECT_GE(value, 1) << width << ": " << text->text;
            EXPECT_LE(value, 12) << width << ": " << text->text;
        }
        EXPECT_GE(ticks, 2) << width;
    }
}

}  // namespace
}  // namespace poslab
