#include "poslab/encodings/deberta.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace poslab {
namespace {

long long v3(long long rel) {
    return debertaLogBucket(rel, 256, 512);
}  // deberta-v3 config

// Values below were computed from make_log_bucket_position's float32 steps written out in a
// separate script (|d| / mid, log, log of float32((max_position - 1) / mid), times mid - 1, ceil,
// + mid; each log correctly rounded to float32).
TEST(DebertaBucketTest, V3DefaultsKnownValues) {
    const long long rel[] = {127, 128, 129, 130, 131, 150,  200,  256, 300,
                             400, 510, 511, 512, 600, 1000, 2000, 5000};
    const long long bucket[] = {127, 128, 129, 130, 131, 143, 169, 192, 207,
                                233, 255, 255, 256, 270, 317, 381, 465};
    for (std::size_t k = 0; k < std::size(rel); ++k) {
        EXPECT_EQ(v3(rel[k]), bucket[k]) << rel[k];
        EXPECT_EQ(v3(-rel[k]), -bucket[k]) << -rel[k];
    }
}

TEST(DebertaBucketTest, IdentityWithinHalfBucketSizeAndOddSymmetric) {
    for (long long d = -128; d <= 128; ++d) EXPECT_EQ(v3(d), d);
    for (long long d = 0; d <= 3000; ++d) EXPECT_EQ(v3(-d), -v3(d)) << d;
    for (long long d = 129; d <= 3000; ++d) EXPECT_GE(v3(d), v3(d - 1)) << d;  // monotone
    // max_position - 1 maps to the last bucket 2 mid - 1: log ratio exactly 1.
    EXPECT_EQ(v3(511), 255);
}

TEST(DebertaBucketTest, EdgesAtExactPowers) {
    // bucket_size 10 (mid 5), max_position 81: (81 - 1)/5 = 16, so |d| = 10, 20, 40, 80 give
    // log2(d/5)/4 * 4 = 1, 2, 3, 4 exactly (also in float32: the logs are multiples of log 2) and
    // ceil keeps them: the edge value belongs to the lower bucket.
    const long long rel[] = {6, 10, 11, 20, 21, 40, 41, 80, 81, 160, 161};
    const long long bucket[] = {6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11};
    for (std::size_t k = 0; k < std::size(rel); ++k) {
        EXPECT_EQ(debertaLogBucket(rel[k], 10, 81), bucket[k]) << rel[k];
    }
}

TEST(DebertaBucketTest, KnifeEdgeFollowsFloat32NotRealArithmetic) {
    // bucket_size 128, max_position 81: mid 64, (81 - 1)/64 = 1.25, and 125/64 = 1.25^3. In real
    // numbers log(125/64)/log(1.25) * 63 = 189 exactly, ceil 189, bucket 253. float32:
    const float a = float(std::log(double(125.0f / 64.0f)));
    const float b = float(std::log(double(float(80.0 / 64.0))));
    const float scaled = a / b * 63.0f;
    EXPECT_GT(scaled, 189.0f);  // 189.00002: one float32 ulp above
    EXPECT_EQ(debertaLogBucket(125, 128, 81), 254);
    EXPECT_EQ(debertaLogBucket(-125, 128, 81), -254);
    EXPECT_EQ(debertaLogBucket(124, 128, 81), 251);
    EXPECT_EQ(debertaLogBucket(126, 128, 81), 256);
    // The other way: 8.0000009 in reals is 8 in float32 (bucket 16, not 17).
    EXPECT_EQ(debertaLogBucket(1461, 16, 763), 16);
    EXPECT_EQ(debertaLogBucket(1462, 16, 763), 17);
}

TEST(DebertaBucketTest, TinyBucketCounts) {
    // mid 1: mid - 1 = 0 multiplies the log away: everything beyond is +-1.
    for (long long d = -5; d <= 5; ++d) {
        EXPECT_EQ(debertaLogBucket(d, 2, 10), d < 0 ? -1 : d > 0 ? 1 : 0) << d;
    }
    const long long expected[] = {0, 1, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4};  // bucket 4, max_pos 9
    for (long long d = 0; d < 12; ++d) EXPECT_EQ(debertaLogBucket(d, 4, 9), expected[d]) << d;
}

TEST(DebertaIndexTest, RelativePositionIsQueryMinusKey) {
    DebertaParams p;
    p.positionBuckets = 0;
    p.maxRelativePositions = 4;
    EXPECT_EQ(debertaRelativePosition(5, 2, p), 3);
    EXPECT_EQ(debertaRelativePosition(2, 5, p), -3);
    // c2p: clamp(delta + k, 0, 2k - 1) with k = 4: delta 3 -> 7, delta 9 -> 7, delta -9 -> 0.
    EXPECT_EQ(debertaC2pIndex(5, 2, p), 7);
    EXPECT_EQ(debertaC2pIndex(12, 3, p), 7);
    EXPECT_EQ(debertaC2pIndex(3, 12, p), 0);
    EXPECT_EQ(debertaC2pIndex(3, 3, p), 4);
}

TEST(DebertaIndexTest, CodeP2cReadsTheC2pIndexNotThePapers) {
    DebertaParams p;  // buckets 256, max 512: odd-symmetric buckets
    for (long long i : {0LL, 5LL, 300LL, 900LL}) {
        for (long long j : {0LL, 7LL, 250LL, 1000LL}) {
            EXPECT_EQ(debertaP2cIndex(i, j, p), debertaC2pIndex(i, j, p)) << i << "," << j;
            // Written out: c2p reads clamp(bucket(i - j) + k), the paper's p2c clamp(bucket(j - i)
            // + k).
            EXPECT_EQ(debertaC2pIndex(i, j, p), std::clamp(v3(i - j) + 256, 0LL, 511LL));
            EXPECT_EQ(debertaPaperP2cIndex(i, j, p), std::clamp(v3(j - i) + 256, 0LL, 511LL));
        }
    }
}

TEST(DebertaTermTest, TermsAreTheGatheredDotProductsScaled) {
    DebertaParams p;
    p.headDim = 4;
    p.seed = 7;
    const long long i = 9, j = 2;
    auto dot = [](const std::vector<double>& a, const std::vector<double>& b) {
        return std::inner_product(a.begin(), a.end(), b.begin(), 0.0);
    };
    const double scale = std::sqrt(4.0 * 3);  // d s with s = 3 (c2p and p2c)
    const auto q = debertaVector(p, DebertaStream::Query, i);
    const auto k = debertaVector(p, DebertaStream::Key, j);
    const int index = int(9 - 2 + 256);  // |7| <= 128: identity bucket, + k
    const auto kr = debertaVector(p, DebertaStream::PositionKey, index);
    const auto qr = debertaVector(p, DebertaStream::PositionQuery, index);
    EXPECT_NEAR(debertaTermValue(p, DebertaTerm::C2c, i, j), dot(q, k) / scale, 1e-12);
    EXPECT_NEAR(debertaTermValue(p, DebertaTerm::C2p, i, j), dot(q, kr) / scale, 1e-12);
    EXPECT_NEAR(debertaTermValue(p, DebertaTerm::P2c, i, j), dot(k, qr) / scale, 1e-12);
    EXPECT_NEAR(debertaTermValue(p, DebertaTerm::Sum, i, j),
                (dot(q, k) + dot(q, kr) + dot(k, qr)) / scale, 1e-12);
    p.p2c = false;  // s = 2 and no p2c
    EXPECT_EQ(debertaTermValue(p, DebertaTerm::P2c, i, j), 0.0);
    EXPECT_NEAR(debertaTermValue(p, DebertaTerm::C2c, i, j), dot(q, k) / std::sqrt(8.0), 1e-12);
}

TEST(DebertaTermTest, SampleMemoGivesTheSameBitsWhileBucketsSeedAndCellsMove) {
    // The GUI keeps a DebertaSampleMemo while position_buckets and max_position are dragged:
    // every call with it must equal a call without it, bit for bit, whatever moved in between.
    DebertaParams p;
    p.seqLen = 4096;
    p.headDim = 8;
    p.seed = 3;
    std::vector<long long> rows{0, 5, 100, 1000, 4000}, cols{0, 3, 50, 999, 4095};
    DebertaSampleMemo memo;
    auto same = [&](DebertaTerm term) {
        EXPECT_EQ(debertaTermSample(p, term, rows, cols, &memo).values,
                  debertaTermSample(p, term, rows, cols).values)
            << p.positionBuckets << " " << p.maxRelativePositions << " " << int(term);
    };
    const DebertaTerm terms[] = {DebertaTerm::C2c, DebertaTerm::C2p, DebertaTerm::P2c,
                                 DebertaTerm::Sum};
    // Buckets 0 with max_position 4096: a span of 8192 indices, past the kept dot products.
    const std::pair<int, int> settings[] = {{16, 512},  {64, 512}, {256, 512},
                                            {64, 4096}, {0, 4096}, {16, 512}};
    for (const auto& [buckets, reach] : settings) {
        p.positionBuckets = buckets;
        p.maxRelativePositions = reach;
        for (DebertaTerm t : terms) same(t);
    }
    p.p2c = false;  // the scale changes (s = 2); kept dot products are before it
    for (DebertaTerm t : terms) same(t);
    p.p2c = true;
    // One cell written out from the vectors after those moves (buckets 64, max 512).
    p.positionBuckets = 64;
    p.maxRelativePositions = 512;
    auto dot = [](const std::vector<double>& a, const std::vector<double>& b) {
        return std::inner_product(a.begin(), a.end(), b.begin(), 0.0);
    };
    const auto q = debertaVector(p, DebertaStream::Query, 4000);
    const auto k = debertaVector(p, DebertaStream::Key, 3);
    const auto kr = debertaVector(p, DebertaStream::PositionKey, debertaC2pIndex(4000, 3, p));
    const auto qr = debertaVector(p, DebertaStream::PositionQuery, debertaP2cIndex(4000, 3, p));
    EXPECT_NEAR(debertaTermSample(p, DebertaTerm::Sum, rows, cols, &memo)(4, 1),
                (dot(q, k) + dot(q, kr) + dot(k, qr)) / std::sqrt(8.0 * 3), 1e-12);
    // A new seed, head_dim or set of cells starts the memo again.
    p.seed = 4;
    same(DebertaTerm::Sum);
    p.headDim = 6;
    same(DebertaTerm::Sum);
    rows = {1, 2, 3};
    same(DebertaTerm::Sum);
    cols = {7};
    same(DebertaTerm::C2p);
}

TEST(DebertaTermTest, MatrixMatchesSamplesAndValidateNamesInputs) {
    DebertaParams p;
    p.seqLen = 6;
    p.headDim = 8;
    auto m = debertaTermMatrix(p, DebertaTerm::Sum);
    ASSERT_TRUE(m.ok());
    EXPECT_NEAR((*m)(4, 1), debertaTermValue(p, DebertaTerm::Sum, 4, 1), 1e-12);
    auto r = debertaRelativePositionMatrix(p);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ((*r)(0, 5), -5);
    p.maxRelativePositions = 129;
    EXPECT_EQ(validate(p).error().message, "max_relative_positions must be 130..1048576 (got 129)");
    p.maxRelativePositions = 512;
    p.positionBuckets = 1;
    EXPECT_EQ(validate(p).error().message, "position_buckets must be 2..65536 (got 1)");
    EXPECT_EQ(parseDebertaTerm("p2c").value(), DebertaTerm::P2c);
}

// A sample whose cells meet thousands of distinct relative rows (no buckets: every cell of a row
// its own index), more than one group of relative rows at head_dim 256 (2,048 rows of 4 MiB):
// every cell of the Sum term is the three dot products written out here, each summed in order
// and scaled, added c2c, c2p, p2c (bit for bit: the sample draws rows on every core and in
// groups, and each cell must still be this sum).
TEST(DebertaTermTest, SampleOverManyRelativeRowsIsEachCellsSum) {
    DebertaParams p;
    p.seqLen = 1 << 20;
    p.positionBuckets = 0;
    p.maxRelativePositions = 1 << 20;
    p.headDim = 256;
    p.seed = 3;
    const std::vector<long long> rows = {5, 700001};
    std::vector<long long> cols;
    for (long long j = 0; j < 1100; ++j) cols.push_back(j * 797);
    const Matrix sample = debertaTermSample(p, DebertaTerm::Sum, rows, cols);
    const long long span = 1 << 20;
    const double scale = 1 / std::sqrt(256.0 * 3);
    auto dotInOrder = [](const std::vector<double>& a, const std::vector<double>& b) {
        double sum = 0.0;
        for (std::size_t t = 0; t < a.size(); ++t) sum = sum + a[t] * b[t];
        return sum;
    };
    for (std::size_t a = 0; a < rows.size(); ++a) {
        const auto q = debertaVector(p, DebertaStream::Query, rows[a]);
        for (std::size_t b = 0; b < cols.size(); b += (b < 40 ? 1 : 17)) {
            const long long i = rows[a], j = cols[b];
            const auto k = debertaVector(p, DebertaStream::Key, j);
            // c2p gathers Kr[clamp(i - j + k)], p2c Qr[clamp(-(j - i) + k)] (HF's gather).
            const auto kr = debertaVector(p, DebertaStream::PositionKey,
                                          std::clamp(i - j + span, 0LL, 2 * span - 1));
            const auto qr = debertaVector(p, DebertaStream::PositionQuery,
                                          std::clamp(-(j - i) + span, 0LL, 2 * span - 1));
            const double expected = ((0.0 + dotInOrder(q, k) * scale) + dotInOrder(q, kr) * scale) +
                                    dotInOrder(k, qr) * scale;
            ASSERT_EQ(sample(a, b), expected) << i << " " << j;
        }
    }
}

}  // namespace
}  // namespace poslab
