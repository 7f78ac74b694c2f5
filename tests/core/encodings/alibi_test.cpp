#include "poslab/encodings/alibi.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>
#include "../test_math.hpp"

namespace poslab {
namespace {

// The slopes written out from the paper's closed form, independently of the library:
// n a power of two: m_h = 2^(-8 (h+1) / n). Otherwise, with p = 2^floor(log2 n), the p slopes
// of p heads, then the 2p-head slopes at even indices 0, 2, 4, ...: 2^(-8 (2k+1) / (2p)).
std::vector<double> referenceSlopes(int n) {
    int p = 1;
    while (p * 2 <= n) p *= 2;
    std::vector<double> slopes;
    for (int h = 0; h < p; ++h) slopes.push_back(std::exp2(-8.0 * (h + 1) / p));
    for (int k = 0; k < n - p; ++k) slopes.push_back(std::exp2(-8.0 * (2 * k + 1) / (2 * p)));
    return slopes;
}

AlibiParams alibiParams(int heads, int head, int length, bool symmetric = false) {
    AlibiParams p;
    p.heads = heads;
    p.head = head;
    p.seqLen = length;
    p.symmetric = symmetric;
    return p;
}

TEST(AlibiTest, PaperEightHeadSlopesAreExactPowersOfTwo) {
    // Press et al. section 3: "for 8 heads the slopes are 1/2^1, 1/2^2, ..., 1/2^8".
    const std::vector<double> slopes = alibiSlopes(8);
    const std::vector<double> expected = {1.0 / 2,  1.0 / 4,  1.0 / 8,   1.0 / 16,
                                          1.0 / 32, 1.0 / 64, 1.0 / 128, 1.0 / 256};
    EXPECT_EQ(slopes, expected);  // bit for bit: every step is a power of two
}

TEST(AlibiTest, SixteenHeadSlopesStartAtOneOverRootTwo) {
    // The paper: "for 16 heads ... 1/2^0.5, 1/2^1, ..., 1/2^8", the 8-head slopes interleaved
    // with their geometric means.
    const std::vector<double> slopes = alibiSlopes(16);
    ASSERT_EQ(slopes.size(), 16u);
    for (int h = 0; h < 16; ++h) {
        EXPECT_NEAR(slopes[h], std::exp2(-0.5 * (h + 1)), 1e-15) << h;
    }
    // Not exactly 1/2: fairseq's start * start**1 with start = 2^-0.5 rounds to 0.5000000000000001.
    EXPECT_DOUBLE_EQ(slopes[1], 0.5000000000000001);
}

TEST(AlibiTest, TwelveHeadsMatchFairseqGetSlopes) {
    // get_slopes(12) printed by Python from the fairseq function: 8-head slopes, then
    // get_slopes(16)[0::2][:4] = 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5 (computed as start * start**i,
    // hence the last-digit drift from exact powers).
    const std::vector<double> fairseq = {0.5,
                                         0.25,
                                         0.125,
                                         0.0625,
                                         0.03125,
                                         0.015625,
                                         0.0078125,
                                         0.00390625,
                                         0.7071067811865476,
                                         0.35355339059327384,
                                         0.17677669529663692,
                                         0.08838834764831849};
    const std::vector<double> slopes = alibiSlopes(12);
    ASSERT_EQ(slopes.size(), fairseq.size());
    for (std::size_t h = 0; h < slopes.size(); ++h) EXPECT_DOUBLE_EQ(slopes[h], fairseq[h]) << h;
    const double tail[4] = {std::exp2(-0.5), std::exp2(-1.5), std::exp2(-2.5), std::exp2(-3.5)};
    for (int k = 0; k < 4; ++k) EXPECT_NEAR(slopes[8 + k], tail[k], 1e-15) << k;
}

TEST(AlibiTest, OddHeadCountsAreNotSorted) {
    // n = 1 is 2^0, a power of two: start = 2^(-2^3) = 1/256.
    EXPECT_EQ(alibiSlopes(1), std::vector<double>({1.0 / 256}));
    // n = 3: get_slopes(2) = [2^-4, 2^-8], then get_slopes(4)[0::2][:1] = [2^-2].
    EXPECT_EQ(alibiSlopes(3), std::vector<double>({1.0 / 16, 1.0 / 256, 1.0 / 4}));
    // n = 5: get_slopes(4) = [2^-2, 2^-4, 2^-6, 2^-8], then get_slopes(8)[0::2][:1] = [2^-1].
    EXPECT_EQ(alibiSlopes(5),
              std::vector<double>({1.0 / 4, 1.0 / 16, 1.0 / 64, 1.0 / 256, 1.0 / 2}));
    // n = 6 adds get_slopes(8)[2] = 2^-3.
    EXPECT_EQ(alibiSlopes(6),
              std::vector<double>({1.0 / 4, 1.0 / 16, 1.0 / 64, 1.0 / 256, 1.0 / 2, 1.0 / 8}));
}

TEST(AlibiTest, OneHundredTwentyEightHeads) {
    // 2^(-(h+1)/16); Python's start * start**h gives 0.5000000000000004 at h = 15 and
    // 0.003906250000000028 at h = 127.
    const std::vector<double> slopes = alibiSlopes(128);
    ASSERT_EQ(slopes.size(), 128u);
    EXPECT_DOUBLE_EQ(slopes[0], 0.9576032806985737);
    EXPECT_DOUBLE_EQ(slopes[15], 0.5000000000000004);
    EXPECT_DOUBLE_EQ(slopes[63], 0.06250000000000022);
    EXPECT_DOUBLE_EQ(slopes[127], 0.003906250000000028);
    for (int h = 0; h < 128; ++h) EXPECT_NEAR(slopes[h] / std::exp2(-(h + 1) / 16.0), 1.0, 1e-14);
}

TEST(AlibiTest, EveryHeadCountMatchesTheClosedForm) {
    for (int n = 1; n <= kMaxAlibiHeads; ++n) {
        const std::vector<double> slopes = alibiSlopes(n);
        const std::vector<double> expected = referenceSlopes(n);
        ASSERT_EQ(slopes.size(), std::size_t(n));
        for (int h = 0; h < n; ++h) {
            ASSERT_NEAR(slopes[h] / expected[h], 1.0, 1e-13) << "n=" << n << " h=" << h;
        }
    }
}

TEST(AlibiTest, PowerOfTwoSlopesAreGeometricWithRatioEqualToTheFirst) {
    for (int n : {1, 2, 4, 8, 16, 32, 64, 128}) {
        const std::vector<double> slopes = alibiSlopes(n);
        for (int h = 0; h + 1 < n; ++h) {
            EXPECT_NEAR(slopes[h + 1] / slopes[h], slopes[0], 1e-14) << n << " " << h;
        }
        EXPECT_NEAR(slopes[n - 1] * 256, 1.0, 1e-13);  // every power of two ends at 2^-8
    }
}

TEST(AlibiTest, InvalidHeadCountsGiveNoSlopes) {
    EXPECT_TRUE(alibiSlopes(0).empty());
    EXPECT_TRUE(alibiSlopes(-3).empty());
}

TEST(AlibiTest, CausalBiasIsLinearBelowAndMaskedAbove) {
    auto bias = alibiBias(alibiParams(8, 2, 7));  // slope 1/8
    ASSERT_TRUE(bias.ok()) << bias.error().message;
    ASSERT_EQ(bias->rows, 7u);
    ASSERT_EQ(bias->cols, 7u);
    for (int i = 0; i < 7; ++i) {
        for (int j = 0; j < 7; ++j) {
            if (j > i) {
                EXPECT_EQ((*bias)(i, j), -kInf) << i << "," << j;
            } else {
                EXPECT_EQ((*bias)(i, j), -(i - j) / 8.0) << i << "," << j;
            }
        }
    }
    EXPECT_EQ((*bias)(6, 0), -0.75);
    EXPECT_EQ((*bias)(3, 3), 0.0);
}

TEST(AlibiTest, SymmetricBiasIsMinusSlopeTimesDistance) {
    auto bias = alibiBias(alibiParams(4, 0, 9, true));  // 4 heads: slopes 1/4, 1/16, 1/64, 1/256
    ASSERT_TRUE(bias.ok());
    for (int i = 0; i < 9; ++i) {
        for (int j = 0; j < 9; ++j) {
            EXPECT_EQ((*bias)(i, j), -std::abs(i - j) / 4.0);
            EXPECT_EQ((*bias)(i, j), (*bias)(j, i));
        }
    }
}

TEST(AlibiTest, BiasValueHelper) {
    EXPECT_EQ(alibiBiasValue(0.5, 4, 1, false), -1.5);
    EXPECT_EQ(alibiBiasValue(0.5, 1, 4, false), -kInf);
    EXPECT_EQ(alibiBiasValue(0.5, 1, 4, true), -1.5);
}

TEST(AlibiTest, ZeroContentAttentionIsATruncatedGeometricSeries) {
    // softmax_j(-m (i - j)) over j = 0..i: w_j = r^(i-j) (1 - r) / (1 - r^(i+1)), r = e^-m.
    const double m = 0.25;
    const int length = 20;
    for (int i : {0, 1, 7, 19}) {
        auto row = alibiAttentionRow(m, i, length, {}, false);
        ASSERT_TRUE(row.ok()) << row.error().message;
        ASSERT_EQ(row->size(), std::size_t(length));
        const double r = std::exp(-m);
        double sum = 0;
        for (int j = 0; j < length; ++j) {
            if (j > i) {
                EXPECT_EQ((*row)[j], 0.0) << "masked key " << j;  // exactly zero
            } else {
                const double expected = std::pow(r, i - j) * (1 - r) / (1 - std::pow(r, i + 1));
                EXPECT_NEAR((*row)[j], expected, 1e-15) << i << "," << j;
            }
            sum += (*row)[j];
        }
        EXPECT_NEAR(sum, 1.0, 1e-15);
    }
}

TEST(AlibiTest, AttentionMatchesFairseqRowConstantForm) {
    // fairseq adds +m * j (the same row for every query) plus the causal -inf mask; softmax is
    // shift invariant, so that must equal our -m (i - j). Reference softmax written out here.
    const double m = alibiSlopes(8)[0];
    const std::vector<double> content = {0.3, -1.2, 2.0, 0.0, 0.7, -0.4, 1.1, 0.9};
    const int i = 5;
    double denominator = 0;
    for (int j = 0; j <= i; ++j) denominator += std::exp(content[j] + m * j);
    auto row = alibiAttentionRow(m, i, 8, content, false);
    ASSERT_TRUE(row.ok());
    for (int j = 0; j <= i; ++j) {
        EXPECT_NEAR((*row)[j], std::exp(content[j] + m * j) / denominator, 1e-15) << j;
    }
    EXPECT_EQ((*row)[6], 0.0);
    EXPECT_EQ((*row)[7], 0.0);
}

TEST(AlibiTest, SymmetricAttentionSumsToOneAndMirrors) {
    auto row = alibiAttentionRow(0.5, 10, 21, {}, true);
    ASSERT_TRUE(row.ok());
    double sum = 0;
    for (double w : *row) sum += w;
    EXPECT_NEAR(sum, 1.0, 1e-15);
    for (int k = 1; k <= 10; ++k) EXPECT_NEAR((*row)[10 - k], (*row)[10 + k], 1e-17);
    for (int j = 0; j < 21; ++j) EXPECT_GT((*row)[j], 0.0);
}

TEST(AlibiTest, SoftmaxIsStableForHugeLogits) {
    // A naive exp(1000) overflows; shifting by the largest logit keeps every term finite.
    std::vector<double> content(6, 1000.0);
    content[2] = 1001.0;
    auto shifted = alibiAttentionRow(0.0, 5, 6, content, false);
    ASSERT_TRUE(shifted.ok());
    const double e = std::exp(1.0);
    for (int j = 0; j < 6; ++j) {
        EXPECT_NEAR((*shifted)[j], (j == 2 ? e : 1.0) / (5 + e), 1e-15) << j;
    }
    std::vector<double> extreme = {1e308, -1e308, 0.0};
    auto row = alibiAttentionRow(1.0, 2, 3, extreme, false);
    ASSERT_TRUE(row.ok());
    EXPECT_EQ((*row)[0], 1.0);
    EXPECT_EQ((*row)[1], 0.0);
    EXPECT_EQ((*row)[2], 0.0);
}

// Terms whose logit is more than 746 below the largest are exactly 0 (exp underflows there) and
// are not passed to exp; the ones just above keep their subnormal values. Against the softmax
// written out.
TEST(AlibiTest, FarTermsUnderflowToZeroAndNearOnesKeepTheirValue) {
    const std::vector<double> content = {0.0, -745.5, -744.6, -800.0, -746.5, -700.0, -745.0};
    auto row = alibiAttentionRow(0.0, 6, 7, content, false);
    ASSERT_TRUE(row.ok());
    double sum = 0;
    for (double c : content) sum += std::exp(c);
    for (std::size_t j = 0; j < content.size(); ++j)
        EXPECT_EQ((*row)[j], std::exp(content[j]) / sum) << j;
    EXPECT_GT((*row)[2], 0.0);  // e^-744.6: the smallest subnormal
    EXPECT_EQ((*row)[4], 0.0);
    // Row after row into one buffer: the same as fresh rows, and the masked tail is reset.
    std::vector<double> buffer;
    ASSERT_TRUE(alibiAttentionRowInto(0.5, 6, 7, {}, false, buffer));
    ASSERT_TRUE(alibiAttentionRowInto(0.25, 2, 7, {}, false, buffer));
    EXPECT_EQ(buffer, *alibiAttentionRow(0.25, 2, 7, {}, false));
    EXPECT_EQ(alibiAttentionRowInto(0.5, 0, 2, {1.0, -INFINITY}, false, buffer).error().message,
              "content logit 1 must be a finite number (got -inf)");
}

// A long row of a steep head: only the keys near the query are computed, and every weight is
// the softmax written out over the whole row (exp of every logit minus the largest, summed in
// key order, each divided by the sum; exp underflows to exactly 0 far away), bit for bit,
// causal and symmetric, with content logits (a spread of 40) and without. Past nonZero's range
// every weight is 0, and for slope 0 the range is the whole row.
TEST(AlibiTest, FarKeysOfASteepHeadAreSkippedWithTheSameWeights) {
    const int length = 20000;
    std::vector<double> content(length);
    for (int j = 0; j < length; ++j) content[std::size_t(j)] = 20 * std::sin(0.37 * j);
    std::vector<double> buffer;
    for (bool symmetric : {false, true}) {
        for (const std::vector<double>& logits : {std::vector<double>{}, content}) {
            for (double slope : {1.0, 0.25, 0.01, 0.0}) {
                for (int query : {0, 777, 12345, length - 1}) {
                    const int visible = symmetric ? length : query + 1;
                    std::vector<double> x(static_cast<std::size_t>(visible));
                    double largest = -kInf;
                    for (int j = 0; j < visible; ++j) {
                        const double c = logits.empty() ? 0.0 : logits[std::size_t(j)];
                        x[std::size_t(j)] = c - slope * std::abs(double(query) - double(j));
                        largest = std::max(largest, x[std::size_t(j)]);
                    }
                    double sum = 0;
                    for (double& v : x) sum += (v = std::exp(v - largest));
                    std::pair<int, int> nonZero{-1, -1};
                    ASSERT_TRUE(alibiAttentionRowInto(slope, query, length, logits, symmetric,
                                                      buffer, &nonZero));
                    ASSERT_EQ(buffer.size(), std::size_t(length));
                    for (int j = 0; j < length; ++j) {
                        const double expected = j < visible ? x[std::size_t(j)] / sum : 0.0;
                        ASSERT_EQ(buffer[std::size_t(j)], expected)
                            << symmetric << " " << slope << " " << query << " " << j;
                        if (j < nonZero.first || j >= nonZero.second) {
                            ASSERT_EQ(buffer[std::size_t(j)], 0.0) << j;
                        }
                    }
                    EXPECT_LE(nonZero.first, query);
                    EXPECT_GT(nonZero.second, query);
                    if (slope == 0.0) {
                        EXPECT_EQ(nonZero, std::make_pair(0, visible));
                    }
                    // Slope 1: the logits within 746 + 40 of the largest are a few hundred keys
                    // either side, and the range keeps to about that.
                    if (slope == 1.0) {
                        EXPECT_LT(nonZero.second - nonZero.first, 2 * 1000);
                    }
                }
            }
        }
    }
}

TEST(AlibiTest, AttentionRejectsBadInputs) {
    EXPECT_EQ(alibiAttentionRow(0.5, 4, 4, {}, false).error().message,
              "query must be 0..3 (got 4)");
    EXPECT_EQ(alibiAttentionRow(0.5, 0, 3, {1.0, 2.0}, false).error().message,
              "content logits must have seq_len = 3 values (got 2)");
    EXPECT_EQ(alibiAttentionRow(0.5, 0, 2, {1.0, NAN}, false).error().message,
              "content logit 1 must be a finite number (got nan)");
    EXPECT_FALSE(alibiAttentionRow(NAN, 0, 2, {}, false).ok());
    EXPECT_FALSE(alibiAttentionRow(-1.0, 0, 2, {}, false).ok());
    EXPECT_FALSE(alibiAttentionRow(0.5, 0, 0, {}, false).ok());
}

TEST(AlibiTest, ValidationMessages) {
    EXPECT_TRUE(validate(alibiParams(8, 7, 64)).ok());
    EXPECT_EQ(validate(alibiParams(0, 0, 64)).error().message, "heads must be 1..128 (got 0)");
    EXPECT_EQ(validate(alibiParams(129, 0, 64)).error().message, "heads must be 1..128 (got 129)");
    EXPECT_EQ(validate(alibiParams(8, 8, 64)).error().message, "head must be 0..7 (got 8)");
    EXPECT_EQ(validate(alibiParams(8, -1, 64)).error().message, "head must be 0..7 (got -1)");
    EXPECT_EQ(validate(alibiParams(8, 0, 0)).error().message, "seq_len must be 1..1048576 (got 0)");
    // 2^20 x 2^20 doubles is 8 TiB: refused before allocation.
    auto huge = alibiBias(alibiParams(8, 0, 1 << 20));
    ASSERT_FALSE(huge.ok());
    EXPECT_NE(huge.error().message.find("the ALiBi bias matrix"), std::string::npos);
}

}  // namespace
}  // namespace poslab
