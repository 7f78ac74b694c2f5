// Heatmap samples: block means against means computed cell by cell, window clamping, fresh
// versions, and relative-offset samples against the L x L matrix written out.
#include "poslab/base/heatmap_sample.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>
#include "../test_math.hpp"

namespace poslab {
namespace {

// Offsets -(L-1)..L-1 of a function of d = j - i.
template <class F>
std::vector<double> byOffset(int length, F value) {
    std::vector<double> out;
    for (int d = -(length - 1); d <= length - 1; ++d) out.push_back(value(d));
    return out;
}

// Each texel of `sample` against the mean of the unmasked cells of its block, written out cell by
// cell (-inf where every cell is masked): the reference the block-sum code must match.
template <class F>
void expectBlockMeansOfUnmasked(const HeatmapSample& sample, const CellWindow& window, F value) {
    const Matrix& m = *sample.values;
    const long long lastRow = window.firstRow + window.rowCount;
    const long long lastCol = window.firstCol + window.colCount;
    for (std::size_t tr = 0; tr < m.rows; ++tr) {
        for (std::size_t tc = 0; tc < m.cols; ++tc) {
            double sum = 0;
            int cells = 0;
            const long long rowStart = window.firstRow + (long long)tr * sample.rowsPerTexel;
            const long long colStart = window.firstCol + (long long)tc * sample.colsPerTexel;
            for (long long i = rowStart; i < std::min(lastRow, rowStart + sample.rowsPerTexel);
                 ++i) {
                for (long long j = colStart; j < std::min(lastCol, colStart + sample.colsPerTexel);
                     ++j) {
                    const double v = value(int(j - i));
                    if (v == -kInf) continue;
                    sum += v;
                    ++cells;
                }
            }
            if (cells == 0) {
                EXPECT_EQ(m(tr, tc), -kInf) << tr << "," << tc;
            } else {
                EXPECT_NEAR(m(tr, tc), sum / cells, 1e-12) << tr << "," << tc;
            }
        }
    }
}

// A 5 x 7 matrix with (r, c) = 10 r + c, so every block mean is easy to compute by hand.
Matrix tens() {
    Matrix m(5, 7);
    for (std::size_t r = 0; r < 5; ++r) {
        for (std::size_t c = 0; c < 7; ++c) m(r, c) = 10.0 * double(r) + double(c);
    }
    return m;
}

TEST(HeatmapSampleTest, CellsPerTexelIsTheCeilingAndAtLeastOne) {
    EXPECT_EQ(cellsPerTexel(100, 100), 1);
    EXPECT_EQ(cellsPerTexel(101, 100), 2);
    EXPECT_EQ(cellsPerTexel(1000, 3), 334);  // ceil(1000 / 3)
    EXPECT_EQ(cellsPerTexel(1, 500), 1);
    EXPECT_EQ(cellsPerTexel(0, 10), 1);
    EXPECT_EQ(cellsPerTexel(7, 0), 7);  // no room counts as one texel
    EXPECT_EQ(cellsPerTexel(1LL << 40, 1 << 20), 1LL << 20);
}

TEST(HeatmapSampleTest, AverageColumnsMeansEachGroupIncludingAShortLastOne) {
    const Matrix m = tens();
    const Matrix out = averageColumns(m, 3);  // groups {0,1,2}, {3,4,5}, {6}
    ASSERT_EQ(out.rows, 5u);
    ASSERT_EQ(out.cols, 3u);
    for (std::size_t r = 0; r < 5; ++r) {
        EXPECT_NEAR(out(r, 0), 10.0 * r + 1.0, 1e-12);  // (0 + 1 + 2) / 3
        EXPECT_NEAR(out(r, 1), 10.0 * r + 4.0, 1e-12);  // (3 + 4 + 5) / 3
        EXPECT_NEAR(out(r, 2), 10.0 * r + 6.0, 1e-12);  // 6 alone
    }
    const Matrix same = averageColumns(m, 1);
    EXPECT_EQ(same.values, m.values);
}

TEST(HeatmapSampleTest, AverageBlocksMeansEveryCellOfEachBlock) {
    const Matrix m = tens();
    const Matrix out = averageBlocks(m, 2, 4);  // rows {0,1},{2,3},{4}; cols {0..3},{4..6}
    ASSERT_EQ(out.rows, 3u);
    ASSERT_EQ(out.cols, 2u);
    // Mean of 10 r + c over a block = 10 mean(r) + mean(c).
    const double rowMeans[3] = {0.5, 2.5, 4.0};
    const double colMeans[2] = {1.5, 5.0};
    for (std::size_t u = 0; u < 3; ++u) {
        for (std::size_t v = 0; v < 2; ++v)
            EXPECT_NEAR(out(u, v), 10 * rowMeans[u] + colMeans[v], 1e-12) << u << "," << v;
    }
    // Blocks of the whole matrix: the grand mean, 10 * 2 + 3.
    const Matrix all = averageBlocks(m, 5, 7);
    ASSERT_EQ(all.values.size(), 1u);
    EXPECT_NEAR(all(0, 0), 23.0, 1e-12);
}

TEST(HeatmapSampleTest, ClampWindowKeepsAtLeastOneCellInside) {
    const CellWindow everything = clampWindow({}, 40, 30);  // empty counts: everything
    EXPECT_EQ(everything.firstRow, 0);
    EXPECT_EQ(everything.rowCount, 40);
    EXPECT_EQ(everything.colCount, 30);
    const CellWindow past = clampWindow({35, 10, -5, 50}, 40, 30);
    EXPECT_EQ(past.rowCount, 10);
    EXPECT_EQ(past.firstRow, 30);  // slid back so rows 30..39 stay inside
    EXPECT_EQ(past.colCount, 30);
    EXPECT_EQ(past.firstCol, 0);
    const CellWindow empty = clampWindow({5, 3, 5, 3}, 0, 0);  // an empty matrix counts as 1 x 1
    EXPECT_EQ(empty.firstRow, 0);
    EXPECT_EQ(empty.rowCount, 1);
    EXPECT_EQ(empty.colCount, 1);
}

TEST(HeatmapSampleTest, VersionsAreFreshAndNotesSayWhatATexelHolds) {
    std::set<std::uint64_t> seen;
    for (int i = 0; i < 100; ++i) EXPECT_TRUE(seen.insert(nextMatrixVersion()).second);
    HeatmapSample sample;
    EXPECT_EQ(blockNote(sample, "mean of"), "");
    sample.rowsPerTexel = 4;
    sample.colsPerTexel = 2;
    EXPECT_EQ(blockNote(sample, "mean of"), "each pixel: mean of 4×2 cells");
}

// ---- relativeOffsetSample

TEST(RelativeOffsetSampleTest, OneTexelPerCellIsTheMatrixItself) {
    const int length = 9;
    auto value = [](int d) { return d * d - 3.0 * d + 0.25; };
    const HeatmapSample sample = relativeOffsetSample(byOffset(length, value), length, {}, 100, 100,
                                                      BlockSummary::MeanOfUnmasked);
    ASSERT_EQ(sample.values->rows, 9u);
    ASSERT_EQ(sample.values->cols, 9u);
    EXPECT_EQ(sample.rowsPerTexel, 1);
    for (int i = 0; i < length; ++i) {
        for (int j = 0; j < length; ++j) EXPECT_EQ((*sample.values)(i, j), value(j - i));
    }
}

TEST(RelativeOffsetSampleTest, BlockMeansLeaveMaskedCellsOut) {
    // Causal ALiBi pattern for slope 1, L = 4, 2 x 2 blocks, written out:
    //   row 0:  0  x  x  x
    //   row 1: -1  0  x  x
    //   row 2: -2 -1  0  x
    //   row 3: -3 -2 -1  0
    const int length = 4;
    auto value = [](int d) { return d > 0 ? -kInf : -double(std::abs(d)); };
    const HeatmapSample sample = relativeOffsetSample(byOffset(length, value), length, {}, 2, 2,
                                                      BlockSummary::MeanOfUnmasked);
    ASSERT_EQ(sample.values->rows, 2u);
    ASSERT_EQ(sample.rowsPerTexel, 2);
    const Matrix& m = *sample.values;
    EXPECT_DOUBLE_EQ(m(0, 0), (0 - 1 + 0) / 3.0);  // three unmasked cells, one masked
    EXPECT_EQ(m(0, 1), -kInf);                     // all four masked
    EXPECT_DOUBLE_EQ(m(1, 0), (-2 - 1 - 3 - 2) / 4.0);
    EXPECT_DOUBLE_EQ(m(1, 1), (0 - 1 + 0) / 3.0);
}

TEST(RelativeOffsetSampleTest, BlockMeansMatchBruteForceOnAWindow) {
    const int length = 53;
    auto value = [](int d) { return d > 3 ? -kInf : std::sin(0.37 * d) * 5; };
    const std::vector<double> offsets = byOffset(length, value);
    const CellWindow window{7, 40, 2, 45};
    const HeatmapSample sample =
        relativeOffsetSample(offsets, length, window, 6, 7, BlockSummary::MeanOfUnmasked);
    ASSERT_EQ(sample.rowsPerTexel, 7);  // ceil(40 / 6)
    ASSERT_EQ(sample.colsPerTexel, 7);  // ceil(45 / 7)
    expectBlockMeansOfUnmasked(sample, window, value);
}

// Blocks of 6 x 9 cells (whole ones share their means along a lattice of offsets 3 apart), cut
// blocks at the window's right and bottom edges, a masked band: each texel the mean written out.
TEST(RelativeOffsetSampleTest, UnequalBlocksMatchBruteForce) {
    const int length = 200;
    auto value = [](int d) { return d > 40 ? -kInf : std::cos(0.11 * d) * 3 + 0.01 * d; };
    const std::vector<double> offsets = byOffset(length, value);
    const CellWindow window{5, 58, 11, 95};
    const HeatmapSample sample =
        relativeOffsetSample(offsets, length, window, 10, 11, BlockSummary::MeanOfUnmasked);
    ASSERT_EQ(sample.rowsPerTexel, 6);  // ceil(58 / 10): the last block row has 4 rows
    ASSERT_EQ(sample.colsPerTexel, 9);  // ceil(95 / 11): the last block column has 5 columns
    ASSERT_EQ(sample.values->rows, 10u);
    ASSERT_EQ(sample.values->cols, 11u);
    expectBlockMeansOfUnmasked(sample, window, value);
}

TEST(RelativeOffsetSampleTest, CentreCellKeepsIds) {
    const int length = 30;
    auto id = [](int d) { return double((d + 100) % 7); };
    const HeatmapSample sample =
        relativeOffsetSample(byOffset(length, id), length, {}, 10, 10, BlockSummary::CentreCell);
    ASSERT_EQ(sample.rowsPerTexel, 3);
    const Matrix& m = *sample.values;
    for (int tr = 0; tr < 10; ++tr) {
        for (int tc = 0; tc < 10; ++tc) {
            EXPECT_EQ(m(tr, tc), id((3 * tc + 1) - (3 * tr + 1)));  // the middle of 3 x 3
        }
    }
}

TEST(RelativeOffsetSampleTest, NeverMoreTexelsThanAsked) {
    const int length = 65536;
    const HeatmapSample sample =
        relativeOffsetSample(byOffset(length, [](int d) { return double(-std::abs(d)); }), length,
                             {}, 300, 200, BlockSummary::MeanOfUnmasked);
    EXPECT_LE(sample.values->rows, 300u);
    EXPECT_LE(sample.values->cols, 200u);
    EXPECT_GE(sample.rowSpan, 65536);
    // Diagonal blocks of -|d| have a mean between the block's extremes.
    EXPECT_LT((*sample.values)(0, 0), 0);
    EXPECT_GT((*sample.values)(0, 0), -double(sample.rowsPerTexel + sample.colsPerTexel));
}

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

// The frame a sampler fills: whole blocks cover the window (10 rows in blocks of 4: 12 rows),
// no values yet, and a version no other sample has.
TEST(HeatmapSampleTest, EmptySampleSpansWholeBlocksWithAFreshVersion) {
    const CellWindow window{5, 10, 0, 9};
    const HeatmapSample a = emptyHeatmapSample(window, 4, 3);
    const HeatmapSample b = emptyHeatmapSample(window, 1, 1);
    EXPECT_EQ(a.window, window);
    EXPECT_EQ(a.rowsPerTexel, 4);
    EXPECT_EQ(a.colsPerTexel, 3);
    EXPECT_EQ(a.rowSpan, 12);
    EXPECT_EQ(a.colSpan, 9);
    EXPECT_EQ(b.rowSpan, 10);
    EXPECT_FALSE(a.values);
    EXPECT_NE(a.version, b.version);
}

}  // namespace
}  // namespace poslab
