// evenlySpaced: both ends, even gaps, distinct positions, and every position when there is room.
#include "poslab/base/sampling.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace poslab {
namespace {

TEST(SamplingTest, EveryPositionWhenCountReachesTotal) {
    EXPECT_EQ(evenlySpaced(5, 5), (std::vector<int>{0, 1, 2, 3, 4}));
    EXPECT_EQ(evenlySpaced(3, 100), (std::vector<int>{0, 1, 2}));
}

TEST(SamplingTest, BothEndsAndRoundedEvenSteps) {
    // round(s * 39 / 7) for s = 0..7, written out.
    EXPECT_EQ(evenlySpaced(40, 8), (std::vector<int>{0, 6, 11, 17, 22, 28, 33, 39}));
    EXPECT_EQ(evenlySpaced(101, 5), (std::vector<int>{0, 25, 50, 75, 100}));
    const std::vector<int> many = evenlySpaced(1 << 20, 2048);
    ASSERT_EQ(many.size(), 2048u);
    EXPECT_EQ(many.front(), 0);
    EXPECT_EQ(many.back(), (1 << 20) - 1);
    const double step = double((1 << 20) - 1) / 2047;
    for (std::size_t s = 1; s < many.size(); ++s)
        EXPECT_NEAR(many[s] - many[s - 1], step, 1.0) << s;  // each is step rounded
}

TEST(SamplingTest, DegenerateCounts) {
    EXPECT_TRUE(evenlySpaced(0, 10).empty());
    EXPECT_TRUE(evenlySpaced(-3, 10).empty());
    EXPECT_EQ(evenlySpaced(10, 1), (std::vector<int>{0}));
    EXPECT_EQ(evenlySpaced(10, 0), (std::vector<int>{0}));
    EXPECT_EQ(evenlySpaced(10, -4), (std::vector<int>{0}));
    EXPECT_EQ(evenlySpaced(10, 2), (std::vector<int>{0, 9}));
}

}  // namespace
}  // namespace poslab
