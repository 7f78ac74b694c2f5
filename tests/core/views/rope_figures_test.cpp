#include "poslab/views/rope_figures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

namespace poslab {
namespace {

constexpr double kPi = 3.14159265358979323846;

RopeParams params(int headDim, int seqLen = 256, double base = 10000) {
    RopeParams p;
    p.headDim = headDim;
    p.seqLen = seqLen;
    p.trainingLength = seqLen;
    p.base = base;
    return p;
}

// theta_i = base^(-2i/d), written out.
double theta(int i, int d, double base) {
    return 1.0 / std::pow(base, 2.0 * i / d);
}

// rotate(v, p) for half pairing, written out: dims (i, i + d/2) turned by p theta_i.
std::vector<double> rotateHalf(const std::vector<double>& v, double p, double base) {
    const int d = int(v.size()), half = d / 2;
    std::vector<double> out = v;
    for (int i = 0; i < half; ++i) {
        const double a = p * theta(i, d, base);
        out[i] = v[i] * std::cos(a) - v[i + half] * std::sin(a);
        out[i + half] = v[i + half] * std::cos(a) + v[i] * std::sin(a);
    }
    return out;
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
    double sum = 0;
    for (std::size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
    return sum;
}

std::vector<std::string> texts(const Figure& figure) {
    std::vector<std::string> out;
    for (const FigureItem& item : figure.items) {
        if (auto* text = std::get_if<TextItem>(&item)) out.push_back(text->text);
    }
    return out;
}

bool hasTextContaining(const Figure& figure, const std::string& fragment) {
    for (const std::string& t : texts(figure)) {
        if (t.find(fragment) != std::string::npos) return true;
    }
    return false;
}

int countTextsStartingWith(const Figure& figure, const std::string& prefix) {
    int count = 0;
    for (const std::string& t : texts(figure)) count += t.rfind(prefix, 0) == 0;
    return count;
}

const HeatmapItem* firstDataHeatmap(const Figure& figure) {
    // The colour bar is a 256 x 1 ramp; the data heatmap comes first.
    for (const FigureItem& item : figure.items) {
        if (auto* heatmap = std::get_if<HeatmapItem>(&item)) return heatmap;
    }
    return nullptr;
}

TEST(RopeFiguresTest, RotationPairsAreAllOrSpreadEvenly) {
    EXPECT_EQ(ropeRotationPairs(8, 16), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
    const std::vector<int> spread = ropeRotationPairs(64, 16);
    ASSERT_EQ(spread.size(), 16u);
    for (int j = 0; j < 16; ++j) EXPECT_EQ(spread[j], int(std::lround(j * 63.0 / 15.0)));
    EXPECT_EQ(ropeRotationPairs(64, 1), (std::vector<int>{0}));
    EXPECT_TRUE(ropeRotationPairs(0, 16).empty());
}

TEST(RopeFiguresTest, PairScoresSumToTheRotatedDotProduct) {
    const RopeParams p = params(16);
    const auto freqs = ropeFrequencies(p);
    ASSERT_TRUE(freqs.ok());
    const std::vector<double> q = seededGaussianVector(16, 3), k = seededGaussianVector(16, 4);
    const double m = 17.25, n = 4;
    double sum = 0;
    for (int i = 0; i < 8; ++i) sum += ropePairScore(q, k, m, n, *freqs, p.pairing, i);
    EXPECT_NEAR(sum, dot(rotateHalf(q, m, 10000), rotateHalf(k, n, 10000)), 1e-12);
}

TEST(RopeFiguresTest, PairAngleIsTheAngleBetweenTheRotatedPairsAndDependsOnMMinusNOnly) {
    const RopeParams p = params(16);
    const auto freqs = ropeFrequencies(p);
    ASSERT_TRUE(freqs.ok());
    const std::vector<double> q = seededGaussianVector(16, 5), k = seededGaussianVector(16, 6);
    const double m = 9, n = 2;
    const std::vector<double> rq = rotateHalf(q, m, 10000), rk = rotateHalf(k, n, 10000);
    for (int i = 0; i < 8; ++i) {
        double expected = std::atan2(rq[i + 8], rq[i]) - std::atan2(rk[i + 8], rk[i]);
        while (expected > kPi) expected -= 2 * kPi;
        while (expected <= -kPi) expected += 2 * kPi;
        const double angle = ropePairAngleBetween(q, k, m, n, *freqs, p.pairing, i);
        EXPECT_NEAR(angle, expected, 1e-12) << "pair " << i;
        // Shifting both positions leaves it exactly unchanged.
        EXPECT_EQ(ropePairAngleBetween(q, k, m + 1000, n + 1000, *freqs, p.pairing, i), angle);
    }
}

TEST(RopeFiguresTest, RotationFigureHasOnePanelPerPairAndPrintsTheScore) {
    const RopeParams p = params(16);
    RopeRotationOptions options;
    options.q = seededGaussianVector(16, 1);
    options.k = seededGaussianVector(16, 2);
    options.m = 7;
    options.n = 3;
    Figure figure = emptyFigure(1200, 800, darkTheme());
    std::vector<RopeRotationCell> cells;
    drawRopeRotation(figure, {0, 0, 1200, 800}, p, options, darkTheme(), &cells);
    EXPECT_EQ(cells.size(), 8u);  // all pairs for small d
    EXPECT_EQ(countTextsStartingWith(figure, "pair "), 8);
    EXPECT_TRUE(hasTextContaining(figure, "RoPE rotates each pair"));
    EXPECT_TRUE(hasTextContaining(figure, "q at m = 7"));
    EXPECT_TRUE(hasTextContaining(figure, "k at n = 3"));
    const double score = dot(rotateHalf(options.q, 7, 10000), rotateHalf(options.k, 3, 10000));
    EXPECT_TRUE(hasTextContaining(figure, "q·k = " + formatValue(score, 6))) << score;

    // Large d: a spread subset of 16 panels.
    const RopeParams large = params(128);
    options.q = seededGaussianVector(128, 1);
    options.k = seededGaussianVector(128, 2);
    Figure big = emptyFigure(1200, 800, darkTheme());
    drawRopeRotation(big, {0, 0, 1200, 800}, large, options, darkTheme(), &cells);
    EXPECT_EQ(cells.size(), 16u);
    EXPECT_EQ(cells.front().pair, 0);
    EXPECT_EQ(cells.back().pair, 63);
    EXPECT_TRUE(hasTextContaining(big, "16 of 64 pairs"));
}

TEST(RopeFiguresTest, ShiftingMAndNTogetherChangesNoAngleAndNoScore) {
    const RopeParams p = params(16);
    RopeRotationOptions options;
    options.q = seededGaussianVector(16, 1);
    options.k = seededGaussianVector(16, 2);
    auto labels = [&](double m, double n) {
        options.m = m;
        options.n = n;
        Figure figure = emptyFigure(1200, 800, paperTheme());
        drawRopeRotation(figure, {0, 0, 1200, 800}, p, options, paperTheme());
        std::vector<std::string> kept;
        for (const std::string& t : texts(figure)) {
            if (t.rfind("Δ", 0) == 0 || t.rfind("q·k", 0) == 0) kept.push_back(t);
        }
        return kept;
    };
    const auto before = labels(5, 2), after = labels(405, 402);
    EXPECT_EQ(before.size(), 9u);  // eight pair labels and the total
    EXPECT_EQ(before, after);
    EXPECT_NE(before, labels(6, 2));  // while changing m - n does change them
}

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

TEST(RopeFiguresTest, ZoomedInAngleTexelsAreExactAngles) {
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

TEST(RopeFiguresTest, ZoomedOutAngleTexelsAreCircularMeansOrMixed) {
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
TEST(RopeFiguresTest, WholeLargestTableMatchesTheBruteForceMeanInEveryColumn) {
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

TEST(RopeFiguresTest, AngleHeatmapUsesTwilightAndExplainsItsSummary) {
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
    EXPECT_TRUE(hasTextContaining(figure, "circular mean of"));
    EXPECT_TRUE(hasTextContaining(figure, "mixed"));
    EXPECT_TRUE(hasTextContaining(figure, "Rotation angle $m·θ_i$ mod 2π"));
    EXPECT_TRUE(hasTextContaining(figure, "training length 4096"));

    // Zoomed in to fewer rows than pixels: exact angles, and the caption says nothing more.
    Figure zoomed = emptyFigure(900, 600, darkTheme());
    options.window = {100, 50, 0, 0};
    drawRopeAngles(zoomed, {0, 0, 900, 600}, p, options, darkTheme(), nullptr);
    EXPECT_FALSE(hasTextContaining(zoomed, "circular mean"));
    EXPECT_FALSE(hasTextContaining(zoomed, "mixed"));
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

TEST(RopeFiguresTest, ScoreSampleIsTheMeanOfEachBlock) {
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
void expectBlockMeans(const HeatmapSample& sample, const std::vector<std::vector<double>>& brute,
                      double tolerance) {
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

TEST(RopeFiguresTest, ScoreSampleFromTheVectorsIsTheMeanOfEachBlock) {
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
            expectBlockMeans(sample, brute, 1e-10);
        }
    }
}

TEST(RopeFiguresTest, ScoreSamplePastTheBudgetAveragesSlightlyLargerBlocksExactly) {
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
    expectBlockMeans(exact, brute, 1e-9);
    expectBlockMeans(coarse, brute, 1e-9);
}

TEST(RopeFiguresTest, ScoreRangeCoversEveryOffsetOrSaysWhichOnes) {
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
    EXPECT_TRUE(hasTextContaining(figure, "range from |m − n| < 50"));
}

TEST(RopeFiguresTest, ScoresAtTheLargestSizesStayWithinTheBudget) {
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
    EXPECT_TRUE(hasTextContaining(figure, "range from |m − n| < 16384"));
}

TEST(RopeFiguresTest, ScoreHeatmapIsCentredAndMarksTheQueryKeyPair) {
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
    EXPECT_TRUE(hasTextContaining(figure, "Attention score $q_m·k_n$"));
    EXPECT_TRUE(hasTextContaining(figure, "mean of"));
    EXPECT_TRUE(hasTextContaining(figure, "training length 1024"));
}

TEST(RopeFiguresTest, FrequencyChartMarksThePairsThatNeverCompleteATurn) {
    const RopeParams p = params(64, 1000);
    const Theme theme = darkTheme();
    Figure figure = emptyFigure(1000, 700, theme);
    drawRopeFrequencies(figure, {0, 0, 1000, 700}, p, {}, theme);
    int expected = 0;  // wavelength 2 pi base^(2i/d) longer than the context
    for (int i = 0; i < 32; ++i) expected += 2 * kPi * std::pow(10000.0, 2.0 * i / 64) > 1000;
    ASSERT_GT(expected, 0);
    int highlighted = 0;
    for (const FigureItem& item : figure.items) {
        if (auto* circle = std::get_if<CircleItem>(&item))
            highlighted += circle->fill == theme.accent;
    }
    EXPECT_EQ(highlighted, expected + 1);  // one dot per pair, plus the legend's
    EXPECT_TRUE(hasTextContaining(figure, std::to_string(expected) +
                                              " of 32 pairs never complete a turn within the "
                                              "context 1000"));
    EXPECT_TRUE(hasTextContaining(figure, "context = training length 1000"));
    EXPECT_TRUE(hasTextContaining(figure, "Wavelength $2π/θ_i$ of each pair"));

    RopeParams longer = p;
    longer.trainingLength = 200;
    Figure two = emptyFigure(1000, 700, theme);
    drawRopeFrequencies(two, {0, 0, 1000, 700}, longer, {RopeTurnReference::Training}, theme);
    EXPECT_TRUE(hasTextContaining(two, "context length 1000"));
    EXPECT_TRUE(hasTextContaining(two, "training length 200"));
    EXPECT_TRUE(hasTextContaining(two, "within the training length 200"));
}

TEST(RopeFiguresTest, FrequencyChartOverlaysUnscaledWavelengthsWhenScaling) {
    RopeParams p = params(128, 32768, 500000);
    p.trainingLength = 8192;
    p.scaling.type = RopeScaling::Llama3;
    p.scaling.factor = 8;
    Figure figure = emptyFigure(1000, 700, paperTheme());
    drawRopeFrequencies(figure, {0, 0, 1000, 700}, p, {}, paperTheme());
    EXPECT_TRUE(hasTextContaining(figure, "unscaled"));
    EXPECT_TRUE(hasTextContaining(figure, "scaled: llama3 ×8"));
    int polylines = 0;
    for (const FigureItem& item : figure.items)
        polylines += std::holds_alternative<PolylineItem>(item);
    EXPECT_GE(polylines, 2);
}

TEST(RopeFiguresTest, DecayCurveReproducesRoFormerFigure2) {
    Figure figure = emptyFigure(900, 600, paperTheme());
    PlotFrame frame;
    drawRopeDecay(figure, {0, 0, 900, 600}, 128, 10000, 250, paperTheme(), nullptr, &frame);
    EXPECT_TRUE(hasTextContaining(figure, "RoFormer"));
    EXPECT_TRUE(hasTextContaining(figure, "relative distance"));
    EXPECT_TRUE(hasTextContaining(figure, "relative upper bound"));
    const PolylineItem* curve = nullptr;
    for (const FigureItem& item : figure.items) {
        if (auto* line = std::get_if<PolylineItem>(&item)) curve = line;
    }
    ASSERT_NE(curve, nullptr);
    ASSERT_EQ(curve->points.size(), 251u);
    // r = 0: every |S_j| = j, so the bound is the mean of 1..64 = 32.5.
    EXPECT_NEAR(frame.toData(curve->points.front()).second, 32.5, 0.01);
    EXPECT_NEAR(frame.toData(curve->points.front()).first, 0, 1e-6);

    // Far more distances than pixels: a min-max band, one bar per pixel column, no long curve.
    Figure wide = emptyFigure(400, 300, paperTheme());
    PlotFrame wideFrame;
    drawRopeDecay(wide, {0, 0, 400, 300}, 128, 10000, 20000, paperTheme(), nullptr, &wideFrame);
    int bars = 0;
    for (const FigureItem& item : wide.items) {
        EXPECT_FALSE(std::holds_alternative<PolylineItem>(item));
        if (auto* line = std::get_if<LineItem>(&item))
            bars += line->color == ropeQueryColor(paperTheme());
    }
    EXPECT_EQ(bars, int(wideFrame.plot.width));
    EXPECT_TRUE(hasTextContaining(wide, "min to max over each pixel column"));
}

// RoFormer's bound at distance r, written out: (1/(d/2)) sum_j |sum_{k<j} e^(i r theta_k)|.
double decayBound(int d, double base, double r) {
    double re = 0, im = 0, total = 0;
    for (int j = 0; j < d / 2; ++j) {
        re += std::cos(r * theta(j, d, base));
        im += std::sin(r * theta(j, d, base));
        total += std::hypot(re, im);
    }
    return total / (d / 2);
}

TEST(RopeFiguresTest, LogDistanceAxisSamplesEveryDecadeAlike) {
    const std::vector<double> distances = logDecayDistances(1 << 20, 500);
    ASSERT_FALSE(distances.empty());
    EXPECT_EQ(distances.front(), 1);
    EXPECT_EQ(distances.back(), 1 << 20);
    EXPECT_LE(distances.size(), std::size_t(500 * kLogDecaySamplesPerColumn + 2));
    for (std::size_t i = 1; i < distances.size(); ++i) EXPECT_GT(distances[i], distances[i - 1]);
    for (double d = 1; d <= 10; ++d)  // the first decade: every distance (columns are wide)
        EXPECT_NE(std::find(distances.begin(), distances.end(), d), distances.end()) << d;

    // The curve's highest point is the largest bound over 1..4096, its lowest the smallest (the
    // min-max envelope keeps both), each checked against the formula written out above.
    Figure figure = emptyFigure(900, 600, paperTheme());
    PlotFrame frame;
    drawRopeDecay(figure, {0, 0, 900, 600}, 128, 10000, 4096, paperTheme(), nullptr, &frame,
                  DistanceAxis::Logarithmic);
    EXPECT_TRUE(frame.x.logarithmic);
    EXPECT_TRUE(hasTextContaining(figure, "log scale"));
    double expectedHigh = -INFINITY, expectedLow = INFINITY;
    for (double d : logDecayDistances(4096, texelBudget(900.f))) {
        expectedHigh = std::max(expectedHigh, decayBound(128, 10000, d));
        expectedLow = std::min(expectedLow, decayBound(128, 10000, d));
    }
    double high = -INFINITY, low = INFINITY;
    for (const FigureItem& item : figure.items) {
        if (const auto* line = std::get_if<PolylineItem>(&item)) {
            for (Point p : line->points) {
                high = std::max(high, frame.toData(p).second);
                low = std::min(low, frame.toData(p).second);
            }
        }
    }
    EXPECT_NEAR(high, expectedHigh, 0.05);  // pixels back to data: about 0.03 per pixel
    EXPECT_NEAR(low, expectedLow, 0.05);
    // r = 1 is near r = 0's 32.5 but below it.
    EXPECT_LT(high, 32.5);
    EXPECT_GT(high, 25.0);
}

TEST(RopeFiguresTest, DecayCurveComputesAtMostSixteenDistancesPerPixelColumn) {
    // Up to 16 per column: every distance.
    const auto every = ropeDecayCurve(128, 10000, 3000, 400);
    ASSERT_TRUE(every.ok());
    EXPECT_EQ(every->step, 1);
    ASSERT_EQ(every->distances.size(), 3001u);
    // Beyond: an even grid from 0, and the last distance, never more than 16 per column.
    const auto grid = ropeDecayCurve(128, 10000, 20000, 400);
    ASSERT_TRUE(grid.ok());
    EXPECT_EQ(grid->step, 4);  // ceil(20001 / 6400)
    EXPECT_LE(grid->distances.size(), 16u * 400 + 1);
    EXPECT_EQ(grid->distances.front(), 0);
    EXPECT_EQ(grid->distances.back(), 20000);
    for (std::size_t i = 0; i < grid->distances.size(); i += 97) {
        EXPECT_NEAR(grid->bounds[i], decayBound(128, 10000, grid->distances[i]), 1e-9)
            << grid->distances[i];
    }
    EXPECT_NEAR(grid->bounds.back(), decayBound(128, 10000, 20000), 1e-9);
    EXPECT_NEAR(ropeDecayBoundAt(128, 10000, 12345), decayBound(128, 10000, 12345), 1e-9);
    // The maximum and the checks of ropeDecayBound.
    const auto largest = ropeDecayCurve(8192, 10000, 1 << 20, 1200);
    ASSERT_TRUE(largest.ok());
    EXPECT_LE(largest->distances.size(), 16u * 1200 + 1);
    EXPECT_NEAR(largest->bounds.front(), (4096 + 1) / 2.0, 1e-9);  // r = 0: mean of 1..d/2
    EXPECT_FALSE(ropeDecayCurve(127, 10000, 10, 100).ok());
    EXPECT_FALSE(ropeDecayCurve(128, 10000, (1 << 20) + 1, 100).ok());

    // The band's caption names the grid.
    Figure figure = emptyFigure(500, 300, paperTheme());
    drawRopeDecay(figure, {0, 0, 500, 300}, 128, 10000, 1 << 20, paperTheme(), nullptr);
    EXPECT_TRUE(hasTextContaining(figure, "min to max over each pixel column of"));
    EXPECT_TRUE(hasTextContaining(figure, "distances, step"));
}

TEST(RopeFiguresTest, RotationLegendWrapsInsideNarrowFigures) {
    // At 500 and 700 pixels the legend row (and the title) no longer fit on one line: every
    // text stays inside the figure, by the same width estimate the layout uses.
    RopeRotationOptions options;
    options.q = seededGaussianVector(128, 1);
    options.k = seededGaussianVector(128, 2);
    options.m = 10;
    options.n = 4;
    for (float width : {500.f, 700.f, 1200.f}) {
        for (const Theme& theme : {paperTheme(), darkTheme()}) {
            Figure figure = emptyFigure(width, 600, theme);
            drawRopeRotation(figure, {0, 0, width, 600}, params(128), options, theme);
            int legendTexts = 0;
            for (const FigureItem& item : figure.items) {
                const auto* text = std::get_if<TextItem>(&item);
                if (!text) continue;
                const float w = estimateTextWidth(text->text, text->size);
                float left = text->anchor.x;
                if (text->horizontal == HorizontalAlign::Center) left -= w / 2;
                if (text->horizontal == HorizontalAlign::Right) left -= w;
                EXPECT_GE(left, 0) << width << ": " << text->text;
                EXPECT_LE(left + w, width + 0.5f) << width << ": " << text->text;
                legendTexts += text->text.rfind("q·k = ", 0) == 0;
            }
            EXPECT_EQ(legendTexts, 1) << width;
        }
    }
}

TEST(RopeFiguresTest, InvalidParametersDrawTheMessage) {
    RopeParams p = params(16);
    p.headDim = 3;
    Figure figure = emptyFigure(600, 400, darkTheme());
    drawRopeFrequencies(figure, {0, 0, 600, 400}, p, {}, darkTheme());
    EXPECT_TRUE(hasTextContaining(figure, "must be even"));
    EXPECT_EQ(firstDataHeatmap(figure), nullptr);

    RopeRotationOptions wrongSize;
    wrongSize.q = {1, 2};
    wrongSize.k = {1, 2};
    Figure rotation = emptyFigure(600, 400, darkTheme());
    drawRopeRotation(rotation, {0, 0, 600, 400}, params(16), wrongSize, darkTheme());
    EXPECT_TRUE(hasTextContaining(rotation, "q and k need 16 entries each (got 2 and 2)"));
}

TEST(RopeFiguresTest, TitlesNameTheSetup) {
    RopeParams p = params(100);
    p.rotaryFraction = 0.5;
    p.pairing = RopePairing::Interleaved;
    p.scaling.type = RopeScaling::Linear;
    p.scaling.factor = 4;
    EXPECT_EQ(ropeTitle(p), "head_dim 100 (50 rotated), base 10000, interleaved pairs, linear ×4");
    EXPECT_EQ(ropeScalingSummary(params(8)), "no scaling");
    RopeParams proportional = params(512);  // Gemma 4's full layers: p = 0.25, factor 1
    proportional.scaling.type = RopeScaling::Proportional;
    proportional.scaling.ropeProportion = 0.25;
    EXPECT_EQ(ropeScalingSummary(proportional), "p-RoPE 25% rotating");
    EXPECT_EQ(parseTurnReference("training").value(), RopeTurnReference::Training);
    EXPECT_FALSE(parseTurnReference("both").ok());
}

// YaRN's attention factor 0.1 ln s + 1 scales cos and sin, so every q.k carries its square:
// s = 4 gives (0.1 ln 4 + 1)^2 = 1.2968..., which the rotation legend and the score colour bar
// state; without scaling they say nothing about it.
TEST(RopeFiguresTest, ScoresNameTheAttentionFactorSquared) {
    RopeParams p = params(16, 64);
    p.scaling.type = RopeScaling::Yarn;
    p.scaling.factor = 4;
    p.scaling.originalMaxPositions = 32;
    const double gain = std::pow(0.1 * std::log(4.0) + 1.0, 2.0);
    char expected[64];
    std::snprintf(expected, sizeof expected, "attention factor² %.4g", gain);
    RopeScoreOptions scores;
    scores.q = seededGaussianVector(16, 1);
    scores.k = seededGaussianVector(16, 2);
    Figure figure = emptyFigure(900, 700, paperTheme());
    drawRopeScores(figure, {0, 0, 900, 700}, p, scores, paperTheme(), nullptr);
    EXPECT_TRUE(hasTextContaining(figure, expected)) << expected;
    RopeRotationOptions rotation;
    rotation.q = scores.q;
    rotation.k = scores.k;
    Figure rotated = emptyFigure(900, 700, paperTheme());
    drawRopeRotation(rotated, {0, 0, 900, 700}, p, rotation, paperTheme());
    EXPECT_TRUE(hasTextContaining(rotated, expected)) << expected;
    Figure plain = emptyFigure(900, 700, paperTheme());
    drawRopeScores(plain, {0, 0, 900, 700}, params(16, 64), scores, paperTheme(), nullptr);
    EXPECT_FALSE(hasTextContaining(plain, "attention factor"));
}

}  // namespace
}  // namespace poslab
