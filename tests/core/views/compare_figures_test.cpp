// The comparison figures: every encoding side by side, and RoPE A/B.
#include "poslab/views/compare_figures.hpp"

#include <gtest/gtest.h>

#include "figure_checks.hpp"

namespace poslab {
namespace {

TEST(CompareFiguresTest, ComparisonAndAbComparison) {
    auto compare = comparisonFigure({}, 1400, 900, paperTheme());
    ASSERT_TRUE(compare.ok()) << compare.error().message;
    EXPECT_GE(count(*compare).heatmaps, 10);
    RopeConfiguration a{"A: base 10000", {}}, b{"B: base 500000", {}};
    b.rope.base = 500000;
    auto ab = abComparisonFigure(a, b, 4096, 1200, 800, paperTheme());
    ASSERT_TRUE(ab.ok()) << ab.error().message;
    EXPECT_TRUE(hasText(*ab, "A: base 10000"));
}

}  // namespace
}  // namespace poslab
