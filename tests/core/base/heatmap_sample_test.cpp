#include "poslab/base/heatmap_sample.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace poslab {
namespace {

class TexelBudgetTest : public ::testing::TestWithParam<double> {};

TEST_P(TexelBudgetTest, EveryPlotSizeGivesABoundedCount) {
    // int(inf) and int(NaN) are undefined behaviour; plot sizes come from layouts of any size.
    const int budget = texelBudget(GetParam());
    EXPECT_GE(budget, 1);
    EXPECT_LE(budget, kMaxTexelsPerSide);
    if (GetParam() >= 1 && GetParam() < kMaxTexelsPerSide) {
        EXPECT_EQ(budget, int(GetParam()));
    }
}

INSTANTIATE_TEST_SUITE_P(Sizes, TexelBudgetTest,
                         ::testing::Values(-INFINITY, -1e30, -1, 0, 4.9e-324, 0.5, 1, 1.5, 640,
                                           65535.9, 65536, 1e9, 3e38, INFINITY, NAN));

TEST(HeatmapSampleTest, CellsPerTexelIsACeilingOfAtLeastOne) {
    EXPECT_EQ(cellsPerTexel(4096, 640), 7);  // ceil(6.4)
    EXPECT_EQ(cellsPerTexel(640, 640), 1);
    EXPECT_EQ(cellsPerTexel(10, 0), 10);  // no room: one texel for everything
    EXPECT_EQ(cellsPerTexel(0, 100), 1);
}

}  // namespace
}  // namespace poslab
