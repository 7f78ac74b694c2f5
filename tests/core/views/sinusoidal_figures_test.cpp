#include "poslab/views/sinusoidal_figures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <variant>
#include <vector>

#include "cell_resolution_checks.hpp"

namespace poslab {
namespace {

// The paper's formula at any real position, written out independently of the library.
double paperValueAt(double position, int column, int d, double base) {
    const double angle = position / std::pow(base, 2.0 * (column / 2) / d);
    return column % 2 == 0 ? std::sin(angle) : std::cos(angle);
}

SinusoidalParams paper(int d) {
    SinusoidalParams p;
    p.dModel = d;
    p.seqLen = 100;
    return p;
}

TEST(SinusoidalFiguresTest, CurvePointsLieOnTheWave) {
    for (int dimension : {0, 1, 5, 40, 127}) {
        const LineSeries curve = sinusoidalCurve(paper(128), dimension, 3, 5000, 700);
        ASSERT_EQ(curve.x.size(), curve.y.size());
        EXPECT_DOUBLE_EQ(curve.x.front(), 3);
        EXPECT_DOUBLE_EQ(curve.x.back(), 5000);
        for (std::size_t i = 0; i < curve.x.size(); ++i) {
            ASSERT_NEAR(curve.y[i], paperValueAt(curve.x[i], dimension, 128, 10000), 1e-12);
            if (i > 0) {
                ASSERT_GT(curve.x[i], curve.x[i - 1]);
            }
        }
    }
}

TEST(SinusoidalFiguresTest, FastWavesShowTheirFullSwingInEveryColumn) {
    // Dimension 0 turns once per 2 pi positions: 65536 positions on 1000 columns is about ten
    // cycles per column. One sample per column would draw an aliased wave of smaller swing.
    const int columns = 1000;
    const double last = 65536;
    const LineSeries curve = sinusoidalCurve(paper(128), 0, 0, last, columns);
    const double width = last / columns;
    for (int c = 0; c < columns; ++c) {
        double low = 2, high = -2;
        for (std::size_t i = 0; i < curve.x.size(); ++i) {
            if (curve.x[i] >= c * width && curve.x[i] <= (c + 1) * width) {
                low = std::min(low, curve.y[i]);
                high = std::max(high, curve.y[i]);
            }
        }
        ASSERT_GT(high, 1 - 1e-9) << "column " << c;
        ASSERT_LT(low, -1 + 1e-9) << "column " << c;
    }
    EXPECT_LE(curve.x.size(), std::size_t(3 * columns + 1));  // bounded by the pixels
}

TEST(SinusoidalFiguresTest, EachColumnReachesTheWavesTrueExtremes) {
    // Against a dense sampling of the formula: no column of the curve misses a peak or trough.
    const int d = 64, dimension = 9, columns = 300;
    const double first = 0, last = 2000;
    const LineSeries curve = sinusoidalCurve(paper(d), dimension, first, last, columns);
    const double width = (last - first) / columns;
    for (int c = 0; c < columns; ++c) {
        const double begin = first + c * width, end = begin + width;
        double denseLow = 2, denseHigh = -2;
        for (int s = 0; s <= 400; ++s) {
            const double v = paperValueAt(begin + width * s / 400, dimension, d, 10000);
            denseLow = std::min(denseLow, v), denseHigh = std::max(denseHigh, v);
        }
        double low = 2, high = -2;
        for (std::size_t i = 0; i < curve.x.size(); ++i) {
            if (curve.x[i] >= begin - 1e-9 && curve.x[i] <= end + 1e-9) {
                low = std::min(low, curve.y[i]), high = std::max(high, curve.y[i]);
            }
        }
        ASSERT_GE(high, denseHigh - 1e-9) << "column " << c;
        ASSERT_LE(low, denseLow + 1e-9) << "column " << c;
    }
}

TEST(SinusoidalFiguresTest, SlowWavesAreSampledAtColumnBoundaries) {
    // The last pair of d = 128 turns about once per 2 pi * 9000 positions: no extreme falls
    // inside 0..100, so the curve is exactly the column boundaries.
    const LineSeries curve = sinusoidalCurve(paper(128), 126, 0, 100, 50);
    ASSERT_EQ(curve.x.size(), 51u);
    for (int i = 0; i <= 50; ++i) EXPECT_NEAR(curve.x[std::size_t(i)], 2.0 * i, 1e-12);
}

// A dimension that turns a whole cycle within every pixel column is one solid band from -1 to
// 1: drawn as one rectangle of its colour over the plot's width (not thousands of full-height
// strokes); a slower one stays a polyline through the wave's own values.
TEST(SinusoidalFiguresTest, CurvesFasterThanThePixelsAreOneSolidBand) {
    const SinusoidalParams params = paper(8192);
    SinusoidalCurveOptions options;
    options.dimensions = {0, 8190};  // wavelength 2 pi; the slowest, 2 pi base^(8190/8192)
    options.lastPosition = 65536;
    Figure figure = emptyFigure(1200, 400, darkTheme());
    PlotFrame frame;
    drawSinusoidalCurves(figure, {0, 0, 1200, 400}, params, options, darkTheme(), &frame);
    std::vector<const RectItem*> bands;
    std::vector<const PolylineItem*> lines;
    for (const FigureItem& item : figure.items) {
        if (const auto* rect = std::get_if<RectItem>(&item);
            rect && rect->fill.a > 0 && rect->fill == seriesColor(0, darkTheme()))
            bands.push_back(rect);
        if (const auto* line = std::get_if<PolylineItem>(&item)) lines.push_back(line);
    }
    ASSERT_EQ(bands.size(), 1u);
    const Point top = frame.toPixel(0, 1), bottom = frame.toPixel(65536, -1);
    EXPECT_LE(bands[0]->box.x, top.x);
    EXPECT_GE(bands[0]->box.right(), bottom.x);
    EXPECT_LE(bands[0]->box.y, top.y);
    EXPECT_GE(bands[0]->box.bottom(), bottom.y);
    EXPECT_LT(bands[0]->box.y, top.y - 0.5f);  // widened by half the stroke, as the line was
    for (const PolylineItem* line : lines) EXPECT_NE(line->color, seriesColor(0, darkTheme()));
    ASSERT_FALSE(lines.empty());  // the slow dimension: its wave, point by point
    const double w = 1 / std::pow(10000.0, 8190.0 / 8192);
    const PolylineItem& slow = *lines.back();
    for (std::size_t i = 0; i < slow.points.size(); i += 97) {
        const auto [x, y] = frame.toData(slow.points[i]);
        EXPECT_NEAR(y, std::sin(w * x), 2e-3);  // to within a pixel's rounding
    }
}

// A vector file (Theme::cellResolution, #28) holds the table cell for cell: 1024 positions x 64
// dimensions in a 600 x 400 figure (a few hundred pixels a side) is one image of 1024 x 64
// texels, each the paper's value, and its colour bar says "value" with no mean of cells per
// pixel (it said "value (mean, 4×1 cells/px)").
TEST(SinusoidalFiguresTest, VectorFileHoldsEveryCell) {
    SinusoidalParams params = paper(64);
    params.seqLen = 1024;
    Figure figure = emptyFigure(600, 400, vectorFileTheme(paperTheme()));
    drawSinusoidalHeatmap(figure, {0, 0, 600, 400}, params, {}, vectorFileTheme(paperTheme()),
                          nullptr);
    const auto maps = mapsOf(figure);
    ASSERT_EQ(maps.size(), 1u);
    const HeatmapItem& map = *maps[0];
    EXPECT_LT(map.box.height, 1024.0f);  // more cells than pixels
    EXPECT_EQ(map.values->rows, 1024u);
    EXPECT_EQ(map.values->cols, 64u);
    expectNoSamplingNote(figure);
    const int picked[][2] = {{0, 0}, {1, 1}, {513, 6}, {777, 31}, {1023, 62}, {1022, 63}};
    for (const auto& [row, col] : picked)
        expectCell(map, std::size_t(row), std::size_t(col), paperValueAt(row, col, 64, 10000),
                   1e-9);
    // Screens and PNGs keep one texel per pixel, and say so.
    Figure screen = emptyFigure(600, 400, paperTheme());
    drawSinusoidalHeatmap(screen, {0, 0, 600, 400}, params, {}, paperTheme(), nullptr);
    ASSERT_EQ(mapsOf(screen).size(), 1u);
    EXPECT_LT(mapsOf(screen)[0]->values->rows, 1024u);
    EXPECT_NE(textsWith(screen, "cells/px"), "");
}

// Past kMaxTexelsPerSide (8192 positions) the image is the cap's 4096 rows, each the mean of the
// two positions under it, and the colour bar says so.
TEST(SinusoidalFiguresTest, VectorFileBeyondTheCapSaysTheBlockSize) {
    SinusoidalParams params = paper(16);
    params.seqLen = 2 * kMaxTexelsPerSide;
    const Theme theme = vectorFileTheme(paperTheme());
    Figure figure = emptyFigure(600, 400, theme);
    drawSinusoidalHeatmap(figure, {0, 0, 600, 400}, params, {}, theme, nullptr);
    const auto maps = mapsOf(figure);
    ASSERT_EQ(maps.size(), 1u);
    EXPECT_EQ(maps[0]->values->rows, std::size_t(kMaxTexelsPerSide));
    EXPECT_EQ(maps[0]->values->cols, 16u);
    EXPECT_NE(textsWith(figure, "2×1 cells"), "");
    const int picked[][2] = {{0, 0}, {100, 3}, {4095, 15}};
    for (const auto& [row, col] : picked) {
        const double mean =
            (paperValueAt(2 * row, col, 16, 10000) + paperValueAt(2 * row + 1, col, 16, 10000)) / 2;
        expectCell(*maps[0], std::size_t(row), std::size_t(col), mean, 1e-9);
    }
}

}  // namespace
}  // namespace poslab
