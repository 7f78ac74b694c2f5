// The binary clock and linear shift figures: their parts, their errors, and a sparse T_k at the
// largest width.
#include "poslab/views/intuition_figures.hpp"

#include <gtest/gtest.h>

#include "figure_checks.hpp"

namespace poslab {
namespace {

TEST(IntuitionFiguresTest, BinaryClockAndLinearShift) {
    auto clock = binaryClockFigure({}, 1200, 800, paperTheme());
    ASSERT_TRUE(clock.ok());
    EXPECT_GE(count(*clock).polylines, 10);  // square wave and sinusoid per bit
    EXPECT_TRUE(hasText(*clock, "bit 3: period 16"));
    BinaryClockOptions bad;
    bad.bits = 0;
    EXPECT_EQ(binaryClockFigure(bad, 800, 600, paperTheme()).error().message,
              "bits must be 1..12 (got 0)");

    auto shift = linearShiftFigure({}, 1200, 800, paperTheme());
    ASSERT_TRUE(shift.ok());
    EXPECT_TRUE(hasText(*shift, "T_k for k = 5"));
}

TEST(IntuitionFiguresTest, LinearShiftAtItsLargestStaysSparseAndSaysWhatItChecked) {
    LinearShiftOptions options;
    options.sinusoidal.dModel = 8192;
    options.positions = 1 << 20;
    options.shownDims = 8192;
    auto figure = linearShiftFigure(options, 1200, 800, paperTheme());
    ASSERT_TRUE(figure.ok()) << figure.error().message;
    EXPECT_TRUE(hasText(*figure, "at 2048 evenly spaced p of 1048576"));
    for (const FigureItem& item : figure->items) {
        if (const auto* h = std::get_if<HeatmapItem>(&item)) {
            EXPECT_LE(h->values->rows, 800u);  // the corner of T_k, block means
            EXPECT_LE(h->values->cols, 1200u);
        }
        if (const auto* line = std::get_if<PolylineItem>(&item)) {
            EXPECT_LE(line->points.size(), 2u * 1200) << "more points than pixels";
        }
    }
}

}  // namespace
}  // namespace poslab
