#include "poslab/views/frequency_resolution_figures.hpp"

#include <gtest/gtest.h>

#include "figure_checks.hpp"

namespace poslab {
namespace {

TEST(FrequencyResolutionFiguresTest, FrequencyResolutionNamesItsNumbers) {
    auto figure = frequencyResolutionFigure({}, 1200, 800, paperTheme());
    ASSERT_TRUE(figure.ok()) << figure.error().message;
    EXPECT_TRUE(hasText(*figure, "neighbours, D = 1"));
    EXPECT_TRUE(hasText(*figure, "far apart, D = 256"));
    EXPECT_GE(count(*figure).polylines, 4);
    EXPECT_EQ(frequencyResolutionFigure({63, 10000, 64, 0}, 800, 600, paperTheme()).error().message,
              "d_model must be even, 2..1024 (got 63)");
}

}  // namespace
}  // namespace poslab
