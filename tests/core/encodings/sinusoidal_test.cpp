#include "poslab/encodings/sinusoidal.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace poslab {
namespace {

// The reference formula written out independently of the library, one cell at a time.
double paperValue(int position, int column, int d, double base) {
    const int i = column / 2;
    const double angle = position / std::pow(base, 2.0 * i / d);
    return column % 2 == 0 ? std::sin(angle) : std::cos(angle);
}

SinusoidalParams sinusoidalParams(int d, int length,
                                  SinusoidalLayout layout = SinusoidalLayout::Interleaved,
                                  double base = 10000) {
    SinusoidalParams p;
    p.dModel = d;
    p.seqLen = length;
    p.base = base;
    p.layout = layout;
    return p;
}

TEST(SinusoidalTest, PublishedValuesForDModel4) {
    // The worked example in the seed explainer (and the Annotated Transformer), 3 decimals.
    auto table = sinusoidalTable(sinusoidalParams(4, 3));
    ASSERT_TRUE(table.ok());
    const double expected[3][4] = {{0.000, 1.000, 0.000, 1.000},
                                   {0.841, 0.540, 0.010, 1.000},
                                   {0.909, -0.416, 0.020, 1.000}};
    for (int p = 0; p < 3; ++p)
        for (int c = 0; c < 4; ++c) EXPECT_NEAR((*table)(p, c), expected[p][c], 5e-4) << p << "," << c;
}

TEST(SinusoidalTest, InterleavedMatchesPaperFormulaEverywhere) {
    for (int d : {1, 2, 3, 7, 64, 129}) {
        for (double base : {10000.0, 1.5, 500000.0}) {
            auto table =
                sinusoidalTable(sinusoidalParams(d, 300, SinusoidalLayout::Interleaved, base));
            ASSERT_TRUE(table.ok());
            for (int p = 0; p < 300; ++p)
                for (int c = 0; c < d; ++c)
                    ASSERT_NEAR((*table)(p, c), paperValue(p, c, d, base), 1e-12)
                        << "d=" << d << " p=" << p << " c=" << c;
        }
    }
}

TEST(SinusoidalTest, LongTablesStayAccurate) {
    auto table = sinusoidalTable(sinusoidalParams(16, 70000));
    ASSERT_TRUE(table.ok());
    for (int p : {0, 31, 32, 33, 4095, 65535, 69999})
        for (int c = 0; c < 16; ++c) EXPECT_NEAR((*table)(p, c), paperValue(p, c, 16, 10000), 1e-11);
}

TEST(SinusoidalTest, ConcatMatchesHuggingFaceSentinelLayout) {
    // HF Marian/RoFormer: angle[p][j] = p / 10000^(2*(j//2)/dim); sentinel = ceil(dim/2);
    // out[:, :sentinel] = sin(angle[:, 0::2]); out[:, sentinel:] = cos(angle[:, 1::2]).
    for (int d : {4, 5, 10, 11}) {
        auto table = sinusoidalTable(sinusoidalParams(d, 50, SinusoidalLayout::Concat));
        ASSERT_TRUE(table.ok());
        const int sentinel = d % 2 == 0 ? d / 2 : d / 2 + 1;
        for (int p = 0; p < 50; ++p) {
            int column = 0;
            for (int j = 0; j < d; j += 2, ++column) {
                EXPECT_NEAR((*table)(p, column), std::sin(p / std::pow(10000.0, 2.0 * (j / 2) / d)), 1e-12);
            }
            EXPECT_EQ(column, sentinel);
            for (int j = 1; j < d; j += 2, ++column) {
                EXPECT_NEAR((*table)(p, column), std::cos(p / std::pow(10000.0, 2.0 * (j / 2) / d)), 1e-12);
            }
            EXPECT_EQ(column, d);
        }
    }
}

TEST(SinusoidalTest, Tensor2TensorMatchesGetTimingSignal1d) {
    // get_timing_signal_1d(length, channels, 1.0, 1.0e4): n = channels // 2 timescales,
    // log_increment = log(1e4) / max(n - 1, 1), inv_k = exp(-k * log_increment),
    // signal = [sin(p * inv) | cos(p * inv)], padded with channels % 2 zero columns.
    for (int d : {1, 2, 3, 8, 9}) {
        auto table = sinusoidalTable(sinusoidalParams(d, 40, SinusoidalLayout::Tensor2Tensor));
        ASSERT_TRUE(table.ok());
        const int n = d / 2;
        const double increment = std::log(1.0e4) / std::max(n - 1, 1);
        for (int p = 0; p < 40; ++p) {
            for (int k = 0; k < n; ++k) {
                const double inv = std::exp(-k * increment);
                EXPECT_NEAR((*table)(p, k), std::sin(p * inv), 1e-12);
                EXPECT_NEAR((*table)(p, n + k), std::cos(p * inv), 1e-12);
            }
            if (d % 2 == 1) {
                EXPECT_EQ((*table)(p, d - 1), 0.0);
            }
        }
    }
}

TEST(SinusoidalTest, Tensor2TensorIsNotThePaperFormula) {
    auto t2t = sinusoidalTable(sinusoidalParams(8, 10, SinusoidalLayout::Tensor2Tensor));
    auto concat = sinusoidalTable(sinusoidalParams(8, 10, SinusoidalLayout::Concat));
    // Slowest t2t timescale is exactly base; the paper's slowest is base^(6/8).
    EXPECT_NEAR((*t2t)(5, 3), std::sin(5 / 10000.0), 1e-15);
    EXPECT_GT(std::abs((*t2t)(5, 3) - (*concat)(5, 3)), 1e-3);
}

TEST(SinusoidalTest, InterleavedRowsHaveSquaredNormHalfD) {
    auto table = sinusoidalTable(sinusoidalParams(128, 1000));
    for (int p = 0; p < 1000; ++p) {
        double norm = 0;
        for (int c = 0; c < 128; ++c) norm += (*table)(p, c) * (*table)(p, c);
        EXPECT_NEAR(norm, 64.0, 1e-10);
    }
}

TEST(SinusoidalTest, ShiftIsALinearMapIndependentOfPosition) {
    // PE(p + k) = T_k PE(p), T_k block-diagonal with 2x2 rotations [[cos, sin], [-sin, cos]](w_i k).
    const int d = 16, k = 7;
    auto table = sinusoidalTable(sinusoidalParams(d, 200));
    for (int p = 0; p + k < 200; ++p) {
        for (int i = 0; i < d / 2; ++i) {
            const double w = 1.0 / std::pow(10000.0, 2.0 * i / d);
            const double s = (*table)(p, 2 * i), c = (*table)(p, 2 * i + 1);
            EXPECT_NEAR((*table)(p + k, 2 * i), std::cos(w * k) * s + std::sin(w * k) * c, 1e-12);
            EXPECT_NEAR((*table)(p + k, 2 * i + 1), -std::sin(w * k) * s + std::cos(w * k) * c, 1e-12);
        }
    }
}

TEST(SinusoidalTest, EveryCellOfALongTableMatchesThePaperFormula) {
    // Rows inside a generator chunk come from rotation tables built partly by angle addition;
    // every one of them must still be the formula to round-off, at every position and column.
    const int d = 130, length = 3000;
    const double base = 5000;
    auto table = sinusoidalTable(sinusoidalParams(d, length, SinusoidalLayout::Interleaved, base));
    ASSERT_TRUE(table);
    double worst = 0;
    for (int p = 0; p < length; ++p) {
        for (int c = 0; c < d; ++c) {
            worst = std::max(worst, std::abs((*table)(p, c) - paperValue(p, c, d, base)));
        }
    }
    EXPECT_LT(worst, 1e-12);
}

TEST(SinusoidalTest, BlockMeansAverageTheExactRows) {
    for (auto layout : {SinusoidalLayout::Interleaved, SinusoidalLayout::Concat,
                        SinusoidalLayout::Tensor2Tensor}) {
        const auto p = sinusoidalParams(9, 1, layout);
        const int span = 13, blocks = 70, first = 5;
        Matrix means = sinusoidalBlockMeans(p, first, span, blocks);
        for (int r = 0; r < blocks; ++r) {
            for (int c = 0; c < 9; ++c) {
                double sum = 0;
                for (int q = 0; q < span; ++q) sum += sinusoidalValue(p, first + r * span + q, c);
                ASSERT_NEAR(means(r, c), sum / span, 1e-12) << r << "," << c;
            }
        }
    }
}

TEST(SinusoidalTest, OneGeneratorServesManyChunks) {
    // Streaming export reuses one generator for every chunk, in any order, with reused memory.
    for (auto layout : {SinusoidalLayout::Interleaved, SinusoidalLayout::Concat,
                        SinusoidalLayout::Tensor2Tensor}) {
        const auto p = sinusoidalParams(11, 1, layout);
        const SinusoidalBlockGenerator generator(p, 1);
        Matrix chunk;
        for (long long first : {1000LL, 0LL, 37LL, 123456LL}) {
            generator.fill(chunk, first, 45);  // more rows than one rotation table covers
            ASSERT_EQ(chunk.rows, 45u);
            for (int r = 0; r < 45; ++r) {
                for (int c = 0; c < 11; ++c) {
                    ASSERT_NEAR(chunk(r, c), sinusoidalValue(p, double(first + r), c), 1e-9)
                        << first << " " << r << "," << c;
                }
            }
        }
    }
}

// A generator made for few blocks (a sample's short last block: one) builds only their rotations
// and fills those blocks with the means of the paper's rows; asked for more, it fills no more.
TEST(SinusoidalTest, GeneratorForFewBlocksFillsThoseBlocks) {
    for (auto layout : {SinusoidalLayout::Interleaved, SinusoidalLayout::Concat}) {
        const auto p = sinusoidalParams(64, 1, layout);
        for (int made : {1, 3}) {
            const int span = 7;
            const SinusoidalBlockGenerator generator(p, span, 0, -1, made);
            Matrix chunk;
            generator.fill(chunk, 1001, made);
            ASSERT_EQ(chunk.rows, std::size_t(made));
            for (int r = 0; r < made; ++r) {
                for (int c = 0; c < 64; ++c) {
                    double sum = 0;
                    for (int q = 0; q < span; ++q)
                        sum += sinusoidalValue(p, double(1001 + r * span + q), c);
                    ASSERT_NEAR(chunk(r, c), sum / span, 1e-12) << made << " " << r << "," << c;
                }
            }
            generator.fill(chunk, 0, made + 5);
            EXPECT_EQ(chunk.rows, std::size_t(made));
        }
    }
}

// Mean of the paper's cells over rows [row0, row0+rows) and columns [col0, col0+cols).
double paperMean(long long row0, long long rows, int col0, int cols, int d, double base) {
    double sum = 0;
    for (long long r = row0; r < row0 + rows; ++r) {
        for (int c = col0; c < col0 + cols; ++c) sum += paperValue(int(r), c, d, base);
    }
    return sum / double(rows * cols);
}

TEST(SinusoidalTest, ZoomedSampleTexelsAreMeansOfTheCellsUnderThem) {
    const auto p = sinusoidalParams(37, 100000);
    const CellWindow window{1234, 5000, 5, 23};
    const HeatmapSample sample = sinusoidalSample(p, window, 40, 6);
    ASSERT_EQ(sample.rowsPerTexel, 125);  // ceil(5000 / 40)
    ASSERT_EQ(sample.colsPerTexel, 4);    // ceil(23 / 6)
    ASSERT_EQ(sample.values->rows, 40u);
    ASSERT_EQ(sample.values->cols, 6u);  // the last group holds the remaining 3 columns
    for (int r = 0; r < 40; ++r) {
        for (int g = 0; g < 6; ++g) {
            const int col0 = 5 + 4 * g, cols = std::min(4, 5 + 23 - col0);
            ASSERT_NEAR((*sample.values)(r, g), paperMean(1234 + 125LL * r, 125, col0, cols, 37, 10000), 1e-9)
                << r << "," << g;
        }
    }
}

TEST(SinusoidalTest, MillionPositionSampleStaysSmallAndExact) {
    // 1,048,576 x 4096 cells (32 GiB as doubles) summarised into a 500 x 900-pixel plot.
    const auto p = sinusoidalParams(4096, 1 << 20);
    const HeatmapSample sample = sinusoidalSample(p, {}, 500, 900);
    ASSERT_EQ(sample.rowsPerTexel, 2098);  // ceil(1048576 / 500)
    ASSERT_EQ(sample.colsPerTexel, 5);     // ceil(4096 / 900)
    ASSERT_EQ(sample.values->rows, 500u);
    ASSERT_EQ(sample.values->cols, 820u);
    for (double v : sample.values->values) ASSERT_TRUE(std::isfinite(v));
    for (auto [r, g] : {std::pair{0, 0}, std::pair{250, 3}, std::pair{499, 819}, std::pair{17, 600}}) {
        const long long row0 = 2098LL * r;
        const long long rows = std::min<long long>(2098, (1 << 20) - row0);
        const int col0 = 5 * g, cols = std::min(5, 4096 - col0);
        EXPECT_NEAR((*sample.values)(r, g), paperMean(row0, rows, col0, cols, 4096, 10000), 1e-9)
            << r << "," << g;
    }
}

TEST(SinusoidalTest, ColumnWindowsGiveTheMeansOfTheWholeTablesCells) {
    // Zoomed in on some columns, only their frequencies are computed: odd starts that split an
    // interleaved pair, windows across the sin|cos halves, the lone sine and t2t's zero pad. Each
    // texel against the full table (checked against the reference formulas above) averaged.
    for (SinusoidalLayout layout : {SinusoidalLayout::Interleaved, SinusoidalLayout::Concat,
                                    SinusoidalLayout::Tensor2Tensor}) {
        for (int d : {1, 2, 7, 8, 33}) {
            const int length = 300;
            const auto p = sinusoidalParams(d, length, layout);
            const Matrix table = sinusoidalTable(p).value();
            for (CellWindow window :
                 {CellWindow{0, length, 0, d}, CellWindow{5, 200, 1, 1},
                  CellWindow{17, 250, d / 2 - 1, 3}, CellWindow{3, 290, d - 1, 1},
                  CellWindow{40, 100, d / 3, d / 2 + 1}}) {
                for (auto [maxRows, maxCols] : {std::pair{400, 400}, std::pair{37, 2}}) {
                    const HeatmapSample sample = sinusoidalSample(p, window, maxRows, maxCols);
                    const CellWindow& w = sample.window;  // clamped to the table
                    for (std::size_t r = 0; r < sample.values->rows; ++r) {
                        for (std::size_t g = 0; g < sample.values->cols; ++g) {
                            const long long row0 = w.firstRow + (long long)r * sample.rowsPerTexel;
                            const long long row1 =
                                std::min(w.firstRow + w.rowCount, row0 + sample.rowsPerTexel);
                            const long long col0 = w.firstCol + (long long)g * sample.colsPerTexel;
                            const long long col1 =
                                std::min(w.firstCol + w.colCount, col0 + sample.colsPerTexel);
                            double sum = 0;
                            for (long long i = row0; i < row1; ++i) {
                                for (long long c = col0; c < col1; ++c) {
                                    sum += table(std::size_t(i), std::size_t(c));
                                }
                            }
                            ASSERT_NEAR((*sample.values)(r, g),
                                        sum / double((row1 - row0) * (col1 - col0)), 1e-12)
                                << layoutName(layout) << " d=" << d << " window " << w.firstCol
                                << "+" << w.colCount << " texel " << r << "," << g;
                        }
                    }
                }
            }
        }
    }
}

// The hover's formula, set as the figures set a power ($10000^{4/128}$: a superscript, where it
// read "10000^(4/128)") and a negative value with U+2212 (it read "-0.756802").
TEST(SinusoidalTest, FormulaShowsSubstitutedNumbers) {
    const std::string text = sinusoidalFormula(sinusoidalParams(128, 10), 3, 4);
    EXPECT_NE(text.find("sin(3 / $10000^{4/128}$)"), std::string::npos) << text;
    // sin(3 * 10000^(-4/128)) = sin(2.249682) = 0.778273
    EXPECT_NE(text.find("= 0.778273"), std::string::npos) << text;
    // Column 0 turns at 1 rad a position: sin(4) = -0.756802.
    const std::string negative = sinusoidalFormula(sinusoidalParams(128, 10), 4, 0);
    EXPECT_NE(negative.find("= \u22120.756802"), std::string::npos) << negative;
    EXPECT_EQ(negative.find("-0."), std::string::npos) << negative;
}

TEST(SinusoidalTest, RejectsBadParameters) {
    EXPECT_FALSE(validate(sinusoidalParams(0, 10)).ok());
    EXPECT_FALSE(validate(sinusoidalParams(8193, 10)).ok());
    EXPECT_FALSE(validate(sinusoidalParams(8, 0)).ok());
    EXPECT_FALSE(validate(sinusoidalParams(8, 10, SinusoidalLayout::Interleaved, 1.0)).ok());
    EXPECT_FALSE(validate(sinusoidalParams(8, 10, SinusoidalLayout::Interleaved, NAN)).ok());
    EXPECT_FALSE(validate(sinusoidalParams(8, 10, SinusoidalLayout::Interleaved, INFINITY)).ok());
    const auto error = validate(sinusoidalParams(0, 10));
    EXPECT_EQ(error.error().message, "d_model must be 1..8192 (got 0)");
    EXPECT_FALSE(parseLayout("sideways").ok());
    EXPECT_EQ(*parseLayout("t2t"), SinusoidalLayout::Tensor2Tensor);
}

TEST(SinusoidalTest, RowsEvaluatorIsThePaperFormulaAndSinusoidalRowBitForBit) {
    for (SinusoidalLayout layout : {SinusoidalLayout::Interleaved, SinusoidalLayout::Concat,
                                    SinusoidalLayout::Tensor2Tensor}) {
        for (int d : {1, 7, 64}) {
            const SinusoidalParams p = sinusoidalParams(d, 100, layout);
            const SinusoidalRows rows(p);
            std::vector<double> fast(static_cast<std::size_t>(d)), direct(fast.size());
            for (double position : {0.0, 1.0, 17.5, 4095.0, -3.25}) {
                rows.row(position, fast.data());
                sinusoidalRow(p, position, direct.data());
                for (int c = 0; c < d; ++c) EXPECT_EQ(fast[std::size_t(c)], direct[std::size_t(c)]);
            }
        }
    }
    // Interleaved against the formula written out above.
    const SinusoidalRows rows(sinusoidalParams(16, 100));
    std::vector<double> out(16);
    rows.row(37, out.data());
    for (int c = 0; c < 16; ++c)
        EXPECT_NEAR(out[std::size_t(c)], paperValue(37, c, 16, 10000), 1e-12);
}

}  // namespace
}  // namespace poslab
