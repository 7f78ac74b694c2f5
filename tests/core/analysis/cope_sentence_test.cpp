#include "poslab/analysis/cope_sentence.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "poslab/analysis/toy_attention.hpp"

namespace poslab {
namespace {

TEST(CopeSentenceTest, PunctuationBecomesTokens) {
    const std::vector<std::string> tokens = copeTokens("The cat sat. Hi, (3.14) \"yes!\"");
    const std::vector<std::string> expected = {"The", "cat", "sat",    ".",
                                               "Hi",  ",",   "(3.14)", "\"yes!\""};
    EXPECT_EQ(tokens, expected);
    EXPECT_EQ(copeTokens("Stop!? now"), (std::vector<std::string>{"Stop", "!", "?", "now"}));
    EXPECT_TRUE(endsSentence("."));
    EXPECT_FALSE(endsSentence(","));
    EXPECT_TRUE(isPunctuationToken(";"));
}

TEST(CopeSentenceTest, WordGatesCountWordsNotTokens) {
    CopeSentenceParams p;
    p.sentence = "a , b . c";
    p.gates = CopeGateSource::Words;
    auto r = copeSentence(p);
    ASSERT_TRUE(r.ok()) << r.error().message;
    // Query "c" (4): keys a , b . c  -> words from the key to c: 3, 2, 2, 1, 1.
    const double expected[5] = {3, 2, 2, 1, 1};
    for (int j = 0; j < 5; ++j) EXPECT_DOUBLE_EQ(r->positions(4, std::size_t(j)), expected[j]) << j;
    EXPECT_EQ(r->npos, 6);  // tokens + 1
}

TEST(CopeSentenceTest, SentenceGatesCountSentenceEnds) {
    CopeSentenceParams p;
    p.sentence = "A b. C d. E";
    p.gates = CopeGateSource::Sentences;
    auto r = copeSentence(p);
    ASSERT_TRUE(r.ok());
    // Tokens A b . C d . E; from query E (6) back: ends at 2 and 5.
    const double expected[7] = {2, 2, 2, 1, 1, 1, 0};
    for (int j = 0; j < 7; ++j) EXPECT_DOUBLE_EQ(r->positions(6, std::size_t(j)), expected[j]) << j;
}

TEST(CopeSentenceTest, SeededGatesAreTheToyHeadsSigmoid) {
    CopeSentenceParams p;
    p.sentence = "The cat chased the mouse";
    p.dModel = 8;
    p.seed = 3;
    auto r = copeSentence(p);
    ASSERT_TRUE(r.ok());
    // q.k written out again from the toy head's pieces.
    const ToyWeights w = toyWeights(8, 3);
    const std::vector<double> x2 = wordVector("chased", 8), x0 = wordVector("The", 8);
    double q[8] = {}, k[8] = {};
    for (int a = 0; a < 8; ++a)
        for (int b = 0; b < 8; ++b) {
            q[b] += x2[std::size_t(a)] * w.query(std::size_t(a), std::size_t(b));
            k[b] += x0[std::size_t(a)] * w.key(std::size_t(a), std::size_t(b));
        }
    double dot = 0;
    for (int c = 0; c < 8; ++c) dot += q[c] * k[c];
    EXPECT_NEAR(r->gates(2, 0), 1 / (1 + std::exp(-dot / std::sqrt(8.0))), 1e-12);
    EXPECT_EQ(r->gates(0, 2), 0.0);
    // Rows of the attention sum to 1 and the mask holds.
    for (std::size_t i = 0; i < 5; ++i) {
        double total = 0;
        for (std::size_t j = 0; j < 5; ++j) total += r->weights(i, j);
        EXPECT_NEAR(total, 1, 1e-12);
        if (i + 1 < 5) {
            EXPECT_TRUE(std::isinf(r->bias(i, i + 1)));
        }
    }
    // p_ii = g_ii: a key counts itself.
    for (std::size_t i = 0; i < 5; ++i) EXPECT_DOUBLE_EQ(r->positions(i, i), r->gates(i, i));
}

TEST(CopeSentenceTest, BadInputIsNamed) {
    CopeSentenceParams p;
    p.sentence = "one";
    EXPECT_EQ(validate(p).error().message, "sentence must have 2..64 tokens (got 1)");
    p.sentence = "a b";
    p.dModel = 3;
    EXPECT_EQ(validate(p).error().message, "d_model must be even, 2..64 (got 3)");
    EXPECT_EQ(parseCopeGateSource("words").value(), CopeGateSource::Words);
    EXPECT_FALSE(parseCopeGateSource("nouns").ok());
}

}  // namespace
}  // namespace poslab
