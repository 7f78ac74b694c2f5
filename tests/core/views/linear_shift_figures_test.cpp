// The linear shift figures: T_k, a sparse T_k at the largest width, the sine-only comparison.
#include "poslab/views/linear_shift_figures.hpp"

#include <gtest/gtest.h>

#include "figure_checks.hpp"

namespace poslab {
namespace {

TEST(LinearShiftFiguresTest, LinearShiftNamesTk) {
    auto shift = linearShiftFigure({}, 1200, 800, paperTheme());
    ASSERT_TRUE(shift.ok());
    EXPECT_TRUE(hasText(*shift, "$T_k$ for $k$ = 5"));
}

TEST(LinearShiftFiguresTest, LinearShiftAtItsLargestStaysSparseAndSaysWhatItChecked) {
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

TEST(LinearShiftFiguresTest, SineOnlyShiftShowsBothResiduals) {
    LinearShiftOptions options;
    options.sinOnly = true;
    auto figure = linearShiftFigure(options, 1200, 800, paperTheme());
    ASSERT_TRUE(figure.ok()) << figure.error().message;
    EXPECT_TRUE(hasText(*figure, "best T on the sines alone (ridge least squares)"));
    EXPECT_TRUE(hasText(*figure, "sin + cos: $T_k$, a rotation"));
    EXPECT_TRUE(hasText(*figure, "sin only: least-squares T"));
    options.sinusoidal.dModel = 600;
    EXPECT_EQ(linearShiftFigure(options, 800, 600, paperTheme()).error().message,
              "d_model must be 1..512 (got 600)");
}

}  // namespace
}  // namespace poslab
