#include "poslab/views/rope_decay_figures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "poslab/figure/figure_controls.hpp"
#include "poslab/views/rope_figures.hpp"
#include "rope_figure_checks.hpp"

namespace poslab {
namespace {

using namespace rope_checks;

TEST(RopeDecayFiguresTest, DecayCurveReproducesRoFormerFigure2) {
    Figure figure = emptyFigure(900, 600, paperTheme());
    PlotFrame frame;
    drawRopeDecay(figure, {0, 0, 900, 600}, 128, 10000, 250, paperTheme(), nullptr, &frame);
    EXPECT_TRUE(hasText(figure, "RoFormer"));
    EXPECT_TRUE(hasText(figure, "relative distance"));
    EXPECT_TRUE(hasText(figure, "relative upper bound"));
    const PolylineItem* curve = nullptr;
    for (const FigureItem& item : figure.items) {
        if (auto* line = std::get_if<PolylineItem>(&item)) curve = line;
    }
    ASSERT_NE(curve, nullptr);
    ASSERT_EQ(curve->points.size(), 251u);
    // r = 0: every |S_j| = j, so the bound is the mean of 1..64 = 32.5.
    EXPECT_NEAR(frame.toData(curve->points.front()).second, 32.5, 0.01);
    EXPECT_NEAR(frame.toData(curve->points.front()).first, 0, 1e-6);

    // Far more distances than pixels: a min-max band, one bar per pixel column, no long curve.
    Figure wide = emptyFigure(400, 300, paperTheme());
    PlotFrame wideFrame;
    drawRopeDecay(wide, {0, 0, 400, 300}, 128, 10000, 20000, paperTheme(), nullptr, &wideFrame);
    int bars = 0;
    for (const FigureItem& item : wide.items) {
        EXPECT_FALSE(std::holds_alternative<PolylineItem>(item));
        if (auto* line = std::get_if<LineItem>(&item))
            bars += line->color == ropeQueryColor(paperTheme());
    }
    EXPECT_EQ(bars, int(wideFrame.plot.width));
    EXPECT_TRUE(hasText(wide, "min to max over each pixel column"));
}

// RoFormer's bound at distance r, written out: (1/(d/2)) sum_j |sum_{k<j} e^(i r theta_k)|.
double decayBound(int d, double base, double r) {
    double re = 0, im = 0, total = 0;
    for (int j = 0; j < d / 2; ++j) {
        re += std::cos(r * theta(j, d, base));
        im += std::sin(r * theta(j, d, base));
        total += std::hypot(re, im);
    }
    return total / (d / 2);
}

TEST(RopeDecayFiguresTest, LogDistanceAxisSamplesEveryDecadeAlike) {
    const std::vector<double> distances = logDecayDistances(1 << 20, 500);
    ASSERT_FALSE(distances.empty());
    EXPECT_EQ(distances.front(), 1);
    EXPECT_EQ(distances.back(), 1 << 20);
    EXPECT_LE(distances.size(), std::size_t(500 * kLogDecaySamplesPerColumn + 2));
    for (std::size_t i = 1; i < distances.size(); ++i) EXPECT_GT(distances[i], distances[i - 1]);
    for (double d = 1; d <= 10; ++d)  // the first decade: every distance (columns are wide)
        EXPECT_NE(std::find(distances.begin(), distances.end(), d), distances.end()) << d;

    // The curve's highest point is the largest bound over 1..4096, its lowest the smallest (the
    // min-max envelope keeps both), each checked against the formula written out above.
    Figure figure = emptyFigure(900, 600, paperTheme());
    PlotFrame frame;
    drawRopeDecay(figure, {0, 0, 900, 600}, 128, 10000, 4096, paperTheme(), nullptr, &frame,
                  DistanceAxis::Logarithmic);
    EXPECT_TRUE(frame.x.logarithmic);
    EXPECT_TRUE(hasText(figure, "log scale"));
    double expectedHigh = -INFINITY, expectedLow = INFINITY;
    for (double d : logDecayDistances(4096, texelBudget(900.f))) {
        expectedHigh = std::max(expectedHigh, decayBound(128, 10000, d));
        expectedLow = std::min(expectedLow, decayBound(128, 10000, d));
    }
    double high = -INFINITY, low = INFINITY;
    for (const FigureItem& item : figure.items) {
        if (const auto* line = std::get_if<PolylineItem>(&item)) {
            for (Point p : line->points) {
                high = std::max(high, frame.toData(p).second);
                low = std::min(low, frame.toData(p).second);
            }
        }
    }
    EXPECT_NEAR(high, expectedHigh, 0.05);  // pixels back to data: about 0.03 per pixel
    EXPECT_NEAR(low, expectedLow, 0.05);
    // r = 1 is near r = 0's 32.5 but below it.
    EXPECT_LT(high, 32.5);
    EXPECT_GT(high, 25.0);
}

TEST(RopeDecayFiguresTest, DecayCurveComputesAtMostSixteenDistancesPerPixelColumn) {
    // Up to 16 per column: every distance.
    const auto every = ropeDecayCurve(128, 10000, 3000, 400);
    ASSERT_TRUE(every.ok());
    EXPECT_EQ(every->step, 1);
    ASSERT_EQ(every->distances.size(), 3001u);
    // Beyond: an even grid from 0, and the last distance, never more than 16 per column.
    const auto grid = ropeDecayCurve(128, 10000, 20000, 400);
    ASSERT_TRUE(grid.ok());
    EXPECT_EQ(grid->step, 4);  // ceil(20001 / 6400)
    EXPECT_LE(grid->distances.size(), 16u * 400 + 1);
    EXPECT_EQ(grid->distances.front(), 0);
    EXPECT_EQ(grid->distances.back(), 20000);
    for (std::size_t i = 0; i < grid->distances.size(); i += 97) {
        EXPECT_NEAR(grid->bounds[i], decayBound(128, 10000, grid->distances[i]), 1e-9)
            << grid->distances[i];
    }
    EXPECT_NEAR(grid->bounds.back(), decayBound(128, 10000, 20000), 1e-9);
    EXPECT_NEAR(ropeDecayBoundAt(128, 10000, 12345), decayBound(128, 10000, 12345), 1e-9);
    // The maximum and the checks of ropeDecayBound.
    const auto largest = ropeDecayCurve(8192, 10000, 1 << 20, 1200);
    ASSERT_TRUE(largest.ok());
    EXPECT_LE(largest->distances.size(), 16u * 1200 + 1);
    EXPECT_NEAR(largest->bounds.front(), (4096 + 1) / 2.0, 1e-9);  // r = 0: mean of 1..d/2
    EXPECT_FALSE(ropeDecayCurve(127, 10000, 10, 100).ok());
    EXPECT_FALSE(ropeDecayCurve(128, 10000, (1 << 20) + 1, 100).ok());

    // The band's caption names the grid.
    Figure figure = emptyFigure(500, 300, paperTheme());
    drawRopeDecay(figure, {0, 0, 500, 300}, 128, 10000, 1 << 20, paperTheme(), nullptr);
    EXPECT_TRUE(hasText(figure, "min to max over each pixel column of"));
    EXPECT_TRUE(hasText(figure, "distances, step"));
}

// The title wrapped at one column in print broke the citation as "Su et / al." (#28): the
// line that has "Su" has "et al." too, on either axis.
TEST(RopeDecayFiguresTest, TitleKeepsSuEtAlTogether) {
    PanelRoom room;
    Theme theme = forFiles(paperTheme(), 1);
    theme.panelRoom = &room;
    for (const DistanceAxis axis : {DistanceAxis::Linear, DistanceAxis::Logarithmic}) {
        Figure figure = emptyFigure(600, 400, theme);
        drawRopeDecay(figure, {0, 0, 600, 400}, 128, 10000, 250, theme, nullptr, nullptr, axis);
        int citations = 0;
        for (const std::string& text : texts(figure)) {
            const bool su = text.find("Su") != std::string::npos;
            EXPECT_EQ(su, text.find("al.") != std::string::npos) << text;
            citations += su;
        }
        EXPECT_EQ(citations, 1);
    }
}

}  // namespace
}  // namespace poslab
