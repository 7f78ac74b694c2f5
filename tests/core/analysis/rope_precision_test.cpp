#include "poslab/analysis/rope_precision.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace poslab {
namespace {

// Independent references: the hardware's float conversion, and bfloat16 as the upper half of a
// float32 with round-to-nearest-even on the dropped 16 bits (inputs here are floats already).
double viaFloat(double x) {
    return double(float(x));
}
double bf16FromFloat(float x) {
    std::uint32_t bits;
    std::memcpy(&bits, &x, 4);
    const std::uint32_t lsb = (bits >> 16) & 1u;
    bits += 0x7FFFu + lsb;
    bits &= 0xFFFF0000u;
    float out;
    std::memcpy(&out, &bits, 4);
    return double(out);
}

// A third reference, written out here from the IEEE 754 definition on the integer bits of the
// double (not the frexp/nearbyint of roundToFormat): keep `precision` significant bits, or fewer
// where the value is subnormal in the format (its ulp never below 2^minUlpExponent); the dropped
// bits decide: over half up, under half down, exactly half to the even neighbour; past the
// largest finite value infinity.
struct HandFormat {
    int precision;       // significant bits, the leading one included
    int minUlpExponent;  // the smallest subnormal is 2^minUlpExponent
    double maxFinite;
};
constexpr HandFormat kHandFloat32{24, -149, 3.4028234663852886e38};
constexpr HandFormat kHandBFloat16{8, -133, 3.3895313892515355e38};  // (2 - 2^-7) * 2^127
constexpr HandFormat kHandFloat16{11, -24, 65504.0};

HandFormat handFormat(FloatFormat format) {
    switch (format) {
        case FloatFormat::Float32:
            return kHandFloat32;
        case FloatFormat::BFloat16:
            return kHandBFloat16;
        case FloatFormat::Float16:
            return kHandFloat16;
    }
    return kHandFloat32;
}

double handRound(double x, const HandFormat& format) {
    if (x == 0 || !std::isfinite(x)) return x;
    std::uint64_t bits;
    std::memcpy(&bits, &x, 8);
    const bool negative = (bits >> 63) != 0;
    const int biased = int((bits >> 52) & 0x7FF);
    const std::uint64_t fraction = bits & ((std::uint64_t{1} << 52) - 1);
    // x = significand * 2^exponent with an integer significand.
    const std::uint64_t significand = biased == 0 ? fraction : fraction | (std::uint64_t{1} << 52);
    const int exponent = biased == 0 ? -1074 : biased - 1075;
    int leadingBit = 63;
    while (((significand >> leadingBit) & 1) == 0) --leadingBit;
    const int ulpExponent =
        std::max(exponent + leadingBit - format.precision + 1, format.minUlpExponent);
    const int dropped = ulpExponent - exponent;
    double magnitude = 0;
    if (dropped <= 0) {
        magnitude = std::abs(x);  // already a value of the format
    } else if (dropped > 60) {
        magnitude = 0;  // under half the smallest subnormal
    } else {
        std::uint64_t kept = significand >> dropped;
        const std::uint64_t rest = significand & ((std::uint64_t{1} << dropped) - 1);
        const std::uint64_t half = std::uint64_t{1} << (dropped - 1);
        if (rest > half || (rest == half && (kept & 1) != 0)) ++kept;
        magnitude = std::ldexp(double(kept), ulpExponent);  // exact: kept <= 2^precision
    }
    if (magnitude > format.maxFinite) magnitude = std::numeric_limits<double>::infinity();
    return negative ? -magnitude : magnitude;
}

TEST(RopePrecisionTest, RoundToFormatMatchesRoundingByHand) {
    // Ties at every place that matters: normal ties to even (both directions), subnormal ties,
    // half the smallest subnormal, the overflow edge, and random doubles of every magnitude.
    std::vector<double> values;
    for (const HandFormat& f : {kHandFloat32, kHandBFloat16, kHandFloat16}) {
        const double ulpOfOne = std::ldexp(1.0, 1 - f.precision);
        const double smallest = std::ldexp(1.0, f.minUlpExponent);
        const double maxUlp = f.maxFinite - std::nextafter(f.maxFinite, 0.0) > 0
                                  ? std::ldexp(ulpOfOne, std::ilogb(f.maxFinite))
                                  : 0;
        for (double v :
             {1 + ulpOfOne / 2, 1 + 3 * ulpOfOne / 2, 2 - ulpOfOne / 4,
              1 + ulpOfOne / 2 + std::ldexp(1.0, -52), smallest / 2, 3 * smallest / 2,
              5 * smallest / 2, smallest * 0.49, smallest * 0.51,
              std::ldexp(1.0, f.minUlpExponent + f.precision - 1) * (1 - ulpOfOne / 4),
              f.maxFinite + maxUlp / 2, f.maxFinite + maxUlp / 2 * 0.999, f.maxFinite + maxUlp / 4,
              65519.0, 65520.0, 257.0, 259.0, 2049.0, 2051.0}) {
            values.push_back(v);
            values.push_back(-v);
        }
    }
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> mantissa(1.0, 2.0);
    std::uniform_int_distribution<int> exponent(-160, 140);
    for (int i = 0; i < 20000; ++i) values.push_back(std::ldexp(mantissa(rng), exponent(rng)));
    for (double v : values) {
        for (FloatFormat format :
             {FloatFormat::Float32, FloatFormat::BFloat16, FloatFormat::Float16}) {
            const double expected = handRound(v, handFormat(format));
            EXPECT_EQ(roundToFormat(v, format), expected) << floatFormatName(format) << " of " << v;
        }
        // The reference itself against the hardware where the hardware has the format.
        EXPECT_EQ(handRound(v, kHandFloat32), double(float(v))) << v;
#ifdef __FLT16_MAX__
        EXPECT_EQ(handRound(v, kHandFloat16), double(static_cast<_Float16>(v))) << v;
#endif
    }
}

TEST(RopePrecisionTest, RoundingMatchesHardwareAndTiesGoToEven) {
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> u(-1e6, 1e6);
    for (int i = 0; i < 10000; ++i) {
        const double x = u(rng) * std::pow(10.0, double(i % 20) - 10);
        EXPECT_EQ(roundToFormat(x, FloatFormat::Float32), viaFloat(x)) << x;
        const float f = float(x);
        EXPECT_EQ(roundToFormat(double(f), FloatFormat::BFloat16), bf16FromFloat(f)) << f;
    }
    // bfloat16 keeps 8 significant bits: 1 + 2^-8 is a tie and goes to 1 (even), 1 + 3 * 2^-8
    // to 1 + 2^-6.
    EXPECT_EQ(roundToFormat(1 + std::ldexp(1, -8), FloatFormat::BFloat16), 1.0);
    EXPECT_EQ(roundToFormat(1 + 3 * std::ldexp(1, -8), FloatFormat::BFloat16),
              1 + std::ldexp(1, -6));
    // float16: 11 bits, so 2049 -> 2048 and 2051 -> 2052 (ties to even); largest finite 65504.
    EXPECT_EQ(roundToFormat(2049, FloatFormat::Float16), 2048.0);
    EXPECT_EQ(roundToFormat(2051, FloatFormat::Float16), 2052.0);
    EXPECT_EQ(roundToFormat(65519, FloatFormat::Float16), 65504.0);
    EXPECT_TRUE(std::isinf(roundToFormat(65520, FloatFormat::Float16)));
    // Subnormals: the smallest float16 is 2^-24; half of it is a tie that goes to 0.
    EXPECT_EQ(roundToFormat(std::ldexp(1, -25), FloatFormat::Float16), 0.0);
    EXPECT_EQ(roundToFormat(3 * std::ldexp(1, -26), FloatFormat::Float16), std::ldexp(1, -24));
    EXPECT_EQ(roundToFormat(-2049, FloatFormat::Float16), -2048.0);
}

TEST(RopePrecisionTest, FastestPairFailsWherePositionsStopBeingExact) {
    // Pair 0 has theta = 1 exactly, so its angle is the rounded position: integers are exact up
    // to 2^8 in bfloat16 and 2^11 in float16; 257 -> 256 and 2049 -> 2048 are 1 rad off.
    RopeParams params;
    params.headDim = 16;
    auto freqs = ropeFrequencies(params);
    ASSERT_TRUE(freqs.ok());
    auto bf16 = ropePrecision(*freqs, FloatFormat::BFloat16, 1 << 14);
    ASSERT_TRUE(bf16.ok()) << bf16.error().message;
    EXPECT_EQ(bf16->pairs[0].firstPositionOver, 257);
    auto fp16 = ropePrecision(*freqs, FloatFormat::Float16, 1 << 17);
    ASSERT_TRUE(fp16.ok());
    EXPECT_EQ(fp16->pairs[0].firstPositionOver, 2049);
    // float16 positions past 65519 overflow: every pair fails by then.
    for (const PairPrecision& pair : fp16->pairs) {
        EXPECT_LE(pair.firstPositionOver, 65520);
        EXPECT_TRUE(std::isinf(pair.maxPhaseError));
    }
    // float32 holds every integer position up to 2^24 and theta = 1 exactly: pair 0 is exact.
    RopeFrequencies fastest;
    fastest.inverse = {freqs->inverse[0]};
    fastest.rotatedDims = 2;
    auto fp32 = ropePrecision(fastest, FloatFormat::Float32, 1 << 20);
    ASSERT_TRUE(fp32.ok());
    EXPECT_EQ(fp32->pairs[0].firstPositionOver, -1);
    EXPECT_EQ(fp32->pairs[0].maxPhaseError, 0.0);
}

TEST(RopePrecisionTest, OtherPairsMatchAnIndependentScan) {
    // Pair i's first failing position in bfloat16, recomputed here with the bit-level rounding.
    RopeParams params;
    params.headDim = 16;
    params.base = 10000;
    auto freqs = ropeFrequencies(params);
    ASSERT_TRUE(freqs.ok());
    auto report = ropePrecision(*freqs, FloatFormat::BFloat16, 4096);
    ASSERT_TRUE(report.ok());
    for (int i = 1; i < 8; ++i) {
        const double theta = freqs->inverse[i];
        const double thetaBf = bf16FromFloat(float(theta));
        long long first = -1;
        for (long long m = 0; m <= 4096 && first < 0; ++m) {
            const double angle = bf16FromFloat(float(bf16FromFloat(float(m)) * thetaBf));
            const double error = std::abs(std::remainder(angle - m * theta, 2 * M_PI));
            if (error > 0.1) first = m;
        }
        EXPECT_EQ(report->pairs[i].firstPositionOver, first) << i;
    }
    EXPECT_GE(report->firstPair, 0);
}

// The scan as the definition reads, with the rounding by hand above: every position, three
// roundings, remainder, cos and sin of both angles. The scan must give the same numbers bit for
// bit.
PairPrecision scalarScan(double theta, FloatFormat format, long long maxPosition,
                         double threshold) {
    const HandFormat hand = handFormat(format);
    PairPrecision pair;
    pair.theta = theta;
    const double roundedTheta = handRound(theta, hand);
    for (long long m = 0; m <= maxPosition; ++m) {
        const double exact = double(m) * theta;
        const double angle = handRound(handRound(double(m), hand) * roundedTheta, hand);
        double error = std::numeric_limits<double>::infinity();
        if (std::isfinite(angle)) {
            error = std::abs(std::remainder(angle - exact, 2.0 * M_PI));
            const double cosError = std::abs(handRound(std::cos(angle), hand) - std::cos(exact));
            const double sinError = std::abs(handRound(std::sin(angle), hand) - std::sin(exact));
            pair.maxCosSinError = std::max({pair.maxCosSinError, cosError, sinError});
        } else {
            pair.maxCosSinError = std::numeric_limits<double>::infinity();
        }
        pair.maxPhaseError = std::max(pair.maxPhaseError, error);
        if (pair.firstPositionOver < 0 && error > threshold) pair.firstPositionOver = m;
    }
    return pair;
}

TEST(RopePrecisionTest, FastScanEqualsTheScalarScanExactly) {
    // Thetas for every branch of the fast scan: exact integers (theta 1), wrapped bfloat16 angles,
    // float32 differences past the series' range (theta 1000), zero, float16 subnormal and
    // underflowing thetas (inf * 0 = NaN past 65519), and the default d = 128 frequencies.
    RopeFrequencies freqs;
    freqs.inverse = {1.0, 0.8659643233600653, 0.1, 0.0123456789, 3.7e-4, 1e-6, 1000.0, 0.0, 3e-6,
                     1e-9};
    RopeParams params;
    auto defaults = ropeFrequencies(params);
    ASSERT_TRUE(defaults.ok());
    for (std::size_t i = 0; i < defaults->inverse.size(); i += 21) {
        freqs.inverse.push_back(defaults->inverse[i]);
    }
    freqs.rotatedDims = 2 * int(freqs.inverse.size());
    // float16 past its overflow at 65520; the others far enough to wrap and to leave the series'
    // range (theta 1000); a threshold near pi, so that the first position over it lies among
    // wrapped angles (bfloat16) or is never reached (float32).
    struct Case {
        FloatFormat format;
        long long maxPosition;  // not a multiple of the scan's blocks of 64
        double threshold;
    };
    for (const Case& c :
         {Case{FloatFormat::Float32, 20000, 0.05}, Case{FloatFormat::BFloat16, 20000, 0.05},
          Case{FloatFormat::Float16, 66000, 0.05}, Case{FloatFormat::BFloat16, 9001, 3.1},
          Case{FloatFormat::Float32, 9001, 3.1}}) {
        auto report = ropePrecision(freqs, c.format, c.maxPosition, c.threshold);
        ASSERT_TRUE(report.ok()) << report.error().message;
        for (std::size_t i = 0; i < freqs.inverse.size(); ++i) {
            const PairPrecision expected =
                scalarScan(freqs.inverse[i], c.format, c.maxPosition, c.threshold);
            const PairPrecision& got = report->pairs[i];
            SCOPED_TRACE(std::string(floatFormatName(c.format)) + " theta " +
                         std::to_string(freqs.inverse[i]) + " threshold " +
                         std::to_string(c.threshold));
            EXPECT_EQ(got.firstPositionOver, expected.firstPositionOver);
            EXPECT_EQ(got.maxPhaseError, expected.maxPhaseError);
            EXPECT_EQ(got.maxCosSinError, expected.maxCosSinError);
        }
    }
}

TEST(RopePrecisionTest, SamplePositionsAreDenseThenLogSpacedWithEachFormatsBreakpoints) {
    EXPECT_EQ(ropePrecisionSamplePositions(100).size(), 101u);  // 0..100, every one
    const std::vector<long long> positions = ropePrecisionSamplePositions(1 << 18);
    ASSERT_FALSE(positions.empty());
    for (long long m = 0; m <= 512; ++m) EXPECT_EQ(positions[std::size_t(m)], m);
    EXPECT_EQ(positions.back(), 1 << 18);
    // 0..512, then per octave from 512 to 2^17: 2^k (already in for 512), 2^k + 1 and 31 log
    // steps; and 65520 and 2^18.
    EXPECT_EQ(positions.size(), 513u + 32 + 8 * 33 + 2);
    for (std::size_t k = 1; k < positions.size(); ++k) {
        EXPECT_LT(positions[k - 1], positions[k]);
        EXPECT_LE(double(positions[k]), double(positions[k - 1]) * std::exp2(1.0 / 32) + 1) << k;
    }
    for (long long breakpoint : {257LL, 2049LL, 65520LL, 65536LL, 131073LL}) {
        EXPECT_TRUE(std::binary_search(positions.begin(), positions.end(), breakpoint))
            << breakpoint;
    }
}

TEST(RopePrecisionTest, SampledScanIsTheDefinitionAtTheSamplePositions) {
    // The coarse scan: the first sample position whose error (the scalar definition, by hand)
    // passes the threshold, never before the full scan's first; pair 0's first misses (257,
    // 2049, none) are breakpoints, so exact; float16 overflows by 65520 everywhere.
    RopeParams params;
    params.headDim = 64;
    params.base = 500000;
    auto freqs = ropeFrequencies(params);
    ASSERT_TRUE(freqs.ok());
    const long long maxPosition = 100000;
    const std::vector<long long> positions = ropePrecisionSamplePositions(maxPosition);
    for (FloatFormat format : {FloatFormat::Float32, FloatFormat::BFloat16, FloatFormat::Float16}) {
        SCOPED_TRACE(std::string(floatFormatName(format)));
        auto sampled = ropePrecisionSampled(*freqs, format, maxPosition);
        auto full = ropePrecision(*freqs, format, maxPosition);
        ASSERT_TRUE(sampled.ok() && full.ok());
        const HandFormat hand = handFormat(format);
        for (std::size_t i = 0; i < freqs->inverse.size(); ++i) {
            const double theta = freqs->inverse[i];
            long long first = -1;
            for (long long m : positions) {
                const double angle =
                    handRound(handRound(double(m), hand) * handRound(theta, hand), hand);
                const double error =
                    std::isfinite(angle)
                        ? std::abs(std::remainder(angle - double(m) * theta, 2.0 * M_PI))
                        : std::numeric_limits<double>::infinity();
                if (error > 0.1) {
                    first = m;
                    break;
                }
            }
            EXPECT_EQ(sampled->pairs[i].firstPositionOver, first) << i;
            // A sample over the threshold is a position over it: the full scan's first is at
            // or before it (a lone position the samples skip may leave them none at all).
            if (first >= 0) {
                EXPECT_GE(full->pairs[i].firstPositionOver, 0) << i;
                EXPECT_LE(full->pairs[i].firstPositionOver, first) << i;
            }
            if (format == FloatFormat::Float16) {
                EXPECT_LE(first, 65520) << i;
            }
        }
        EXPECT_EQ(sampled->pairs[0].firstPositionOver, full->pairs[0].firstPositionOver);
    }
    EXPECT_FALSE(ropePrecisionSampled(*freqs, FloatFormat::Float32, 0).ok());
}

TEST(RopePrecisionTest, CancelledScanStopsEarly) {
    RopeParams params;
    auto freqs = ropeFrequencies(params);
    ASSERT_TRUE(freqs.ok());
    const std::atomic<bool> cancelled{true};
    auto report = ropePrecision(*freqs, FloatFormat::Float32, 1 << 24, 0.1, &cancelled);
    ASSERT_TRUE(report.ok());
    // Stopped at the first check: nothing scanned (a full scan finds errors above zero).
    for (const PairPrecision& pair : report->pairs) EXPECT_EQ(pair.maxPhaseError, 0.0);
}

TEST(RopePrecisionTest, BaseSweepAndRefusals) {
    auto sweep = ropePrecisionByBase(16, {1e4, 5e5, 1e6}, FloatFormat::BFloat16, 4096);
    ASSERT_TRUE(sweep.ok()) << sweep.error().message;
    ASSERT_EQ(sweep->size(), 3u);
    for (const BasePrecision& row : *sweep) {
        // bfloat16 fails long before 4096 for any base: pair 0 alone fails at 257.
        EXPECT_GT(row.firstPositionOver, 0);
        EXPECT_LE(row.firstPositionOver, 257);
    }
    RopeFrequencies empty;
    EXPECT_FALSE(ropePrecision(empty, FloatFormat::Float32).ok());
    RopeParams params;
    auto freqs = ropeFrequencies(params);
    EXPECT_EQ(ropePrecision(*freqs, FloatFormat::Float32, 0)
                  .error()
                  .message.rfind("max_position must be", 0),
              0u);
    EXPECT_FALSE(ropePrecision(*freqs, FloatFormat::Float32, 100, 0.0).ok());
    EXPECT_EQ(floatFormatName(FloatFormat::BFloat16), "bfloat16");
}

}  // namespace
}  // namespace poslab
