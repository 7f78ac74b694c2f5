#include "poslab/views/rope_heatmap_figures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "cell_resolution_checks.hpp"
#include "rope_figure_checks.hpp"

namespace poslab {
namespace {

using namespace rope_checks;

// The circular mean of the angles m * theta_i over a block of cells, summed one cell at a time:
// the direction of the mean unit vector, in [0, 2 pi), and that vector's length.
std::pair<double, double> bruteCircularMean(long long row0, long long rows, int pair0, int pairs,
                                            int d) {
    double c = 0, s = 0;
    for (long long m = row0; m < row0 + rows; ++m) {
        for (int i = pair0; i < pair0 + pairs; ++i) {
            const double angle = double(m) * theta(i, d, 10000);
            c += std::cos(angle);
            s += std::sin(angle);
        }
    }
    double direction = std::atan2(s, c);
    if (direction < 0) direction += 2 * kPi;
    return {direction, std::hypot(c, s) / double(rows * pairs)};
}

TEST(RopeHeatmapFiguresTest, ZoomedInAngleTexelsAreExactAngles) {
    const RopeParams p = params(128, 65536);
    const auto freqs = ropeFrequencies(p);
    ASSERT_TRUE(freqs.ok());
    const HeatmapSample sample = ropeAngleSample(*freqs, 65536, {40000, 300, 0, 64}, 500, 1000);
    ASSERT_EQ(sample.rowsPerTexel, 1);
    // Rows between the exact anchors (every 64th) come from rotations: every row is checked.
    for (std::size_t u = 0; u < 300; ++u) {
        for (int i : {0, 1, 31, 63}) {
            const double expected =
                std::fmod((40000.0 + double(u)) * theta(i, 128, 10000), 2 * kPi);
            EXPECT_NEAR((*sample.values)(u, std::size_t(i)), expected, 1e-8) << u << " " << i;
        }
    }
}

TEST(RopeHeatmapFiguresTest, ZoomedOutAngleTexelsAreCircularMeansOrMixed) {
    const RopeParams p = params(128, 65536);
    const auto freqs = ropeFrequencies(p);
    ASSERT_TRUE(freqs.ok());
    const HeatmapSample sample = ropeAngleSample(*freqs, 65536, {}, 500, 40);
    EXPECT_EQ(sample.rowsPerTexel, 132);   // ceil(65536 / 500)
    EXPECT_EQ(sample.colsPerTexel, 2);     // ceil(64 / 40)
    ASSERT_EQ(sample.values->rows, 497u);  // ceil(65536 / 132): never more texels than asked
    ASSERT_EQ(sample.values->cols, 32u);
    int mixed = 0, shown = 0;
    // 496: the last block holds only 64 rows; 1..7 and 250 come from rotations between anchors.
    for (std::size_t u : {0u, 1u, 5u, 7u, 8u, 250u, 495u, 496u}) {
        const long long row0 = 132LL * static_cast<long long>(u);
        const long long rows = std::min<long long>(132, 65536 - row0);
        for (std::size_t v = 0; v < 32; ++v) {
            const auto [direction, length] = bruteCircularMean(row0, rows, int(2 * v), 2, 128);
            const double texel = (*sample.values)(u, v);
            if (length < 2 / kPi - 1e-9) {
                EXPECT_TRUE(std::isinf(texel) && texel < 0) << u << " " << v << " " << length;
                ++mixed;
            } else if (length > 2 / kPi + 1e-9) {
                // Compare on the circle: 0 and 2 pi are the same angle.
                const double difference = std::remainder(texel - direction, 2 * kPi);
                EXPECT_NEAR(difference, 0.0, 1e-7) << u << " " << v;
                ++shown;
            }
        }
    }
    EXPECT_GT(mixed, 0);  // the fast pairs turn many times under one pixel
    EXPECT_GT(shown, 0);  // the slow ones barely move
}

// The whole of the largest table on one screen: 1,048,576 positions x 2048 pairs on 560 x 900
// texels. Fast pairs are skipped as mixed without their phases being computed; every column of
// a few rows (the first, one between anchors, the shorter last) is checked against the sum.
TEST(RopeHeatmapFiguresTest, WholeLargestTableMatchesTheBruteForceMeanInEveryColumn) {
    const RopeParams p = params(4096, 1 << 20);
    const auto freqs = ropeFrequencies(p);
    ASSERT_TRUE(freqs.ok());
    const HeatmapSample sample = ropeAngleSample(*freqs, 1 << 20, {}, 560, 900);
    const long long per = sample.rowsPerTexel, pairsPerTexel = sample.colsPerTexel;
    ASSERT_EQ(per, 1873);  // ceil(2^20 / 560)
    ASSERT_EQ(pairsPerTexel, 3);
    const std::size_t lastRow = sample.values->rows - 1;
    int mixed = 0, shown = 0;
    for (std::size_t u : {std::size_t(0), std::size_t(100), lastRow}) {
        const long long row0 = per * static_cast<long long>(u);
        const long long rows = std::min<long long>(per, (1 << 20) - row0);
        for (std::size_t v = 0; v < sample.values->cols; ++v) {
            const int pair0 = int(v) * 3, pairs = std::min(3, 2048 - pair0);
            const auto [direction, length] = bruteCircularMean(row0, rows, pair0, pairs, 4096);
            const double texel = (*sample.values)(u, v);
            if (length < 2 / kPi - 1e-9) {
                EXPECT_TRUE(std::isinf(texel) && texel < 0) << u << " " << v << " " << length;
                ++mixed;
            } else if (length > 2 / kPi + 1e-9) {
                EXPECT_NEAR(std::remainder(texel - direction, 2 * kPi), 0.0, 1e-7) << u << " " << v;
                ++shown;
            }
        }
    }
    EXPECT_GT(mixed, 1200);  // the fast three quarters, on each row
    EXPECT_GT(shown, 400);   // the slowest quarter
}

TEST(RopeHeatmapFiguresTest, AngleHeatmapUsesTwilightAndExplainsItsSummary) {
    const RopeParams p = params(128, 65536);
    Figure figure = emptyFigure(900, 600, darkTheme());
    RopeAngleOptions options;
    options.trainingLength = 4096;
    drawRopeAngles(figure, {0, 0, 900, 600}, p, options, darkTheme(), nullptr);
    const HeatmapItem* heatmap = firstDataHeatmap(figure);
    ASSERT_NE(heatmap, nullptr);
    EXPECT_EQ(heatmap->colormap, ColormapId::Twilight);
    EXPECT_LE(heatmap->values->rows, 600u);
    EXPECT_DOUBLE_EQ(heatmap->range.high, 2 * kPi);
    EXPECT_TRUE(hasText(figure, "circular mean of"));
    EXPECT_TRUE(hasText(figure, "mixed"));
    EXPECT_TRUE(hasText(figure, "Rotation angle $m·θ_i$ mod 2π"));
    // The training length's line is labelled beside the plot, wrapped at its spaces.
    EXPECT_TRUE(hasText(figure, "training") && hasText(figure, "4096"));

    // Zoomed in to fewer rows than pixels: exact angles, and the caption says nothing more.
    Figure zoomed = emptyFigure(900, 600, darkTheme());
    options.window = {100, 50, 0, 0};
    drawRopeAngles(zoomed, {0, 0, 900, 600}, p, options, darkTheme(), nullptr);
    EXPECT_FALSE(hasText(zoomed, "circular mean"));
    EXPECT_FALSE(hasText(zoomed, "mixed"));
}

// Every cell of the score matrix, written out: rotate then dot.
std::vector<std::vector<double>> bruteScores(const std::vector<double>& q,
                                             const std::vector<double>& k, int length) {
    std::vector<std::vector<double>> scores(length, std::vector<double>(length));
    for (int m = 0; m < length; ++m) {
        for (int n = 0; n < length; ++n) {
            scores[m][n] = dot(rotateHalf(q, m, 10000), rotateHalf(k, n, 10000));
        }
    }
    return scores;
}

// A RoPE setting (half pairing, base 10000) with seeded q and k and every cell of its scores.
struct ScoreCase {
    RopeParams p;
    RopeFrequencies freqs;
    std::vector<double> q, k;
    std::vector<std::vector<double>> brute;  // bruteScores(q, k, length)
};
ScoreCase scoreCase(int headDim, int length, std::uint64_t qSeed, std::uint64_t kSeed) {
    ScoreCase c;
    c.p = params(headDim, length);
    c.freqs = ropeFrequencies(c.p).value();
    c.q = seededGaussianVector(headDim, qSeed);
    c.k = seededGaussianVector(headDim, kSeed);
    c.brute = bruteScores(c.q, c.k, length);
    return c;
}

TEST(RopeHeatmapFiguresTest, ScoreSampleIsTheMeanOfEachBlock) {
    const int length = 37;
    const auto [p, freqs, q, k, brute] = scoreCase(8, length, 7, 8);
    const auto offsets = ropeOffsetScores(q, k, length, freqs, p.pairing);
    ASSERT_TRUE(offsets.ok());

    const HeatmapSample sample = ropeScoreSample(*offsets, length, {3, 30, 2, 33}, 4, 5);
    EXPECT_EQ(sample.rowsPerTexel, 8);  // ceil(30 / 4)
    EXPECT_EQ(sample.colsPerTexel, 7);  // ceil(33 / 5)
    ASSERT_EQ(sample.values->rows, 4u);
    ASSERT_EQ(sample.values->cols, 5u);
    for (int u = 0; u < 4; ++u) {
        for (int v = 0; v < 5; ++v) {
            // Blocks may run past the window but not past the matrix.
            const int m0 = 3 + 8 * u, m1 = std::min(length, m0 + 8);
            const int n0 = 2 + 7 * v, n1 = std::min(length, n0 + 7);
            double sum = 0;
            for (int m = m0; m < m1; ++m) {
                for (int n = n0; n < n1; ++n) sum += brute[m][n];
            }
            EXPECT_NEAR((*sample.values)(u, v), sum / ((m1 - m0) * (n1 - n0)), 1e-10)
                << u << " " << v;
        }
    }

    // One texel per cell: the cells themselves.
    const HeatmapSample exact = ropeScoreSample(*offsets, length, {5, 10, 20, 12}, 100, 100);
    ASSERT_EQ(exact.values->rows, 10u);
    ASSERT_EQ(exact.values->cols, 12u);
    for (int u = 0; u < 10; ++u) {
        for (int v = 0; v < 12; ++v) {
            EXPECT_NEAR((*exact.values)(u, v), brute[5 + u][20 + v], 1e-12);
        }
    }
}

// Block means of the brute-force scores over the texels of `sample` (blocks cut at the matrix).
void expectBruteBlockMeans(const HeatmapSample& sample,
                           const std::vector<std::vector<double>>& brute, double tolerance) {
    const int length = int(brute.size());
    const long long a = sample.rowsPerTexel, b = sample.colsPerTexel;
    ASSERT_TRUE(sample.values);
    for (std::size_t u = 0; u < sample.values->rows; ++u) {
        for (std::size_t v = 0; v < sample.values->cols; ++v) {
            const long long m0 = sample.window.firstRow + (long long)u * a;
            const long long n0 = sample.window.firstCol + (long long)v * b;
            const long long m1 = std::min<long long>(length, m0 + a);
            const long long n1 = std::min<long long>(length, n0 + b);
            double sum = 0;
            for (long long m = m0; m < m1; ++m) {
                for (long long n = n0; n < n1; ++n) sum += brute[m][n];
            }
            EXPECT_NEAR((*sample.values)(u, v), sum / double((m1 - m0) * (n1 - n0)), tolerance)
                << u << " " << v << " blocks " << a << " x " << b;
        }
    }
}

TEST(RopeHeatmapFiguresTest, ScoreSampleFromTheVectorsIsTheMeanOfEachBlock) {
    // The same texels as from the 2L-1 scores, computed from q and k alone (one sum per corner
    // offset of the texel grid), checked against every cell rotated and multiplied out.
    const int length = 37;
    const auto [p, freqs, q, k, brute] = scoreCase(8, length, 7, 8);
    for (CellWindow window : {CellWindow{3, 30, 2, 33}, CellWindow{0, 37, 0, 37},
                              CellWindow{5, 10, 20, 12}, CellWindow{30, 7, 0, 37}}) {
        for (auto [rows, cols] : {std::pair{4, 5}, std::pair{100, 100}, std::pair{3, 3}}) {
            const HeatmapSample sample =
                ropeScoreSample(q, k, length, freqs, p.pairing, window, rows, cols);
            EXPECT_EQ(sample.rowsPerTexel, cellsPerTexel(window.rowCount, rows));
            EXPECT_EQ(sample.colsPerTexel, cellsPerTexel(window.colCount, cols));
            expectBruteBlockMeans(sample, brute, 1e-10);
        }
    }
}

TEST(RopeHeatmapFiguresTest, ScoreSamplePastTheBudgetAveragesSlightlyLargerBlocksExactly) {
    // A budget too small for the pixels' lattice: the blocks grow to multiples of a power of two
    // (never fewer cells than the pixels need), and each texel is still the exact block mean.
    const int length = 300;
    const auto [p, freqs, q, k, brute] = scoreCase(16, length, 3, 4);
    const HeatmapSample exact = ropeScoreSample(q, k, length, freqs, p.pairing, {}, 17, 23);
    EXPECT_EQ(exact.rowsPerTexel, 18);  // ceil(300 / 17)
    EXPECT_EQ(exact.colsPerTexel, 14);  // ceil(300 / 23)
    const HeatmapSample coarse =
        ropeScoreSample(q, k, length, freqs, p.pairing, {}, 17, 23, /*budget=*/8 * 40);
    EXPECT_GE(coarse.rowsPerTexel, 18);
    EXPECT_GE(coarse.colsPerTexel, 14);
    EXPECT_LE(coarse.values->rows, 17u);
    EXPECT_LE(coarse.values->cols, 23u);
    const long long g = std::gcd(coarse.rowsPerTexel, coarse.colsPerTexel);
    EXPECT_GT(g, 1);  // a coarser lattice than gcd(18, 14) = 2 allows
    expectBruteBlockMeans(exact, brute, 1e-9);
    expectBruteBlockMeans(coarse, brute, 1e-9);
}

TEST(RopeHeatmapFiguresTest, ScoreRangeCoversEveryOffsetOrSaysWhichOnes) {
    const int length = 200;
    const auto [p, freqs, q, k, brute] = scoreCase(8, length, 5, 6);
    // An init-capture: clang 14 (the page's and the sanitizer build's compiler) cannot capture a
    // structured binding.
    auto largestWithin = [&, &scores = brute](int reach) {
        double largest = 0;
        for (int m = 0; m < length; ++m) {
            for (int n = 0; n < length; ++n) {
                if (std::abs(m - n) < reach) largest = std::max(largest, std::abs(scores[m][n]));
            }
        }
        return largest;
    };
    const RopeScoreRange all = ropeScoreRange(q, k, length, freqs, p.pairing);
    EXPECT_TRUE(all.allOffsets);
    EXPECT_NEAR(all.largest, largestWithin(length), 1e-9);
    // 4 pairs and a budget of 4 x 2 x 50 terms: offsets |m - n| < 50 only.
    const RopeScoreRange part = ropeScoreRange(q, k, length, freqs, p.pairing, 400);
    EXPECT_FALSE(part.allOffsets);
    EXPECT_EQ(part.offsetsCovered, 50);
    EXPECT_NEAR(part.largest, largestWithin(50), 1e-9);

    // The figure says so in its colour bar when the range is partial.
    RopeScoreOptions options;
    options.q = q;
    options.k = k;
    options.range = {-part.largest, part.largest};
    options.rangeOffsets = part.offsetsCovered;
    Figure figure = emptyFigure(900, 700, paperTheme());
    drawRopeScores(figure, {0, 0, 900, 700}, p, options, paperTheme(), nullptr);
    EXPECT_TRUE(hasText(figure, "range from |m − n| < 50"));
}

TEST(RopeHeatmapFiguresTest, ScoresAtTheLargestSizesStayWithinTheBudget) {
    // head_dim 8192 at 2^20 positions: 2^32 terms to tabulate; the figure evaluates a lattice of
    // corner offsets instead. Texels never exceed the pixels.
    RopeParams p = params(8192, 1 << 20);
    p.trainingLength = 4096;
    RopeScoreOptions options;
    options.q = seededGaussianVector(8192, 1);
    options.k = seededGaussianVector(8192, 2);
    Figure figure = emptyFigure(600, 400, paperTheme());
    drawRopeScores(figure, {0, 0, 600, 400}, p, options, paperTheme(), nullptr);
    const HeatmapItem* heatmap = firstDataHeatmap(figure);
    ASSERT_NE(heatmap, nullptr);
    EXPECT_LE(heatmap->values->rows, 400u);
    EXPECT_LE(heatmap->values->cols, 600u);
    EXPECT_TRUE(hasText(figure, "range from |m − n| < 16384"));
}

TEST(RopeHeatmapFiguresTest, ScoreHeatmapIsCentredAndMarksTheQueryKeyPair) {
    RopeParams p = params(16, 4096);
    RopeScoreOptions options;
    options.q = seededGaussianVector(16, 1);
    options.k = seededGaussianVector(16, 2);
    options.queryKey = {100, 40};
    options.trainingLength = 1024;
    Figure figure = emptyFigure(1000, 800, paperTheme());
    drawRopeScores(figure, {0, 0, 1000, 800}, p, options, paperTheme(), nullptr);
    const HeatmapItem* heatmap = firstDataHeatmap(figure);
    ASSERT_NE(heatmap, nullptr);
    EXPECT_EQ(heatmap->colormap, ColormapId::BlueWhiteRed);
    EXPECT_EQ(heatmap->range.low, -heatmap->range.high);
    EXPECT_LE(heatmap->values->rows, 800u);
    EXPECT_LE(heatmap->values->cols, 1000u);
    EXPECT_TRUE(hasText(figure, "Attention score $q_m·k_n$"));
    EXPECT_TRUE(hasText(figure, "mean of"));
    EXPECT_TRUE(hasText(figure, "training length 1024"));
}

// In a 480x320 window (a 237 x 358 figure) the plot is too narrow for a strip of labels beside
// it: the training length's label sat inside, on the cells, cut to "training…". Its line is
// named above the plot instead, whole, as are the q and k rows' lines.
TEST(RopeHeatmapFiguresTest, NarrowAngleHeatmapNamesItsLinesAboveThePlot) {
    const RopeParams p = params(64, 4096);
    RopeAngleOptions options;
    options.trainingLength = 2048;
    options.queryKey = {6, 2};
    Figure figure = emptyFigure(237, 358, darkTheme());
    PlotFrame frame;
    drawRopeAngles(figure, {0, 0, 237, 358}, p, options, darkTheme(), nullptr, &frame);
    EXPECT_EQ(layoutFaults(figure), "");
    for (const char* label : {"training length 2048", "m (q)", "n (k)"}) {
        bool above = false;
        for (const FigureItem& item : figure.items) {
            if (const auto* text = std::get_if<TextItem>(&item); text && text->text == label)
                above = textBox(*text).bottom() <= frame.plot.y;
        }
        EXPECT_TRUE(above) << label << " is not whole above the plot";
    }
}

// A vector file (Theme::cellResolution, #28) holds RoPE's maps cell for cell: 1024 positions in a
// 600 x 400 figure are 1024 x 1024 scores, each rotate(q, m) · rotate(k, n) written out, and
// 1024 x 16 angles m θ_i mod 2π; no caption says "mean of … cells per pixel" or "circular mean".
TEST(RopeHeatmapFiguresTest, VectorFileHoldsEveryCell) {
    const RopeParams p = params(32, 1024);
    const Theme theme = vectorFileTheme(paperTheme());
    RopeScoreOptions options;
    options.q = seededGaussianVector(32, 1);
    options.k = seededGaussianVector(32, 2);
    Figure scores = emptyFigure(600, 400, theme);
    drawRopeScores(scores, {0, 0, 600, 400}, p, options, theme, nullptr);
    const auto scoreMaps = mapsOf(scores);
    ASSERT_EQ(scoreMaps.size(), 1u);
    EXPECT_LT(scoreMaps[0]->box.height, 1024.0f);  // more cells than pixels
    ASSERT_EQ(scoreMaps[0]->values->rows, 1024u);
    ASSERT_EQ(scoreMaps[0]->values->cols, 1024u);
    expectNoSamplingNote(scores);
    const int picked[][2] = {{0, 0}, {1, 0}, {0, 1023}, {517, 3}, {1023, 1023}, {700, 699}};
    for (const auto& [m, n] : picked) {
        const std::vector<double> q = rotateHalf(options.q, m, 10000),
                                  k = rotateHalf(options.k, n, 10000);
        const double expected = std::inner_product(q.begin(), q.end(), k.begin(), 0.0);
        expectCell(*scoreMaps[0], std::size_t(m), std::size_t(n), expected, 1e-9);
    }

    Figure angles = emptyFigure(600, 400, theme);
    drawRopeAngles(angles, {0, 0, 600, 400}, p, {}, theme, nullptr);
    const auto angleMaps = mapsOf(angles);
    ASSERT_EQ(angleMaps.size(), 1u);
    ASSERT_EQ(angleMaps[0]->values->rows, 1024u);
    ASSERT_EQ(angleMaps[0]->values->cols, 16u);
    expectNoSamplingNote(angles);
    EXPECT_EQ(textsWith(angles, "circular mean"), "");
    for (const auto& [m, i] : {std::pair{0, 0}, std::pair{1, 0}, std::pair{999, 15},
                               std::pair{1023, 1}, std::pair{300, 7}})
        expectCell(*angleMaps[0], std::size_t(m), std::size_t(i),
                   std::fmod(m * theta(i, 32, 10000), 2 * kPi), 1e-8);
}

}  // namespace
}  // namespace poslab
