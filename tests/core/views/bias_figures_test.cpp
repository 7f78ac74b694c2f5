#include "poslab/views/bias_figures.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "poslab/encodings/learned.hpp"

namespace poslab {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<std::string> texts(const Figure& figure) {
    std::vector<std::string> out;
    for (const FigureItem& item : figure.items) {
        if (auto* text = std::get_if<TextItem>(&item)) out.push_back(text->text);
    }
    return out;
}

bool hasText(const Figure& figure, const std::string& fragment) {
    for (const std::string& t : texts(figure)) {
        if (t.find(fragment) != std::string::npos) return true;
    }
    return false;
}

int heatmapCount(const Figure& figure) {
    int count = 0;
    for (const FigureItem& item : figure.items) count += std::holds_alternative<HeatmapItem>(item);
    return count;
}

// Offsets -(L-1)..L-1 of a function of d = j - i.
template <class F>
std::vector<double> byOffset(int length, F value) {
    std::vector<double> out;
    for (int d = -(length - 1); d <= length - 1; ++d) out.push_back(value(d));
    return out;
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
    const Matrix& m = *sample.values;
    for (std::size_t tr = 0; tr < m.rows; ++tr) {
        for (std::size_t tc = 0; tc < m.cols; ++tc) {
            double sum = 0;
            int cells = 0;
            for (int i = 7 + int(tr) * 7; i < std::min(47, 7 + int(tr + 1) * 7); ++i) {
                for (int j = 2 + int(tc) * 7; j < std::min(47, 2 + int(tc + 1) * 7); ++j) {
                    const double v = value(j - i);
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

// ---- ALiBi

TEST(AlibiFiguresTest, SlopeText) {
    EXPECT_EQ(alibiSlopeText(0.5), "1/2");
    EXPECT_EQ(alibiSlopeText(1.0 / 256), "1/256");
    EXPECT_EQ(alibiSlopeText(std::exp2(-0.5)), "2^-0.5");
    EXPECT_EQ(alibiSlopeText(std::exp2(-1.0 / 16)), "2^-0.0625");
    EXPECT_EQ(alibiSlopeText(0.3), "0.3");
}

TEST(AlibiFiguresTest, GridShowsEverySlopeOfThePaper) {
    AlibiFigureOptions options;  // 8 heads, causal
    Figure figure = emptyFigure(1400, 900, paperTheme());
    ASSERT_TRUE(drawAlibiFigure(figure, {0, 0, 1400, 900}, options, paperTheme()));
    // Written out whole: GCC 12 warns (-Wrestrict, falsely) on string concatenation here.
    const char* expected[] = {"h0  m=1/2",  "h1  m=1/4",  "h2  m=1/8",   "h3  m=1/16",
                              "h4  m=1/32", "h5  m=1/64", "h6  m=1/128", "h7  m=1/256"};
    for (const char* title : expected) EXPECT_TRUE(hasText(figure, title)) << title;
    EXPECT_TRUE(hasText(figure, "masked"));  // causal: a legend for the masked colour
    EXPECT_TRUE(hasText(figure, "Head 0: m = 1/2"));
    // 8 heads + enlarged + attention + colour bars (grid, enlarged, attention).
    EXPECT_EQ(heatmapCount(figure), 8 + 2 + 3);

    options.symmetric = true;
    Figure symmetric = emptyFigure(1400, 900, paperTheme());
    ASSERT_TRUE(drawAlibiFigure(symmetric, {0, 0, 1400, 900}, options, paperTheme()));
    EXPECT_FALSE(hasText(symmetric, "masked"));
}

TEST(AlibiFiguresTest, GridCellsAreSquareAndInsideTheGrid) {
    for (int heads : {1, 3, 8, 12, 32, 128}) {
        AlibiFigureOptions options;
        options.heads = heads;
        const AlibiLayout layout = alibiLayout({0, 0, 1100, 820}, options, darkTheme());
        ASSERT_EQ(layout.cells.size(), std::size_t(heads));
        for (const Box& c : layout.cells) {
            EXPECT_EQ(c.width, c.height);
            EXPECT_GE(c.width, 8);
            EXPECT_GE(c.x, layout.grid.x);
            EXPECT_LE(c.right(), layout.colorbar.x);
            EXPECT_LE(c.bottom(), layout.grid.bottom());
        }
    }
}

TEST(AlibiFiguresTest, AttentionPreviewIsTheSoftmaxOfTheBias) {
    AlibiFigureOptions options;
    options.heads = 4;  // slopes 2^-2, 2^-4, 2^-6, 2^-8
    options.seqLen = 12;
    options.queryIndex = 7;
    const AlibiLayout layout = alibiLayout({0, 0, 1400, 900}, options, darkTheme());
    auto data = computeAlibiFigureData(options, layout);
    ASSERT_TRUE(data);
    const Matrix& weights = *data->attention.values;
    ASSERT_EQ(weights.rows, 4u);
    ASSERT_EQ(weights.cols, 12u);
    for (int h = 0; h < 4; ++h) {
        const double m = std::exp2(-2.0 * (h + 1));
        double total = 0;
        for (int j = 0; j <= 7; ++j) total += std::exp(-m * (7 - j));
        for (int j = 0; j < 12; ++j) {
            if (j > 7) {
                EXPECT_EQ(weights(h, j), -kInf) << "future keys are masked";
            } else {
                EXPECT_NEAR(weights(h, j), std::exp(-m * (7 - j)) / total, 1e-14);
            }
        }
    }
    // The steepest head prefers the most recent key the most.
    EXPECT_GT(weights(0, 7), weights(3, 7));
    EXPECT_NEAR(data->attentionMax, weights(0, 7), 1e-15);
}

TEST(AlibiFiguresTest, ContentLogitsAreScaledSeededNormals) {
    EXPECT_TRUE(alibiContentLogits(10, 0, 3).empty());
    const std::vector<double> logits = alibiContentLogits(5, 2.5, 3);
    NormalSampler sampler(3);
    ASSERT_EQ(logits.size(), 5u);
    for (double v : logits) EXPECT_EQ(v, 2.5 * sampler.next());
}

TEST(AlibiFiguresTest, PreviewWindowEndsAtTheQuery) {
    AlibiFigureOptions options;
    options.seqLen = 100;
    options.queryIndex = 50;
    options.previewKeys = 10;
    CellWindow w = alibiPreviewWindow(options);
    EXPECT_EQ(w.firstCol, 41);
    EXPECT_EQ(w.colCount, 10);
    options.symmetric = true;
    w = alibiPreviewWindow(options);
    EXPECT_EQ(w.firstCol, 45);
    options.queryIndex = 2;
    EXPECT_EQ(alibiPreviewWindow(options).firstCol, 0);
    options.previewKeys = 0;
    EXPECT_EQ(alibiPreviewWindow(options).colCount, 100);
}

TEST(AlibiFiguresTest, LongSequencesStayWithinThePixels) {
    AlibiFigureOptions options;
    options.heads = 128;
    options.seqLen = 65536;
    options.enlargedHead = 5;
    const AlibiLayout layout = alibiLayout({0, 0, 1200, 800}, options, darkTheme());
    auto data = computeAlibiFigureData(options, layout);
    ASSERT_TRUE(data);
    EXPECT_EQ(data->heads.size(), 128u);
    EXPECT_LE(float(data->heads[0].values->cols), layout.cells[0].width);
    EXPECT_LE(float(data->enlarged.values->cols), layout.enlarged.width);
    EXPECT_LE(float(data->attention.values->cols), layout.attention.width);
    EXPECT_LE(float(data->attention.values->rows), layout.attention.height);
}

TEST(AlibiFiguresTest, InvalidOptionsAreRefused) {
    AlibiFigureOptions options;
    options.heads = 0;
    Figure figure;
    EXPECT_EQ(drawAlibiFigure(figure, {0, 0, 800, 600}, options, darkTheme()).error().message,
              "heads must be 1..128 (got 0)");
    options.heads = 8;
    options.enlargedHead = 8;
    EXPECT_EQ(validate(options).error().message, "head must be 0..7 (got 8)");
    options.enlargedHead = 0;
    options.queryIndex = 32;
    EXPECT_EQ(validate(options).error().message, "query must be 0..31 (got 32)");
}

// ---- T5

TEST(T5FiguresTest, BucketTexelsAreHuggingFaceBuckets) {
    // 32 buckets, max_distance 128, bidirectional: keys 16, 32, 64 before the query are buckets
    // 10, 12, 14; after it 26, 28, 30 (log(2^k)/log(16) * 8 is exactly 2k in float32).
    T5FigureOptions options;
    options.params = {100, 32, 128, true};
    const T5Layout layout = t5Layout({0, 0, 2600, 1800}, darkTheme());
    auto data = computeT5FigureData(options, layout);
    ASSERT_TRUE(data);
    const Matrix& ids = *data->buckets.values;
    ASSERT_EQ(ids.rows, 100u);  // one texel per cell at this size
    EXPECT_EQ(ids(80, 64), 10);
    EXPECT_EQ(ids(80, 48), 12);
    EXPECT_EQ(ids(80, 16), 14);
    EXPECT_EQ(ids(0, 16), 26);
    EXPECT_EQ(ids(0, 32), 28);
    EXPECT_EQ(ids(0, 64), 30);
    EXPECT_EQ(ids(5, 5), 0);
    EXPECT_EQ(ids(0, 1), 17);  // the first bucket after the query: n + 1
    // The bias matrix reads each cell's bucket value.
    const Matrix& bias = *data->bias.values;
    EXPECT_EQ(bias(80, 64), data->biases[10]);
    EXPECT_EQ(bias(0, 64), data->biases[30]);
    EXPECT_EQ(data->biases, seededBucketBiases(32, 0));
}

TEST(T5FiguresTest, RangeTexts) {
    // Bucket 10 holds distances d with floor(log(d/8)/log(16) * 8) = 2: d/8 in [2, 2^1.5),
    // so d = 16..22. Bucket 15, the last before the query, starts at 8 * 16^(7/8) = 90.5.
    T5Params p{64, 32, 128, true};
    std::vector<std::string> expected(32);
    for (const BucketRange& r : t5BucketRanges(p)) expected[std::size_t(r.bucket)] = t5RangeText(r);
    EXPECT_EQ(expected[0], "0");
    EXPECT_EQ(expected[3], "-3");
    EXPECT_EQ(expected[10], "-22..-16");
    EXPECT_EQ(expected[15], "-inf..-91");
    EXPECT_EQ(expected[26], "16..22");
    EXPECT_EQ(expected[31], "91..+inf");
    EXPECT_EQ(expected[16], "");  // bucket n: no key after the query has distance 0
}

TEST(T5FiguresTest, EditedBiasesAreDrawn) {
    T5FigureOptions options;
    options.params = {20, 8, 16, false};
    options.bucketBiases = {0, 1, 2, 3, 4, 5, 6, 7};
    const T5Layout layout = t5Layout({0, 0, 1600, 1000}, darkTheme());
    auto data = computeT5FigureData(options, layout);
    ASSERT_TRUE(data);
    const Matrix& bias = *data->bias.values;
    // Decoder buckets: every future key in bucket 0; distance d < 4 is bucket d.
    EXPECT_EQ(bias(3, 10), 0);
    EXPECT_EQ(bias(5, 2), 3);
    EXPECT_EQ(data->biasRange.high, 7);
    options.bucketBiases = {1, 2};
    EXPECT_FALSE(validate(options));
    options.bucketBiases = {0, 1, 2, 3, 4, 5, 6, kInf};
    EXPECT_EQ(validate(options).error().message, "bucket bias 7 must be a finite number (got inf)");
}

TEST(T5FiguresTest, FigureHasEveryPart) {
    T5FigureOptions options;
    Figure figure = emptyFigure(1400, 900, paperTheme());
    ASSERT_TRUE(drawT5Figure(figure, {0, 0, 1400, 900}, options, paperTheme()));
    EXPECT_TRUE(hasText(figure, "Bucket of j - i (32 buckets, max_distance 128)"));
    EXPECT_TRUE(hasText(figure, "bidirectional"));
    EXPECT_TRUE(hasText(figure, "bucket id"));
    EXPECT_TRUE(hasText(figure, "max_distance"));
    EXPECT_TRUE(hasText(figure, "exact below 8"));
    EXPECT_TRUE(hasText(figure, "seed 0"));
    // Bucket ids, legend strip, bias matrix and its colour bar.
    EXPECT_EQ(heatmapCount(figure), 4);

    options.params.numBuckets = 3;
    EXPECT_EQ(drawT5Figure(figure, {0, 0, 1400, 900}, options, paperTheme()).error().message,
              "num_buckets must be 4..1024 when bidirectional (got 3)");
}

TEST(T5FiguresTest, HugeLengthsNeedNoMatrix) {
    // 1048576^2 doubles would be 8 TiB; the figure samples texels from offsets instead.
    T5FigureOptions options;
    options.params = {1 << 20, 32, 128, true};
    const T5Layout layout = t5Layout({0, 0, 1200, 800}, darkTheme());
    auto data = computeT5FigureData(options, layout);
    ASSERT_TRUE(data);
    EXPECT_LE(float(data->buckets.values->cols), layout.buckets.width);
    EXPECT_LE(float(data->bias.values->rows), layout.bias.height);
}

}  // namespace
}  // namespace poslab
