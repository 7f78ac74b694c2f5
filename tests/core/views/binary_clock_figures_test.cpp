// The binary clock figure: its parts and its errors.
#include "poslab/views/binary_clock_figures.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "figure_checks.hpp"
#include "poslab/figure/figure_controls.hpp"
#include "poslab/figure/legend.hpp"

namespace poslab {
namespace {

TEST(BinaryClockFiguresTest, BinaryClockNamesEachBitsPeriodAndRefusesNoBits) {
    auto clock = binaryClockFigure({}, 1200, 800, paperTheme());
    ASSERT_TRUE(clock.ok());
    EXPECT_GE(count(*clock).polylines, 10);  // square wave and sinusoid per bit
    EXPECT_TRUE(hasText(*clock, "bit 3: period 16"));
    BinaryClockOptions bad;
    bad.bits = 0;
    EXPECT_EQ(binaryClockFigure(bad, 800, 600, paperTheme()).error().message,
              "bits must be 1..12 (got 0)");
}

}  // namespace
}  // namespace poslab

namespace poslab {
namespace {

// Session 20's audit: at 1024x768 F5 the bit plots' panel showed bits 0 and 1 of 5 (the rest
// left out without a word, though they are the ones whose sinusoid matches a PE pair's period).
// Then they went into three columns of plots 65 px tall under their own titles and ticks, each
// curve some 240 px of the 1008 px panel (issue #28: "panel 3 is squeezed at F5"). Every bit
// is a lane of one plot now, named by the y axis (bit) and its period beside it, and each curve
// runs across most of the panel.
TEST(BinaryClockFiguresTest, EveryBitIsShownOnAProjectorsPanel) {
    const Theme theme = scaledTheme(darkTheme(), 1.75f);
    auto clock = binaryClockFigure({}, 1008, 512, theme, 2);  // the third panel
    ASSERT_TRUE(clock.ok());
    for (int b = 0; b < 5; ++b) {
        const std::string period = "period " + std::to_string(2 << b);
        EXPECT_TRUE(hasText(*clock, period)) << "bit " << b;
    }
    int curves = 0;
    for (const FigureItem& item : clock->items) {
        const auto* line = std::get_if<PolylineItem>(&item);
        if (!line || line->points.size() < 8) continue;  // the bits' curves, not swatches
        float left = 1e9f, right = -1e9f;
        for (const Point& p : line->points)
            left = std::min(left, p.x), right = std::max(right, p.x);
        EXPECT_GE(right - left, 0.6f * 1008) << "a curve " << right - left << " px wide";
        ++curves;
    }
    EXPECT_EQ(curves, 10);  // a square wave and a sinusoid per bit
    EXPECT_EQ(layoutFaults(*clock), "");
    for (const std::string& cut : textsCutShort(*clock)) ADD_FAILURE() << "cut: " << cut;
}

// Issue #28: on a projector (F5, 1024x768) the title wrapped onto two lines at full size
// instead of one line shrunk to 20.8 px, under the presentation check's 0.8 x title size.
TEST(BinaryClockFiguresTest, PresentationTitleWrapsAtFullSize) {
    const Theme theme = scaledTheme(darkTheme(), 1.75f);
    for (int panel = 1; panel <= 3; ++panel) {
        auto clock = binaryClockFigure({}, 1008, 512, theme, panel);
        ASSERT_TRUE(clock.ok());
        int titleLines = 0;
        for (const auto& item : clock->items) {
            const auto* text = std::get_if<TextItem>(&item);
            if (!text) continue;
            if (text->text.find("binary clock") != std::string::npos ||
                text->text.find("twice as slowly") != std::string::npos) {
                ++titleLines;
                EXPECT_GE(text->size, 0.8f * theme.titleSize) << text->text;
            }
        }
        EXPECT_EQ(titleLines, 2) << "panel " << panel;
    }
}

// A narrow panel (the bit curves alone in a 480x320 window, 237 x 332 px): the first bit plot
// is a few lines tall and has no free place for the legend, which went over its curves showing
// one of its two keys. The keys go once above the stack instead, both of them, over no curve.
// (Too short for a plot per bit, the stack is one plot of a lane per bit, named by its title's
// rule: bits 3 and 4 were left out there.)
TEST(BinaryClockFiguresTest, ANarrowStackListsBothCurvesAboveItsPlots) {
    const Theme theme = darkTheme();
    for (const float width : {237.f, 1200.f}) {
        auto clock = binaryClockFigure({}, width, 332, theme, 2);
        ASSERT_TRUE(clock.ok());
        EXPECT_TRUE(legendsOverMarks(*clock).empty()) << width;
        EXPECT_TRUE(hasText(*clock, "2·bit − 1")) << width;
        EXPECT_TRUE(hasText(*clock, "sinusoid, same period")) << width;
        EXPECT_TRUE(hasText(*clock, "bit b: period")) << width;
        EXPECT_GE(count(*clock).polylines, 10) << width;  // every bit: a square wave, a sinusoid
        EXPECT_EQ(layoutFaults(*clock), "") << width;
    }
}

// Issue #28: at 1024x768 beside the controls (a 670 x 652 figure) the two heatmaps are 147 and
// 167 px wide; their titles read "bits o…" / "positi…" and "sinusoid…" / "(fastest…", and the
// x label "dimen…". Every text of the figure is whole now, and the titles' words are all there.
TEST(BinaryClockFiguresTest, NarrowHeatmapsAt1024x768CutNoText) {
    auto clock = binaryClockFigure({}, 670, 652, darkTheme());
    ASSERT_TRUE(clock.ok());
    EXPECT_EQ(textsCutShort(*clock), std::vector<std::string>{});
    const std::string all = allText(*clock);
    for (const char* words : {"bits of the", "position", "sinusoidal dims", "(fastest first)"})
        EXPECT_NE(all.find(words), std::string::npos) << words;
    EXPECT_TRUE(hasText(*clock, "dimension"));
    EXPECT_TRUE(overlappingTexts(*clock).empty());
}

}  // namespace
}  // namespace poslab

namespace poslab {
namespace {

// A bit is 0 or 1: the bits map's colour bar is ticked 0 and 1 only. It read 0, 0.25, 0.5, 0.75,
// 1 (values no bit takes). The bits map alone (panel 1 in focus, as `--panel 1` draws it), so
// every tick label in the figure is the bar's or an axis's (positions and bits: whole numbers).
TEST(BinaryClockFiguresTest, TheBitsMapsBarIsTickedAtZeroAndOne) {
    for (Theme theme : {paperTheme(), darkTheme(), scaledTheme(darkTheme(), 1.75f)}) {
        theme.focusPanel = 1;
        auto clock = binaryClockFigure({}, 1008, 512, theme);
        ASSERT_TRUE(clock.ok());
        EXPECT_TRUE(hasText(*clock, "0"));
        EXPECT_TRUE(hasText(*clock, "1"));
        for (const FigureItem& item : clock->items) {
            if (const auto* text = std::get_if<TextItem>(&item)) {
                EXPECT_EQ(text->text.find('.'), std::string::npos) << text->text;
            }
        }
    }
}

}  // namespace
}  // namespace poslab

namespace poslab {
namespace {

// Issue #28: the legend of the two curves stood beside bit 0's plot and made it narrower than
// the other bits' (a fifth narrower at one column in print, `render binary-clock --width 600`,
// and at 1440x900). The keys go once above the stack: every bit's curves span one width.
TEST(BinaryClockFiguresTest, EveryBitPlotHasOneWidth) {
    const Theme print = forFiles(paperTheme(), 1);
    auto build = [](const Theme& t, float width, float height) {
        return binaryClockFigure({}, width, height, t);
    };
    struct Case {
        const char* name;
        Result<Figure> figure;
    };
    Case cases[] = {{"one column", buildWithAllPanels(build, print, 600, 800, true, 8192)},
                    {"1440x900", binaryClockFigure({}, 1090, 760, darkTheme())},
                    {"page", binaryClockFigure({}, 1200, 800, paperTheme())}};
    for (Case& c : cases) {
        ASSERT_TRUE(c.figure.ok()) << c.name << ": " << c.figure.error().message;
        std::vector<float> widths;  // each curve's span across: its plot's width
        for (const FigureItem& item : c.figure->items) {
            const auto* line = std::get_if<PolylineItem>(&item);
            if (!line || line->points.size() < 8) continue;  // the bits' curves, not swatches
            float left = 1e9f, right = -1e9f;
            for (const Point& p : line->points)
                left = std::min(left, p.x), right = std::max(right, p.x);
            widths.push_back(right - left);
        }
        EXPECT_EQ(widths.size(), 10u) << c.name;  // a square wave and a sinusoid per bit
        for (const float width : widths) EXPECT_NEAR(width, widths.back(), 1.5f) << c.name;
        EXPECT_TRUE(hasText(*c.figure, "2·bit − 1")) << c.name;
        EXPECT_TRUE(hasText(*c.figure, "sinusoid, same period")) << c.name;
        EXPECT_TRUE(legendsOverMarks(*c.figure).empty()) << c.name;
        EXPECT_EQ(layoutFaults(*c.figure), "") << c.name;
    }
}

}  // namespace
}  // namespace poslab
