#include "poslab/base/random.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "poslab/encodings/learned.hpp"
#include "poslab/encodings/rope.hpp"

namespace poslab {
namespace {

std::vector<double> draws(std::uint64_t seed, int count) {
    NormalSampler sampler(seed);
    std::vector<double> values;
    for (int i = 0; i < count; ++i) values.push_back(sampler.next());
    return values;
}

TEST(RandomTest, ValuesFromAnIndependentImplementation) {
    // Computed with an independent Python implementation of MT19937-64 and the Box-Muller
    // recipe written in random.hpp.
    const std::vector<double> expected = {-0.4812176998018449, -0.5745368738983057,
                                          0.49458385623521345, 0.5701215522073739,
                                          0.3745542688498136};
    const std::vector<double> values = draws(42, 5);
    for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_NEAR(values[i], expected[i], 1e-14);
    const std::vector<double> seedZero = draws(0, 3);
    EXPECT_NEAR(seedZero[0], 1.9128045292843205, 1e-14);
    EXPECT_NEAR(seedZero[1], -0.09447956112584306, 1e-14);
    EXPECT_NEAR(seedZero[2], -2.079407906239395, 1e-14);
}

TEST(RandomTest, BoxMullerWrittenOutOnASeparateEngine) {
    // The standard fixes mt19937_64's 10000th output of the default seed ([rand.predef]), so the
    // engine below is the one the header names.
    std::mt19937_64 check;
    check.discard(9999);
    ASSERT_EQ(check(), 9981545732273789042ULL);

    std::mt19937_64 engine(2024);
    NormalSampler sampler(2024);
    for (int pair = 0; pair < 50; ++pair) {
        const std::uint64_t a = engine(), b = engine();
        const double u1 = double((a >> 11) + 1) / 9007199254740992.0;
        const double u2 = double(b >> 11) / 9007199254740992.0;
        const double r = std::sqrt(-2.0 * std::log(u1));
        EXPECT_DOUBLE_EQ(sampler.next(), r * std::cos(2 * std::numbers::pi * u2)) << pair;
        EXPECT_DOUBLE_EQ(sampler.next(), r * std::sin(2 * std::numbers::pi * u2)) << pair;
    }
}

TEST(RandomTest, SameSeedSameValuesOtherSeedsDiffer) {
    EXPECT_EQ(draws(7, 101), draws(7, 101));
    const std::vector<double> longer = draws(7, 1000);
    const std::vector<double> shorter = draws(7, 333);  // odd: the last sine half is unused
    for (std::size_t i = 0; i < shorter.size(); ++i) EXPECT_EQ(shorter[i], longer[i]) << i;
    const std::vector<double> other = draws(8, 1000);
    int equal = 0;
    for (std::size_t i = 0; i < other.size(); ++i) equal += other[i] == longer[i];
    EXPECT_EQ(equal, 0);
}

TEST(RandomTest, StandardNormalMoments) {
    // 400000 draws: the standard error of the mean is 1/sqrt(n) = 0.0016, of the variance
    // sqrt(2/n) = 0.0022, of E[x^4] sqrt(96/n) = 0.015; the bounds are 5 standard errors.
    constexpr int n = 400000;
    NormalSampler sampler(11);
    double sum = 0, squares = 0, cubes = 0, fourths = 0, products = 0, previous = 0;
    int withinOne = 0, withinTwo = 0;
    for (int i = 0; i < n; ++i) {
        const double x = sampler.next();
        ASSERT_TRUE(std::isfinite(x));
        sum += x;
        squares += x * x;
        cubes += x * x * x;
        fourths += x * x * x * x;
        products += x * previous;
        previous = x;
        withinOne += std::abs(x) < 1.0;
        withinTwo += std::abs(x) < 2.0;
    }
    const double mean = sum / n;
    EXPECT_NEAR(mean, 0.0, 0.008);
    EXPECT_NEAR(squares / n - mean * mean, 1.0, 0.011);
    EXPECT_NEAR(cubes / n, 0.0, 0.02);      // skewness 0 (sd of x^3: sqrt(15/n))
    EXPECT_NEAR(fourths / n, 3.0, 0.075);   // kurtosis 3
    EXPECT_NEAR(products / n, 0.0, 0.008);  // neighbours (cos and sin halves) uncorrelated
    // P(|x| < 1) = erf(1/sqrt 2) = 0.682689, P(|x| < 2) = erf(sqrt 2) = 0.954500; standard
    // errors 0.00074 and 0.00033.
    EXPECT_NEAR(double(withinOne) / n, 0.682689, 0.0037);
    EXPECT_NEAR(double(withinTwo) / n, 0.954500, 0.0017);
}

TEST(RandomTest, EveryUserDrawsTheSameSequence) {
    // seededGaussianVector (RoPE's q and k) and learnedTable (std * draws, row by row) both take
    // their values from NormalSampler.
    const std::vector<double> expected = draws(5, 9);
    EXPECT_EQ(seededGaussianVector(9, 5), expected);
    LearnedParams params;
    params.seqLen = 3;
    params.dModel = 3;
    params.seed = 5;
    params.std = 1.0;
    auto table = learnedTable(params);
    ASSERT_TRUE(table.ok());
    EXPECT_EQ(table->values, expected);
}

}  // namespace
}  // namespace poslab

namespace poslab {
namespace {

TEST(RandomTest, BlocksGiveStdMt19937_64sSequence) {
    // The standard fixes mt19937_64's outputs ([rand.predef]: the 10000th of the default seed is
    // 9981545732273789042); the block engine must give every one of them, tempered.
    for (std::uint64_t seed : {std::uint64_t{5489}, std::uint64_t{0}, ~std::uint64_t{0} - 6}) {
        std::mt19937_64 reference(seed);
        Mt19937_64Blocks blocks(seed);
        for (int block = 0; block < 40; ++block) {
            blocks.nextBlock();
            for (int k = 0; k < Mt19937_64Blocks::kWords; ++k) {
                const std::uint64_t expected = reference();
                ASSERT_EQ(Mt19937_64Blocks::temper(blocks.words()[k]), expected)
                    << "seed " << seed << " output " << block * Mt19937_64Blocks::kWords + k;
            }
        }
    }
    Mt19937_64Blocks standard(5489);
    std::uint64_t output = 0;
    for (int i = 0; i < 10000; ++i) {
        if (i % Mt19937_64Blocks::kWords == 0) standard.nextBlock();
        output = Mt19937_64Blocks::temper(standard.words()[i % Mt19937_64Blocks::kWords]);
    }
    EXPECT_EQ(output, 9981545732273789042ULL);
}

}  // namespace
}  // namespace poslab

namespace poslab {
namespace {

// fillScaledNormals against NormalSampler::next(): every count around the pair, block and chunk
// boundaries (156 pairs per engine block, 79,872 per chunk), odd counts ending on a pair's
// cosine, the scale applied as std * next() is (bit for bit).
TEST(RandomTest, FillScaledNormalsIsTheSamplersSequenceAcrossChunks) {
    const std::size_t chunkValues = 2 * 512 * 156;
    for (std::size_t count :
         {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{311}, std::size_t{312},
          std::size_t{313}, chunkValues - 1, chunkValues, chunkValues + 1, 2 * chunkValues + 625}) {
        NormalSampler sampler(77);
        std::vector<double> expected(count);
        for (double& value : expected) value = 0.02 * sampler.next();
        std::vector<double> filled(count + 1, -1.0);  // one past the end: left alone
        fillScaledNormals(filled.data(), count, 77, 0.02);
        for (std::size_t i = 0; i < count; ++i)
            ASSERT_EQ(filled[i], expected[i]) << count << " " << i;
        EXPECT_EQ(filled[count], -1.0) << count;
    }
}

// ScaledNormalStream in pieces against NormalSampler::next(): pieces that split a pair (odd
// sizes), empty pieces, pieces across engine blocks (312 words) and chunks (159,744 values);
// every piece's values are the next ones of the one sequence, bit for bit.
TEST(RandomTest, ScaledNormalStreamPiecesAreTheSamplersSequence) {
    const std::size_t chunkValues = 2 * 512 * 156;
    const std::vector<std::size_t> pieces = {
        1, 0, 2, 3, 311, 1, 312, 313, 0, chunkValues - 1, 5, chunkValues + 2, 7, 1};
    std::size_t total = 0;
    for (std::size_t piece : pieces) total += piece;
    NormalSampler sampler(91);
    std::vector<double> expected(total);
    for (double& value : expected) value = 0.5 * sampler.next();
    ScaledNormalStream stream(91, 0.5);
    std::size_t at = 0;
    for (std::size_t piece : pieces) {
        std::vector<double> filled(piece + 1, -1.0);  // one past the end: left alone
        stream.fill(filled.data(), piece);
        for (std::size_t i = 0; i < piece; ++i)
            ASSERT_EQ(filled[i], expected[at + i]) << "piece " << piece << " value " << i;
        EXPECT_EQ(filled[piece], -1.0) << piece;
        at += piece;
    }
}

}  // namespace
}  // namespace poslab
