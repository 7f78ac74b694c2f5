#include "poslab/encodings/t5_bias.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <vector>

#include "poslab/encodings/learned.hpp"

namespace poslab {
namespace {

T5Params t5Params(int length, int buckets = 32, int maxDistance = 128, bool bidirectional = true) {
    T5Params p;
    p.seqLen = length;
    p.numBuckets = buckets;
    p.maxDistance = maxDistance;
    p.bidirectional = bidirectional;
    return p;
}

int encoderBucket(int rp) {
    return t5RelativePositionBucket(rp, true, 32, 128);
}
int decoderBucket(int rp) {
    return t5RelativePositionBucket(rp, false, 32, 128);
}

// HF's formula in exact arithmetic (long double, values within 1e-12 of an integer taken as
// that integer), for one direction's share `n` of the buckets and a distance d >= 0.
int exactDistanceBucket(long long d, int n, int maxDistance) {
    const int maxExact = n / 2;
    if (d < maxExact) return int(d);
    const long double v = std::log((long double)d / maxExact) /
                          std::log((long double)maxDistance / maxExact) * (n - maxExact);
    const long double nearest = std::round(v);
    const long long whole = std::fabs(v - nearest) < 1e-12L ? (long long)nearest : (long long)v;
    return int(std::min<long long>(maxExact + whole, n - 1));
}

// ---- The default configuration (32 buckets, max_distance 128), both modes

// First distance of each of the 16 encoder buckets: 0..7 exact, then the log buckets start
// where 2 log2(d / 8) reaches k, i.e. d >= 8 * 2^(k/2): ceil(11.31) = 12, 16, ceil(22.6) = 23,
// 32, ceil(45.25) = 46, 64, ceil(90.5) = 91.
const int kEncoderStarts[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 23, 32, 46, 64, 91};
// Decoder: 16 exact buckets, then 16 * log_8(d / 16) reaches k at d >= 16 * 2^(3k/16).
const int kDecoderStarts[32] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                16, 19, 21, 24, 27, 31, 35, 40, 46, 52, 59, 67, 77, 87, 99, 113};

TEST(T5BucketTest, EncoderEdgesBothSidesOfEveryBoundary) {
    for (int b = 0; b < 16; ++b) {
        const int start = kEncoderStarts[b];
        // Keys before the query (rp = -d) use buckets 0..15, keys after it 16 + (1..15).
        EXPECT_EQ(encoderBucket(-start), b) << "rp=" << -start;
        if (b > 0) {
            EXPECT_EQ(encoderBucket(-(start - 1)), b - 1) << "rp=" << -(start - 1);
        }
        if (start > 0) {
            EXPECT_EQ(encoderBucket(start), 16 + b) << "rp=" << start;
            if (b > 1) {
                EXPECT_EQ(encoderBucket(start - 1), 16 + b - 1) << "rp=" << start - 1;
            }
        }
    }
    for (int k = 1; k <= 7; ++k) {  // the table above is the closed form
        EXPECT_EQ(kEncoderStarts[8 + k], int(std::ceil(8 * std::exp2(k / 2.0) - 1e-9))) << k;
    }
}

TEST(T5BucketTest, EncoderExactEdgesAt16_32_64) {
    // log(d/8) / log(16) * 8 is exactly 2, 4, 6 at d = 16, 32, 64 in real numbers, and also in
    // torch's float32: float32 log(2), log(4), log(8) are 1, 2, 3 times float32 log(2) and the
    // float32 of Python's log(16.0) is 4 times it, so the quotients 1/4, 1/2, 3/4 are exact.
    // The truncation therefore lands on the upper bucket.
    const float log2f32 = float(std::log(2.0));
    EXPECT_EQ(float(std::log(4.0)), 2 * log2f32);
    EXPECT_EQ(float(std::log(8.0)), 3 * log2f32);
    EXPECT_EQ(float(std::log(16.0)), 4 * log2f32);
    EXPECT_EQ(encoderBucket(-16), 10);
    EXPECT_EQ(encoderBucket(-15), 9);
    EXPECT_EQ(encoderBucket(-32), 12);
    EXPECT_EQ(encoderBucket(-31), 11);
    EXPECT_EQ(encoderBucket(-64), 14);
    EXPECT_EQ(encoderBucket(-63), 13);
    EXPECT_EQ(encoderBucket(16), 26);
    EXPECT_EQ(encoderBucket(15), 25);
    EXPECT_EQ(encoderBucket(32), 28);
    EXPECT_EQ(encoderBucket(31), 27);
    EXPECT_EQ(encoderBucket(64), 30);
    EXPECT_EQ(encoderBucket(63), 29);
}

TEST(T5BucketTest, EncoderSmallAndSaturatedPositions) {
    EXPECT_EQ(encoderBucket(0), 0);
    EXPECT_EQ(encoderBucket(-1), 1);
    EXPECT_EQ(encoderBucket(1), 17);  // bucket 16 is never used: rp > 0 means |rp| >= 1
    EXPECT_EQ(encoderBucket(-7), 7);
    EXPECT_EQ(encoderBucket(7), 23);
    EXPECT_EQ(encoderBucket(-8), 8);
    EXPECT_EQ(encoderBucket(8), 24);
    EXPECT_EQ(encoderBucket(-128), 15);
    EXPECT_EQ(encoderBucket(128), 31);
    EXPECT_EQ(encoderBucket(-1000000), 15);
    EXPECT_EQ(encoderBucket(1000000), 31);
    EXPECT_EQ(encoderBucket(INT_MIN), 15);
    EXPECT_EQ(encoderBucket(INT_MAX), 31);
    for (int rp = -2000; rp <= 2000; ++rp) EXPECT_NE(encoderBucket(rp), 16) << rp;
}

TEST(T5BucketTest, DecoderEdgesBothSidesOfEveryBoundary) {
    for (int b = 0; b < 32; ++b) {
        const int start = kDecoderStarts[b];
        EXPECT_EQ(decoderBucket(-start), b) << "rp=" << -start;
        if (b > 0) {
            EXPECT_EQ(decoderBucket(-(start - 1)), b - 1) << "rp=" << -(start - 1);
        }
    }
    for (int k = 1; k <= 15; ++k) {
        EXPECT_EQ(kDecoderStarts[16 + k], int(std::ceil(16 * std::exp2(3.0 * k / 16)))) << k;
    }
    EXPECT_EQ(decoderBucket(-127), 31);  // 16 + trunc(15.93) = 31 = the last bucket
    EXPECT_EQ(decoderBucket(-100000), 31);
    EXPECT_EQ(decoderBucket(INT_MIN), 31);
}

TEST(T5BucketTest, DecoderPutsEveryFutureKeyInBucketZero) {
    // -min(rp, 0): a key after the query is treated as distance 0.
    for (int rp : {0, 1, 2, 15, 16, 128, 100000, INT_MAX}) EXPECT_EQ(decoderBucket(rp), 0) << rp;
}

TEST(T5BucketTest, MatchesExactArithmeticForPowerOfTwoConfigurations) {
    // Where the float32 pipeline can only differ from real arithmetic at exact ties (which it
    // gets right, see above), the bucket equals the exact formula everywhere.
    struct Config {
        int buckets, maxDistance;
        bool bidirectional;
    };
    for (Config c : {Config{32, 128, true}, Config{32, 128, false}, Config{64, 256, true},
                     Config{16, 64, false}, Config{128, 1024, true}, Config{8, 32, true}}) {
        const int n = c.bidirectional ? c.buckets / 2 : c.buckets;
        for (int rp = -3000; rp <= 3000; ++rp) {
            int expected;
            if (c.bidirectional) {
                expected = (rp > 0 ? n : 0) + exactDistanceBucket(std::abs(rp), n, c.maxDistance);
            } else {
                expected = exactDistanceBucket(rp < 0 ? -rp : 0, n, c.maxDistance);
            }
            ASSERT_EQ(t5RelativePositionBucket(rp, c.bidirectional, c.buckets, c.maxDistance),
                      expected)
                << "buckets=" << c.buckets << " max_distance=" << c.maxDistance
                << " bidirectional=" << c.bidirectional << " rp=" << rp;
        }
    }
}

TEST(T5BucketTest, Float32NotFloat64OnExactEdges) {
    // 40 buckets, max_distance 320, encoder: n = 20, max_exact = 10, and log(d/10)/log(32)*10 is
    // exactly 2, 4, 8 at d = 20, 40, 160. torch's float32 gets exactly those integers; the same
    // formula in float64 gives 1.9999999999999998, 3.9999999999999996 and 7.999999999999999
    // and would truncate one bucket low.
    EXPECT_EQ(t5RelativePositionBucket(-20, true, 40, 320), 12);
    EXPECT_EQ(t5RelativePositionBucket(-19, true, 40, 320), 11);
    EXPECT_EQ(t5RelativePositionBucket(-40, true, 40, 320), 14);
    EXPECT_EQ(t5RelativePositionBucket(-39, true, 40, 320), 13);
    EXPECT_EQ(t5RelativePositionBucket(-160, true, 40, 320), 18);
    EXPECT_EQ(t5RelativePositionBucket(-159, true, 40, 320), 17);
    EXPECT_EQ(t5RelativePositionBucket(20, true, 40, 320), 32);
    EXPECT_EQ(t5RelativePositionBucket(160, true, 40, 320), 38);
    // 9 decoder buckets, max_distance 128: max_exact = 4, log(d/4)/log(32)*5 is exactly 1, 2, 4
    // at d = 8, 16, 64 (float64: 0.9999999999999999, 1.9999999999999998, 3.9999999999999996).
    EXPECT_EQ(t5RelativePositionBucket(-8, false, 9, 128), 5);
    EXPECT_EQ(t5RelativePositionBucket(-7, false, 9, 128), 4);
    EXPECT_EQ(t5RelativePositionBucket(-16, false, 9, 128), 6);
    EXPECT_EQ(t5RelativePositionBucket(-15, false, 9, 128), 5);
    EXPECT_EQ(t5RelativePositionBucket(-64, false, 9, 128), 8);
    EXPECT_EQ(t5RelativePositionBucket(-63, false, 9, 128), 7);
}

// torch's float32 steps written out again: float32 d / max_exact, its log rounded to float32,
// divided by float32(log(max_distance / max_exact)), times float32(n - max_exact), truncated.
int float32DistanceBucket(int d, int n, int maxDistance) {
    const int maxExact = n / 2;
    if (d < maxExact) return d;
    const float quotient = float(d) / float(maxExact);
    const float numerator = float(std::log(double(quotient)));
    const float denominator = float(std::log(double(maxDistance) / maxExact));
    const float value = numerator / denominator * float(n - maxExact);
    return std::min(maxExact + int(value), n - 1);
}

TEST(T5BucketTest, MatchesTheFloat32PipelineEverywhere) {
    // Including configurations where float32 and real arithmetic disagree (see the header).
    struct Config {
        int buckets, maxDistance;
        bool bidirectional;
    };
    for (Config c : {Config{32, 128, true}, Config{40, 320, true}, Config{9, 128, false},
                     Config{17, 27, false}, Config{16, 1461, false}, Config{5, 686, false},
                     Config{34, 991, false}, Config{1024, 100000, true}}) {
        const int n = c.bidirectional ? c.buckets / 2 : c.buckets;
        for (int d = 0; d <= 2 * c.maxDistance; ++d) {
            const int expected = float32DistanceBucket(d, n, c.maxDistance);
            ASSERT_EQ(t5RelativePositionBucket(-d, c.bidirectional, c.buckets, c.maxDistance),
                      expected)
                << "buckets=" << c.buckets << " max_distance=" << c.maxDistance << " d=" << d;
        }
    }
}

TEST(T5BucketTest, ImplementationDependentTieUsesCorrectlyRoundedLogs) {
    // 17 decoder buckets, max_distance 27, max_exact 8: d = 18 gives 9 log(2.25) / log(3.375),
    // exactly 6 in real numbers. Correctly rounded float32 logs give 5.9999995 (pinned here, as
    // documented); numpy's SIMD log would give 6.0 and bucket 14.
    EXPECT_EQ(t5RelativePositionBucket(-18, false, 17, 27), 13);
    EXPECT_EQ(t5RelativePositionBucket(-17, false, 17, 27), 13);
    EXPECT_EQ(t5RelativePositionBucket(-19, false, 17, 27), 14);
}

TEST(T5BucketTest, OddBucketCounts) {
    // Bidirectional 33: each direction gets 33 // 2 = 16, so bucket 32 is never produced.
    for (int rp = -500; rp <= 500; ++rp) {
        EXPECT_EQ(t5RelativePositionBucket(rp, true, 33, 128), encoderBucket(rp)) << rp;
    }
    // max_exact = 2: d = 3 gives 2 + trunc(log(1.5) / log(10) * 3) = 2 + trunc(0.53)
    EXPECT_EQ(t5RelativePositionBucket(-3, false, 5, 20), 2);
    EXPECT_EQ(t5RelativePositionBucket(-7, false, 5, 20), 3);  // 2 + trunc(1.63)
    EXPECT_EQ(t5RelativePositionBucket(-1, false, 5, 20), 1);
    EXPECT_EQ(t5RelativePositionBucket(-500, false, 5, 20), 4);
}

// ---- Matrices

TEST(T5MatrixTest, BucketMatrixIsBucketOfKeyMinusQuery) {
    auto matrix = t5BucketMatrix(t5Params(300));
    ASSERT_TRUE(matrix.ok()) << matrix.error().message;
    ASSERT_EQ(matrix->rows, 300u);
    ASSERT_EQ(matrix->cols, 300u);
    for (int i = 0; i < 300; ++i) {
        for (int j = 0; j < 300; ++j) {
            ASSERT_EQ((*matrix)(i, j), double(encoderBucket(j - i))) << i << "," << j;
        }
    }
    EXPECT_EQ((*matrix)(0, 0), 0.0);
    EXPECT_EQ((*matrix)(20, 4), 10.0);   // key 16 before the query
    EXPECT_EQ((*matrix)(4, 20), 26.0);   // key 16 after it
    EXPECT_EQ((*matrix)(299, 0), 15.0);  // far past
    auto decoder = t5BucketMatrix(t5Params(50, 32, 128, false));
    ASSERT_TRUE(decoder.ok());
    EXPECT_EQ((*decoder)(0, 49), 0.0);
    EXPECT_EQ((*decoder)(49, 0), 24.0);  // d = 49: bucket 24 covers 46..51
}

TEST(T5MatrixTest, BiasMatrixLooksUpEachBucket) {
    std::vector<double> biases(32);
    for (int b = 0; b < 32; ++b) biases[b] = 0.5 * b - 3;
    auto bias = t5BiasMatrix(t5Params(70), biases);
    ASSERT_TRUE(bias.ok());
    for (int i = 0; i < 70; ++i) {
        for (int j = 0; j < 70; ++j) {
            ASSERT_EQ((*bias)(i, j), 0.5 * encoderBucket(j - i) - 3) << i << "," << j;
        }
    }
    EXPECT_EQ(t5BiasMatrix(t5Params(4), std::vector<double>(5)).error().message,
              "bucket biases must have num_buckets = 32 values (got 5)");
    biases[3] = INFINITY;
    EXPECT_EQ(t5BiasMatrix(t5Params(4), biases).error().message,
              "bucket bias 3 must be a finite number (got inf)");
}

TEST(T5MatrixTest, SeededBiasesAreNormalSamplerDraws) {
    const std::vector<double> biases = seededBucketBiases(32, 7);
    ASSERT_EQ(biases.size(), 32u);
    NormalSampler sampler(7);
    for (double b : biases) EXPECT_EQ(b, sampler.next());
    EXPECT_EQ(seededBucketBiases(32, 7), biases);
    EXPECT_NE(seededBucketBiases(32, 8), biases);
    EXPECT_TRUE(seededBucketBiases(0, 7).empty());
}

TEST(T5MatrixTest, ValidationMessages) {
    EXPECT_TRUE(validate(t5Params(64)).ok());
    EXPECT_EQ(validate(t5Params(0)).error().message, "seq_len must be 1..1048576 (got 0)");
    EXPECT_EQ(validate(t5Params(8, 3)).error().message,
              "num_buckets must be 4..1024 when bidirectional (got 3)");
    EXPECT_TRUE(validate(t5Params(8, 3, 128, false)).ok());
    EXPECT_EQ(validate(t5Params(8, 1, 128, false)).error().message,
              "num_buckets must be 2..1024 (got 1)");
    EXPECT_EQ(validate(t5Params(8, 2000)).error().message,
              "num_buckets must be 4..1024 when bidirectional (got 2000)");
    // max_distance must exceed max_exact (8 here), or log(max_distance / max_exact) <= 0.
    EXPECT_EQ(validate(t5Params(8, 32, 8)).error().message,
              "max_distance must be 9..1048576 (got 8)");
    EXPECT_EQ(validate(t5Params(8, 32, 16, false)).error().message,
              "max_distance must be 17..1048576 (got 16)");
    auto huge = t5BucketMatrix(t5Params(1 << 20));
    ASSERT_FALSE(huge.ok());
    EXPECT_NE(huge.error().message.find("the T5 bucket matrix"), std::string::npos);
}

// ---- Bucket ranges

struct Expected {
    int bucket, low, high;
};

void expectRanges(const std::vector<BucketRange>& ranges, const std::vector<Expected>& expected) {
    ASSERT_EQ(ranges.size(), expected.size());
    for (std::size_t k = 0; k < ranges.size(); ++k) {
        EXPECT_EQ(ranges[k].bucket, expected[k].bucket) << k;
        EXPECT_EQ(ranges[k].minDistance, expected[k].low) << "bucket " << expected[k].bucket;
        EXPECT_EQ(ranges[k].maxDistance, expected[k].high) << "bucket " << expected[k].bucket;
        EXPECT_EQ(ranges[k].minUnbounded, expected[k].low == INT_MIN) << expected[k].bucket;
        EXPECT_EQ(ranges[k].maxUnbounded, expected[k].high == INT_MAX) << expected[k].bucket;
    }
}

TEST(T5RangesTest, EncoderDefaultRanges) {
    std::vector<Expected> expected;
    for (int b = 0; b < 16; ++b) {  // keys before (and at) the query: rp = -d
        const int first = kEncoderStarts[b];
        const int last = b == 15 ? INT_MIN : -(kEncoderStarts[b + 1] - 1);
        expected.push_back({b, last, -first});
    }
    for (int b = 1; b < 16; ++b) {  // keys after the query
        const int last = b == 15 ? INT_MAX : kEncoderStarts[b + 1] - 1;
        expected.push_back({16 + b, kEncoderStarts[b], last});
    }
    expectRanges(t5BucketRanges(t5Params(64)), expected);
    // Spot checks in the words of the hover text.
    const auto ranges = t5BucketRanges(t5Params(64));
    EXPECT_EQ(ranges[10].minDistance, -22);  // bucket 10: 16..22 positions back
    EXPECT_EQ(ranges[10].maxDistance, -16);
    EXPECT_EQ(ranges[15].maxDistance, -91);  // bucket 15: 91 or more back
}

TEST(T5RangesTest, DecoderDefaultRanges) {
    std::vector<Expected> expected;
    expected.push_back({0, 0, INT_MAX});  // rp = 0 and every future key
    for (int b = 1; b < 32; ++b) {
        const int last = b == 31 ? INT_MIN : -(kDecoderStarts[b + 1] - 1);
        expected.push_back({b, last, -kDecoderStarts[b]});
    }
    expectRanges(t5BucketRanges(t5Params(64, 32, 128, false)), expected);
}

TEST(T5RangesTest, RangesAgreeWithTheBucketFunction) {
    // Many buckets over a short max_distance: rounding skips some log buckets entirely.
    struct Config {
        int buckets, maxDistance;
        bool bidirectional;
    };
    for (Config c :
         {Config{32, 128, true}, Config{32, 128, false}, Config{256, 140, false},
          Config{200, 120, true}, Config{4, 5, true}, Config{2, 3, false}, Config{33, 500, true}}) {
        const auto ranges = t5BucketRanges(t5Params(10, c.buckets, c.maxDistance, c.bidirectional));
        ASSERT_FALSE(ranges.empty());
        for (std::size_t k = 1; k < ranges.size(); ++k) {
            EXPECT_LT(ranges[k - 1].bucket, ranges[k].bucket);
        }
        std::vector<bool> reached(std::size_t(c.buckets), false);
        for (int rp = -3 * c.maxDistance; rp <= 3 * c.maxDistance; ++rp) {
            const int bucket =
                t5RelativePositionBucket(rp, c.bidirectional, c.buckets, c.maxDistance);
            reached[std::size_t(bucket)] = true;
            int containing = 0;
            for (const BucketRange& r : ranges) {
                if ((r.minUnbounded || rp >= r.minDistance) &&
                    (r.maxUnbounded || rp <= r.maxDistance)) {
                    ++containing;
                    EXPECT_EQ(r.bucket, bucket) << "rp=" << rp << " buckets=" << c.buckets;
                }
            }
            EXPECT_EQ(containing, 1) << "rp=" << rp << " buckets=" << c.buckets;
        }
        // Listed buckets are exactly the reachable ones.
        std::size_t reachable = 0;
        for (bool r : reached) reachable += r;
        EXPECT_EQ(ranges.size(), reachable) << "buckets=" << c.buckets;
    }
    // 256 decoder buckets and max_distance 140 leave gaps after the 128 exact buckets.
    const auto sparse = t5BucketRanges(t5Params(10, 256, 140, false));
    EXPECT_LT(sparse.size(), 256u);
}

TEST(T5RangesTest, InvalidParamsGiveNoRanges) {
    EXPECT_TRUE(t5BucketRanges(t5Params(10, 3)).empty());
    EXPECT_TRUE(t5BucketRanges(t5Params(10, 32, 8)).empty());
    // The length does not matter: a huge one is not a reason to refuse.
    EXPECT_FALSE(t5BucketRanges(t5Params(1 << 20)).empty());
}

}  // namespace
}  // namespace poslab
