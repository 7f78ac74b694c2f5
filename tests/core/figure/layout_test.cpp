// Layout helpers of the composite views: grid cells and paragraphs inside their boxes, heatmap
// specs as block means computed by hand, colour bars, and the envelope that draws oscillations
// faster than a pixel as a band of their true min and max.
#include "poslab/figure/layout.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <variant>
#include <vector>
#include "../test_math.hpp"

namespace poslab {
namespace {

// Add-vs-concat's note "argmax_j (x_i + p_i)·p_j / |p_j|" in markup was broken inside its $...$
// at a one-column width: the first line ended in open maths and the rest of the paragraph was
// set in maths (italic). Every line holds whole maths, and nothing is lost.
TEST(LayoutTest, ParagraphsBreakOutsideMathsOnly) {
    const std::string text =
        "Best-matching position row: $\\mathrm{argmax}_j (x_i + p_i)·p_j / |p_j|$. Word vectors "
        "blur the readout less as d grows.";
    for (float width : {120.f, 200.f, 300.f}) {
        Figure figure = emptyFigure(400, 300, paperTheme());
        drawParagraph(figure, {0, 0, width, 290}, text, paperTheme());
        std::string joined;
        for (const FigureItem& item : figure.items) {
            const auto* t = std::get_if<TextItem>(&item);
            ASSERT_NE(t, nullptr);
            EXPECT_EQ(std::count(t->text.begin(), t->text.end(), '$') % 2, 0) << t->text;
            joined += (joined.empty() ? "" : " ") + t->text;
        }
        EXPECT_EQ(joined, text) << width;
    }
}

TEST(LayoutTest, ParagraphsWrapInsideTheirBox) {
    Figure figure = emptyFigure(400, 300, paperTheme());
    const Box box{10, 10, 200, 100};
    const float used =
        drawParagraph(figure, box,
                      "one two three four five six seven eight nine ten eleven twelve "
                      "thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty",
                      paperTheme());
    int lines = 0;
    for (const FigureItem& item : figure.items) {
        const auto* t = std::get_if<TextItem>(&item);
        ASSERT_NE(t, nullptr);
        EXPECT_LE(estimateTextWidth(t->text, t->size), box.width + 1) << t->text;
        EXPECT_LE(t->anchor.y + t->size, box.bottom() + 1);
        ++lines;
    }
    EXPECT_GE(lines, 3);
    EXPECT_GT(used, 0);
    const Box cell = gridCell({0, 0, 100, 50}, 2, 3, 1, 2, 5);
    EXPECT_FLOAT_EQ(cell.x, 70);
    EXPECT_FLOAT_EQ(cell.y, 27);
    EXPECT_FLOAT_EQ(cell.width, 30);
}

// A paragraph a little too long for its box is set smaller instead of losing its end; one far
// too long keeps what fits and says so with "…" (a projector's small panels cut explanations
// mid-sentence without a sign).
TEST(LayoutTest, ParagraphsShrinkBeforeTheyAreCutAndACutShows) {
    const Theme theme = paperTheme();  // 14 px text: lines 18.2 px apart, 7.84 px per glyph
    // 60 words of 4 letters in a 200 px box: 5 words (24 glyphs, 188 px) per line at 14 px, so
    // 12 lines (218 px); at 80 % (11.2 px, 6.27 px per glyph) 6 words per line, 10 lines of
    // 14.56 px = 146 px.
    std::string text;
    for (int i = 0; i < 60; ++i) text += (i ? " " : "") + std::string("word");
    auto draw = [&](float height) {
        Figure figure = emptyFigure(400, 400, theme);
        drawParagraph(figure, {0, 0, 200, height}, text, theme);
        std::vector<TextItem> lines;
        for (const FigureItem& item : figure.items) lines.push_back(std::get<TextItem>(item));
        return lines;
    };
    auto words = [](const std::vector<TextItem>& lines) {
        int count = 0;
        for (const TextItem& line : lines)
            for (std::size_t at = line.text.find("word"); at != std::string::npos;
                 at = line.text.find("word", at + 1))
                ++count;
        return count;
    };
    const std::vector<TextItem> roomy = draw(230);
    EXPECT_EQ(roomy.size(), 12u);
    EXPECT_FLOAT_EQ(roomy.front().size, 14);
    const std::vector<TextItem> snug = draw(150);  // fits at 80 % only
    EXPECT_EQ(words(snug), 60);
    EXPECT_LT(snug.front().size, 14);
    EXPECT_GE(snug.front().size, 14 * 0.8f - 1e-3f);
    for (const TextItem& line : snug) EXPECT_EQ(line.text.find("…"), std::string::npos);
    const std::vector<TextItem> cut = draw(60);  // 4 lines at 80 %: the end is missing
    ASSERT_EQ(cut.size(), 4u);
    EXPECT_LT(words(cut), 60);
    const std::string& last = cut.back().text;
    EXPECT_EQ(last.substr(last.size() - std::string("…").size()), "…");
    for (const TextItem& line : cut) EXPECT_LE(estimateTextWidth(line.text, line.size), 200.5f);
}

TEST(LayoutTest, GridCellsTileTheAreaWithGaps) {
    const Box area{0, 0, 310, 210};
    // 3 x 2 cells with 10 pixel gaps: (310 - 10) / 2 = 150 wide, (210 - 20) / 3 = 63.3 high,
    // each corner floored to a whole pixel.
    const float ys[3] = {0, 73, 146};  // floor(row * 73.33)
    for (int row = 0; row < 3; ++row) {
        for (int col = 0; col < 2; ++col) {
            const Box cell = gridCell(area, 3, 2, row, col, 10);
            EXPECT_FLOAT_EQ(cell.x, float(col) * 160);
            EXPECT_FLOAT_EQ(cell.y, ys[row]);
            EXPECT_FLOAT_EQ(cell.width, 150);
            EXPECT_FLOAT_EQ(cell.height, 63);
        }
    }
    const Box only = gridCell({12.5f, 7.5f, 100, 50}, 1, 1, 0, 0);
    EXPECT_FLOAT_EQ(only.x, 12);  // floored to whole pixels
    EXPECT_FLOAT_EQ(only.y, 7);
    EXPECT_FLOAT_EQ(only.width, 100);
    EXPECT_FLOAT_EQ(only.height, 50);
}

TEST(LayoutTest, SplitCellPutsTheParagraphUnderThePlot) {
    const PlotAndText parts = splitCell({0, 0, 200, 100}, 0.3f);
    EXPECT_FLOAT_EQ(parts.plot.height, 70);  // 100 - floor(30)
    EXPECT_FLOAT_EQ(parts.plot.width, 200);
    EXPECT_FLOAT_EQ(parts.text.y, 72);  // two pixels below the plot
    EXPECT_FLOAT_EQ(parts.text.height, 28);
    EXPECT_FLOAT_EQ(parts.text.x, 6);  // inset by 6 on both sides
    EXPECT_FLOAT_EQ(parts.text.width, 188);
}

TEST(LayoutTest, MaxAbsSkipsNonFiniteValues) {
    Matrix m(2, 3);
    m.values = {0.5, -7, kNaN, 3, -kInf, 6.5};
    EXPECT_EQ(maxAbs(m), 7);
    EXPECT_EQ(maxAbs(Matrix(2, 2)), 0);
    Matrix none(1, 2);
    none.values = {kNaN, kInf};
    EXPECT_EQ(maxAbs(none), 0);
}

TEST(LayoutTest, MatrixSpecIsTheWholeMatrixOrItsBlockMeans) {
    Matrix m(6, 4);
    for (std::size_t r = 0; r < 6; ++r) {
        for (std::size_t c = 0; c < 4; ++c) m(r, c) = double(r * r) + 0.5 * double(c);
    }
    const HeatmapSpec exact =
        matrixSpec("T", m, {0, 0, 100, 100}, ColormapId::BlueWhiteRed, {-1, 1});
    EXPECT_EQ(exact.title, "T");
    EXPECT_EQ(exact.values->values, m.values);  // one texel per cell: the matrix itself
    EXPECT_DOUBLE_EQ(exact.x.high, 4);
    EXPECT_DOUBLE_EQ(exact.y.high, 6);
    EXPECT_EQ(exact.colormap, ColormapId::BlueWhiteRed);
    EXPECT_DOUBLE_EQ(exact.range.low, -1);
    // 4 pixels high and 3 wide: ceil(6 / 4) = 2 rows and ceil(4 / 3) = 2 columns a texel, so
    // blocks of rows {0,1}, {2,3}, {4,5} and columns {0,1}, {2,3}.
    const HeatmapSpec blocks = matrixSpec("T", m, {0, 0, 3, 4}, ColormapId::Viridis, {0, 1});
    ASSERT_EQ(blocks.values->rows, 3u);
    ASSERT_EQ(blocks.values->cols, 2u);
    // Block (u, v): the mean of r^2 over its rows plus the mean of 0.5 c over its columns.
    const double rowMean[3] = {(0 + 1) / 2.0, (4 + 9) / 2.0, (16 + 25) / 2.0};
    const double colMean[2] = {0.25, 1.25};
    for (std::size_t u = 0; u < 3; ++u) {
        for (std::size_t v = 0; v < 2; ++v)
            EXPECT_NEAR((*blocks.values)(u, v), rowMean[u] + colMean[v], 1e-12);
    }
    EXPECT_DOUBLE_EQ(blocks.valuesRowSpan, 6);
    EXPECT_DOUBLE_EQ(blocks.valuesColSpan, 4);
    EXPECT_NE(blocks.version, exact.version);
}

TEST(LayoutTest, SpecForASampleSpansItsWindow) {
    HeatmapSample sample;
    sample.values = share(Matrix(3, 2, 1.5));
    sample.window = {10, 30, 4, 8};
    sample.rowSpan = 30;
    sample.colSpan = 8;
    sample.version = 77;
    const HeatmapSpec spec = specFor(sample, "key j", "query i");
    EXPECT_EQ(spec.x.label, "key j");
    EXPECT_DOUBLE_EQ(spec.x.low, 4);
    EXPECT_DOUBLE_EQ(spec.x.high, 12);
    EXPECT_EQ(spec.y.label, "query i");
    EXPECT_DOUBLE_EQ(spec.y.low, 10);
    EXPECT_DOUBLE_EQ(spec.y.high, 40);
    EXPECT_EQ(spec.values, sample.values);  // shared, not copied
    EXPECT_EQ(spec.version, 77u);
    EXPECT_EQ(texelBudget(0.4f), 1);
    EXPECT_EQ(texelBudget(640.9f), 640);
    // Sizes from a broken layout: the float overload here once converted them with int().
    EXPECT_EQ(texelBudget(std::numeric_limits<float>::infinity()), kMaxTexelsPerSide);
    EXPECT_EQ(texelBudget(std::numeric_limits<float>::quiet_NaN()), 1);
    EXPECT_EQ(texelBudget(3e38f), kMaxTexelsPerSide);
}

TEST(LayoutTest, TrainingMarkerShadesBeyondAndSaysTheLength) {
    const Theme theme = paperTheme();
    const Marker marker = trainingMarker(512, true, theme);
    EXPECT_TRUE(marker.vertical);
    EXPECT_DOUBLE_EQ(marker.value, 512);
    EXPECT_EQ(marker.label, "training length 512");
    EXPECT_TRUE(marker.shadeBeyond);
    EXPECT_EQ(marker.color, theme.accent);
    EXPECT_EQ(trainingMarker(4096, false, theme, "L = 4096").label, "L = 4096");
}

TEST(LayoutTest, ColourBarIsARampWithTicksAndAnOptionalMaskedSwatch) {
    const Theme theme = paperTheme();
    Figure figure = emptyFigure(300, 300, theme);
    const std::size_t before = figure.items.size();
    drawColorbar(figure, {10, 10, 12, 200}, ColormapId::Viridis, {-1, 1}, "bias", 60, true, theme);
    int ramps = 0;
    bool caption = false, masked = false;
    for (std::size_t i = before; i < figure.items.size(); ++i) {
        if (const auto* h = std::get_if<HeatmapItem>(&figure.items[i])) {
            ++ramps;
            ASSERT_EQ(h->values->rows, 256u);
            ASSERT_EQ(h->values->cols, 1u);
            EXPECT_DOUBLE_EQ((*h->values)(0, 0), 1);  // top of the bar: the high end
            EXPECT_DOUBLE_EQ((*h->values)(255, 0), 0);
        } else if (const auto* t = std::get_if<TextItem>(&figure.items[i])) {
            caption |= t->text == "bias" && t->vertical90;
            masked |= t->text == "masked";
        }
    }
    EXPECT_EQ(ramps, 1);
    EXPECT_TRUE(caption);
    EXPECT_TRUE(masked);
    EXPECT_GT(colorbarBlockWidth({-1, 1}, 200, theme), barWidthFor(theme));
}

TEST(LayoutTest, WrappedTitleTakesASecondLineInsteadOfBeingCut) {
    const Theme theme = darkTheme();  // title 17 px, font 14 px
    const Box area{10, 20, 300, 200};
    Figure figure = emptyFigure(400, 300, theme);
    // 20 characters: 20 * 0.56 * 17 = 190 px, fits in 300 - 17 at full size, on one line where
    // drawLinePlot would put it; the plot's area starts 1.7 title sizes less 0.8 font sizes lower.
    Box below = drawWrappedTitle(figure, area, "a title of 20 glyphs", theme);
    ASSERT_EQ(figure.items.size(), 1u);
    EXPECT_EQ(std::get<TextItem>(figure.items[0]).text, "a title of 20 glyphs");
    EXPECT_NEAR(below.y, 20 + 1.7 * 17 - 0.8 * 14, 1e-4);
    EXPECT_NEAR(below.bottom(), area.bottom(), 1e-4);
    // 53 characters: 53 * 0.56 * 17 * 0.75 = 378 px > 283 even shrunk, so it wraps at the space
    // nearest the middle, both lines whole, at one size, the second a line lower.
    figure.items.clear();
    const std::string longTitle = "mean spectrum over dimensions (dashed: sinusoidal w0)";
    below = drawWrappedTitle(figure, area, longTitle, theme);
    ASSERT_EQ(figure.items.size(), 2u);
    const auto& first = std::get<TextItem>(figure.items[0]);
    const auto& second = std::get<TextItem>(figure.items[1]);
    EXPECT_EQ(first.text + " " + second.text, longTitle);
    EXPECT_EQ(first.text, "mean spectrum over dimensions");
    EXPECT_EQ(first.size, second.size);
    EXPECT_NEAR(second.anchor.y - first.anchor.y, first.size * 1.15, 1e-4);
    EXPECT_NEAR(below.y, 20 + 1.7 * 17 - 0.8 * 14 + first.size * 1.15, 1e-3);
    for (const TextItem* line : {&first, &second}) {
        EXPECT_LE(estimateTextWidth(line->text, line->size), area.width - theme.titleSize);
    }
    // No title: the area is untouched.
    const Box same = drawWrappedTitle(figure, area, "", theme);
    EXPECT_EQ(same.y, area.y);
    EXPECT_EQ(same.height, area.height);
}

TEST(LayoutTest, RectanglesAndCentredText) {
    const RectItem rect = filledRect({1, 2, 3, 4}, {9, 9, 9, 255});
    EXPECT_EQ(rect.fill, (Rgba{9, 9, 9, 255}));
    EXPECT_EQ(rect.stroke.a, 0);  // no outline unless asked
    EXPECT_FLOAT_EQ(rect.strokeWidth, 1);
    const TextItem text = centredText({5, 6}, "x", 11, {});
    EXPECT_EQ(text.horizontal, HorizontalAlign::Center);
    EXPECT_EQ(text.vertical, VerticalAlign::Top);
    EXPECT_FALSE(text.vertical90);
}

TEST(LayoutTest, EnvelopePassesSparseDataAndDropsWhatIsOutside) {
    const std::vector<double> x = {-1, 0, 1, 2, 3, 11}, y = {5, 0, 1, 4, 9, 7};
    std::vector<double> outX, outY;
    envelope(x, y, 0, 10, 100, outX, outY);
    EXPECT_EQ(outX, (std::vector<double>{0, 1, 2, 3}));
    EXPECT_EQ(outY, (std::vector<double>{0, 1, 4, 9}));
}

TEST(LayoutTest, EnvelopeKeepsEachPixelsMinAndMax) {
    // sin at 10000 points over 10 pixels: each pixel column gets its own min and max, at its
    // centre, alternating min-max and max-min so the band is drawn without crossing lines.
    std::vector<double> x, y;
    for (int i = 0; i < 10000; ++i) {
        x.push_back(i * 1e-3);
        y.push_back(std::sin(0.37 * i));
    }
    std::vector<double> outX, outY;
    envelope(x, y, 0, 10, 10, outX, outY);
    ASSERT_EQ(outX.size(), 20u);
    for (int b = 0; b < 10; ++b) {
        double low = 1e300, high = -1e300;
        for (int i = 0; i < 10000; ++i) {
            if (int(x[std::size_t(i)]) == b) {
                low = std::min(low, y[std::size_t(i)]);
                high = std::max(high, y[std::size_t(i)]);
            }
        }
        const std::size_t k = 2 * std::size_t(b);
        EXPECT_NEAR(outX[k], b + 0.5, 1e-12);
        EXPECT_NEAR(outX[k + 1], b + 0.5, 1e-12);
        const bool rising = b % 2 == 0;
        EXPECT_EQ(outY[k], rising ? low : high) << b;
        EXPECT_EQ(outY[k + 1], rising ? high : low) << b;
    }
}

TEST(LayoutTest, EnvelopeKeepsBreaksInTheLine) {
    std::vector<double> x, y;
    for (int i = 0; i < 1000; ++i) {
        x.push_back(i);
        y.push_back(i == 500 ? kNaN : 1.0);
    }
    std::vector<double> outX, outY;
    envelope(x, y, 0, 999, 10, outX, outY);
    int breaks = 0;
    for (double v : outY) breaks += std::isnan(v);
    EXPECT_EQ(breaks, 1);
    for (double v : outY) {
        if (!std::isnan(v)) {
            EXPECT_EQ(v, 1.0);
        }
    }
}

TEST(LayoutTest, ColourBarTicksOfTheWidestRangeLandOnTheBar) {
    // [-1.7e308, 1.7e308] is wider than the largest double: (t - low) / (high - low) was
    // inf / inf = NaN for the top tick, and its label was drawn at y = NaN.
    const Theme theme = paperTheme();
    Figure figure;
    const Box bar{10, 10, 12, 300};
    drawColorbar(figure, bar, ColormapId::BlueWhiteRed, {-1.7e308, 1.7e308}, "bias", 80, false,
                 theme);
    int labels = 0;
    for (const FigureItem& item : figure.items) {
        if (const auto* t = std::get_if<TextItem>(&item); t && !t->vertical90) {
            ++labels;
            EXPECT_TRUE(std::isfinite(t->anchor.y)) << t->text;
            EXPECT_GE(t->anchor.y, bar.y - 0.5f) << t->text;
            EXPECT_LE(t->anchor.y, bar.bottom() + 0.5f) << t->text;
        }
    }
    EXPECT_GE(labels, 3);  // -1e308, 0, 1e308 at least
    // And a bar of infinite height asks for a bounded number of ticks.
    Figure tall;
    drawColorbar(tall, {0, 0, 12, std::numeric_limits<float>::infinity()}, ColormapId::Viridis,
                 {0, 1}, "", 40, false, theme);
    EXPECT_LE(tall.items.size(), 3000u);
    EXPECT_LT(colorbarBlockWidth({0, 1}, std::numeric_limits<float>::infinity(), theme), 1000.f);
}

TEST(LayoutTest, EnvelopeOfTheWidestRangeKeepsEveryColumn) {
    // Offsets over [-1.7e308, 1.7e308]: the column width (high - low) / pixels overflowed to inf
    // and every point fell into column 0 or NaN. With fractions they spread over the columns.
    std::vector<double> x, y;
    for (int i = 0; i <= 1000; ++i) {
        x.push_back(1.7e308 * (i / 500.0 - 1));  // -1.7e308 .. 1.7e308, never overflowing
        y.push_back(i % 2 ? 1.0 : -1.0);
    }
    std::vector<double> outX, outY;
    envelope(x, y, -1.7e308, 1.7e308, 10, outX, outY);
    ASSERT_EQ(outX.size(), 20u);  // two points (min, max) in each of the 10 columns
    for (std::size_t i = 0; i < outX.size(); ++i) {
        EXPECT_TRUE(std::isfinite(outX[i]));
        // Column c's centre is at fraction f = (c + 0.5) / 10: (1 - f) low + f high.
        const double f = (double(i / 2) + 0.5) / 10;
        const double centre = (1 - f) * -1.7e308 + f * 1.7e308;
        EXPECT_NEAR(outX[i] / 1e308, centre / 1e308, 1e-9) << i;
        EXPECT_EQ(std::min(outY[i], outY[i ^ 1]), -1.0);
        EXPECT_EQ(std::max(outY[i], outY[i ^ 1]), 1.0);
    }
}

// Issue #28: lesson 6.3 at 1280x720 on a projector set ALiBi's paragraph (92 % of the 24.5 px
// body text) at 85 %, 19.2 px, under the presentation floor of 80 % of the body text: 14 x 1.75
// x 0.8 = 19.6 px. It fits at the floor, so it is set there; a paragraph that fits at no size
// down to the floor is still set smaller, whole, rather than cut.
TEST(LayoutTest, AParagraphOnAProjectorStaysAtTheFloorWhereItFits) {
    const Theme theme = scaledTheme(darkTheme(), 1.75f);
    const float floorPx = 14 * 1.75f * 0.8f;
    const float full = theme.fontSize * 0.92f;
    const std::string text = "beyond 512 below -10, so a longer text looks familiar to them";
    // One line at the floor, not at 90 % of the full size (two lines do not fit the box).
    const float width = estimateTextWidth(text, floorPx) + 1;
    ASSERT_GT(estimateTextWidth(text, full * 0.9f), width);
    ASSERT_LT(full * 0.85f, floorPx);  // the size the paragraph took before
    Figure figure = emptyFigure(1000, 200, theme);
    drawParagraph(figure, {0, 0, width, full * 1.3f + 1}, text, theme, full);
    ASSERT_EQ(figure.items.size(), 1u);
    const auto& line = std::get<TextItem>(figure.items[0]);
    EXPECT_EQ(line.text, text);
    EXPECT_GE(line.size, floorPx - 0.01f);

    Figure narrow = emptyFigure(1000, 200, theme);  // too narrow at the floor: smaller, whole
    const float tight = estimateTextWidth(text, floorPx) - 20;
    drawParagraph(narrow, {0, 0, tight, full * 1.3f + 1}, text, theme, full);
    ASSERT_EQ(narrow.items.size(), 1u);
    EXPECT_EQ(std::get<TextItem>(narrow.items[0]).text, text);
}

}  // namespace
}  // namespace poslab
