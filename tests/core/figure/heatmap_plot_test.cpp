// drawHeatmap: masked cells, square cells, colour-bar captions along the bar, angle ticks at
// multiples of pi and marker labels above the cells, against geometry worked out by hand.
#include "poslab/figure/heatmap_plot.hpp"

#include "poslab/base/heatmap_sample.hpp"
#include "poslab/figure/colorbar.hpp"
#include "poslab/figure/layout.hpp"
#include "poslab/figure/plot.hpp"
#include "poslab/figure/text_boxes.hpp"
#include "poslab/figure/text_fit.hpp"

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
TEST(HeatmapPlotTest, MaskedCellsTakeTheThemesColourInTheHeatmapWithNoUnderlay) {
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

TEST(HeatmapPlotTest, ColourBarCaptionsNoLongerThanTheBar) {
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

TEST(HeatmapPlotTest, AngleTicksSitAtMultiplesOfPi) {
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
    spec.barTicks = BarTicks::Angles;
    Figure figure = emptyFigure(600, 400, paperTheme());
    drawHeatmap(figure, {0, 0, 600, 400}, spec, paperTheme());
    bool threeHalves = false;
    for (const auto& item : figure.items) {
        if (const auto* t = std::get_if<TextItem>(&item)) threeHalves |= t->text == "3π/2";
    }
    EXPECT_TRUE(threeHalves);
}

TEST(HeatmapPlotTest, SquareCellsAreAsWideAsTall) {
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
TEST(HeatmapPlotTest, ColourBarCaptionOfSquareCellsStaysAlongTheBar) {
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

// A square map in a narrow figure (Similarity at 480x320: 138 x 230 pixels) has a bar too short
// for any of its caption: a lone "…" said nothing and sat on the top tick label. No caption then,
// and the bar's tick labels keep clear of everything.
TEST(HeatmapPlotTest, ColourBarCaptionTooLongForAShortBarIsLeftOut) {
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

TEST(HeatmapPlotTest, AVerticalMarkersLabelOnAHeatmapSitsAboveItsCells) {
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

// Issue #28: "training length 2048", "table ends" and "gather clamp 255" sat on heatmap cells.
// A horizontal line's label now goes beside the plot, right of it at the line's height, whole
// (wrapped at spaces), with the colour bar moved right past it: no text over a cell or another
// text, and every word of the label drawn.
TEST(HeatmapPlotTest, AHorizontalMarkersLabelSitsBesideTheHeatmapAtItsLine) {
    for (const float scale : {1.f, 1.75f}) {
        const Theme theme = scaledTheme(darkTheme(), scale);
        Matrix values(64, 16);
        for (std::size_t r = 0; r < 64; ++r)
            for (std::size_t c = 0; c < 16; ++c) values.row(r)[c] = double((r * 3 + c) % 5);
        HeatmapSpec spec;
        spec.title = "Angles";
        spec.x = {"pair", 0, 16, false, true};
        spec.y = {"position", 0, 64, false, true};
        spec.values = std::make_shared<const Matrix>(values);
        spec.range = {0, 4};
        spec.colorbarLabel = "angle";
        spec.markers = {trainingLengthMarker(40, theme)};
        Figure figure = emptyFigure(700, 450, theme);
        PlotFrame frame;
        drawHeatmap(figure, {0, 0, 700, 450}, spec, theme, &frame);
        const float lineY = frame.toPixel(0, 40).y;  // independent: 40 of 64 rows down the plot
        EXPECT_NEAR(lineY, frame.plot.y + frame.plot.height * 40.f / 64.f, 0.5f);
        std::string joined;
        float top = INFINITY, bottom = -INFINITY, right = -INFINITY, rampX = INFINITY;
        for (const FigureItem& item : figure.items) {
            if (const auto* ramp = std::get_if<HeatmapItem>(&item);
                ramp && ramp->box.x > frame.plot.right())
                rampX = std::min(rampX, ramp->box.x);
            const auto* text = std::get_if<TextItem>(&item);
            if (!text || text->color != theme.accent) continue;
            const Box box = textBox(*text);
            EXPECT_GE(box.x, frame.plot.right()) << text->text << " at scale " << scale;
            joined += (joined.empty() ? "" : " ") + text->text;
            top = std::min(top, box.y);
            right = std::max(right, box.right());
            bottom = std::max(bottom, box.bottom());
        }
        EXPECT_EQ(joined, "training length 40") << scale;
        EXPECT_LE(top, lineY) << scale;  // the label's lines span the line's height
        EXPECT_GE(bottom, lineY) << scale;
        EXPECT_GE(rampX, right) << scale;  // the colour bar, right of the label
        EXPECT_TRUE(textsOverMarks(figure).empty()) << scale;
        EXPECT_TRUE(overlappingTexts(figure).empty()) << scale;
        EXPECT_TRUE(cutTexts(figure).empty()) << scale;
    }
}

// A heatmap too narrow for that strip (Extrapolation's panels at 480x320) drew the label inside
// the plot, on its cells ("trained", "table ends": 2 texts over data). It goes above the plot
// now, after a dashed swatch in the line's colour: whole, over no cell and no other text.
TEST(HeatmapPlotTest, AHorizontalMarkersLabelGoesAboveANarrowHeatmapAsAKey) {
    const Theme theme = darkTheme();
    HeatmapSpec spec;
    spec.title = "Learned";
    spec.x = {"dimension", 0, 16, false, true};
    spec.y = {"position", 0, 64, false, true};
    spec.values = std::make_shared<const Matrix>(64, 16);
    spec.range = {-1, 1};
    spec.markers = {trainingMarker(40, false, theme, "table ends")};
    Figure figure = emptyFigure(220, 300, theme);
    PlotFrame frame;
    drawHeatmap(figure, {0, 0, 220, 300}, spec, theme, &frame);
    std::string joined;
    for (const FigureItem& item : figure.items) {
        const auto* text = std::get_if<TextItem>(&item);
        if (!text || text->color != theme.accent) continue;
        joined += (joined.empty() ? "" : " ") + text->text;
        EXPECT_LE(textBox(*text).bottom(), frame.plot.y) << text->text;
    }
    EXPECT_EQ(joined, "table ends");
    bool swatch = false;  // a dashed accent segment above the plot, besides the line itself
    for (const FigureItem& item : figure.items) {
        const auto* line = std::get_if<LineItem>(&item);
        if (line && line->dashed && line->color == theme.accent && line->from.y < frame.plot.y &&
            line->from.y == line->to.y)
            swatch = true;
    }
    EXPECT_TRUE(swatch);
    EXPECT_TRUE(textsOverMarks(figure).empty());
    EXPECT_TRUE(overlappingTexts(figure).empty());
    EXPECT_TRUE(cutTexts(figure).empty());
}

// Presentation mode (theme scaled 1.75x) keeps text at 14 px or more (#28): the colour bar's
// caption, fitted to the bar and fitted again to the bar as drawn, was refitted from its already
// shrunk size at the default 75 % and came out at 12.7 px (Sinusoidal in lesson 2.2, 1024x768).
TEST(HeatmapPlotTest, ColourBarCaptionInPresentationStaysAtTheReadableSize) {
    const Theme theme = scaledTheme(darkTheme(), 1.75f);
    for (const bool square : {false, true}) {
        HeatmapSpec spec;
        spec.values = std::make_shared<const Matrix>(128, 64);
        spec.x = {"dimension", 0, 64, false, true};
        spec.y = {"position", 0, 128, false, true};
        spec.range = {-1, 1};
        spec.squareCells = square;
        spec.colorbarLabel = "value (mean, 2×1 cells/px)";
        const Box area{0, 0, 1008, 291};
        Figure figure = emptyFigure(area.width, area.height, theme);
        PlotFrame frame;
        drawHeatmap(figure, area, spec, theme, &frame);
        for (const FigureItem& item : figure.items) {
            const auto* text = std::get_if<TextItem>(&item);
            if (!text || text->text.empty()) continue;
            EXPECT_GE(text->size, kReadableTextPx - 0.01f) << text->text << " square " << square;
        }
    }
}

// Presentation mode keeps a colour bar's caption at full size for the projector (#28, check at
// 80 % of the body size): wrapped onto a second column, else without its sampling detail, else
// along the bar's free column past its ends; never shrunk under 0.8 x the theme's size (the
// Sinusoidal, RoPE and add-vs-concat captions were 15.6 to 18.8 px of 24.5 at 1024x768 F5).
TEST(HeatmapPlotTest, ColourBarCaptionInPresentationStaysAtFullSize) {
    const Theme theme = scaledTheme(darkTheme(), 1.75f);
    const float floor = 0.8f * theme.fontSize;
    struct Case {
        const char* label;
        float height;
        bool square;
    };
    for (const Case& c : {Case{"value (mean, 2×1 cells/px)", 390, false},
                          Case{"circular mean of 11 x 1 cells a pixel", 552, false},
                          Case{"$q_m·k_n$, mean of 12 × 12 cells per pixel", 552, true},
                          Case{"$q_m·k_n$, mean of 12 × 12 cells per pixel", 300, true},
                          Case{"logit / √d", 200, true}, Case{"logit / √d", 160, false}}) {
        HeatmapSpec spec;
        spec.values = std::make_shared<const Matrix>(64, 64);
        spec.x = {"key", 0, 64, false, true};
        spec.y = {"query", 0, 64, false, true};
        spec.range = {-1, 1};
        spec.squareCells = c.square;
        spec.colorbarLabel = c.label;
        const Box area{0, 0, 1008, c.height};
        Figure figure = emptyFigure(area.width, area.height, theme);
        PlotFrame frame;
        drawHeatmap(figure, area, spec, theme, &frame);
        bool captioned = false;
        for (const FigureItem& item : figure.items) {
            const auto* text = std::get_if<TextItem>(&item);
            if (!text || text->text.empty()) continue;
            EXPECT_GE(text->size, floor - 0.01f) << text->text << " in " << c.label;
            if (text->vertical90) {
                captioned = true;
                EXPECT_LE(estimateTextWidth(text->text, text->size), area.height) << text->text;
            }
        }
        EXPECT_TRUE(captioned) << c.label;  // shortened or wrapped, never left out here
    }
}

// A file has no hover (#28): a presentation-sized caption that does not fit dropped its
// sampling detail on screen and in files alike ("value (mean, 2×1 cells/px)" became "value" in a
// one-column PDF). A figure meant for a file (a vector file, or print-sized) keeps the detail
// whole, on a line of its own beside the bar, with no text cut, over another or over data.
TEST(HeatmapPlotTest, ColourBarCaptionInAFileKeepsItsSamplingDetail) {
    struct Case {
        const char* label;
        const char* detail;  // the part after the last ", " (with its opening bracket)
        float height;
    };
    for (const Case& c : {Case{"value (mean, 2×1 cells/px)", "(mean, 2×1 cells/px)", 240},
                          Case{"$q_m·k_n$, mean of 12 × 12 cells per pixel",
                               "mean of 12 × 12 cells per pixel", 300}}) {
        HeatmapSpec spec;
        spec.values = std::make_shared<const Matrix>(64, 64);
        spec.x = {"key", 0, 64, false, true};
        spec.y = {"query", 0, 64, false, true};
        spec.range = {-1, 1};
        spec.squareCells = true;
        spec.colorbarLabel = c.label;
        const Box area{0, 0, 1008, c.height};
        auto captionText = [&](const Theme& theme, Figure& figure, PlotFrame& frame) {
            figure = emptyFigure(area.width, area.height, theme);
            drawHeatmap(figure, area, spec, theme, &frame);
            std::string joined;
            for (const FigureItem& item : figure.items)
                if (const auto* text = std::get_if<TextItem>(&item); text && text->vertical90)
                    joined += text->text + " ";  // wrapped where it has a space
            return joined;
        };
        Figure figure;
        PlotFrame frame;
        // The screen drops the detail here (the hover states it): the caption does not fit.
        const Theme screen = scaledTheme(darkTheme(), 1.75f);
        EXPECT_EQ(captionText(screen, figure, frame).find(c.detail), std::string::npos) << c.label;
        for (const bool vector : {true, false}) {
            Theme file = scaledTheme(paperTheme(), 1.75f);
            if (vector)
                file.cellResolution = true;  // PDF, SVG
            else
                file.minTextSize = 0.5f * file.fontSize;  // print-sized (forFiles): PNG
            const std::string caption = captionText(file, figure, frame);
            EXPECT_NE(caption.find(c.detail), std::string::npos) << caption;
            EXPECT_TRUE(cutTexts(figure).empty()) << caption;
            EXPECT_TRUE(overlappingTexts(figure).empty()) << caption;
            EXPECT_TRUE(textsOutsideFigure(figure).empty()) << caption;
            for (const FigureItem& item : figure.items) {
                const auto* text = std::get_if<TextItem>(&item);
                if (!text || !text->vertical90) continue;
                EXPECT_FALSE(boxesOverlap(textBox(*text), frame.plot, 0)) << text->text;
                const HeatmapPlacement placed = measureHeatmap(area, spec, file);
                EXPECT_FALSE(boxesOverlap(textBox(*text), placed.bar, 0)) << text->text;
            }
        }
    }
}

}  // namespace
}  // namespace poslab

namespace poslab {
namespace {

// A square map at one column in print (8 pt, a large em): its plot narrower than "position" at
// that size cut the x label to "positi…". The label runs past the plot's sides up to the colour
// bar, whole, and meets no other text.
TEST(HeatmapPlotTest, NarrowSquareMapsXLabelIsWholeAtPrintSize) {
    Theme theme = paperTheme();
    theme.fontSize = 22, theme.titleSize = 24, theme.minTextSize = 22;
    HeatmapSpec spec;
    spec.values = std::make_shared<const Matrix>(64, 64);
    spec.x = {"position", 0, 64, false, true};
    spec.y = {"position", 0, 64, false, true};
    spec.range = {-1, 1};
    spec.squareCells = true;
    spec.colorbarLabel = "cosine";
    const Box area{0, 0, 600, 180};  // wide: the height makes the square narrow
    Figure figure = emptyFigure(area.width, area.height, theme);
    PlotFrame frame;
    drawHeatmap(figure, area, spec, theme, &frame);
    ASSERT_LT(frame.plot.width, estimateTextWidth("position", theme.fontSize));
    for (std::size_t index : cutTexts(figure))
        ADD_FAILURE() << std::get<TextItem>(figure.items[index]).text;
    EXPECT_TRUE(overlappingTexts(figure).empty());
}

// The texts of a figure that run along a colour bar (rotated, right of the plot), top line first.
std::vector<const TextItem*> barCaptions(const Figure& figure, const PlotFrame& frame) {
    std::vector<const TextItem*> out;
    for (const FigureItem& item : figure.items) {
        const auto* text = std::get_if<TextItem>(&item);
        if (text && text->vertical90 && text->anchor.x > frame.plot.right()) out.push_back(text);
    }
    return out;
}

// Issue #28: Similarity at 1024x768 (375 x 678 px): the caption was fitted to the full height on
// one line, then cut to "cosine similarity (mean of 1 x 2 cel…" on the bar the square cells
// leave. It takes two lines there, every word of it, each no longer than the bar.
TEST(HeatmapPlotTest, SquareCellsCaptionTakesTwoLinesOnTheShortBarRatherThanACut) {
    const std::string label = "cosine similarity (mean of 1 x 2 cells per pixel)";
    HeatmapSpec spec;
    spec.values = std::make_shared<const Matrix>(64, 64);
    spec.x = {"key position j", 0, 64, false, true};
    spec.y = {"query position i", 0, 64, false, true};
    spec.range = {-1, 1};
    spec.squareCells = true;
    spec.colorbarLabel = label;
    const Box area{0, 0, 375, 678};
    Figure figure = emptyFigure(area.width, area.height, darkTheme());
    PlotFrame frame;
    drawHeatmap(figure, area, spec, darkTheme(), &frame);
    ASSERT_LT(frame.plot.height, 300);  // square: the bar is much shorter than the area
    std::string joined;
    for (const TextItem* line : barCaptions(figure, frame)) {
        joined += (joined.empty() ? "" : " ") + line->text;
        EXPECT_LE(estimateTextWidth(line->text, line->size), frame.plot.height + 0.5f);
    }
    EXPECT_EQ(joined, label);
    EXPECT_TRUE(cutTexts(figure).empty());
    EXPECT_TRUE(overlappingTexts(figure).empty());
}

// Issue #28: the binary clock's heatmaps at 1024x768 are 147 and 167 px wide, and the colour bar
// with its ticks and caption takes about 100 of them: the titles, fitted to what was left, read
// "bits o…" and "sinusoid…", and the x label "dimen…". The title spans the colour bar (it has
// the width for two lines there), the x label runs on under the bar; no text is cut or crosses
// another, and the title's words are all there.
TEST(HeatmapPlotTest, ANarrowHeatmapsTitleAndXLabelUseTheColourBarsWidth) {
    const Theme theme = darkTheme();
    struct Case {
        float width;
        int columns;
        const char* title;
        const char* xLabel;
    };
    for (const Case& c : {Case{147, 5, "bits of the position", "bit"},
                          Case{167, 18, "sinusoidal dims (fastest first)", "dimension"}}) {
        HeatmapSpec spec;
        spec.title = c.title;
        spec.values = std::make_shared<const Matrix>(64, c.columns);
        spec.x = {c.xLabel, 0, double(c.columns), false, true};
        spec.y = {"position", 0, 64, false, true};
        spec.range = {-1, 1};
        spec.colorbarLabel = "value";
        const Box area{0, 0, c.width, 600};
        Figure figure = emptyFigure(area.width, area.height, theme);
        PlotFrame frame;
        drawHeatmap(figure, area, spec, theme, &frame);
        // The plot alone is narrower than the label: the case the fix is for.
        ASSERT_LT(frame.plot.width, estimateTextWidth(c.title, theme.titleSize * 0.75f) / 2);
        std::string title;
        bool xLabel = false;
        for (const FigureItem& item : figure.items) {
            const auto* text = std::get_if<TextItem>(&item);
            if (!text) continue;
            if (text->anchor.y < frame.plot.y) title += (title.empty() ? "" : " ") + text->text;
            xLabel = xLabel || text->text == c.xLabel;
        }
        EXPECT_EQ(title, c.title);
        EXPECT_TRUE(xLabel) << c.xLabel;
        for (std::size_t index : cutTexts(figure))
            ADD_FAILURE() << std::get<TextItem>(figure.items[index]).text;
        EXPECT_TRUE(overlappingTexts(figure).empty()) << c.title;
        EXPECT_TRUE(textsOutsideFigure(figure).empty()) << c.title;
    }
}

// The colour bar's ticks are the ones its own length asks for (one per kColorbarTickSpacing
// pixels: colorbar.hpp), not the whole area's: ticks for the area were drawn on a bar 60 px
// shorter, their labels dropped where they touched, and a square map lost the width of labels
// such as −0.3125 to a bar that showed −0.325.
TEST(HeatmapPlotTest, ColourBarTicksAreChosenForTheBarAsDrawn) {
    HeatmapSpec spec;
    spec.values = std::make_shared<const Matrix>(64, 64);
    spec.x = {"key", 0, 64, false, true};
    spec.y = {"query", 0, 64, false, true};
    spec.title = "A map";
    spec.colorbarLabel = "bias";
    const Theme theme = paperTheme();
    for (ValueRange range : {ValueRange{0, 1}, ValueRange{-0.385538, -0.316736}}) {
        spec.range = range;
        for (bool square : {false, true}) {
            spec.squareCells = square;
            for (Box area : {Box{0, 0, 300, 260}, Box{0, 0, 230, 190}, Box{0, 0, 600, 420}}) {
                Figure figure = emptyFigure(area.width, area.height, theme);
                drawHeatmap(figure, area, spec, theme);
                const HeatmapItem* ramp = nullptr;
                std::vector<std::string> drawn;
                for (const FigureItem& item : figure.items) {
                    if (const auto* h = std::get_if<HeatmapItem>(&item); h && h->values->cols == 1)
                        ramp = h;
                    if (const auto* t = std::get_if<TextItem>(&item);
                        t && ramp && t->anchor.x > ramp->box.right() && t->text != "bias")
                        drawn.push_back(t->text);
                }
                ASSERT_NE(ramp, nullptr);
                // Every label drawn is one of the ticks for the bar's own length, and at least
                // two of them are drawn (none dropped for touching its neighbour). Square cells
                // may keep the ticks for the area's height instead, where those for the bar
                // would have longer labels, and so a smaller square (−0.375 for −0.38).
                std::set<std::string> forBar;
                for (const Tick& t : colorbarTicks(range, ramp->box.height, theme.fontSize))
                    forBar.insert(t.label);
                if (square) {
                    for (const Tick& t : colorbarTicks(range, area.height, theme.fontSize))
                        forBar.insert(t.label);
                }
                const std::string where =
                    std::to_string(int(area.width)) + "x" + std::to_string(int(area.height)) +
                    (square ? " square" : "") + " range " + std::to_string(range.low);
                for (const std::string& label : drawn)
                    EXPECT_TRUE(forBar.count(label)) << label << " at " << where;
                EXPECT_GE(drawn.size(), std::min<std::size_t>(2, forBar.size())) << where;
            }
        }
    }
}

// measureHeatmap reports the boxes drawHeatmap draws the cells and the colour bar in, and
// maxSquareSide caps a square plot's side (a family of maps drawn at one size).
TEST(HeatmapPlotTest, MeasureReportsWhereTheCellsAndBarAreDrawn) {
    HeatmapSpec spec;
    spec.values = std::make_shared<const Matrix>(32, 32);
    spec.x = {"key", 0, 32, false, true};
    spec.y = {"query", 0, 32, false, true};
    spec.range = {-1020, 0};
    spec.title = "ALiBi";
    spec.colorbarLabel = "bias";
    for (const Theme& theme : {darkTheme(), paperTheme(), scaledTheme(darkTheme(), 1.75f)}) {
        for (bool square : {false, true}) {
            for (bool bar : {false, true}) {
                for (float cap : {0.f, 60.f}) {
                    spec.squareCells = square;
                    spec.showColorbar = bar;
                    spec.maxSquareSide = cap;
                    for (Box area : {Box{10, 20, 240, 200}, Box{0, 0, 700, 400}}) {
                        Figure figure = emptyFigure(800, 500, theme);
                        PlotFrame frame;
                        drawHeatmap(figure, area, spec, theme, &frame);
                        const HeatmapPlacement placed = measureHeatmap(area, spec, theme);
                        std::vector<Box> cells, bars;
                        for (const FigureItem& item : figure.items) {
                            if (const auto* h = std::get_if<HeatmapItem>(&item))
                                (h->values->cols == 1 ? bars : cells).push_back(h->box);
                        }
                        ASSERT_EQ(cells.size(), 1u);
                        EXPECT_EQ(cells[0].x, placed.plot.x);
                        EXPECT_EQ(cells[0].y, placed.plot.y);
                        EXPECT_EQ(cells[0].width, placed.plot.width);
                        EXPECT_EQ(cells[0].height, placed.plot.height);
                        ASSERT_EQ(bars.size(), bar ? 1u : 0u);
                        if (bar) {
                            EXPECT_EQ(bars[0].x, placed.bar.x);
                            EXPECT_EQ(bars[0].y, placed.bar.y);
                            EXPECT_EQ(bars[0].width, placed.bar.width);
                            EXPECT_EQ(bars[0].height, placed.bar.height);
                        } else {
                            EXPECT_EQ(placed.bar.width, 0.f);
                        }
                        if (square && cap > 0) {
                            EXPECT_LE(placed.plot.width, cap + 1e-3f);
                            EXPECT_LE(placed.plot.height, cap + 1e-3f);
                        }
                    }
                }
            }
        }
    }
}

// heatmapHeightForWidth: in an area that tall the square map is as wide as in any taller one
// (bound by the width), and a little less height binds it by the height again.
TEST(HeatmapPlotTest, HeightForWidthMakesASquareMapAsWideAsItsArea) {
    HeatmapSpec spec;
    spec.title = "Bias of $j-i$, a title long enough to wrap at one column";
    spec.x = {"key j", 0, 160, false, true};
    spec.y = {"query i", 0, 160, false, true};
    spec.values = std::make_shared<const Matrix>(160, 160);
    spec.range = {-2, 2};
    spec.colorbarLabel = "bias";
    spec.squareCells = true;
    for (const Theme& theme : {darkTheme(), scaledTheme(paperTheme(), 1.6f)}) {
        for (float width : {600.f, 1100.f}) {
            const float height = heatmapHeightForWidth(width, spec, theme);
            ASSERT_GT(height, 0);
            const float widest = measureHeatmap({0, 0, width, 5 * width}, spec, theme).plot.width;
            const Box plot = measureHeatmap({0, 0, width, height}, spec, theme).plot;
            EXPECT_NEAR(plot.width, widest, 2) << width;
            EXPECT_NEAR(plot.width, plot.height, 1) << width;
            EXPECT_LT(measureHeatmap({0, 0, width, height - 20}, spec, theme).plot.width,
                      widest - 5)
                << width;
        }
    }
    spec.squareCells = false;  // fills any height: nothing to ask for
    EXPECT_EQ(heatmapHeightForWidth(600, spec, darkTheme()), 0);
}

}  // namespace
}  // namespace poslab
