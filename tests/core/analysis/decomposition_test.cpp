// The logit split into content/position terms: identities (the four terms sum to the logit of
// the summed vectors), the exact density of random cosines, and what the parameters promise.
#include "poslab/analysis/decomposition.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace poslab {
namespace {

TEST(DecompositionTest, FourTermsSumToTheFullLogit) {
    for (PositionTableKind kind : {PositionTableKind::Sinusoidal, PositionTableKind::Learned}) {
        MeaningParams params;
        params.dModel = 40;
        params.seqLen = 30;
        params.positions = kind;
        params.contentScale = 0.7;
        params.positionScale = kind == PositionTableKind::Learned ? 50 : 1;
        auto terms = decomposeLogits(params);
        ASSERT_TRUE(terms.ok()) << terms.error().message;
        for (int i = 0; i < 30; ++i) {
            for (int j = 0; j < 30; ++j) {
                const double sum = terms->contentContent(i, j) + terms->contentPosition(i, j) +
                                   terms->positionContent(i, j) + terms->positionPosition(i, j);
                EXPECT_NEAR(sum, terms->total(i, j), 1e-12 * (1 + std::abs(terms->total(i, j))));
                // x_i . p_j is p_j . x_i: the cross terms are transposes of each other.
                EXPECT_DOUBLE_EQ(terms->contentPosition(i, j), terms->positionContent(j, i));
            }
        }
    }
}

TEST(DecompositionTest, TermsAreScaledDotProducts) {
    MeaningParams params;
    params.dModel = 16;
    params.seqLen = 5;
    const MeaningSequence sequence = buildSequence(params).value();
    const LogitTerms terms = decomposeLogits(params).value();
    // p_i . p_j of the sinusoidal table: sum_k cos(w_k (i - j)), divided by sqrt(16) = 4.
    for (int i = 0; i < 5; ++i) {
        for (int j = 0; j < 5; ++j) {
            double expected = 0;
            for (int k = 0; k < 8; ++k)
                expected += std::cos((i - j) / std::pow(10000.0, 2.0 * k / 16));
            EXPECT_NEAR(terms.positionPosition(i, j), expected / 4, 1e-14);
            double cc = 0;
            for (int k = 0; k < 16; ++k) cc += sequence.tokens(i, k) * sequence.tokens(j, k);
            EXPECT_NEAR(terms.contentContent(i, j), cc / 4, 1e-14);
        }
    }
}

TEST(DecompositionTest, RepeatedTokensShareTheirVector) {
    MeaningParams params;
    params.dModel = 32;
    params.seqLen = 60;
    params.vocabulary = 3;  // 60 tokens from 3 words: many repeats
    params.contentScale = 2;
    const MeaningSequence sequence = buildSequence(params).value();
    int repeats = 0;
    double sum2 = 0;
    for (int i = 0; i < 60; ++i) {
        ASSERT_GE(sequence.tokenIds[i], 0);
        ASSERT_LT(sequence.tokenIds[i], 3);
        for (int j = 0; j < i; ++j) {
            if (sequence.tokenIds[i] != sequence.tokenIds[j]) continue;
            ++repeats;
            for (int k = 0; k < 32; ++k) EXPECT_EQ(sequence.tokens(i, k), sequence.tokens(j, k));
        }
        for (int k = 0; k < 32; ++k) sum2 += sequence.tokens(i, k) * sequence.tokens(i, k);
    }
    EXPECT_GT(repeats, 100);
    EXPECT_NEAR(std::sqrt(sum2 / (60 * 32)), 2.0, 0.6);  // 3 words x 32 draws of std 2
}

TEST(DecompositionTest, LoadedTokenVectorsAreUsedAsGiven) {
    auto tokens = std::make_shared<Matrix>(4, 2);
    (*tokens)(1, 0) = 3;
    MeaningParams params;
    params.dModel = 2;
    params.seqLen = 4;
    params.tokens = tokens;
    const MeaningSequence sequence = buildSequence(params).value();
    EXPECT_EQ(sequence.tokens(1, 0), 3);
    EXPECT_EQ(sequence.tokenIds[1], -1);
    params.seqLen = 5;
    EXPECT_EQ(buildSequence(params).error().message,
              "seq_len must be 2..4 for these token vectors (got 5)");
    params.seqLen = 4;
    params.dModel = 3;
    EXPECT_EQ(buildSequence(params).error().message,
              "d_model must equal the token vectors' width 2 (got 3)");
}

TEST(DecompositionTest, RandomCosineDensityIsANormalisedDensityWithVarianceOneOverD) {
    for (int d : {2, 3, 8, 64, 1024}) {
        double mass = 0, second = 0;
        const int steps = 200000;
        for (int s = 0; s < steps; ++s) {
            const double c = -1 + (s + 0.5) * 2.0 / steps;
            const double f = randomCosineDensity(d, c);
            mass += f * 2.0 / steps;
            second += c * c * f * 2.0 / steps;
        }
        EXPECT_NEAR(mass, 1.0, d == 2 ? 5e-3 : 1e-6)
            << d;  // d = 2: integrable singularities at +-1
        EXPECT_NEAR(second, 1.0 / d, d == 2 ? 5e-3 : 1e-6) << d;
    }
}

TEST(DecompositionTest, SampledCosinesNarrowAsOneOverSqrtD) {
    for (int d : {16, 256, 2048}) {
        const std::vector<double> cosines = randomPositionCosines(d, 10000, 20000, 4096, 3).value();
        const Histogram h = makeHistogram(cosines, 50, -1, 1);
        EXPECT_NEAR(h.mean, 0.0, 4 / std::sqrt(20000.0 * d));
        EXPECT_NEAR(h.stddev * std::sqrt(double(d)), 1.0, 0.03) << d;
        double mass = 0;
        for (double v : h.density) mass += v * (2.0 / 50);
        EXPECT_NEAR(mass, 1.0, 1e-12);
    }
}

TEST(DecompositionTest, PositionIsRecoveredExactlyWithoutContentAndApproximatelyWithIt) {
    MeaningParams params;
    params.dModel = 64;
    params.seqLen = 64;
    params.contentScale = 0;
    EXPECT_EQ(positionRecoveryError(params).value(), 0.0);
    params.contentScale = 1;
    const double small = positionRecoveryError(params).value();
    params.dModel = 1024;
    const double large = positionRecoveryError(params).value();
    EXPECT_GT(small, 0.0);
    EXPECT_LT(large, small);  // wider vectors: content interferes less with the position readout
}

TEST(DecompositionTest, BadInputsAreOneLineErrors) {
    MeaningParams params;
    params.dModel = 1;
    EXPECT_EQ(buildSequence(params).error().message, "d_model must be 2..2048 (got 1)");
    params.dModel = 8;
    params.vocabulary = 0;
    EXPECT_EQ(buildSequence(params).error().message, "vocabulary must be 1..100000 (got 0)");
    EXPECT_EQ(parsePositionTable("rope").error().message,
              "positions must be sinusoidal or learned (got 'rope')");
    EXPECT_FALSE(randomPositionCosines(1, 10000, 10, 10, 0).ok());
    EXPECT_FALSE(decomposeLogits(Matrix(2, 3), Matrix(3, 3), 1).ok());
}

TEST(DecompositionTest, HistogramsOfRangesPastTheLargestDoubleBinEveryValue) {
    // Failed before (undefined behaviour): the bin width was inf, (v - low) / width NaN, and
    // int(NaN) an arbitrary bin. The two ends and the middle land in the first, last and middle.
    const Histogram h = makeHistogram({-1.7e308, 0.0, 1.7e308}, 4, -1.7e308, 1.7e308);
    ASSERT_EQ(h.density.size(), 4u);
    double total = 0;
    for (double d : h.density) {
        EXPECT_TRUE(std::isfinite(d));
        total += d;
    }
    EXPECT_GT(h.density[0], 0);
    EXPECT_GT(h.density[2], 0);  // 0 is the start of the third bin
    EXPECT_GT(h.density[3], 0);
    EXPECT_EQ(h.density[1], 0);
}

}  // namespace
}  // namespace poslab
