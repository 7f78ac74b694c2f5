// The position-and-meaning figures: every term drawn, and the figures say when what they show is
// a sample of the whole.
#include "poslab/views/meaning_figures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <variant>

#include "figure_checks.hpp"
#include "poslab/figure/figure_controls.hpp"
#include "poslab/figure/text_markup.hpp"

namespace poslab {
namespace {

TEST(MeaningFiguresTest, MeaningFiguresDrawEveryTerm) {
    MeaningParams params;
    params.seqLen = 20;
    params.dModel = 32;
    auto terms = meaningFigure(params, 1200, 800, darkTheme());
    ASSERT_TRUE(terms.ok());
    EXPECT_GE(count(*terms).heatmaps, 10);  // five heatmaps and five colour bars
    EXPECT_TRUE(hasText(*terms, "content·position"));
    // Every term's formula is typeset ($x_i·p_j$ as x with subscript i ...): the two position
    // terms showed their source, "p_i·x_j" and "p_i·p_j", beside typeset x_i·x_j and x_i·p_j.
    for (const char* formula : {"$x_i·x_j$", "$x_i·p_j$", "$p_i·x_j$", "$p_i·p_j$"})
        EXPECT_TRUE(hasText(*terms, formula)) << formula;
    auto add = addVersusConcatFigure(params, 1200, 800, darkTheme());
    ASSERT_TRUE(add.ok());
    EXPECT_TRUE(hasText(*add, "4·(2d)² = 16384"));  // 4 (2 * 32)^2
    auto ortho = nearOrthogonalityFigure(100, 2000, 1, 1000, 600, paperTheme());
    ASSERT_TRUE(ortho.ok());
    EXPECT_TRUE(hasText(*ortho, "±1/√d = ±0.1"));
    params.dModel = 1;
    EXPECT_EQ(meaningFigure(params, 800, 600, paperTheme()).error().message,
              "d_model must be 2..2048 (got 1)");
}

// Issue #28: in the logit terms at 1440x900 (a 1090 x 730 body) the first title kept one line
// and its neighbours wrapped onto two, so the first map stood a line above the others. The
// maps of each row start and end at one height.
TEST(MeaningFiguresTest, LogitTermMapsOfARowLineUp) {
    MeaningParams params;
    for (const float width : {1090.f, 1200.f, 900.f}) {
        const Box body{0, 30, width, 730};
        const Theme theme = darkTheme();
        auto maps = logitTermMaps(params, logitTermTexels(body, params.seqLen, theme));
        ASSERT_TRUE(maps.ok()) << maps.error().message;
        Figure figure = emptyFigure(width, 760, theme);
        std::vector<PlotFrame> frames;
        drawLogitTerms(figure, body, params, *maps, theme, &frames);
        const PanelGrid grid = logitTermPanels(body, theme);
        ASSERT_EQ(frames.size(), 5u);
        for (int k = 1; k < 5; ++k) {
            const PlotFrame& first = frames[std::size_t(k / grid.columns * grid.columns)];
            EXPECT_NEAR(frames[std::size_t(k)].plot.y, first.plot.y, 0.5) << width << " " << k;
            EXPECT_NEAR(frames[std::size_t(k)].plot.bottom(), first.plot.bottom(), 0.5)
                << width << " " << k;
        }
        EXPECT_EQ(layoutFaults(figure), "") << width;
    }
}

// Issue #28: at 1440x900 the first title, a little too long for one line, was shrunk onto one
// (about 15 px) while its neighbours wrapped onto two at the 17 px title size. Every title line
// of a row (the text above its map, centred over it) is set at the theme's title size.
TEST(MeaningFiguresTest, LogitTermTitlesOfARowShareTheTitleSize) {
    MeaningParams params;
    for (const float width : {1090.f, 1200.f, 1000.f, 900.f}) {
        const Box body{0, 30, width, 730};
        const Theme theme = darkTheme();
        auto maps = logitTermMaps(params, logitTermTexels(body, params.seqLen, theme));
        ASSERT_TRUE(maps.ok()) << maps.error().message;
        Figure figure = emptyFigure(width, 760, theme);
        std::vector<PlotFrame> frames;
        drawLogitTerms(figure, body, params, *maps, theme, &frames);
        ASSERT_EQ(frames.size(), 5u);
        const PanelGrid grid = logitTermPanels(body, theme);
        for (int k = 0; k < 5; ++k) {
            const Box cell = grid.cell(k);
            const Box& plot = frames[std::size_t(k)].plot;
            int lines = 0;
            for (const FigureItem& item : figure.items) {
                const auto* text = std::get_if<TextItem>(&item);
                // A title line: centred, above the map by more than its top tick label's half
                // line, inside this panel's cell (not the row above's x axis).
                if (!text || text->horizontal != HorizontalAlign::Center ||
                    text->anchor.x < cell.x || text->anchor.x > cell.right() ||
                    text->anchor.y < cell.y || text->anchor.y > plot.y - theme.fontSize)
                    continue;
                ++lines;
                EXPECT_FLOAT_EQ(text->size, theme.titleSize)
                    << width << " panel " << k << ": \"" << text->text << "\"";
            }
            EXPECT_GE(lines, 1) << width << " panel " << k;
        }
    }
}

// The same in Add vs concatenate at 1440x900 (a 1090 x 760 figure): "Concatenate: [x; p],
// width 2d = 128" took two lines, "Add: x + p, width d = 64" one, and the maps stood apart.
TEST(MeaningFiguresTest, AddVersusConcatMapsLineUp) {
    MeaningParams params;
    for (const float width : {1090.f, 1200.f}) {
        auto figure = addVersusConcatFigure(params, width, 760, darkTheme());
        ASSERT_TRUE(figure.ok()) << figure.error().message;
        std::vector<Box> maps;  // the two maps, not their colour bars
        for (const FigureItem& item : figure->items)
            if (const auto* map = std::get_if<HeatmapItem>(&item); map && map->box.width > 60)
                maps.push_back(map->box);
        ASSERT_EQ(maps.size(), 2u) << width;
        EXPECT_NEAR(maps[0].y, maps[1].y, 0.5) << width;
        EXPECT_NEAR(maps[0].bottom(), maps[1].bottom(), 0.5) << width;
        EXPECT_EQ(layoutFaults(*figure), "") << width;
    }
}

TEST(MeaningFiguresTest, NearOrthogonalitySaysHowManyDrawsItShows) {
    // The figure says how many of the requested draws it shows.
    auto figure = nearOrthogonalityFigure(8192, 1000000, 1, 1200, 800, paperTheme());
    ASSERT_TRUE(figure.ok());
    EXPECT_TRUE(hasText(*figure, "first 2048 of 1000000 seeded draws"));
    auto all = nearOrthogonalityFigure(64, 5000, 1, 1200, 800, paperTheme());
    ASSERT_TRUE(all.ok());
    EXPECT_FALSE(hasText(*all, "seeded draws"));
    EXPECT_TRUE(hasText(*all, "5000 random vectors"));
}

TEST(MeaningFiguresTest, LogitTermsSayWhenTheirRmsIsAnEstimate) {
    MeaningParams params;
    params.seqLen = 40;
    params.dModel = 16;
    params.vocabulary = 7;
    // A budget for 8 of the 40 query rows.
    const auto sampled = logitTermMaps(params, 13, 8LL * 5 * 40 * 16);
    ASSERT_TRUE(sampled.ok());
    // The figure says the RMS is an estimate.
    Figure figure = emptyFigure(1200, 800, paperTheme());
    drawLogitTerms(figure, {0, 0, 1200, 800}, params, *sampled, paperTheme());
    EXPECT_TRUE(hasText(figure, "(rms ≈ "));
    EXPECT_NE(allText(figure).find("over 8 evenly spaced query rows of 40"), std::string::npos);
}

TEST(MeaningFiguresTest, AddVersusConcatSaysHowManyPositionsItReadsBack) {
    MeaningParams large;
    large.seqLen = 1024;
    large.dModel = 512;
    auto figure = addVersusConcatFigure(large, 1200, 800, paperTheme());
    ASSERT_TRUE(figure.ok());
    EXPECT_NE(allText(*figure).find("over 256 evenly spaced of 1024 positions"), std::string::npos)
        << allText(*figure);
}

// A short figure (248 x 178 px: Meaning in a 480x320 window) keeps its heatmap at least ten
// lines tall, or 60 % of the panel below the title band; the paragraph gives way. It used to take
// 9.3 lines whatever the height, leaving the map 27 px.
TEST(MeaningFiguresTest, AddVersusConcatKeepsItsHeatmapInAShortFigure) {
    MeaningParams params;
    params.seqLen = 48;
    params.dModel = 64;
    const Theme theme = darkTheme();
    for (float height : {178.f, 240.f, 800.f}) {
        auto figure = addVersusConcatFigure(params, 248, height, theme, 0);
        ASSERT_TRUE(figure.ok());
        const float body = height - titleBandHeight(theme);
        float tallest = 0;  // the heatmap's data box (its colour bar is a heatmap too)
        for (const FigureItem& item : figure->items)
            if (const auto* map = std::get_if<HeatmapItem>(&item))
                tallest = std::max(tallest, map->box.height);
        // Its own title, ticks and axis label take about half the ten lines.
        EXPECT_GE(tallest, 0.2f * body) << height;
    }
}

// In a 480x320 window (a 237 x 358 figure) the histogram is some 60 px tall and its three note
// lines hid the curve and the bars wherever they went. There the dashed lines are named by
// their marker ("±1/√d = ±0.125", in the legend when no place is free) and the note is the std
// alone, in a corner the bell leaves free; a larger figure keeps the three lines.
TEST(MeaningFiguresTest, ShortHistogramNotesHideNoData) {
    auto small = nearOrthogonalityFigure(64, 20000, 1, 237, 358, darkTheme());
    ASSERT_TRUE(small.ok()) << small.error().message;
    for (const TextOverMark& over : textsOverMarks(*small)) {
        ADD_FAILURE() << "\"" << std::get<TextItem>(small->items[over.text]).text
                      << "\" hides data";
    }
    // 1/sqrt(64) = 0.125, and the sample's std of 20000 cosines in dimension 64 rounds to it.
    EXPECT_TRUE(hasText(*small, "±1/√d = ±0.125"));
    EXPECT_TRUE(hasText(*small, "std 0.125"));

    // A larger figure keeps the sample's mean, std and count and the dashed lines' name (the
    // mean, the std and "n = 20000" as short lines of their own where the three long ones would
    // wrap, as beside the legend in a 670 x 678 figure: the dashed lines named by their marker).
    auto large = nearOrthogonalityFigure(64, 20000, 1, 670, 678, darkTheme());
    ASSERT_TRUE(large.ok()) << large.error().message;
    for (const char* note : {"mean ", "std 0.125", "20000", "±1/√d = ±0.125"})
        EXPECT_TRUE(hasText(*large, note)) << note;
    EXPECT_EQ(layoutFaults(*large), "");
}

// Issue #28: at 1024x768 F5 (a 1008 x 548 figure, the theme scaled 1.75) the histogram's three
// note lines wrapped into seven beside its legend ("sampled: mean", "−0.00037, std", "0.125",
// "20000 random", "vectors", ...); at 480x320 (237 x 358) "std 0.125" sat against the peak.
// Each note line is whole (the std's value on the line that names it) and a third of a line
// clear of every mark, at the projector's size, in the small window and on the GUI's canvas.
TEST(MeaningFiguresTest, HistogramNotesAreWholeLinesClearOfTheData) {
    const struct {
        float width, height;
        Theme theme;
    } cases[] = {{1008, 548, scaledTheme(darkTheme(), 1.75f)},
                 {237, 358, darkTheme()},
                 {1090, 760, darkTheme()}};
    for (const auto& c : cases) {
        auto figure = nearOrthogonalityFigure(64, 20000, 1, c.width, c.height, c.theme);
        ASSERT_TRUE(figure.ok()) << figure.error().message;
        int stdTexts = 0;
        for (const FigureItem& item : figure->items) {
            const auto* text = std::get_if<TextItem>(&item);
            if (!text || text->text.empty()) continue;
            const std::string t = plainText(text->text);
            EXPECT_NE(t, "vectors") << c.width;
            EXPECT_NE(t, "0.125") << c.width;  // a value wrapped away from its name
            if (t.find("std") == std::string::npos || t.find("std(") != std::string::npos)
                continue;  // the spread plot's y label, std(cosine)
            ++stdTexts;
            EXPECT_NE(t.find("std 0.125"), std::string::npos) << c.width << ": " << t;
            EXPECT_EQ(marksCovered(*figure, textBox(*text), 0, -c.theme.fontSize / 3), 0)
                << c.width << ": \"" << t << "\" is within a third of a line of the data";
        }
        EXPECT_EQ(stdTexts, 1) << c.width;  // the note, or the dashed lines' name
        EXPECT_EQ(layoutFaults(*figure), "") << c.width;
    }
}

// Stacked under the histogram in a 480x320 window (237 x 358), the spread plot is some 100 px
// tall: its legend sat on the 1/√d line there (--check-layout's last fault at 480x320) and
// left its second key out. Both keys are shown, and neither the legend nor any text hides data.
TEST(MeaningFiguresTest, ShortSpreadPlotLegendHidesNoData) {
    auto small = nearOrthogonalityFigure(64, 20000, 1, 237, 358, darkTheme());
    ASSERT_TRUE(small.ok()) << small.error().message;
    EXPECT_EQ(layoutFaults(*small), "");
    EXPECT_TRUE(small->leftOut.empty()) << small->leftOut.front().text;
    EXPECT_TRUE(hasText(*small, "1/√d"));
    EXPECT_TRUE(hasText(*small, "sampled"));
}

// The exact density of the cosine of two random directions in d dimensions is proportional to
// (1 − c²)^((d−3)/2): the legend sets its two exponents as superscripts (figure-text markup),
// not as TeX-like plain text.
TEST(MeaningFiguresTest, ExactDensityLegendSetsItsExponentsAsSuperscripts) {
    for (const Theme& theme : {darkTheme(), paperTheme()}) {
        auto figure = nearOrthogonalityFigure(64, 2000, 1, 1200, 800, theme);
        ASSERT_TRUE(figure.ok()) << figure.error().message;
        std::string raised, plain;
        for (const FigureItem& item : figure->items) {
            const auto* text = std::get_if<TextItem>(&item);
            if (!text || plainText(text->text).find("(1 − c") == std::string::npos) continue;
            plain += plainText(text->text);
            for (const TextRun& run : parseMarkup(text->text))
                if (run.shift > 0) raised += run.text;
        }
        EXPECT_EQ(raised, "2(d−3)/2") << plain;
        EXPECT_EQ(plain.find('^'), std::string::npos) << plain;
    }
}

// Issue #28: `poslab render near-orthogonality --width 600` (the histogram above the spread
// plot, the height derived) put the density's legend on the peak's bars: the bars were drawn
// after the plot, so its legend placement did not know where they were. Neither the legend nor
// any text covers a bar, at one column and on the default canvas. The bars are the filled
// rectangles in the first series' colour; a legend's box is a RectItem marked legend.
TEST(MeaningFiguresTest, HistogramLegendAndNotesLeaveTheBarsVisible) {
    const Theme theme = forFiles(paperTheme(), 1);
    auto build = [](const Theme& t, float width, float height) {
        return nearOrthogonalityFigure(64, 20000, 1, width, height, t);
    };
    for (float width : {600.f, 1200.f}) {
        auto figure = buildWithAllPanels(build, theme, width, 800, width < 1000, 8192);
        ASSERT_TRUE(figure.ok()) << figure.error().message;
        const Rgba barFill = withAlpha(seriesColor(0), 170);
        std::vector<Box> bars, legends, texts;
        for (const FigureItem& item : figure->items) {
            if (const auto* rect = std::get_if<RectItem>(&item)) {
                if (rect->legend)
                    legends.push_back(rect->box);
                else if (rect->fill == barFill)
                    bars.push_back(rect->box);
            } else if (const auto* text = std::get_if<TextItem>(&item)) {
                if (!text->text.empty()) texts.push_back(textBox(*text));
            }
        }
        ASSERT_GE(bars.size(), 40u) << width;  // 100 bins, the tails under half a pixel
        auto overlap = [](Box a, Box b) {      // by more than a pixel each way
            return a.x < b.right() - 1 && b.x < a.right() - 1 && a.y < b.bottom() - 1 &&
                   b.y < a.bottom() - 1;
        };
        for (const Box& bar : bars) {
            for (const Box& legend : legends)
                EXPECT_FALSE(overlap(legend, bar))
                    << width << ": a legend at (" << legend.x << ", " << legend.y
                    << ") covers the bar at (" << bar.x << ", " << bar.y << ")";
            for (const Box& text : texts)
                EXPECT_FALSE(overlap(text, bar))
                    << width << ": a text at (" << text.x << ", " << text.y
                    << ") covers the bar at (" << bar.x << ", " << bar.y << ")";
        }
        EXPECT_EQ(layoutFaults(*figure), "") << width;
        EXPECT_TRUE(textsCutShort(*figure).empty()) << width;
    }
}

// Issue #28: the logit terms' panel 6 alone (a projector, 1024x768 F5) was a paragraph over a
// third of the panel and empty below. Below it, the five terms' RMS as bars on one scale: for
// random words (d = 64) the cross terms' bars are short beside content·content's and
// position·position's, as the paragraph says; the values written beside them.
TEST(MeaningFiguresTest, ThePanelOfTextShowsEachTermsRmsAsBars) {
    const Theme theme = scaledTheme(darkTheme(), 1.75f);
    // What the panel draws there: 1008 x 512 under the panel bar, no figure title.
    const MeaningParams params;
    const Box area{0, 0, 1008, 512};
    const auto maps = logitTermMaps(params, logitTermTexels(area, params.seqLen, theme, 5));
    ASSERT_TRUE(maps.ok()) << maps.error().message;
    auto figure = std::make_unique<Figure>(emptyFigure(area.width, area.height, theme));
    drawLogitTerms(*figure, area, params, *maps, theme, nullptr, 5);
    EXPECT_TRUE(hasText(*figure, "RMS of each term"));
    std::vector<Box> bars;
    for (const FigureItem& item : figure->items)
        if (const auto* rect = std::get_if<RectItem>(&item))
            if (!rect->legend && rect->fill.a > 0 && rect->box.height < 2 * theme.fontSize)
                bars.push_back(rect->box);
    ASSERT_EQ(bars.size(), 5u);
    for (int cross : {1, 2}) {
        EXPECT_LT(bars[std::size_t(cross)].width, 0.5f * bars[0].width) << cross;
        EXPECT_LT(bars[std::size_t(cross)].width, 0.5f * bars[3].width) << cross;
    }
    EXPECT_EQ(figure->marks.size(), 5u);  // the bars are data: text is placed clear of them
    EXPECT_EQ(layoutFaults(*figure), "");
    EXPECT_TRUE(textsCutShort(*figure).empty());
}

}  // namespace
}  // namespace poslab

namespace poslab {
namespace {

// The figure title's lines: the TextItems whose words all belong to `title`, above `below`.
std::vector<const TextItem*> titleLines(const Figure& figure, const std::string& title,
                                        float below) {
    std::vector<const TextItem*> lines;
    for (const FigureItem& item : figure.items) {
        const auto* text = std::get_if<TextItem>(&item);
        if (text && !text->text.empty() && text->anchor.y < below &&
            title.find(text->text) != std::string::npos)
            lines.push_back(text);
    }
    return lines;
}

// Issue #28: on a projector (F5, a 1008 x 550 figure) Near-orthogonality's title kept the band of
// one line and was shrunk onto it, a size below its plots' titles; the figure keeps the band of
// two lines now, and they are set at the title size.
TEST(MeaningFiguresTest, OnAProjectorTheOrthogonalityTitleIsNotShrunk) {
    const Theme theme = scaledTheme(darkTheme(), 1.75f);
    auto figure = nearOrthogonalityFigure(64, 20000, 1, 1008, 550, theme);
    ASSERT_TRUE(figure.ok()) << figure.error().message;
    const auto lines = titleLines(
        *figure, "Near-orthogonality: random word vectors vs. sinusoidal position vectors", 80);
    ASSERT_FALSE(lines.empty());
    for (const TextItem* line : lines) EXPECT_FLOAT_EQ(line->size, theme.titleSize) << line->text;
    EXPECT_EQ(layoutFaults(*figure), "");
}

// Issue #28: at one column in print (`render meaning|add-vs-concat|near-orthogonality --width
// 600`) the figure title, two smaller lines in the band of one, touched the first plot's title
// below it (a pixel or two apart). The band keeps the gap a one-line title leaves: at least a
// third of a line between the title's last line and any text below it.
TEST(MeaningFiguresTest, AtOneColumnTheFigureTitleStandsClearOfThePlotTitles) {
    const Theme theme = forFiles(paperTheme(), 1);
    MeaningParams params;
    struct Case {
        std::string title;
        SizedBuild build;
    };
    const Case cases[] = {
        {"How position and meaning coexist: the logit of (word + position) vectors, term by term",
         [&](const Theme& t, float w, float h) { return meaningFigure(params, w, h, t); }},
        {"Adding or concatenating the position vector",
         [&](const Theme& t, float w, float h) { return addVersusConcatFigure(params, w, h, t); }},
        {"Near-orthogonality: random word vectors vs. sinusoidal position vectors",
         [](const Theme& t, float w, float h) {
             return nearOrthogonalityFigure(64, 20000, 1, w, h, t);
         }}};
    for (const Case& c : cases) {
        auto figure = buildWithAllPanels(c.build, theme, 600, 800, true, 8192);
        ASSERT_TRUE(figure.ok()) << figure.error().message;
        const auto lines = titleLines(*figure, c.title, 3 * theme.titleSize);
        ASSERT_FALSE(lines.empty()) << c.title;
        float titleBottom = 0;
        for (const TextItem* line : lines)
            titleBottom = std::max(titleBottom, textBox(*line).bottom());
        float next = 1e9f;  // the top of the highest text below the title
        for (const FigureItem& item : figure->items) {
            const auto* text = std::get_if<TextItem>(&item);
            if (!text || text->text.empty() ||
                std::find(lines.begin(), lines.end(), text) != lines.end())
                continue;
            next = std::min(next, textBox(*text).y);
        }
        EXPECT_GE(next - titleBottom, theme.fontSize / 3) << c.title;
    }
}

}  // namespace
}  // namespace poslab

namespace poslab {
namespace {

// The spread plot's sampled std is a single dot at d = d_model; its legend key was a line
// segment, as for a curve. It is keyed by a dot: a filled circle inside a legend box, in the
// sampled point's colour, at one column in print, on the screen and on a projector.
TEST(MeaningFiguresTest, TheSampledStdIsKeyedByADot) {
    const Theme themes[] = {forFiles(paperTheme(), 1), darkTheme(),
                            scaledTheme(darkTheme(), 1.75f)};
    const float widths[] = {600, 1090, 1008};
    for (int t = 0; t < 3; ++t) {
        auto figure = nearOrthogonalityFigure(64, 20000, 1, widths[t], 760, themes[t]);
        ASSERT_TRUE(figure.ok()) << figure.error().message;
        std::vector<Box> legends;
        for (const FigureItem& item : figure->items)
            if (const auto* rect = std::get_if<RectItem>(&item); rect && rect->legend)
                legends.push_back(rect->box);
        int dots = 0;
        for (const FigureItem& item : figure->items) {
            const auto* circle = std::get_if<CircleItem>(&item);
            if (!circle || circle->fill != seriesColor(0)) continue;
            for (const Box& legend : legends) dots += legend.contains(circle->center);
        }
        EXPECT_EQ(dots, 1) << widths[t];
    }
}

}  // namespace
}  // namespace poslab

namespace poslab {
namespace {

// Only the sum's colour bar had a caption: its map was 25 px narrower than the others at
// 1440x900 (a 1090 x 730 body) and a tenth narrower at one column in print (385 of 425). The
// five maps (the wide heatmaps, not their bars) have one width.
TEST(MeaningFiguresTest, EveryLogitTermMapHasOneWidth) {
    MeaningParams params;
    struct Case {
        Theme theme;
        float width, height;
    };
    const Case cases[] = {{darkTheme(), 1090, 730}, {paperTheme(), 1200, 800}};
    for (const Case& c : cases) {
        auto figure = meaningFigure(params, c.width, c.height, c.theme);
        ASSERT_TRUE(figure.ok()) << figure.error().message;
        std::vector<float> widths;
        for (const FigureItem& item : figure->items)
            if (const auto* map = std::get_if<HeatmapItem>(&item); map && map->box.width > 60)
                widths.push_back(map->box.width);
        ASSERT_EQ(widths.size(), 5u) << c.width;
        for (const float width : widths) EXPECT_NEAR(width, widths.front(), 1) << c.width;
        EXPECT_EQ(layoutFaults(*figure), "") << c.width;
    }
    const Theme print = forFiles(paperTheme(), 1);
    auto column = buildWithAllPanels(
        [&](const Theme& t, float w, float h) { return meaningFigure(params, w, h, t); }, print,
        600, 800, true, 8192);
    ASSERT_TRUE(column.ok()) << column.error().message;
    std::vector<float> widths;
    for (const FigureItem& item : column->items)
        if (const auto* map = std::get_if<HeatmapItem>(&item); map && map->box.width > 60)
            widths.push_back(map->box.width);
    ASSERT_EQ(widths.size(), 5u);
    for (const float width : widths) EXPECT_NEAR(width, widths.front(), 1) << "one column";
}

}  // namespace
}  // namespace poslab

namespace poslab {
namespace {

// Issue #28: on a projector (F5, one panel at a time in a 1008 x 512 figure) Add vs concatenate
// kept 27 % of the panel for its paragraph, three or four lines in a band of nine: the 48 x 48
// map was 165 px tall over some 100 px of nothing. The band is what the paragraph takes (its last
// line within a line and a half of the bottom), the map gets the rest (180 and 212 px), and the
// paragraph is whole.
TEST(MeaningFiguresTest, OnAProjectorTheAddConcatMapsTakeWhatTheParagraphLeaves) {
    const Theme theme = scaledTheme(darkTheme(), 1.75f);
    MeaningParams params;
    for (int panel = 0; panel < 2; ++panel) {
        auto figure = addVersusConcatFigure(params, 1008, 512, theme, panel);
        ASSERT_TRUE(figure.ok()) << figure.error().message;
        const float body = 512 - titleBandHeight(theme);
        float map = 0, textBottom = 0;
        for (const FigureItem& item : figure->items) {
            if (const auto* heat = std::get_if<HeatmapItem>(&item); heat && heat->box.width > 60)
                map = std::max(map, heat->box.height);
            if (const auto* text = std::get_if<TextItem>(&item); text && !text->text.empty())
                textBottom = std::max(textBottom, textBox(*text).bottom());
        }
        EXPECT_GE(map, 0.38f * body) << panel;
        EXPECT_LE(512 - textBottom, 1.5f * theme.fontSize) << panel;
        EXPECT_TRUE(hasText(*figure, panel == 0 ? "4·d² = 16384." : "(4×), and every later"))
            << panel;
        EXPECT_TRUE(textsCutShort(*figure).empty()) << panel;
        EXPECT_EQ(layoutFaults(*figure), "") << panel;
    }
}

// A vector file (Theme::cellResolution, #28) holds the five logit maps cell for cell: 1024 tokens
// in a 1200 x 800 figure are 1024 x 1024 logits each (they were means of 5 × 5 cells, said so in
// every colour bar), each cc, cp, pc, pp and their sum written out here from the token vectors
// given and the paper's position vectors.
TEST(MeaningFiguresTest, VectorFileHoldsEveryCell) {
    constexpr int kTokens = 1024, kDims = 8;
    auto tokens = std::make_shared<Matrix>(kTokens, kDims);
    for (int i = 0; i < kTokens; ++i)
        for (int k = 0; k < kDims; ++k) (*tokens)(i, k) = std::cos(0.37 * i + k) * (k % 3 - 1);
    MeaningParams params;
    params.seqLen = kTokens;
    params.dModel = kDims;
    params.tokens = tokens;
    Theme theme = paperTheme();
    theme.cellResolution = true;
    auto figure = meaningFigure(params, 1200, 800, theme);
    ASSERT_TRUE(figure.ok()) << figure.error().message;
    std::vector<const HeatmapItem*> maps;
    for (const FigureItem& item : figure->items)
        if (const auto* map = std::get_if<HeatmapItem>(&item); map && map->values->cols > 1)
            maps.push_back(map);
    ASSERT_EQ(maps.size(), 5u);
    auto x = [&](int i, int k) { return (*tokens)(i, k); };
    auto p = [](int i, int k) {
        const double angle = i / std::pow(10000.0, 2.0 * (k / 2) / kDims);
        return k % 2 == 0 ? std::sin(angle) : std::cos(angle);
    };
    auto term = [&](int t, int i, int j) {
        double sum = 0;
        for (int k = 0; k < kDims; ++k) {
            const double xi = x(i, k), xj = x(j, k), pi = p(i, k), pj = p(j, k);
            const double terms[5] = {xi * xj, xi * pj, pi * xj, pi * pj, (xi + pi) * (xj + pj)};
            sum += terms[t];
        }
        return sum / std::sqrt(double(kDims));
    };
    const int picked[][2] = {{0, 0}, {0, 1023}, {1023, 0}, {3, 700}, {512, 511}, {1023, 1023}};
    for (int t = 0; t < 5; ++t) {
        SCOPED_TRACE(t);
        const HeatmapItem& map = *maps[std::size_t(t)];
        EXPECT_LT(map.box.height, float(kTokens));  // more cells than pixels
        ASSERT_EQ(map.values->rows, std::size_t(kTokens));
        ASSERT_EQ(map.values->cols, std::size_t(kTokens));
        for (const auto& [i, j] : picked) {
            const double want = term(t, i, j);
            EXPECT_NEAR((*map.values)(i, j), want, 1e-9) << i << ", " << j;
            const double low = map.range.low, span = map.range.high - map.range.low;
            EXPECT_EQ(sampleColormap(map.colormap, ((*map.values)(i, j) - low) / span),
                      sampleColormap(map.colormap, (want - low) / span));
        }
    }
    for (const FigureItem& item : figure->items) {
        if (const auto* text = std::get_if<TextItem>(&item)) {
            EXPECT_EQ(text->text.find("cells"), std::string::npos) << text->text;
        }
    }

    auto added = addVersusConcatFigure(params, 1200, 800, theme);
    ASSERT_TRUE(added.ok()) << added.error().message;
    int full = 0;
    for (const FigureItem& item : added->items) {
        if (const auto* map = std::get_if<HeatmapItem>(&item); map && map->values->cols > 1)
            full += map->values->rows == std::size_t(kTokens);
        if (const auto* text = std::get_if<TextItem>(&item)) {
            EXPECT_EQ(text->text.find("cells"), std::string::npos) << text->text;
        }
    }
    EXPECT_EQ(full, 2);  // add and concatenate
}

}  // namespace
}  // namespace poslab
