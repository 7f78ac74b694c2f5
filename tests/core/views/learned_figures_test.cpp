#include "poslab/views/learned_figures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>
#include "figure_checks.hpp"  // hasText

namespace poslab {
namespace {

// A deterministic table with some structure (not from the code under test).
Matrix testTable(std::size_t rows, std::size_t cols) {
    Matrix m(rows, cols);
    for (std::size_t r = 0; r < rows; ++r) {
        for (std::size_t c = 0; c < cols; ++c)
            m(r, c) = std::sin(0.7 * double(r * cols + c) + 0.3 * r) + 0.1 * c;
    }
    return m;
}

// cos(a, b) written out.
double bruteCosine(const Matrix& m, std::size_t a, std::size_t b) {
    double dot = 0, na = 0, nb = 0;
    for (std::size_t c = 0; c < m.cols; ++c) {
        dot += m(a, c) * m(b, c);
        na += m(a, c) * m(a, c);
        nb += m(b, c) * m(b, c);
    }
    return dot / std::sqrt(na * nb);
}

TEST(LearnedFiguresTest, CosineTexelsAreExactWhenThereIsRoom) {
    const Matrix table = testTable(17, 5);
    const HeatmapSample sample = cosineSimilaritySample(table, 17, 100);
    ASSERT_EQ(sample.values->rows, 17u);
    for (std::size_t a = 0; a < 17; ++a) {
        EXPECT_NEAR((*sample.values)(a, a), 1.0, 1e-14);
        for (std::size_t b = 0; b < 17; ++b) {
            EXPECT_NEAR((*sample.values)(a, b), bruteCosine(table, a, b), 1e-13);
            EXPECT_NEAR(cosineSimilarity(table, a, b), bruteCosine(table, a, b), 1e-13);
        }
    }
}

TEST(LearnedFiguresTest, CosineBlocksAreMeansOfPairs) {
    Matrix table = testTable(23, 6);
    for (std::size_t c = 0; c < 6; ++c) table(4, c) = 0;  // no direction: left out of the means
    const HeatmapSample sample = cosineSimilaritySample(table, 23, 4);
    ASSERT_EQ(sample.rowsPerTexel, 6);  // ceil(23 / 4)
    ASSERT_EQ(sample.values->rows, 4u);
    for (std::size_t A = 0; A < 4; ++A) {
        for (std::size_t B = 0; B < 4; ++B) {
            double sum = 0;
            int pairs = 0;
            for (std::size_t a = A * 6; a < std::min<std::size_t>(23, A * 6 + 6); ++a) {
                for (std::size_t b = B * 6; b < std::min<std::size_t>(23, B * 6 + 6); ++b) {
                    if (a == 4 || b == 4) continue;
                    sum += bruteCosine(table, a, b);
                    ++pairs;
                }
            }
            EXPECT_NEAR((*sample.values)(A, B), sum / pairs, 1e-12) << A << "," << B;
        }
    }
    EXPECT_EQ(cosineSimilarity(table, 4, 5), -INFINITY);  // zero row: undefined, masked
}

TEST(LearnedFiguresTest, ShownTableIsNaNPastTheEnd) {
    LearnedFigureOptions options;
    options.table = std::make_shared<const Matrix>(testTable(5, 3));
    options.positionsShown = 8;
    auto shown = learnedShownTable(options);
    ASSERT_TRUE(shown);
    ASSERT_EQ(shown->rows, 8u);
    for (std::size_t r = 0; r < 8; ++r) {
        for (std::size_t c = 0; c < 3; ++c) {
            if (r < 5) {
                EXPECT_EQ((*shown)(r, c), (*options.table)(r, c));
            } else {
                EXPECT_TRUE(std::isnan((*shown)(r, c)));
            }
        }
    }
    options.positionsShown = 3;
    EXPECT_EQ(learnedShownTable(options)->rows, 3u);
}

TEST(LearnedFiguresTest, BeyondTheTableIsMarkedUndefined) {
    LearnedParams params;  // 512 x 64, seed 0, std 0.02
    LearnedFigureOptions options;
    options.table = std::make_shared<const Matrix>(learnedTable(params).value());
    options.source = learnedSourceText(params);
    options.positionsShown = 640;
    Figure figure = emptyFigure(1400, 900, paperTheme());
    ASSERT_TRUE(drawLearnedFigure(figure, {0, 0, 1400, 900}, options, paperTheme()));
    EXPECT_TRUE(hasText(figure, kBeyondTableLabel));
    EXPECT_TRUE(hasText(figure, "table ends at 512"));
    EXPECT_TRUE(hasText(figure, "seed 0, std 0.02"));
    EXPECT_TRUE(hasText(figure, "Cosine similarity"));
    // A range of dimensions takes an en dash, not a hyphen (#28: typeset like a paper).
    EXPECT_TRUE(hasText(figure, "Dimensions 0\u20133 against position"));

    options.positionsShown = 512;
    Figure inside = emptyFigure(1400, 900, paperTheme());
    ASSERT_TRUE(drawLearnedFigure(inside, {0, 0, 1400, 900}, options, paperTheme()));
    EXPECT_FALSE(hasText(inside, "undefined"));
}

// Beside the controls at 1024x768 (a 670 x 652 figure) the table's plot, once wide enough for
// the two-line "undefined: beyond the trained table", drew it over "table ends at 512": the note
// goes under the label.
TEST(LearnedFiguresTest, BeyondNoteStaysClearOfTheTablesEndLabel) {
    LearnedParams params;
    LearnedFigureOptions options;
    options.table = std::make_shared<const Matrix>(learnedTable(params).value());
    options.source = learnedSourceText(params);
    options.positionsShown = 640;
    for (Box area : {Box{0, 0, 670, 652}, Box{0, 0, 700, 660}, Box{0, 0, 1100, 780}}) {
        Figure figure = emptyFigure(area.width, area.height, darkTheme());
        ASSERT_TRUE(drawLearnedFigure(figure, area, options, darkTheme()));
        EXPECT_TRUE(hasText(figure, "table ends at 512"));
        EXPECT_EQ(layoutFaults(figure), "") << area.width;
    }
}

TEST(LearnedFiguresTest, DataFitsThePixelsAndCurvesReadTheTable) {
    LearnedFigureOptions options;
    options.table = std::make_shared<const Matrix>(testTable(40, 7));
    options.firstCurveDimension = 2;
    options.curveCount = 3;
    options.positionsShown = 50;
    const LearnedLayout layout = learnedLayout({0, 0, 1400, 900}, darkTheme());
    auto data = computeLearnedFigureData(options, layout);
    ASSERT_TRUE(data);
    ASSERT_EQ(data->curves.size(), 3u);
    EXPECT_EQ(data->curves[0].dimension, 2);
    ASSERT_EQ(data->curves[0].y.size(), 40u);  // only the table's positions have values
    for (std::size_t r = 0; r < 40; ++r) EXPECT_EQ(data->curves[2].y[r], (*options.table)(r, 4));
    EXPECT_EQ(data->table.window.rowCount, 40);

    // A long table is reduced to block means, at most one per pixel.
    options.table = std::make_shared<const Matrix>(testTable(20000, 3));
    options.positionsShown = 20000;
    auto big = computeLearnedFigureData(options, layout);
    ASSERT_TRUE(big);
    EXPECT_LE(float(big->table.values->rows), layout.table.height);
    EXPECT_LE(float(big->cosine.values->rows), layout.cosine.height);
    EXPECT_LE(float(big->curves[0].x.size()), layout.curves.width);
    double mean = 0;
    for (std::size_t r = 0; r < std::size_t(big->positionsPerPoint); ++r)
        mean += (*options.table)(r, 2);
    EXPECT_NEAR(big->curves[0].y[0], mean / double(big->positionsPerPoint), 1e-12);
}

// Session 20's audit: at 1024x768 F5 (a 1008 x 552 figure area, fonts x 1.75) the three
// panels stayed on screen together, the heatmaps 130 px tall under two-line titles and the
// curves 90 px: too small for a projector, so they are shown one at a time there. The desktop's
// 1440x900 keeps the table and the similarity side by side above the curves.
TEST(LearnedFiguresTest, AProjectorShowsThePanelsOneAtATime) {
    EXPECT_TRUE(learnedPanels({0, 0, 1008, 552}, scaledTheme(darkTheme(), 1.75f)).oneAtATime());
    const PanelGrid desktop = learnedPanels({0, 0, 1046, 752}, darkTheme());
    EXPECT_FALSE(desktop.oneAtATime());
    EXPECT_EQ(desktop.columns, 2);
}

TEST(LearnedFiguresTest, InvalidOptions) {
    LearnedFigureOptions options;
    EXPECT_FALSE(validate(options));
    options.table = std::make_shared<const Matrix>(testTable(4, 4));
    options.curveCount = 9;
    EXPECT_EQ(validate(options).error().message, "curves must be 1..8 (got 9)");
    options.curveCount = 2;
    options.firstCurveDimension = 4;
    EXPECT_EQ(validate(options).error().message, "first_dimension must be 0..3 (got 4)");
}

TEST(LearnedFiguresTest, ZeroRowsAreMaskedAndCountedNotNaN) {
    // Failed before: padding rows (all zero, as real tables have) gave NaN cells drawn magenta
    // with nothing said. Now they are masked, the legend says "undefined" and a note counts them.
    auto table = std::make_shared<Matrix>(learnedTable(LearnedParams{}).value());
    for (std::size_t r : {0u, 5u, 6u}) {
        for (std::size_t c = 0; c < table->cols; ++c) (*table)(r, c) = 0;
    }
    LearnedFigureOptions options;
    options.table = table;
    const LearnedLayout layout = learnedLayout({0, 0, 1400, 900}, darkTheme());
    const LearnedFigureData data = computeLearnedFigureData(options, layout).value();
    EXPECT_EQ(data.undefinedCosineRows, 3);
    for (double v : data.cosine.values->values) EXPECT_FALSE(std::isnan(v));
    Figure figure = emptyFigure(1400, 900, paperTheme());
    drawLearnedFigure(figure, layout, options, data, paperTheme());
    EXPECT_TRUE(hasText(figure, "cosine undefined for zero rows: 3 rows"));
}

TEST(LearnedFiguresTest, TablesOfExtremeValuesDrawFiniteAxes) {
    // Failed before (hung): +-1.7e308 entries made the curves' range wider than the largest
    // double and the tick search never ended.
    auto table = std::make_shared<Matrix>(4, 3);
    table->values = {1.7e308, -1.7e308, 0, -1.7e308, 1.7e308, 1, 0, 0, 0, 5e-324, 1e154, -1e154};
    LearnedFigureOptions options;
    options.table = table;
    Figure figure = emptyFigure(1000, 700, paperTheme());
    ASSERT_TRUE(drawLearnedFigure(figure, {0, 0, 1000, 700}, options, paperTheme()));
    PlotFrame frame;
    const LearnedLayout layout = learnedLayout({0, 0, 1000, 700}, darkTheme());
    const LearnedFigureData data = computeLearnedFigureData(options, layout).value();
    LearnedFigureFrames frames;
    Figure again = emptyFigure(1000, 700, paperTheme());
    drawLearnedFigure(again, layout, options, data, paperTheme(), &frames);
    EXPECT_TRUE(std::isfinite(frames.curves.y.low) && std::isfinite(frames.curves.y.high));
    EXPECT_LT(frames.curves.y.low, -1.7e308);
    EXPECT_GT(frames.curves.y.high, 1.7e308);
    const Point top = frames.curves.toPixel(0, 1.7e308);
    EXPECT_TRUE(std::isfinite(top.y));
}

void expectSameTexels(const HeatmapSample& got, const HeatmapSample& expected) {
    ASSERT_TRUE(got.values && expected.values);
    EXPECT_EQ(got.window, expected.window);
    EXPECT_EQ(got.rowsPerTexel, expected.rowsPerTexel);
    EXPECT_EQ(got.colsPerTexel, expected.colsPerTexel);
    EXPECT_EQ(got.rowSpan, expected.rowSpan);
    EXPECT_EQ(got.colSpan, expected.colSpan);
    ASSERT_EQ(got.values->rows, expected.values->rows);
    ASSERT_EQ(got.values->cols, expected.values->cols);
    for (std::size_t k = 0; k < got.values->values.size(); ++k)
        ASSERT_EQ(got.values->values[k], expected.values->values[k]) << k;
}

TEST(LearnedFiguresTest, SeededTableDrawnWithoutTheTableGivesTheSameData) {
    // An odd d_model (pairs of normal values straddle rows), positions past the table, and a
    // small layout (blocks of rows and columns) as well as a large one (one texel per cell).
    LearnedParams params;
    params.seqLen = 701;
    params.dModel = 33;
    params.seed = 9;
    params.std = 0.3;
    for (Box area : {Box{0, 0, 1400, 900}, Box{0, 0, 300, 220}}) {
        for (int shown : {0, 900}) {
            LearnedFigureOptions options;
            options.table = std::make_shared<const Matrix>(learnedTable(params).value());
            options.positionsShown = shown;
            options.firstCurveDimension = 30;
            options.curveCount = 5;  // only dims 30..32 exist
            const LearnedLayout layout = learnedLayout(area, paperTheme());
            const LearnedFigureData expected = computeLearnedFigureData(options, layout).value();
            auto got = computeSeededLearnedFigureData(params, options, layout);
            ASSERT_TRUE(got) << got.error().message;
            SCOPED_TRACE("area " + std::to_string(area.width) + " shown " + std::to_string(shown));
            EXPECT_EQ(got->rowStride, 1);
            expectSameTexels(got->table, expected.table);
            // A cosine panel not shown (one panel at a time) has no texels in the table's data.
            if (layout.cosine.width > 0)
                expectSameTexels(got->cosine, expected.cosine);
            else
                EXPECT_FALSE(expected.cosine.values);
            EXPECT_EQ(got->tableRange.low, expected.tableRange.low);
            EXPECT_EQ(got->tableRange.high, expected.tableRange.high);
            EXPECT_EQ(got->positionsPerPoint, expected.positionsPerPoint);
            EXPECT_EQ(got->undefinedCosineRows, expected.undefinedCosineRows);
            ASSERT_EQ(got->curves.size(), 3u);
            for (std::size_t k = 0; k < 3; ++k) {
                EXPECT_EQ(got->curves[k].dimension, expected.curves[k].dimension);
                EXPECT_EQ(got->curves[k].x, expected.curves[k].x);
                EXPECT_EQ(got->curves[k].y, expected.curves[k].y);
            }
        }
    }
    // std 0: every value 0, every row without direction, the colour range +-1.
    params.std = 0;
    LearnedFigureOptions options;
    const LearnedLayout layout = learnedLayout({0, 0, 800, 600}, paperTheme());
    auto zero = computeSeededLearnedFigureData(params, options, layout);
    ASSERT_TRUE(zero);
    EXPECT_EQ(zero->undefinedCosineRows, 701);
    EXPECT_EQ(zero->tableRange.high, 1.0);
}

TEST(LearnedFiguresTest, HugeSeededTablesUseEveryStrideRowButExactRangeAndCurves) {
    // A value budget of 20000 for a 20000 x 9 table: every 9th row (and the first of each block)
    // is generated; the texels are the means of those rows, written out here from the whole
    // table; the colour range and the curves still cover every value.
    LearnedParams params;
    params.seqLen = 20000;
    params.dModel = 9;
    params.seed = 3;
    params.std = 1.5;
    const Matrix whole = learnedTable(params).value();
    LearnedFigureOptions options;
    options.table = std::make_shared<const Matrix>(whole);
    options.curveCount = 2;
    const LearnedLayout layout = learnedLayout({0, 0, 1400, 900}, paperTheme());
    const LearnedFigureData exact = computeLearnedFigureData(options, layout).value();
    auto got = computeSeededLearnedFigureData(params, options, layout, 20000);
    ASSERT_TRUE(got) << got.error().message;
    const long long stride = 9;  // ceil(20000 * 9 / 20000)
    EXPECT_EQ(got->rowStride, stride);
    const long long rowsPer = got->table.rowsPerTexel, colsPer = got->table.colsPerTexel;
    const long long cosinePer = got->cosine.rowsPerTexel;
    ASSERT_GT(rowsPer, stride);
    ASSERT_GT(cosinePer, stride);
    auto generated = [&](long long r) {
        return r % stride == 0 || r % rowsPer == 0 || r % cosinePer == 0;
    };
    const Matrix& texels = *got->table.values;
    for (std::size_t g = 0; g < texels.rows; ++g) {
        for (std::size_t k = 0; k < texels.cols; ++k) {
            double sum = 0;
            long long count = 0;
            for (long long r = (long long)g * rowsPer;
                 r < std::min(20000LL, (long long)(g + 1) * rowsPer); ++r) {
                if (!generated(r)) continue;
                for (long long c = (long long)k * colsPer;
                     c < std::min(9LL, (long long)(k + 1) * colsPer); ++c) {
                    sum += whole(std::size_t(r), std::size_t(c));
                    ++count;
                }
            }
            EXPECT_NEAR(texels(g, k), sum / double(count), 1e-12) << g << " " << k;
        }
    }
    // A cosine texel: the dot product of its blocks' mean unit rows (generated rows only).
    auto meanUnit = [&](long long block) {
        std::vector<double> mean(9, 0.0);
        long long count = 0;
        for (long long r = block * cosinePer; r < std::min(20000LL, (block + 1) * cosinePer); ++r) {
            if (!generated(r)) continue;
            double norm = 0;
            for (std::size_t c = 0; c < 9; ++c)
                norm += whole(std::size_t(r), c) * whole(std::size_t(r), c);
            for (std::size_t c = 0; c < 9; ++c)
                mean[c] += whole(std::size_t(r), c) / std::sqrt(norm);
            ++count;
        }
        for (double& v : mean) v /= double(count);
        return mean;
    };
    const std::vector<double> a = meanUnit(0), b = meanUnit(2);
    double dot = 0;
    for (std::size_t c = 0; c < 9; ++c) dot += a[c] * b[c];
    EXPECT_NEAR((*got->cosine.values)(0, 2), dot, 1e-12);
    // Exact over every value: the range (largest |value| of the whole table) and the curves.
    double largest = 0;
    for (double v : whole.values) largest = std::max(largest, std::abs(v));
    EXPECT_EQ(got->tableRange.high, largest);
    EXPECT_EQ(got->tableRange.low, -largest);
    ASSERT_EQ(got->curves.size(), exact.curves.size());
    for (std::size_t k = 0; k < exact.curves.size(); ++k)
        EXPECT_EQ(got->curves[k].y, exact.curves[k].y);
    // The figure says that positions were sampled.
    options.positionsShown = 20000;
    Figure figure = emptyFigure(1400, 900, paperTheme());
    drawLearnedFigure(figure, layout, options, *got, paperTheme());
    EXPECT_TRUE(hasText(figure, "1 in 9 positions"));
}

}  // namespace
TEST(LearnedFiguresTest, CoarseDataAreMeansOfEveryStrideRowAtTheTablesPositions) {
    // table(r, c) = r: a texel of rows [g a, g a + a) over every 8th row (a a multiple of 8)
    // has the mean g a + (a - 8) / 2 (the exact one: g a + (a - 1) / 2).
    Matrix table(4096, 8);
    for (std::size_t r = 0; r < table.rows; ++r)
        for (std::size_t c = 0; c < table.cols; ++c) table(r, c) = double(r);
    LearnedFigureOptions options;
    options.table = std::make_shared<const Matrix>(table);
    options.positionsShown = 5000;  // past the end: the table fills 4096 / 5000 of the axis
    const LearnedLayout layout = learnedLayout({0, 0, 1400, 900}, darkTheme());
    auto coarse = computeCoarseLearnedFigureData(options, layout, 4096);  // 512 rows of 8
    ASSERT_TRUE(coarse);
    EXPECT_EQ(coarse->rowStride, 8);
    EXPECT_EQ(coarse->tableRows, 4096u);
    const HeatmapSample& t = coarse->table;
    EXPECT_EQ(t.window.rowCount, 4096);
    ASSERT_EQ(t.rowsPerTexel % 8, 0);
    const long long a = t.rowsPerTexel;
    EXPECT_GE(t.rowSpan, 4096.0);
    EXPECT_LT(t.rowSpan, 4096.0 + double(a));
    for (std::size_t g = 0; g + 1 < t.values->rows; ++g)
        EXPECT_DOUBLE_EQ((*t.values)(g, 0), double(g) * double(a) + double(a - 8) / 2) << g;
    EXPECT_EQ(coarse->cosine.window.rowCount, 4096);
    EXPECT_EQ(coarse->cosine.rowsPerTexel % 8, 0);
    for (const LearnedCurve& curve : coarse->curves) {
        ASSERT_FALSE(curve.x.empty());
        EXPECT_GE(curve.x.front(), 0.0);
        EXPECT_LT(curve.x.back(), 4096.0);
        for (std::size_t i = 0; i < curve.x.size(); ++i)  // value = position, to the stride
            EXPECT_NEAR(curve.y[i], curve.x[i], 8.0) << i;
    }
    // A table within the budget that fills the view: stride 1, the exact table texels (past
    // the end the coarse texel budgets are the whole axis's, so that they stay put).
    options.positionsShown = 4096;
    auto exact = computeLearnedFigureData(options, layout);
    auto whole = computeCoarseLearnedFigureData(options, layout, 4096 * 8);
    ASSERT_TRUE(exact);
    ASSERT_TRUE(whole);
    EXPECT_EQ(whole->rowStride, 1);
    EXPECT_EQ(whole->table.values->values, exact->table.values->values);
}

}  // namespace poslab

namespace poslab {
namespace {

TEST(LearnedFiguresTest, CoarseDataPastTheTablesEndDependOnTheVisibleRowsOnly) {
    // The GUI keeps the coarse data while only positionsShown past the end moves: that is valid
    // when they are the same values for every such positionsShown.
    Matrix table(4096, 8);
    for (std::size_t r = 0; r < table.rows; ++r)
        for (std::size_t c = 0; c < table.cols; ++c)
            table(r, c) = std::sin(0.01 * double(r * (c + 1)));
    LearnedFigureOptions options;
    options.table = std::make_shared<const Matrix>(table);
    const LearnedLayout layout = learnedLayout({0, 0, 1400, 900}, darkTheme());
    options.positionsShown = 5000;
    auto a = computeCoarseLearnedFigureData(options, layout, 4096);
    options.positionsShown = 9000;
    auto b = computeCoarseLearnedFigureData(options, layout, 4096);
    ASSERT_TRUE(a);
    ASSERT_TRUE(b);
    EXPECT_EQ(a->table.values->values, b->table.values->values);
    EXPECT_EQ(a->cosine.values->values, b->cosine.values->values);
    EXPECT_EQ(a->table.rowSpan, b->table.rowSpan);
    EXPECT_EQ(a->cosine.rowSpan, b->cosine.rowSpan);
    ASSERT_EQ(a->curves.size(), b->curves.size());
    for (std::size_t k = 0; k < a->curves.size(); ++k) EXPECT_EQ(a->curves[k].y, b->curves[k].y);
}

TEST(LearnedFiguresTest, CoarseCosineHasFewTexelsThatAreMeansOfStridedRowCosines) {
    // Rows alternate between two orthogonal directions every 64 rows of the table (stride 8:
    // 8 strided rows each); the cosine of two rows is 1 for the same direction, 0 otherwise.
    // Texels of 8 strided rows (64 positions) lie within one band each: exactly 1 or 0.
    Matrix table(4096, 8, 0.0);
    for (std::size_t r = 0; r < table.rows; ++r) table(r, (r / 64) % 2) = 2.0;
    LearnedFigureOptions options;
    options.table = std::make_shared<const Matrix>(table);
    options.positionsShown = 4096;
    const LearnedLayout layout = learnedLayout({0, 0, 1400, 900}, darkTheme());
    auto coarse = computeCoarseLearnedFigureData(options, layout, 4096);  // stride 8: 512 rows
    ASSERT_TRUE(coarse);
    const HeatmapSample& cosine = coarse->cosine;
    ASSERT_LE(cosine.values->rows, std::size_t(kLearnedCoarseCosineTexels));
    ASSERT_EQ(cosine.rowsPerTexel, 64);  // 512 strided rows in 64 texels of 8, times 8
    EXPECT_EQ(cosine.rowSpan, 4096.0);
    for (std::size_t u = 0; u < cosine.values->rows; ++u)
        for (std::size_t v = 0; v < cosine.values->cols; ++v)
            EXPECT_NEAR((*cosine.values)(u, v), u % 2 == v % 2 ? 1.0 : 0.0, 1e-12) << u << "," << v;
}

}  // namespace
}  // namespace poslab

namespace poslab {
namespace {

TEST(LearnedFiguresTest, NoCosineTexelsForAPanelThatIsNotShown) {
    Matrix table(64, 4, 1.0);
    LearnedFigureOptions options;
    options.table = std::make_shared<const Matrix>(table);
    LearnedLayout layout = learnedLayout({0, 0, 1400, 900}, darkTheme());
    auto shown = computeLearnedFigureData(options, layout);
    layout.cosine = {};
    auto hidden = computeLearnedFigureData(options, layout);
    ASSERT_TRUE(shown);
    ASSERT_TRUE(hidden);
    ASSERT_TRUE(shown->cosine.values);
    EXPECT_DOUBLE_EQ((*shown->cosine.values)(0, 0), 1.0);  // equal rows: cosine 1
    EXPECT_FALSE(hidden->cosine.values);
    EXPECT_EQ(hidden->table.values->values, shown->table.values->values);
}

// The curves' segments: the LineItems in the curves panel (below the two heatmaps).
std::vector<float> curveSegmentWidths(const Figure& figure, const LearnedLayout& layout) {
    std::vector<float> widths;
    for (const FigureItem& item : figure.items) {
        const auto* line = std::get_if<LineItem>(&item);
        if (line && line->from.y > layout.curves.y && line->to.y > layout.curves.y &&
            line->from.x != line->to.x && line->from.y != line->to.y)
            widths.push_back(line->width);
    }
    return widths;
}

TEST(LearnedFiguresTest, CoarseCurvesAreOneWholePixelWideTheExactOnesOneAndAHalf) {
    // A whole width is ImGui's textured line (2 triangles a segment instead of 6): the coarse
    // figure, drawn every frame while the slider moves, uses it; the settled one is unchanged.
    Matrix table(4096, 8);
    for (std::size_t r = 0; r < table.rows; ++r)
        for (std::size_t c = 0; c < table.cols; ++c)
            table(r, c) = ((r / 8) % 2 ? 1.0 : -1.0) * double(c + 1);
    LearnedFigureOptions options;
    options.table = std::make_shared<const Matrix>(table);
    options.positionsShown = 4096;
    const LearnedLayout layout = learnedLayout({0, 0, 1400, 900}, darkTheme());
    auto coarse = computeCoarseLearnedFigureData(options, layout, 4096);  // stride 8
    auto exact = computeLearnedFigureData(options, layout);
    ASSERT_TRUE(coarse);
    ASSERT_TRUE(exact);
    ASSERT_GT(coarse->rowStride, 1);
    Figure coarseFigure = emptyFigure(1400, 900, darkTheme());
    drawLearnedFigure(coarseFigure, layout, options, *coarse, darkTheme());
    Figure exactFigure = emptyFigure(1400, 900, darkTheme());
    drawLearnedFigure(exactFigure, layout, options, *exact, darkTheme());
    const std::vector<float> coarseWidths = curveSegmentWidths(coarseFigure, layout);
    const std::vector<float> exactWidths = curveSegmentWidths(exactFigure, layout);
    ASSERT_FALSE(coarseWidths.empty());
    ASSERT_FALSE(exactWidths.empty());
    for (float w : coarseWidths) EXPECT_EQ(w, 1.0f);
    for (float w : exactWidths) EXPECT_EQ(w, 1.5f);
}

}  // namespace
}  // namespace poslab
