// The logit split into content/position terms: identities (the four terms sum to the logit of
// the summed vectors), the exact density of random cosines, and what the parameters promise.
#include "poslab/analysis/meaning.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace poslab {
namespace {

TEST(MeaningTest, FourTermsSumToTheFullLogit) {
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

TEST(MeaningTest, TermsAreScaledDotProducts) {
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

TEST(MeaningTest, RepeatedTokensShareTheirVector) {
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

TEST(MeaningTest, LoadedTokenVectorsAreUsedAsGiven) {
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

TEST(MeaningTest, RandomCosineDensityIsANormalisedDensityWithVarianceOneOverD) {
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

TEST(MeaningTest, SampledCosinesNarrowAsOneOverSqrtD) {
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

TEST(MeaningTest, PositionIsRecoveredExactlyWithoutContentAndApproximatelyWithIt) {
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

TEST(MeaningTest, BadInputsAreOneLineErrors) {
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

// ---- The figures' numerics: bounded work at the largest settings, against the full computation

// The mean of each b x b block of an L x L matrix, written out.
Matrix blockMeans(const Matrix& m, std::size_t b) {
    Matrix out((m.rows + b - 1) / b, (m.cols + b - 1) / b);
    for (std::size_t u = 0; u < out.rows; ++u) {
        for (std::size_t v = 0; v < out.cols; ++v) {
            double sum = 0;
            int cells = 0;
            for (std::size_t i = u * b; i < std::min(m.rows, (u + 1) * b); ++i) {
                for (std::size_t j = v * b; j < std::min(m.cols, (v + 1) * b); ++j)
                    sum += m(i, j), ++cells;
            }
            out(u, v) = sum / cells;
        }
    }
    return out;
}

double rmsOverRows(const Matrix& m, const std::vector<int>& rows) {
    double sum = 0;
    for (int i : rows) {
        for (std::size_t j = 0; j < m.cols; ++j) sum += m(std::size_t(i), j) * m(std::size_t(i), j);
    }
    return std::sqrt(sum / double(rows.size() * m.cols));
}

TEST(MeaningTest, NearOrthogonalityDrawsAPrefixOfTheSeededStream) {
    // At most 2^24 random components: d = 8192 draws 2048 of a million vectors, d = 64 all 20000.
    EXPECT_EQ(nearOrthogonalitySamples(8192, 1000000), 2048);
    EXPECT_EQ(nearOrthogonalitySamples(64, 20000), 20000);
    EXPECT_EQ(nearOrthogonalitySamples(64, 1000000), 262144);
    EXPECT_LE(8192LL * nearOrthogonalitySamples(8192, 1000000), kOrthogonalityComponents);
    // The same cosines as randomPositionCosines, value for value (the first draws of the stream).
    const auto fast = nearOrthogonalityCosines(48, 500, 3);
    const auto full = randomPositionCosines(48, 10000, 500, 4096, 3);
    ASSERT_TRUE(fast.ok() && full.ok());
    ASSERT_EQ(fast->size(), full->size());
    for (std::size_t i = 0; i < fast->size(); ++i) EXPECT_EQ((*fast)[i], (*full)[i]) << i;
    // The subsample's spread is the law's: std 1/sqrt(d) within 10% (its own error is ~1.6%).
    const auto wide = nearOrthogonalityCosines(8192, 1000000, 1);
    ASSERT_TRUE(wide.ok());
    ASSERT_EQ(wide->size(), 2048u);
    double sum2 = 0;
    for (double c : *wide) sum2 += c * c;
    EXPECT_NEAR(std::sqrt(sum2 / 2048), 1 / std::sqrt(8192.0), 0.1 / std::sqrt(8192.0));
}

TEST(MeaningTest, LogitTermMapsAreTheBlockMeansOfTheFullTerms) {
    MeaningParams params;
    params.seqLen = 40;
    params.dModel = 16;
    params.vocabulary = 7;
    const LogitTerms full = decomposeLogits(params).value();
    const auto maps = logitTermMaps(params, 13);  // 4 x 4 cells a texel: 10 x 10
    ASSERT_TRUE(maps.ok());
    EXPECT_EQ(maps->cellsPerTexel, 4);
    EXPECT_EQ(maps->rmsRows, 40);  // all rows: exact
    const Matrix* fullTerms[5] = {&full.contentContent, &full.contentPosition,
                                  &full.positionContent, &full.positionPosition, &full.total};
    const Matrix* mapTerms[5] = {&maps->means.contentContent, &maps->means.contentPosition,
                                 &maps->means.positionContent, &maps->means.positionPosition,
                                 &maps->means.total};
    std::vector<int> every(40);
    for (int i = 0; i < 40; ++i) every[std::size_t(i)] = i;
    for (int t = 0; t < 5; ++t) {
        const Matrix expected = blockMeans(*fullTerms[t], 4);
        ASSERT_EQ(mapTerms[t]->rows, 10u);
        for (std::size_t i = 0; i < expected.values.size(); ++i)
            EXPECT_NEAR(mapTerms[t]->values[i], expected.values[i], 1e-12) << t;
        EXPECT_NEAR(maps->rms[t], rmsOverRows(*fullTerms[t], every), 1e-12) << t;
    }
    // A budget for 8 rows: the RMS over 8 evenly spaced query rows (all keys), which is within
    // 20% of the RMS over every cell here.
    const auto sampled = logitTermMaps(params, 13, 8LL * 5 * 40 * 16);
    ASSERT_TRUE(sampled.ok());
    EXPECT_EQ(sampled->rmsRows, 8);
    const std::vector<int> rows = {0, 6, 11, 17, 22, 28, 33, 39};  // round(s * 39 / 7)
    for (int t = 0; t < 5; ++t) {
        EXPECT_NEAR(sampled->rms[t], rmsOverRows(*fullTerms[t], rows), 1e-12) << t;
        EXPECT_NEAR(sampled->rms[t], maps->rms[t], 0.2 * maps->rms[t]) << t;
    }
}

TEST(MeaningTest, RecoveryErrorOverEvenlySpacedQueries) {
    MeaningParams params;
    params.seqLen = 60;
    params.dModel = 8;
    params.contentScale = 1.5;
    // All queries: positionRecoveryError itself.
    EXPECT_NEAR(sampledRecoveryError(params, 60).value(), positionRecoveryError(params).value(),
                1e-12);
    // 7 queries: the read-back written out for i = round(s * 59 / 6).
    const MeaningSequence sequence = buildSequence(params).value();
    const std::size_t d = 8;
    double error = 0;
    for (int s = 0; s < 7; ++s) {
        const std::size_t i = std::size_t(std::llround(s * 59.0 / 6));
        std::size_t best = 0;
        double bestScore = -INFINITY;
        for (std::size_t j = 0; j < 60; ++j) {
            double dot = 0, norm = 0;
            for (std::size_t k = 0; k < d; ++k) {
                dot +=
                    (sequence.tokens(i, k) + sequence.positions(i, k)) * sequence.positions(j, k);
                norm += sequence.positions(j, k) * sequence.positions(j, k);
            }
            const double score = dot / (norm > 0 ? std::sqrt(norm) : 1);
            if (score > bestScore) bestScore = score, best = j;
        }
        error += std::abs(double(best) - double(i));
    }
    EXPECT_NEAR(sampledRecoveryError(params, 7).value(), error / 7, 1e-12);
    // The figure's choice: every query while L^2 d fits the budget, else evenly spaced ones.
    EXPECT_EQ(recoveryQueries(48, 64), 48);
    EXPECT_EQ(recoveryQueries(1024, 2048), 64);  // 2^27 / (1024 * 2048)
    EXPECT_EQ(recoveryQueries(1024, 1 << 20), 16);
}

TEST(MeaningTest, HistogramsOfRangesPastTheLargestDoubleBinEveryValue) {
    // Failed before (undefined behaviour): the bin width was inf, (v - low) / width NaN, and
    // int(NaN) an arbitrary bin. The two ends and the middle land in the first, last and middle.
    const Histogram h = makeHistogram({-1.7e308, 0.0, 1.7e308}, 4, -1.7e308, 1.7e308);
    ASSERT_EQ(h.density.size(), 4u);
    for (double d : h.density) EXPECT_TRUE(std::isfinite(d));
    EXPECT_GT(h.density[0], 0);
    EXPECT_GT(h.density[2], 0);  // 0 is the start of the third bin
    EXPECT_GT(h.density[3], 0);
    EXPECT_EQ(h.density[1], 0);
}

}  // namespace
}  // namespace poslab
