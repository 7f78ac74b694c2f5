#include "poslab/encodings/learned.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

namespace poslab {
namespace {

LearnedParams learnedParams(int length, int d, std::uint64_t seed, double std = 0.02) {
    LearnedParams p;
    p.seqLen = length;
    p.dModel = d;
    p.seed = seed;
    p.std = std;
    return p;
}

TEST(LearnedTest, FirstValuesAreBoxMullerOverMt19937_64) {
    // The transform written out again from the header's description, on a separate engine.
    std::mt19937_64 engine(1234);
    std::vector<double> expected;
    for (int pair = 0; pair < 6; ++pair) {
        const std::uint64_t a = engine(), b = engine();
        const double u1 = double((a >> 11) + 1) / 9007199254740992.0;
        const double u2 = double(b >> 11) / 9007199254740992.0;
        const double r = std::sqrt(-2.0 * std::log(u1));
        expected.push_back(r * std::cos(2 * std::numbers::pi * u2));
        expected.push_back(r * std::sin(2 * std::numbers::pi * u2));
    }
    auto table = learnedTable(learnedParams(3, 4, 1234, 0.5));
    ASSERT_TRUE(table.ok()) << table.error().message;
    ASSERT_EQ(table->values.size(), expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k) {
        EXPECT_DOUBLE_EQ(table->values[k], 0.5 * expected[k]) << k;
    }
}

TEST(LearnedTest, MeanAndStdMatchTheRequestedNormal) {
    // N = 512 * 64 = 32768 draws with sigma 0.02. Standard errors: mean sigma / sqrt(N) = 1.1e-4,
    // sample std about sigma / sqrt(2N) = 7.8e-5, fraction within one sigma
    // sqrt(p (1 - p) / N) = 2.6e-3 (p = 0.6827). Tolerances are 5 standard errors: a correct
    // generator fails one of them with probability below 1e-5 (and the seeds are fixed anyway).
    for (std::uint64_t seed : {0ull, 1ull, 42ull, 0xdeadbeefull}) {
        auto table = learnedTable(learnedParams(512, 64, seed));
        ASSERT_TRUE(table.ok());
        const double n = double(table->values.size());
        double sum = 0, squares = 0, withinOne = 0, beyondThree = 0, lagProduct = 0;
        for (std::size_t k = 0; k < table->values.size(); ++k) {
            const double v = table->values[k];
            sum += v;
            squares += v * v;
            withinOne += std::abs(v) < 0.02;
            beyondThree += std::abs(v) > 0.06;
            if (k > 0) lagProduct += v * table->values[k - 1];
        }
        const double mean = sum / n;
        const double std = std::sqrt(squares / n - mean * mean);
        EXPECT_NEAR(mean, 0.0, 5 * 0.02 / std::sqrt(n)) << seed;
        EXPECT_NEAR(std, 0.02, 5 * 0.02 / std::sqrt(2 * n)) << seed;
        EXPECT_NEAR(withinOne / n, 0.682689, 5 * std::sqrt(0.6827 * 0.3173 / n)) << seed;
        // Tails: P(|z| > 3) = 0.0027, standard error sqrt(0.0027 / N) = 2.9e-4.
        EXPECT_NEAR(beyondThree / n, 0.0026998, 5 * std::sqrt(0.0027 / n)) << seed;
        // Neighbouring draws (including the cos/sin halves of one pair) are uncorrelated:
        // sample correlation has standard error 1 / sqrt(N).
        EXPECT_NEAR(lagProduct / (n - 1) / (0.02 * 0.02), 0.0, 5 / std::sqrt(n)) << seed;
    }
}

TEST(LearnedTest, SameSeedSameTableDifferentSeedDifferentTable) {
    auto a = learnedTable(learnedParams(100, 16, 9));
    auto b = learnedTable(learnedParams(100, 16, 9));
    auto c = learnedTable(learnedParams(100, 16, 10));
    ASSERT_TRUE(a.ok() && b.ok() && c.ok());
    EXPECT_EQ(a->values, b->values);
    int equal = 0;
    for (std::size_t k = 0; k < a->values.size(); ++k) equal += a->values[k] == c->values[k];
    EXPECT_EQ(equal, 0);
}

TEST(LearnedTest, LongerTableStartsWithTheShorterOne) {
    auto shorter = learnedTable(learnedParams(7, 5, 3));
    auto longer = learnedTable(learnedParams(20, 5, 3));
    ASSERT_TRUE(shorter.ok() && longer.ok());
    for (std::size_t k = 0; k < shorter->values.size(); ++k) {
        EXPECT_EQ(shorter->values[k], longer->values[k]);
    }
}

TEST(LearnedTest, StdScalesAndZeroStdGivesZeros) {
    auto unit = learnedTable(learnedParams(4, 8, 5, 1.0));
    auto scaled = learnedTable(learnedParams(4, 8, 5, 3.0));
    auto zero = learnedTable(learnedParams(4, 8, 5, 0.0));
    ASSERT_TRUE(unit.ok() && scaled.ok() && zero.ok());
    for (std::size_t k = 0; k < unit->values.size(); ++k) {
        EXPECT_EQ(scaled->values[k], 3.0 * unit->values[k]);
        EXPECT_EQ(zero->values[k], 0.0);
    }
}

TEST(LearnedTest, SamplerPairsCosineThenSine) {
    NormalSampler sampler(77);
    const double first = sampler.next(), second = sampler.next();
    // Both halves share the radius r: first^2 + second^2 = r^2 = -2 ln u1.
    std::mt19937_64 engine(77);
    const double u1 = double((engine() >> 11) + 1) / 9007199254740992.0;
    EXPECT_NEAR(first * first + second * second, -2.0 * std::log(u1), 1e-12);
}

TEST(LearnedTest, ValidationMessages) {
    EXPECT_TRUE(validate(learnedParams(512, 64, 0)).ok());
    EXPECT_EQ(validate(learnedParams(0, 64, 0)).error().message,
              "seq_len must be 1..1048576 (got 0)");
    EXPECT_EQ(validate(learnedParams(8, 0, 0)).error().message, "d_model must be 1..8192 (got 0)");
    EXPECT_EQ(validate(learnedParams(8, 8, 0, -1.0)).error().message,
              "std must be 0..100 (got -1)");
    EXPECT_FALSE(validate(learnedParams(8, 8, 0, NAN)).ok());
    auto huge = learnedTable(learnedParams(1 << 20, 8192, 0));  // 64 GiB
    ASSERT_FALSE(huge.ok());
    EXPECT_NE(huge.error().message.find("the learned embedding table"), std::string::npos);
}

}  // namespace
}  // namespace poslab
