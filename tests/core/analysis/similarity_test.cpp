// Similarity matrices against independent truth: brute-force dot products of the tables (and of
// explicitly rotated vectors for RoPE), the closed form sum_k cos(w_k (i - j)) written out here,
// and the Toeplitz identity M[i][j] = M[i+1][j+1].
#include "poslab/analysis/similarity.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

namespace poslab {
namespace {

SimilarityParams sinusoidal(int d, int length, SinusoidalLayout layout, SimilarityMetric metric) {
    SimilarityParams params;
    params.encoding = SimilarityEncoding::Sinusoidal;
    params.metric = metric;
    params.seqLen = length;
    params.sinusoidal.dModel = d;
    params.sinusoidal.layout = layout;
    return params;
}

// The reference: the table's rows multiplied out, normalised for cosine.
Matrix bruteForce(const Matrix& table, SimilarityMetric metric) {
    Matrix out(table.rows, table.rows);
    for (std::size_t i = 0; i < table.rows; ++i) {
        for (std::size_t j = 0; j < table.rows; ++j) {
            double dot = 0, ni = 0, nj = 0;
            for (std::size_t k = 0; k < table.cols; ++k) {
                dot += table(i, k) * table(j, k);
                ni += table(i, k) * table(i, k);
                nj += table(j, k) * table(j, k);
            }
            out(i, j) = metric == SimilarityMetric::Dot ? dot : dot / std::sqrt(ni * nj);
        }
    }
    return out;
}

struct SinusoidalCase {
    int d;
    SinusoidalLayout layout;
    SimilarityMetric metric;
};

class SinusoidalSimilarityTest : public ::testing::TestWithParam<SinusoidalCase> {};

TEST_P(SinusoidalSimilarityTest, EqualsTheTableMultipliedOut) {
    const SinusoidalCase c = GetParam();
    const int length = 70;
    const SimilarityParams params = sinusoidal(c.d, length, c.layout, c.metric);
    auto matrix = similarityMatrix(params);
    ASSERT_TRUE(matrix.ok()) << matrix.error().message;
    SinusoidalParams table = params.sinusoidal;
    table.seqLen = length;
    const Matrix expected = bruteForce(sinusoidalTable(table).value(), c.metric);
    ASSERT_EQ(matrix->rows, std::size_t(length));
    ASSERT_EQ(matrix->cols, std::size_t(length));
    const double tolerance = c.metric == SimilarityMetric::Dot ? 1e-12 * c.d : 1e-12;
    for (int i = 0; i < length; ++i) {
        for (int j = 0; j < length; ++j) {
            ASSERT_NEAR((*matrix)(i, j), expected(i, j), tolerance) << "i=" << i << " j=" << j;
        }
    }
}

TEST_P(SinusoidalSimilarityTest, ToeplitzExactlyWhenEveryFrequencyHasSineAndCosine) {
    const SinusoidalCase c = GetParam();
    SimilarityParams params = sinusoidal(c.d, 60, c.layout, c.metric);
    params.sinusoidal.base = 10;  // a lone sine fast enough to show within 60 positions
    const Matrix m = similarityMatrix(params).value();
    double largestStep = 0;
    for (int i = 0; i + 1 < 60; ++i) {
        for (int j = 0; j + 1 < 60; ++j)
            largestStep = std::max(largestStep, std::abs(m(i, j) - m(i + 1, j + 1)));
    }
    const bool loneSine = c.d % 2 == 1 && c.layout != SinusoidalLayout::Tensor2Tensor;
    EXPECT_EQ(dependsOnOffsetOnly(params), !loneSine);
    if (loneSine) {
        EXPECT_GT(largestStep, 1e-4);  // sin(wi) sin(wj) depends on i + j too
    } else {
        EXPECT_LE(largestStep, 1e-12);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, SinusoidalSimilarityTest,
    ::testing::Values(SinusoidalCase{64, SinusoidalLayout::Interleaved, SimilarityMetric::Cosine},
                      SinusoidalCase{64, SinusoidalLayout::Interleaved, SimilarityMetric::Dot},
                      SinusoidalCase{33, SinusoidalLayout::Interleaved, SimilarityMetric::Cosine},
                      SinusoidalCase{33, SinusoidalLayout::Interleaved, SimilarityMetric::Dot},
                      SinusoidalCase{33, SinusoidalLayout::Concat, SimilarityMetric::Cosine},
                      SinusoidalCase{10, SinusoidalLayout::Concat, SimilarityMetric::Dot},
                      SinusoidalCase{33, SinusoidalLayout::Tensor2Tensor, SimilarityMetric::Cosine},
                      SinusoidalCase{32, SinusoidalLayout::Tensor2Tensor, SimilarityMetric::Dot},
                      SinusoidalCase{3, SinusoidalLayout::Interleaved, SimilarityMetric::Cosine},
                      SinusoidalCase{2, SinusoidalLayout::Interleaved, SimilarityMetric::Cosine}));

TEST(SimilarityTest, SinusoidalDotIsTheCosineSumOfThePaper) {
    // PE(i) . PE(j) = sum_k cos((i - j) / 10000^(2k/d)), k = 0 .. d/2 - 1, for any i, j.
    const int d = 512, length = 3000;
    const SimilarityParams params =
        sinusoidal(d, length, SinusoidalLayout::Interleaved, SimilarityMetric::Dot);
    auto offsets = offsetSimilarity(params);
    ASSERT_TRUE(offsets.ok());
    ASSERT_TRUE(offsets->toeplitz());
    for (int offset : {0, 1, 2, 7, 63, 64, 65, 100, 1000, 2047, 2999}) {
        double expected = 0;
        for (int k = 0; k < d / 2; ++k)
            expected += std::cos(offset / std::pow(10000.0, 2.0 * k / d));
        EXPECT_NEAR(offsets->at(offset, 0), expected, 1e-11) << offset;
        EXPECT_NEAR(offsets->at(0, offset), expected, 1e-11) << offset;
        EXPECT_NEAR(offsets->at(length - 1, length - 1 - offset), expected, 1e-11) << offset;
    }
    // At offset 0 every pair gives cos(0) = 1: |PE|^2 = d/2; the cosine is 1.
    EXPECT_DOUBLE_EQ(offsets->at(5, 5), d / 2.0);
    auto cosine = offsetSimilarity(
        sinusoidal(d, length, SinusoidalLayout::Interleaved, SimilarityMetric::Cosine));
    EXPECT_DOUBLE_EQ(cosine->at(17, 17), 1.0);
}

TEST(SimilarityTest, CosineSumsMatchDirectEvaluation) {
    std::vector<double> frequencies, weights;
    for (int k = 0; k < 37; ++k) {
        frequencies.push_back(std::pow(500.0, -k / 37.0) * 1.3);
        weights.push_back(0.5 + k % 3);
    }
    const std::vector<double> sums = cosineSums(frequencies, weights, 1000);
    ASSERT_EQ(sums.size(), 1000u);
    for (int r = 0; r < 1000; r += 7) {
        double expected = 0;
        for (std::size_t k = 0; k < frequencies.size(); ++k)
            expected += weights[k] * std::cos(r * frequencies[k]);
        EXPECT_NEAR(sums[std::size_t(r)], expected, 1e-12) << r;
    }
    EXPECT_TRUE(cosineSums(frequencies, weights, 0).empty());
}

// RoPE: rotate(q, m) . rotate(k, n) from explicitly rotated vectors.
TEST(SimilarityTest, RopeSampleEqualsExplicitlyRotatedVectors) {
    for (RopeVectors vectors : {RopeVectors::SameSample, RopeVectors::IndependentSamples}) {
        SimilarityParams params;
        params.encoding = SimilarityEncoding::Rope;
        params.metric = SimilarityMetric::Dot;
        params.seqLen = 40;
        params.rope.headDim = 24;
        params.rope.rotaryFraction = 0.5;  // 12 rotated dims, 12 passing through
        params.rope.base = 500;
        params.ropeVectors = vectors;
        params.ropeSeed = 11;
        const Matrix m = similarityMatrix(params).value();
        const std::vector<double> q = seededGaussianVector(24, 11);
        const std::vector<double> k = vectors == RopeVectors::SameSample
                                          ? q
                                          : seededGaussianVector(24, 11 ^ 0x9E3779B97F4A7C15ull);
        const RopeFrequencies freqs = ropeFrequencies(params.rope).value();
        for (int i = 0; i < 40; i += 3) {
            const std::vector<double> qi = ropeRotate(q, i, freqs, params.rope.pairing);
            for (int j = 0; j < 40; j += 5) {
                const std::vector<double> kj = ropeRotate(k, j, freqs, params.rope.pairing);
                double dot = 0;
                for (int a = 0; a < 24; ++a) dot += qi[a] * kj[a];
                EXPECT_NEAR(m(i, j), dot, 1e-12) << i << "," << j;
            }
        }
    }
}

TEST(SimilarityTest, RopeSampleProfileHoldsPastOneBlockOfOffsetsAndOneChunkOfPairs) {
    // 75 pairs (a chunk of 64 and an odd rest) and offsets up to +-299 (several blocks of 64):
    // both signs of i - j against the vectors rotated and multiplied out, dot and cosine.
    const int length = 300, d = 150;
    for (SimilarityMetric metric : {SimilarityMetric::Dot, SimilarityMetric::Cosine}) {
        SimilarityParams params;
        params.encoding = SimilarityEncoding::Rope;
        params.metric = metric;
        params.seqLen = length;
        params.rope.headDim = d;
        params.rope.pairing = RopePairing::Interleaved;
        params.ropeVectors = RopeVectors::IndependentSamples;
        params.ropeSeed = 5;
        const auto offsets = offsetSimilarity(params);
        ASSERT_TRUE(offsets.ok());
        const std::vector<double> q = seededGaussianVector(d, 5);
        const std::vector<double> k = seededGaussianVector(d, 5 ^ 0x9E3779B97F4A7C15ull);
        RopeParams rope = params.rope;
        rope.seqLen = length;
        const RopeFrequencies freqs = ropeFrequencies(rope).value();
        double qq = 0, kk = 0;
        for (int a = 0; a < d; ++a) {
            qq += q[a] * q[a];
            kk += k[a] * k[a];
        }
        const double norm = metric == SimilarityMetric::Cosine ? std::sqrt(qq * kk) : 1.0;
        for (auto [i, j] : {std::pair{0, 0}, std::pair{70, 3}, std::pair{3, 70}, std::pair{299, 0},
                            std::pair{0, 299}, std::pair{200, 63}, std::pair{128, 257}}) {
            const std::vector<double> qi = ropeRotate(q, i, freqs, rope.pairing);
            const std::vector<double> kj = ropeRotate(k, j, freqs, rope.pairing);
            double dot = 0;
            for (int a = 0; a < d; ++a) dot += qi[a] * kj[a];
            EXPECT_NEAR(offsets->at(i, j), dot / norm, 1e-11) << i << "," << j;
        }
    }
}

// E[q^T R(m)^T R(n) q] over q ~ N(0, I) is the trace of R(m)^T R(n) = sum_a R(m)e_a . R(n)e_a,
// computed here by rotating the basis vectors (yarn scaling, so the attention factor counts).
TEST(SimilarityTest, RopeExpectationIsTheTraceOfTheRelativeRotation) {
    SimilarityParams params;
    params.encoding = SimilarityEncoding::Rope;
    params.metric = SimilarityMetric::Dot;
    params.seqLen = 50;
    params.rope.headDim = 16;
    params.rope.rotaryFraction = 0.75;
    params.rope.scaling.type = RopeScaling::Yarn;
    params.rope.scaling.factor = 4;
    params.rope.trainingLength = 32;
    const Matrix m = similarityMatrix(params).value();
    const RopeFrequencies freqs = ropeFrequencies([&] {
                                      RopeParams p = params.rope;
                                      p.seqLen = 50;
                                      return p;
                                  }())
                                      .value();
    ASSERT_NE(freqs.attentionFactor, 1.0);
    for (int i : {0, 3, 49}) {
        for (int j : {0, 10, 31, 49}) {
            double trace = 0;
            for (int a = 0; a < 16; ++a) {
                std::vector<double> e(16, 0.0);
                e[std::size_t(a)] = 1;
                const auto ri = ropeRotate(e, i, freqs, params.rope.pairing);
                const auto rj = ropeRotate(e, j, freqs, params.rope.pairing);
                for (int b = 0; b < 16; ++b) trace += ri[b] * rj[b];
            }
            EXPECT_NEAR(m(i, j), trace, 1e-12);
        }
    }
    // Cosine: the expectation normalised at offset 0.
    params.metric = SimilarityMetric::Cosine;
    const Matrix c = similarityMatrix(params).value();
    EXPECT_DOUBLE_EQ(c(7, 7), 1.0);
    EXPECT_NEAR(c(7, 20), m(7, 20) / m(7, 7), 1e-14);
}

TEST(SimilarityTest, LearnedGramEqualsTheTableMultipliedOut) {
    for (SimilarityMetric metric : {SimilarityMetric::Dot, SimilarityMetric::Cosine}) {
        SimilarityParams params;
        params.encoding = SimilarityEncoding::Learned;
        params.metric = metric;
        params.seqLen = 203;  // not a multiple of the 4 x 4 blocks
        params.learned.dModel = 37;
        params.learned.seed = 5;
        const Matrix m = similarityMatrix(params).value();
        LearnedParams table = params.learned;
        table.seqLen = 203;
        const Matrix expected = bruteForce(learnedTable(table).value(), metric);
        for (int i = 0; i < 203; ++i) {
            for (int j = 0; j < 203; ++j)
                ASSERT_NEAR(m(i, j), expected(i, j), 1e-14) << i << "," << j;
        }
    }
}

TEST(SimilarityTest, LoadedTableZeroRowCosinesAreMaskedNotNaN) {
    // Failed before: a padding row's cosines were NaN, drawn as magenta cells.
    auto table = std::make_shared<Matrix>(3, 2);
    (*table)(0, 0) = 1;
    (*table)(2, 1) = 2;  // row 1 stays zero
    SimilarityParams params;
    params.encoding = SimilarityEncoding::Learned;
    params.seqLen = 3;
    params.learnedTable = table;
    const Matrix m = similarityMatrix(params).value();
    EXPECT_DOUBLE_EQ(m(0, 0), 1.0);
    EXPECT_DOUBLE_EQ(m(0, 2), 0.0);
    EXPECT_EQ(m(1, 1), kUndefinedCosine);
    EXPECT_EQ(m(0, 1), kUndefinedCosine);
    EXPECT_EQ(m(1, 2), kUndefinedCosine);
    EXPECT_EQ(undefinedCosineRows(*table), 1);
    EXPECT_EQ(undefinedCosineNote(1), "cosine undefined for zero rows: 1 row");
    EXPECT_EQ(undefinedCosineNote(3), "cosine undefined for zero rows: 3 rows");
    EXPECT_EQ(undefinedCosineNote(0), "");
    params.seqLen = 4;
    auto tooLong = similarityMatrix(params);
    ASSERT_FALSE(tooLong.ok());
    EXPECT_EQ(tooLong.error().message, "seq_len must be 1..3 for this table (got 4)");
}

TEST(SimilarityTest, SampleBlockMeansAgreeWithTheFullMatrix) {
    for (int d : {64, 33}) {
        const SimilarityParams params =
            sinusoidal(d, 300, SinusoidalLayout::Interleaved, SimilarityMetric::Cosine);
        const OffsetSimilarity offsets = offsetSimilarity(params).value();
        const Matrix full = fillOffsetSimilarity(offsets);
        const CellWindow window{13, 250, 40, 199};
        const HeatmapSample sample = offsetSimilaritySample(offsets, window, 40, 30);
        ASSERT_GT(sample.rowsPerTexel, 1);
        ASSERT_GT(sample.colsPerTexel, 1);
        const double tolerance = d % 2 == 0 ? 1e-12 : 1.0 / d;
        for (std::size_t r = 0; r < sample.values->rows; ++r) {
            for (std::size_t c = 0; c < sample.values->cols; ++c) {
                const long long r0 = window.firstRow + (long long)r * sample.rowsPerTexel;
                const long long c0 = window.firstCol + (long long)c * sample.colsPerTexel;
                double sum = 0;
                int count = 0;
                for (long long i = r0; i < std::min<long long>(300, r0 + sample.rowsPerTexel);
                     ++i) {
                    for (long long j = c0; j < std::min<long long>(300, c0 + sample.colsPerTexel);
                         ++j) {
                        sum += full(std::size_t(i), std::size_t(j));
                        ++count;
                    }
                }
                ASSERT_NEAR((*sample.values)(r, c), sum / count, tolerance)
                    << "d=" << d << " " << r << "," << c;
            }
        }
    }
}

TEST(SimilarityTest, CurvesReadRowsAndDiagonals) {
    const SimilarityParams params =
        sinusoidal(31, 90, SinusoidalLayout::Interleaved, SimilarityMetric::Dot);
    const OffsetSimilarity offsets = offsetSimilarity(params).value();
    const Matrix full = fillOffsetSimilarity(offsets);
    const SimilarityCurve curve = offsetCurve(offsets, 20);
    ASSERT_EQ(curve.offsets.size(), 179u);
    ASSERT_EQ(curve.diagonalMean.size(), 179u);
    for (std::size_t t = 0; t < curve.offsets.size(); ++t) {
        const int offset = int(curve.offsets[t]);
        if (20 + offset >= 0 && 20 + offset < 90) {
            EXPECT_DOUBLE_EQ(curve.fromReference[t], full(20, std::size_t(20 + offset)));
        } else {
            EXPECT_TRUE(std::isnan(curve.fromReference[t]));
        }
        double sum = 0;
        int count = 0;
        for (int i = 0; i < 90; ++i) {
            if (i + offset >= 0 && i + offset < 90)
                sum += full(std::size_t(i), std::size_t(i + offset)), ++count;
        }
        EXPECT_NEAR(curve.diagonalMean[t], sum / count, 1e-12);
    }
    const SimilarityCurve fromMatrix = matrixCurve(full, 20);
    for (std::size_t t = 0; t < curve.offsets.size(); ++t) {
        EXPECT_NEAR(fromMatrix.diagonalMean[t], curve.diagonalMean[t], 1e-12);
    }
}

// The mean of `full` over each texel's block (blocks cut at the matrix, not the window).
void expectBlockMeans(const HeatmapSample& sample, const Matrix& full, double tolerance) {
    const long long L = (long long)full.rows;
    for (std::size_t r = 0; r < sample.values->rows; ++r) {
        for (std::size_t c = 0; c < sample.values->cols; ++c) {
            const long long r0 = sample.window.firstRow + (long long)r * sample.rowsPerTexel;
            const long long c0 = sample.window.firstCol + (long long)c * sample.colsPerTexel;
            double sum = 0;
            int count = 0;
            for (long long i = r0; i < std::min(L, r0 + sample.rowsPerTexel); ++i) {
                for (long long j = c0; j < std::min(L, c0 + sample.colsPerTexel); ++j)
                    sum += full(std::size_t(i), std::size_t(j)), ++count;
            }
            ASSERT_NEAR((*sample.values)(r, c), sum / count, tolerance) << r << "," << c;
        }
    }
}

TEST(SimilarityTest, ProfilesEvaluateTheToeplitzSimilarityWithoutTabulatingIt) {
    std::vector<SimilarityParams> cases = {
        sinusoidal(64, 300, SinusoidalLayout::Interleaved, SimilarityMetric::Cosine),
        sinusoidal(20, 300, SinusoidalLayout::Tensor2Tensor, SimilarityMetric::Dot)};
    for (RopeVectors vectors :
         {RopeVectors::Expected, RopeVectors::SameSample, RopeVectors::IndependentSamples}) {
        SimilarityParams rope;
        rope.encoding = SimilarityEncoding::Rope;
        rope.seqLen = 300;
        rope.rope.headDim = 24;
        rope.rope.rotaryFraction = 0.5;  // pass-through dims: the profile's constant
        rope.ropeVectors = vectors;
        rope.ropeSeed = 5;
        cases.push_back(rope);
    }
    for (const SimilarityParams& params : cases) {
        const Matrix full = fillOffsetSimilarity(offsetSimilarity(params).value());
        const OffsetProfile profile = offsetProfile(params).value();
        // Values: f(i - j), at any start and step.
        const std::vector<double> values = profileValues(profile, -250, 7, 72);
        for (std::size_t n = 0; n < values.size(); ++n) {
            const long long t = -250 + 7 * (long long)n;  // i - j
            const std::size_t i = std::size_t(std::max(t, 0LL)), j = std::size_t(i - t);
            ASSERT_NEAR(values[n], full(i, j), 1e-12) << t;
        }
        // Block means, exact, for windows cut at the matrix edge and at one cell per texel.
        for (CellWindow window :
             {CellWindow{13, 250, 40, 199}, CellWindow{}, CellWindow{290, 10, 0, 300}}) {
            expectBlockMeans(profileSample(profile, window, 40, 30), full, 1e-11);
            expectBlockMeans(profileSample(profile, window, 400, 400), full, 1e-11);
        }
        // A tiny budget: larger blocks, multiples of a power of two, still the exact means.
        const long long budget = 60 * (long long)profile.frequencies.size();  // 60 offsets
        const HeatmapSample coarse = profileSample(profile, {}, 40, 30, budget);
        EXPECT_GE(coarse.rowsPerTexel, 8);
        EXPECT_GE(coarse.colsPerTexel, 10);
        EXPECT_GT(std::gcd(coarse.rowsPerTexel, coarse.colsPerTexel), 2);
        expectBlockMeans(coarse, full, 1e-11);
    }
    // Not a function of i - j: learned tables, an odd d_model's lone sine.
    EXPECT_FALSE(
        offsetProfile(sinusoidal(33, 30, SinusoidalLayout::Interleaved, SimilarityMetric::Dot))
            .ok());
}

TEST(SimilarityTest, ProfileCurvesTakeEveryOffsetOrAGridThroughZero) {
    SimilarityParams params;
    params.encoding = SimilarityEncoding::Rope;
    params.seqLen = 1000;
    params.rope.headDim = 16;
    params.ropeVectors = RopeVectors::SameSample;
    const OffsetSimilarity offsets = offsetSimilarity(params).value();
    const OffsetProfile profile = offsetProfile(params).value();
    const SimilarityCurve every = profileCurve(profile, 100, 999, 5000);
    EXPECT_EQ(every.step, 1);
    ASSERT_EQ(every.offsets.size(), 1999u);
    const SimilarityCurve grid = profileCurve(profile, 100, 999, 300);
    EXPECT_EQ(grid.step, 7);  // ceil(1999 / 300)
    EXPECT_LE(grid.offsets.size(), 300u);
    bool hasZero = false;
    for (std::size_t n = 0; n < grid.offsets.size(); ++n) {
        const long long o = (long long)grid.offsets[n];  // key - query
        EXPECT_EQ(o % 7, 0);
        hasZero = hasZero || o == 0;
        const long long query = std::max(0LL, -o);
        EXPECT_NEAR(grid.diagonalMean[n], offsets.at(query, query + o), 1e-12) << o;
        if (100 + o < 0 || 100 + o >= 1000) {
            EXPECT_TRUE(std::isnan(grid.fromReference[n]));
        }
    }
    EXPECT_TRUE(hasZero);  // q = k: cosine exactly 1 there, never skipped
}

// The seeded initial table of a learned encoding, L x d, as the similarity functions read it.
Matrix seededLearnedTable(int length, int d) {
    SimilarityParams params;
    params.encoding = SimilarityEncoding::Learned;
    params.seqLen = length;
    params.learned.dModel = d;
    return similarityTable(params).value();
}

TEST(SimilarityTest, TableSamplesAreBlockMeansWithoutTheGramMatrix) {
    for (SimilarityMetric metric : {SimilarityMetric::Cosine, SimilarityMetric::Dot}) {
        const Matrix table = seededLearnedTable(200, 12);
        const Matrix full = bruteForce(table, metric);
        for (CellWindow window : {CellWindow{}, CellWindow{30, 150, 10, 170}}) {
            const HeatmapSample sample = tableSimilaritySample(table, metric, window, 37, 23);
            EXPECT_EQ(sample.rowsPerTexel, sample.colsPerTexel);  // square blocks
            EXPECT_LE(sample.values->rows, 37u);
            EXPECT_LE(sample.values->cols, 23u);
            expectBlockMeans(sample, full, 1e-12);
        }
        const SimilarityCurve curve = tableCurve(table, metric, 42);
        ASSERT_EQ(curve.offsets.size(), 399u);
        EXPECT_TRUE(curve.diagonalMean.empty());
        for (std::size_t t = 0; t < curve.offsets.size(); ++t) {
            const long long key = 42 + (long long)curve.offsets[t];
            if (key < 0 || key >= 200)
                EXPECT_TRUE(std::isnan(curve.fromReference[t]));
            else
                EXPECT_NEAR(curve.fromReference[t], full(42, std::size_t(key)), 1e-12);
        }
    }
}

// A moving window's coarse sample: one row of each block (its centre) gives each texel the
// similarity of two single rows, read off the whole product; as many rows as a block has give
// the exact block means.
TEST(SimilarityTest, CoarseTableSamplesReadEvenlySpacedRowsOfEachBlock) {
    for (SimilarityMetric metric : {SimilarityMetric::Cosine, SimilarityMetric::Dot}) {
        const Matrix table = seededLearnedTable(200, 12);
        const Matrix full = bruteForce(table, metric);
        const CellWindow window{30, 150, 10, 170};
        const HeatmapSample one = tableSimilaritySample(table, metric, window, 37, 23, 1);
        const long long per = one.rowsPerTexel;
        ASSERT_GT(per, 1);
        for (std::size_t u = 0; u < one.values->rows; ++u) {
            // Blocks are cut at the table's end, not the window's.
            const long long r0 = one.window.firstRow + (long long)u * per,
                            rows = std::min(per, 200 - r0);
            for (std::size_t v = 0; v < one.values->cols; ++v) {
                const long long c0 = one.window.firstCol + (long long)v * per,
                                cols = std::min(per, 200 - c0);
                EXPECT_NEAR((*one.values)(u, v),
                            full(std::size_t(r0 + rows / 2), std::size_t(c0 + cols / 2)), 1e-12)
                    << u << ", " << v;
            }
        }
        const HeatmapSample every = tableSimilaritySample(table, metric, window, 37, 23, int(per));
        expectBlockMeans(every, full, 1e-12);
    }
}

TEST(SimilarityTest, SingleTableEntriesMatchTheWholeProduct) {
    // The GUI's hover value when the Gram matrix is past its budget; a zero row has no cosine.
    for (SimilarityMetric metric : {SimilarityMetric::Cosine, SimilarityMetric::Dot}) {
        Matrix table = seededLearnedTable(40, 9);
        for (std::size_t k = 0; k < table.cols; ++k) table(7, k) = 0;
        const Matrix full = bruteForce(table, metric);
        for (long long i = 0; i < 40; ++i) {
            for (long long j = 0; j < 40; ++j) {
                const double value = tableSimilarityAt(table, metric, i, j);
                if (metric == SimilarityMetric::Cosine && (i == 7 || j == 7)) {
                    EXPECT_EQ(value, kUndefinedCosine) << i << "," << j;
                } else {
                    EXPECT_NEAR(value, full(std::size_t(i), std::size_t(j)), 1e-12)
                        << i << "," << j;
                }
            }
        }
        EXPECT_TRUE(std::isnan(tableSimilarityAt(table, metric, 40, 0)));  // outside the table
    }
    EXPECT_TRUE(gramFitsBudget(4096, 256));  // 2^31 multiply-adds, half of them computed
    EXPECT_FALSE(gramFitsBudget(4096, 257));
}

TEST(SimilarityTest, BadInputsAreOneLineErrors) {
    SimilarityParams params =
        sinusoidal(64, 0, SinusoidalLayout::Interleaved, SimilarityMetric::Cosine);
    EXPECT_EQ(similarityMatrix(params).error().message, "seq_len must be 1..1048576 (got 0)");
    params = sinusoidal(1, 10, SinusoidalLayout::Tensor2Tensor, SimilarityMetric::Cosine);
    EXPECT_FALSE(similarityMatrix(params).ok());
    params = sinusoidal(64, 1 << 20, SinusoidalLayout::Interleaved, SimilarityMetric::Cosine);
    auto huge = similarityMatrix(params);
    ASSERT_FALSE(huge.ok());
    EXPECT_NE(huge.error().message.find("exceeds the memory cap"), std::string::npos);
    EXPECT_EQ(parseSimilarityMetric("cos").error().message,
              "metric must be cosine or dot (got 'cos')");
    EXPECT_EQ(parseSimilarityEncoding("alibi").error().message,
              "encoding must be sinusoidal, learned or rope (got 'alibi')");
    EXPECT_EQ(parseRopeVectors("same").value(), RopeVectors::SameSample);
}

TEST(SimilarityTest, SimilarityHeatmapTexelsNeverExceedThePixels) {
    SimilarityParams params;
    params.seqLen = 65536;
    auto sample = similaritySample(params, {}, 500, 400);
    ASSERT_TRUE(sample.ok());
    EXPECT_LE(sample->values->rows, 500u);
    EXPECT_LE(sample->values->cols, 400u);
    // The diagonal texels average cells near offset 0, the brightest part of a cosine matrix.
    EXPECT_GT((*sample->values)(0, 0), (*sample->values)(0, sample->values->cols - 1));
}

TEST(SimilarityTest, CosinesOfHugeRowsDoNotOverflow) {
    // Failed before: |row|^2 of entries 1e200 overflowed to inf, so every cosine was 0 or NaN.
    // Row b = 2 a and row c is orthogonal to a: cosines 1 and 0 whatever the scale.
    for (double scale : {1e-200, 1.0, 1e154, 1e200, 1e307}) {
        Matrix table(3, 2);
        table(0, 0) = 3 * scale, table(0, 1) = 4 * scale;
        table(1, 0) = 6 * scale, table(1, 1) = 8 * scale;
        table(2, 0) = -4 * scale, table(2, 1) = 3 * scale;
        const Matrix m = gramSimilarity(table, SimilarityMetric::Cosine).value();
        EXPECT_NEAR(m(0, 1), 1.0, 1e-15) << scale;
        EXPECT_NEAR(m(0, 2), 0.0, 1e-15) << scale;
        EXPECT_NEAR(tableSimilarityAt(table, SimilarityMetric::Cosine, 1, 2), 0.0, 1e-15);
        const SimilarityCurve curve = tableCurve(table, SimilarityMetric::Cosine, 0);
        EXPECT_NEAR(curve.fromReference[3], 1.0, 1e-15);  // offset +1: row 1
    }
}

TEST(SimilarityTest, BlockMeansLeaveZeroRowsOut) {
    // Rows 0..3 in one block: rows 0 and 2 are zero, 1 and 3 are (1, 0) and (0, 1). The block's
    // mean cosine with itself over the defined pairs is (1 + 0 + 0 + 1) / 4 = 0.5; a block of
    // only zero rows (4..7) is masked.
    Matrix table(8, 2);
    table(1, 0) = 1;
    table(3, 1) = 1;
    const HeatmapSample sample =
        tableSimilaritySample(table, SimilarityMetric::Cosine, CellWindow{}, 2, 2);
    ASSERT_EQ(sample.values->rows, 2u);
    EXPECT_NEAR((*sample.values)(0, 0), 0.5, 1e-15);
    EXPECT_EQ((*sample.values)(0, 1), kUndefinedCosine);
    EXPECT_EQ((*sample.values)(1, 1), kUndefinedCosine);
    for (double v : sample.values->values) EXPECT_FALSE(std::isnan(v));
}

TEST(SimilarityTest, CosineOfOneDimensionIsRefusedForEveryLayout) {
    // Failed before for interleaved and concat: position 0 is sin(0) = 0, a NaN row and column.
    for (SinusoidalLayout layout : {SinusoidalLayout::Interleaved, SinusoidalLayout::Concat,
                                    SinusoidalLayout::Tensor2Tensor}) {
        SimilarityParams params;
        params.encoding = SimilarityEncoding::Sinusoidal;
        params.sinusoidal.dModel = 1;
        params.sinusoidal.layout = layout;
        params.seqLen = 8;
        const Status status = validate(params);
        ASSERT_FALSE(status.ok());
        EXPECT_EQ(
            status.error().message.rfind("d_model must be 2..8192 for cosine similarity (got 1", 0),
            0u);
        params.metric = SimilarityMetric::Dot;  // dot products of one dimension are defined
        EXPECT_TRUE(validate(params).ok());
    }
}

// A row as compared: itself for dot; for cosine its unit vector, computed without overflowing
// (entries of 1e200 square to inf); a row without direction is refused.
TEST(SimilarityTest, ComparedRowIsTheRowOrItsUnitVector) {
    Matrix table(3, 2);
    table(0, 0) = 3, table(0, 1) = 4;  // |r| = 5
    table(1, 0) = 3e200, table(1, 1) = -4e200;
    table(2, 0) = 0, table(2, 1) = 0;
    double out[2];
    ASSERT_TRUE(comparedRow(table, 0, SimilarityMetric::Dot, out));
    EXPECT_EQ(out[0], 3);
    EXPECT_EQ(out[1], 4);
    ASSERT_TRUE(comparedRow(table, 0, SimilarityMetric::Cosine, out));
    EXPECT_NEAR(out[0], 0.6, 1e-15);
    EXPECT_NEAR(out[1], 0.8, 1e-15);
    ASSERT_TRUE(comparedRow(table, 1, SimilarityMetric::Cosine, out));
    EXPECT_NEAR(out[0], 0.6, 1e-15);
    EXPECT_NEAR(out[1], -0.8, 1e-15);
    EXPECT_FALSE(comparedRow(table, 2, SimilarityMetric::Cosine, out));
    table(0, 1) = INFINITY;
    EXPECT_FALSE(comparedRow(table, 0, SimilarityMetric::Cosine, out));
}

}  // namespace
}  // namespace poslab
