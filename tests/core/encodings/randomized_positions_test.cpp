#include "poslab/encodings/randomized_positions.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <tuple>
#include <vector>

namespace poslab {
namespace {

// Every L-subset of {0..N-1}, by recursion: the k-th smallest's exact mean and variance.
void subsets(int n, int l, int start, std::vector<int>& current, std::vector<double>& sum,
             std::vector<double>& sumSquares, long long& count) {
    if (int(current.size()) == l) {
        for (int k = 0; k < l; ++k) {
            sum[std::size_t(k)] += current[std::size_t(k)];
            sumSquares[std::size_t(k)] += double(current[std::size_t(k)]) * current[std::size_t(k)];
        }
        ++count;
        return;
    }
    for (int v = start; v < n; ++v) {
        current.push_back(v);
        subsets(n, l, v + 1, current, sum, sumSquares, count);
        current.pop_back();
    }
}

// Derivation of the closed form: the k-th smallest (1-based k) of a uniform L-subset of {1..N}
// equals m with probability C(m-1, k-1) C(N-m, L-k) / C(N, L); summing m C(m-1, k-1) =
// k C(m, k) and the Vandermonde identity sum_m C(m, k) C(N-m, L-k) = C(N+1, L+1) give
// E = k C(N+1, L+1) / C(N, L) = k (N+1)/(L+1). Here the same numbers by enumeration.
TEST(RandomizedPositionsTest, OrderStatisticsMatchEnumeration) {
    for (auto [n, l] :
         std::vector<std::pair<int, int>>{{5, 2}, {7, 3}, {10, 4}, {12, 12}, {9, 1}}) {
        std::vector<int> current;
        std::vector<double> sum(std::size_t(l), 0), squares(std::size_t(l), 0);
        long long count = 0;
        subsets(n, l, 0, current, sum, squares, count);
        for (int k = 0; k < l; ++k) {
            const double mean = sum[std::size_t(k)] / double(count);
            const double variance = squares[std::size_t(k)] / double(count) - mean * mean;
            EXPECT_NEAR(expectedOrderStatistic(k, l, n), mean, 1e-12) << n << " " << l << " " << k;
            EXPECT_NEAR(orderStatisticStd(k, l, n), std::sqrt(std::max(variance, 0.0)), 1e-9)
                << n << " " << l << " " << k;
        }
    }
    // L = N: the plain positions 0..L-1, no spread.
    EXPECT_DOUBLE_EQ(expectedOrderStatistic(3, 10, 10), 3.0);
    EXPECT_DOUBLE_EQ(orderStatisticStd(3, 10, 10), 0.0);
    // Hand-computed: N = 2048, L = 40, k = 0: 2049/41 - 1 = 48.97...
    EXPECT_NEAR(expectedOrderStatistic(0, 40, 2048), 2049.0 / 41 - 1, 1e-12);
}

TEST(RandomizedPositionsTest, DrawsAreSortedDistinctSeededAndInRange) {
    RandomizedPositionsParams p;
    for (int d = 0; d < p.draws; ++d) {
        const std::vector<long long> draw = randomizedDraw(p, d);
        ASSERT_EQ(draw.size(), 40u);
        EXPECT_TRUE(std::is_sorted(draw.begin(), draw.end()));
        EXPECT_EQ(std::adjacent_find(draw.begin(), draw.end()), draw.end());
        EXPECT_GE(draw.front(), 0);
        EXPECT_LT(draw.back(), 2048);
        EXPECT_EQ(draw, randomizedDraw(p, d));  // same seed, same draw
    }
    EXPECT_NE(randomizedDraw(p, 0), randomizedDraw(p, 1));
    EXPECT_EQ(sampleSortedPositions(5, 5, 9), (std::vector<long long>{0, 1, 2, 3, 4}));
}

// Algorithm S as first written: one std::mt19937_64 call per position walked. The screened
// block walk must take exactly the same positions, so a seed keeps its draws.
std::vector<long long> selectionSamplingByTheEngine(int length, long long maxLength,
                                                    std::uint64_t seed) {
    std::vector<long long> chosen;
    std::mt19937_64 engine(seed);
    long long needed = length;
    for (long long t = 0; t < maxLength && needed > 0; ++t) {
        const double u = double(engine() >> 11) * 0x1.0p-53;
        if (double(maxLength - t) * u < double(needed)) {
            chosen.push_back(t);
            --needed;
        }
    }
    return chosen;
}

TEST(RandomizedPositionsTest, DrawsAreAlgorithmSOnTheStandardEngine) {
    // Lengths across a block boundary (312 words), every position taken, one taken, a range far
    // larger than the length (most blocks hold no candidate), and L close to N.
    const std::vector<std::tuple<int, long long, std::uint64_t>> cases = {
        {1, 1, 0},
        {5, 5, 9},
        {40, 2048, 7},
        {311, 311, 3},
        {312, 313, 4},
        {1, 100000, 5},
        {100, 624, 11},
        {2000, 2049, 13},
        {65536, 1 << 21, 17},
        {600, 1 << 20, 0x9e3779b97f4a7c15ull}};
    for (const auto& [length, maxLength, seed] : cases) {
        EXPECT_EQ(sampleSortedPositions(length, maxLength, seed),
                  selectionSamplingByTheEngine(length, maxLength, seed))
            << length << " of " << maxLength << ", seed " << seed;
    }
}

TEST(RandomizedPositionsTest, SampleMeansApproachTheClosedForm) {
    // 4000 draws of L = 5 from N = 100: the mean of each order statistic within 4 standard errors.
    const int draws = 4000, l = 5;
    const long long n = 100;
    std::vector<double> sum(l, 0);
    for (int d = 0; d < draws; ++d) {
        const auto s = sampleSortedPositions(l, n, std::uint64_t(d) * 7919 + 1);
        for (int k = 0; k < l; ++k) sum[std::size_t(k)] += double(s[std::size_t(k)]);
    }
    for (int k = 0; k < l; ++k) {
        const double se = orderStatisticStd(k, l, n) / std::sqrt(double(draws));
        EXPECT_NEAR(sum[std::size_t(k)] / draws, expectedOrderStatistic(k, l, n), 4 * se) << k;
    }
}

TEST(RandomizedPositionsTest, ValidateNamesFields) {
    RandomizedPositionsParams p;
    p.length = 3000;
    EXPECT_EQ(validate(p).error().message, "length must be 1..2048 (got 3000)");
    p.length = 4;
    p.draws = 0;
    EXPECT_EQ(validate(p).error().message, "draws must be 1..64 (got 0)");
}

}  // namespace
}  // namespace poslab
