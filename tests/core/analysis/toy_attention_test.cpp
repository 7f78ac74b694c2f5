// One toy attention head: without position it only permutes its outputs when the words are
// permuted (to rounding), every position signal breaks that, softmax rows sum to 1, a 2-token
// case written out by hand, and the seeded pieces (FNV-1a, word vectors, permutations).
#include "poslab/analysis/toy_attention.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

namespace poslab {
namespace {

const char* const kVocabulary[] = {"alpha", "beta",  "gamma", "delta", "eps", "zeta",
                                   "eta",   "theta", "iota",  "kappa", "mu",  "nu"};

// A sentence of `count` distinct words and the sentence reordered by `permutation`.
ToyAttentionParams reordered(int count, const std::vector<int>& permutation) {
    ToyAttentionParams params;
    params.sentence.clear();
    params.shuffled.clear();
    for (int i = 0; i < count; ++i) params.sentence += std::string(kVocabulary[i]) + " ";
    for (int i : permutation) params.shuffled += std::string(kVocabulary[i]) + " ";
    return params;
}

bool isReversal(const std::vector<int>& p) {
    for (std::size_t i = 0; i < p.size(); ++i)
        if (p[i] != int(p.size() - 1 - i)) return false;
    return true;
}

TEST(ToyAttentionTest, WithoutPositionShufflingOnlyPermutesTheOutputs) {
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
        const int n = 3 + int(seed % 10);
        ToyAttentionParams params = reordered(n, seededPermutation(n, seed));
        params.seed = seed;
        params.dModel = seed % 2 ? 16 : 8;
        auto c = compareShuffle(params);
        ASSERT_TRUE(c.ok()) << c.error().message;
        EXPECT_LT(c->outputDeviation, 1e-12) << "seed " << seed;
        EXPECT_LT(c->attentionDeviation, 1e-12) << "seed " << seed;
        EXPECT_GT(c->outputScale, 0.1);
    }
}

TEST(ToyAttentionTest, EveryPositionSignalBreaksIt) {
    for (ToyPosition position :
         {ToyPosition::Sinusoidal, ToyPosition::Learned, ToyPosition::Rope, ToyPosition::Alibi}) {
        for (std::uint64_t seed = 0; seed < 10; ++seed) {
            const int n = 4 + int(seed % 6);
            const std::vector<int> permutation = seededPermutation(n, seed + 100);
            if (isReversal(permutation)) continue;  // ALiBi's |i - j| survives a reversal
            ToyAttentionParams params = reordered(n, permutation);
            params.position = position;
            auto c = compareShuffle(params);
            ASSERT_TRUE(c.ok());
            EXPECT_GT(c->outputDeviation, 0.01) << toyPositionName(position) << " seed " << seed;
        }
        // The default example, "The cat chased the mouse" against "The mouse chased the cat".
        ToyAttentionParams example;
        example.position = position;
        EXPECT_GT(compareShuffle(example)->outputDeviation, 0.05) << toyPositionName(position);
    }
    ToyAttentionParams none;
    EXPECT_LT(compareShuffle(none)->outputDeviation, 1e-12);
}

TEST(ToyAttentionTest, AlibiSymmetricBiasSurvivesAReversal) {
    // -m |i - j| is unchanged when i -> n-1-i and j -> n-1-j: the one reordering ALiBi misses.
    ToyAttentionParams params = reordered(6, {5, 4, 3, 2, 1, 0});
    params.position = ToyPosition::Alibi;
    EXPECT_LT(compareShuffle(params)->outputDeviation, 1e-12);
    params.position = ToyPosition::Rope;  // RoPE's signed offset does change sign
    EXPECT_GT(compareShuffle(params)->outputDeviation, 0.01);
}

TEST(ToyAttentionTest, SoftmaxRowsSumToOne) {
    for (ToyPosition position : {ToyPosition::None, ToyPosition::Sinusoidal, ToyPosition::Learned,
                                 ToyPosition::Rope, ToyPosition::Alibi}) {
        ToyAttentionParams params;
        params.position = position;
        params.sentence = "a b c d e f g h i j k l m n o p";
        params.shuffled.clear();
        auto c = compareShuffle(params);
        ASSERT_TRUE(c.ok());
        for (const ToyAttention* run : {&c->original, &c->shuffled}) {
            for (std::size_t i = 0; i < run->weights.rows; ++i) {
                double sum = 0;
                for (std::size_t j = 0; j < run->weights.cols; ++j) {
                    EXPECT_GT(run->weights(i, j), 0);
                    sum += run->weights(i, j);
                }
                EXPECT_NEAR(sum, 1, 1e-14);
            }
        }
    }
}

TEST(ToyAttentionTest, TwoTokensWorkedOutByHand) {
    // d = 2, W_q = W_k = W_v = I, x0 = (1, 0), x1 = (0, 2). Scores x_i . x_j / sqrt(2):
    //   s00 = 1/sqrt2, s01 = s10 = 0, s11 = 4/sqrt2.
    ToyWeights identity{Matrix(2, 2), Matrix(2, 2), Matrix(2, 2)};
    for (Matrix* m : {&identity.query, &identity.key, &identity.value}) (*m)(0, 0) = (*m)(1, 1) = 1;
    Matrix words(2, 2);
    words(0, 0) = 1;
    words(1, 1) = 2;
    ToyAttentionParams params;
    params.dModel = 2;
    const double r2 = std::sqrt(2.0);
    auto check = [&](double s00, double s01, double s10, double s11, const ToyAttention& run) {
        const double w00 = std::exp(s00) / (std::exp(s00) + std::exp(s01));
        const double w10 = std::exp(s10) / (std::exp(s10) + std::exp(s11));
        EXPECT_NEAR(run.scores(0, 0), s00, 1e-15);
        EXPECT_NEAR(run.scores(0, 1), s01, 1e-15);
        EXPECT_NEAR(run.scores(1, 0), s10, 1e-15);
        EXPECT_NEAR(run.scores(1, 1), s11, 1e-15);
        EXPECT_NEAR(run.weights(0, 0), w00, 1e-15);
        EXPECT_NEAR(run.weights(1, 0), w10, 1e-15);
        // output_i = w_i0 v0 + w_i1 v1 = (w_i0, 2 w_i1)
        EXPECT_NEAR(run.output(0, 0), w00, 1e-15);
        EXPECT_NEAR(run.output(0, 1), 2 * (1 - w00), 1e-15);
        EXPECT_NEAR(run.output(1, 0), w10, 1e-15);
        EXPECT_NEAR(run.output(1, 1), 2 * (1 - w10), 1e-15);
    };
    auto plain = attendToy(words, identity, params);
    ASSERT_TRUE(plain.ok()) << plain.error().message;
    EXPECT_NEAR(plain->weights(0, 0), 0.66976154932665, 1e-13);  // e^(1/sqrt2) / (e^(1/sqrt2) + 1)
    check(1 / r2, 0, 0, 4 / r2, *plain);
    // ALiBi adds -1/2 |i - j|.
    params.position = ToyPosition::Alibi;
    check(1 / r2, -0.5, -0.5, 4 / r2, attendToy(words, identity, params).value());
    // RoPE with d = 2 has one pair at 1 radian per position: k1 = q1 = R(1) (0, 2) =
    // (-2 sin 1, 2 cos 1), so s01 = s10 = -2 sin(1) / sqrt2, while s11 keeps its length.
    params.position = ToyPosition::Rope;
    check(1 / r2, -2 * std::sin(1.0) / r2, -2 * std::sin(1.0) / r2, 4 / r2,
          attendToy(words, identity, params).value());
    // Sinusoidal adds PE(0) = (0, 1) and PE(1) = (sin 1, cos 1) to the words first.
    params.position = ToyPosition::Sinusoidal;
    const double a[2] = {1, 1}, b[2] = {std::sin(1.0), 2 + std::cos(1.0)};
    const double aa = (a[0] * a[0] + a[1] * a[1]) / r2, ab = (a[0] * b[0] + a[1] * b[1]) / r2,
                 bb = (b[0] * b[0] + b[1] * b[1]) / r2;
    auto sinusoidal = attendToy(words, identity, params).value();
    EXPECT_NEAR(sinusoidal.scores(0, 0), aa, 1e-15);
    EXPECT_NEAR(sinusoidal.scores(0, 1), ab, 1e-15);
    EXPECT_NEAR(sinusoidal.scores(1, 1), bb, 1e-14);
}

TEST(ToyAttentionTest, WordVectorsAreSeededByTheFoldedWord) {
    // FNV-1a 64 published test vectors: "" -> cbf29ce484222325, "a" -> af63dc4c8601ec8c.
    EXPECT_EQ(wordHash(""), 0xcbf29ce484222325ull);
    EXPECT_EQ(wordHash("a"), 0xaf63dc4c8601ec8cull);
    EXPECT_EQ(wordHash("A"), wordHash("a"));
    EXPECT_EQ(wordVector("The", 16), wordVector("the", 16));
    EXPECT_NE(wordVector("cat", 16), wordVector("mouse", 16));
    const Matrix m = wordVectors(splitWords("The cat chased the mouse"), 8);
    for (std::size_t c = 0; c < 8; ++c) EXPECT_EQ(m(0, c), m(3, c));
    EXPECT_EQ(splitWords("  a\tb \n c  "), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(ToyAttentionTest, PermutationsMatchWordsAndSeedsShuffle) {
    const auto words = splitWords("The cat chased the mouse");
    EXPECT_EQ(matchPermutation(words, splitWords("the mouse chased The cat")).value(),
              (std::vector<int>{0, 4, 2, 3, 1}));
    EXPECT_EQ(matchPermutation(words, splitWords("The dog chased the mouse")).error().message,
              "shuffled must reorder the sentence's words: 'dog' is not in it (or not that often)");
    EXPECT_EQ(matchPermutation(words, splitWords("The cat")).error().message,
              "shuffled must have the sentence's 5 words (got 2)");
    for (std::uint64_t seed = 0; seed < 50; ++seed) {
        for (int n : {2, 3, 7, 16}) {
            std::vector<int> p = seededPermutation(n, seed);
            EXPECT_FALSE(std::is_sorted(p.begin(), p.end())) << "identity for seed " << seed;
            std::sort(p.begin(), p.end());
            std::vector<int> identity(static_cast<std::size_t>(n));
            std::iota(identity.begin(), identity.end(), 0);
            EXPECT_EQ(p, identity);
        }
    }
    EXPECT_EQ(seededPermutation(5, 3), seededPermutation(5, 3));
}

TEST(ToyAttentionTest, ValidateNamesTheOptionAndItsRange) {
    ToyAttentionParams p;
    p.sentence = "alone";
    EXPECT_EQ(validate(p).error().message, "sentence must have 2..16 words (got 1)");
    p = {};
    p.dModel = 7;
    EXPECT_EQ(validate(p).error().message, "d_model must be even, 2..64 (got 7)");
    p = {};
    p.sentence = std::string(201, 'a');
    EXPECT_EQ(validate(p).error().message, "sentence must be at most 200 bytes (got 201)");
    p = {};
    p.shuffled = "the cat";
    EXPECT_EQ(validate(p).error().message, "shuffled must have the sentence's 5 words (got 2)");
    p = {};
    p.base = 1;
    EXPECT_FALSE(validate(p).ok());
    EXPECT_FALSE(validateRanges(p).ok());
    p = {};
    p.sentence = "half typed";  // the words do not match: validate says so, the ranges hold
    EXPECT_FALSE(validate(p).ok());
    EXPECT_TRUE(validateRanges(p).ok());
    EXPECT_EQ(parseToyPosition("rope").value(), ToyPosition::Rope);
    EXPECT_EQ(parseToyPosition("t5").error().message,
              "position must be none, sinusoidal, learned, rope or alibi (got 't5')");
}

// x W written out: x = (1, 2), W = [[1, 2, 3], [4, 5, 6]] gives (1 + 8, 2 + 10, 3 + 12).
TEST(ToyAttentionTest, ProjectRowIsTheRowVectorTimesTheMatrix) {
    Matrix w(2, 3);
    w.values = {1, 2, 3, 4, 5, 6};
    const double x[] = {1, 2};
    EXPECT_EQ(projectRow(x, w), (std::vector<double>{9, 12, 15}));
    EXPECT_EQ(projectRow(x, Matrix(0, 2)), (std::vector<double>{0, 0}));  // no rows: zeros
}

}  // namespace
}  // namespace poslab
