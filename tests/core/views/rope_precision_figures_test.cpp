#include "poslab/views/rope_precision_figures.hpp"

#include <gtest/gtest.h>

#include "figure_checks.hpp"

namespace poslab {
namespace {

RopeParams ropeOfHeadDim(int headDim) {
    RopeParams p;
    p.headDim = headDim;
    return p;
}

// Pair 0 turns by exactly 1 rad per position (theta_0 = base^0), so its angle is m itself, and
// m rounded: bfloat16 (8 significant bits) holds integers up to 256 and rounds 257 to 256 (ties
// to even); float16 (11 bits) holds them up to 2048 and rounds 2049 to 2048; float32 holds them
// all up to 2^24. Each first miss is a whole radian.
TEST(RopePrecisionFiguresTest, PairZeroFailsWhereTheFormatStopsHoldingIntegers) {
    auto reports = ropePrecisionReports(
        ropeOfHeadDim(64), {FloatFormat::Float32, FloatFormat::BFloat16, FloatFormat::Float16},
        4096);
    ASSERT_TRUE(reports.ok()) << reports.error().message;
    ASSERT_EQ(reports->size(), 3u);
    EXPECT_EQ((*reports)[0].pairs[0].firstPositionOver, -1);
    EXPECT_EQ((*reports)[1].pairs[0].firstPositionOver, 257);
    EXPECT_EQ((*reports)[2].pairs[0].firstPositionOver, 2049);
    for (const RopePrecisionReport& report : *reports) {
        EXPECT_EQ(report.pairs.size(), 32u);
        EXPECT_EQ(report.maxPosition, 4096);
    }
}

TEST(RopePrecisionFiguresTest, FigureNamesEachFormatsFirstMiss) {
    auto reports = ropePrecisionReports(ropeOfHeadDim(16),
                                        {FloatFormat::Float32, FloatFormat::BFloat16}, 1024);
    ASSERT_TRUE(reports.ok());
    Figure figure = emptyFigure(1000, 600, paperTheme());
    drawRopePrecision(figure, {0, 0, 1000, 600}, ropeOfHeadDim(16), *reports, paperTheme());
    const Counts c = count(figure);
    EXPECT_TRUE(c.insideFigure);
    EXPECT_GE(c.polylines, 1);
    EXPECT_TRUE(hasText(figure, "float32: none up to 1024"));
    EXPECT_TRUE(hasText(
        figure, "bfloat16: first at m = " + std::to_string((*reports)[1].firstPositionOver)));
    EXPECT_TRUE(hasText(figure, "0.1 rad"));
}

TEST(RopePrecisionFiguresTest, NoReportsGetANote) {
    Figure figure = emptyFigure(400, 300, darkTheme());
    drawRopePrecision(figure, {0, 0, 400, 300}, ropeOfHeadDim(16), {}, darkTheme());
    EXPECT_TRUE(hasText(figure, "no format"));
}

}  // namespace
}  // namespace poslab
