// CoPE, DeBERTa, NoPE/iRoPE and randomized positions from the command line: exported values
// against the formulas written out here, bad input refused in one line with exit 2 and no file,
// and every render view drawing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "poslab/io/csv.hpp"
#include "process.hpp"

namespace poslab::test {
namespace {

class ContextualCliTest : public CommandLineTest {};

// make_log_bucket_position written out again, float32 step by step as torch evaluates it.
long long logBucket(long long rel, int bucketSize, int maxPosition) {
    const long long mid = bucketSize / 2;
    const long long a = std::llabs(rel);
    if (a <= mid) return rel;  // includes the (-mid, mid) band that abs_pos maps to mid - 1
    const float numerator = float(std::log(double(float(a) / float(mid))));
    const float denominator = float(std::log(double(float(double(maxPosition - 1) / mid))));
    const float value = std::ceil(numerator / denominator * float(mid - 1)) + float(mid);
    return rel < 0 ? -(long long)value : (long long)value;
}

TEST_F(ContextualCliTest, DebertaBucketsAreMakeLogBucketPosition) {
    const Matrix m = exportCsv({"export", "deberta-buckets", "--seq-len", "300"});
    ASSERT_EQ(m.rows, 300u);
    for (std::size_t i = 0; i < 300; i += 7) {
        for (std::size_t j = 0; j < 300; j += 5) {
            const long long rel = (long long)i - (long long)j;  // query - key
            EXPECT_EQ(m(i, j), double(logBucket(rel, 256, 512))) << i << "," << j;
            if (std::llabs(rel) <= 128) {
                EXPECT_EQ(m(i, j), double(rel));
            }
        }
    }
    // Values from a separate float32 script: 299 -> 206, 200 -> 169.
    EXPECT_EQ(m(299, 0), 206);
    EXPECT_EQ(m(0, 299), -206);
    EXPECT_EQ(m(200, 0), 169);
}

TEST_F(ContextualCliTest, DebertaSumIsTheThreeTerms) {
    std::vector<Matrix> terms;
    for (const char* term : {"c2c", "c2p", "p2c", "sum"}) {
        terms.push_back(exportCsv({"export", "deberta", "--seq-len", "20", "--head-dim", "8",
                                   "--position-buckets", "8", "--max-relative-positions", "16",
                                   "--term", term}));
    }
    for (std::size_t k = 0; k < terms[3].values.size(); ++k) {
        EXPECT_NEAR(terms[3].values[k],
                    terms[0].values[k] + terms[1].values[k] + terms[2].values[k], 1e-12);
    }
    // Without c2p and p2c the scale is sqrt(d * 1): c2c grows by sqrt(3) against s = 3.
    const Matrix alone =
        exportCsv({"export", "deberta", "--seq-len", "20", "--head-dim", "8", "--position-buckets",
                   "8", "--max-relative-positions", "16", "--term", "c2c", "--no-c2p", "--no-p2c"});
    for (std::size_t k = 0; k < alone.values.size(); ++k)
        EXPECT_NEAR(alone.values[k], terms[0].values[k] * std::sqrt(3.0), 1e-9);
}

TEST_F(ContextualCliTest, CopePositionsCountWhatTheGatesSelect) {
    const Matrix tokens =
        exportCsv({"export", "cope", "--sentence", "one two three four", "--gates", "tokens"});
    ASSERT_EQ(tokens.rows, 4u);
    for (std::size_t i = 0; i < 4; ++i)
        for (std::size_t j = 0; j < 4; ++j)
            EXPECT_EQ(tokens(i, j), j <= i ? double(i - j + 1) : 0.0) << i << "," << j;
    // Words only: in "a , b . c" the query c sees 3, 2, 2, 1, 1 words back to each key.
    const Matrix words =
        exportCsv({"export", "cope", "--sentence", "a , b . c", "--gates", "words"});
    const double expected[5] = {3, 2, 2, 1, 1};
    for (std::size_t j = 0; j < 5; ++j) EXPECT_EQ(words(4, j), expected[j]);
    // Seeded gates are sigmoids: every row of the gates in (0, 1) up to the diagonal.
    const Matrix gates =
        exportCsv({"export", "cope", "--sentence", "The cat sat. It ran.", "--what", "gates"});
    for (std::size_t i = 0; i < gates.rows; ++i)
        for (std::size_t j = 0; j <= i; ++j) EXPECT_TRUE(gates(i, j) > 0 && gates(i, j) < 1);
}

TEST_F(ContextualCliTest, NopeSignalAndIropeLayersAndMask) {
    const Matrix nope = exportCsv({"export", "nope", "--seq-len", "300"});
    ASSERT_EQ(nope.cols, 4u);
    for (std::size_t t = 0; t < 300; ++t) {
        EXPECT_EQ(nope(t, 1), 1.0 / double(t + 1));
        EXPECT_EQ(nope(t, 2), double(t));  // float32 resolves every position here
        if (t < 189) {
            EXPECT_EQ(nope(t, 3), double(t));
        }
    }
    EXPECT_NE(nope(189, 3), 189.0);  // bfloat16's first miss
    const Matrix layers = exportCsv({"export", "irope-layers"});
    ASSERT_EQ(layers.rows, 48u);
    for (std::size_t l = 0; l < 48; ++l) EXPECT_EQ(layers(l, 1), (l + 1) % 4 != 0 ? 1.0 : 0.0);
    const Matrix mask = exportCsv(
        {"export", "irope-mask", "--seq-len", "10", "--attention-chunk-size", "4", "--layer", "0"});
    for (std::size_t q = 0; q < 10; ++q)
        for (std::size_t k = 0; k < 10; ++k)
            EXPECT_EQ(mask(q, k), k <= q && q / 4 == k / 4 ? 1.0 : 0.0) << q << "," << k;
    const Matrix full = exportCsv(
        {"export", "irope-mask", "--seq-len", "10", "--attention-chunk-size", "4", "--layer", "3"});
    EXPECT_EQ(full(9, 0), 1.0);  // a NoPE layer: the whole causal prefix
}

TEST_F(ContextualCliTest, RandomizedPositionsAndOrderStatistics) {
    const Matrix stats =
        exportCsv({"export", "randomized-order-stats", "--length", "5", "--max-length", "100"});
    ASSERT_EQ(stats.rows, 5u);
    for (std::size_t k = 0; k < 5; ++k) EXPECT_NEAR(stats(k, 1), (k + 1) * 101.0 / 6 - 1, 1e-12);
    const Matrix draws = exportCsv({"export", "randomized-positions", "--length", "30",
                                    "--max-length", "1000", "--draws", "6", "--seed", "4"});
    ASSERT_EQ(draws.rows, 6u);
    ASSERT_EQ(draws.cols, 30u);
    for (std::size_t d = 0; d < 6; ++d) {
        for (std::size_t k = 1; k < 30; ++k) EXPECT_LT(draws(d, k - 1), draws(d, k));
        EXPECT_GE(draws(d, 0), 0);
        EXPECT_LE(draws(d, 29), 999);
    }
}

TEST_F(ContextualCliTest, EveryRenderViewDraws) {
    for (const char* view : {"cope", "deberta", "nope", "irope", "randomized-positions"}) {
        const std::string out = path(std::string(view) + ".png");
        auto result = runPoslab({"render", view, "--out", out}, "env -u DISPLAY");
        ASSERT_EQ(result.exitCode, 0) << view << ": " << result.err;
        const ImageRgba image = loadPng(out);
        EXPECT_EQ(image.width, 1200) << view;
        EXPECT_GT(distinctColours(image, 0, 0, 1200, 800), 20) << view;
    }
}

class ContextualBadInputTest : public ::testing::TestWithParam<BadInput> {};

TEST_P(ContextualBadInputTest, OneLineErrorExitCode2AndNoFile) {
    const std::string dir = temporaryDirectory("ctx-bad");
    std::vector<std::string> arguments = GetParam().arguments;
    for (std::string& a : arguments)
        if (a.rfind("OUT", 0) == 0) a = dir + "/" + a.substr(3);
    auto result = runPoslab(arguments);
    expectOneLineRefusal(result, GetParam().expectedMessage);
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 0);
}

INSTANTIATE_TEST_SUITE_P(
    Contextual, ContextualBadInputTest,
    ::testing::Values(
        BadInput{{"export", "cope", "--sentence", "one", "--out", "OUTa.csv"},
                 "sentence must have 2..64 tokens (got 1)"},
        BadInput{{"export", "cope", "--gates", "nouns", "--out", "OUTa.csv"},
                 "gates must be seeded, tokens, words or sentences"},
        BadInput{{"export", "cope", "--what", "keys", "--out", "OUTa.csv"}, "--what must be"},
        BadInput{{"export", "deberta", "--position-buckets", "1", "--out", "OUTa.csv"},
                 "position-buckets must be 2..65536 (got 1)"},
        BadInput{
            {"export", "deberta-buckets", "--max-relative-positions", "100", "--out", "OUTa.csv"},
            "max-relative-positions must be 130.."},
        BadInput{{"export", "deberta", "--term", "c2x", "--out", "OUTa.csv"}, "term must be"},
        BadInput{{"export", "irope-mask", "--layer", "48", "--out", "OUTa.csv"},
                 "layer must be 0..47 (got 48)"},
        BadInput{{"export", "irope-layers", "--no-rope-layers", "1,0,2", "--out", "OUTa.csv"},
                 "--no-rope-layers entries must be 0..1 (got 2)"},
        BadInput{{"export", "randomized-positions", "--length", "50", "--max-length", "20", "--out",
                  "OUTa.csv"},
                 "length must be 1..20 (got 50)"},
        BadInput{{"render", "irope", "--attn-scale", "-1", "--out", "OUTa.png"},
                 "attn-scale must be 0..100 (got -1)"},
        BadInput{{"render", "nope", "--seq-len", "1", "--out", "OUTa.png"},
                 "seq-len must be 2..1048576 (got 1)"}));

}  // namespace
}  // namespace poslab::test
