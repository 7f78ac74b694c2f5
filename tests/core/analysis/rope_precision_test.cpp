#include "poslab/analysis/rope_precision.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>

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

// The scan as first written: every position, the definition read literally (three roundings,
// remainder, cos and sin of both angles). The fast scan must give the same numbers bit for bit.
PairPrecision scalarScan(double theta, FloatFormat format, long long maxPosition,
                         double threshold) {
    PairPrecision pair;
    pair.theta = theta;
    const double roundedTheta = roundToFormat(theta, format);
    for (long long m = 0; m <= maxPosition; ++m) {
        const double exact = double(m) * theta;
        const double angle = roundToFormat(roundToFormat(double(m), format) * roundedTheta, format);
        double error = std::numeric_limits<double>::infinity();
        if (std::isfinite(angle)) {
            error = std::abs(std::remainder(angle - exact, 2.0 * M_PI));
            const double cosError =
                std::abs(roundToFormat(std::cos(angle), format) - std::cos(exact));
            const double sinError =
                std::abs(roundToFormat(std::sin(angle), format) - std::sin(exact));
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
    for (FloatFormat format : {FloatFormat::Float32, FloatFormat::BFloat16, FloatFormat::Float16}) {
        // float16 past its overflow at 65520; the others far enough to wrap and to leave the
        // series' range (theta 1000).
        const long long kMaxPosition = format == FloatFormat::Float16 ? 66000 : 20000;
        auto report = ropePrecision(freqs, format, kMaxPosition, 0.05);
        ASSERT_TRUE(report.ok()) << report.error().message;
        for (std::size_t i = 0; i < freqs.inverse.size(); ++i) {
            const PairPrecision expected = scalarScan(freqs.inverse[i], format, kMaxPosition, 0.05);
            const PairPrecision& got = report->pairs[i];
            SCOPED_TRACE(std::string(floatFormatName(format)) + " theta " +
                         std::to_string(freqs.inverse[i]));
            EXPECT_EQ(got.firstPositionOver, expected.firstPositionOver);
            EXPECT_EQ(got.maxPhaseError, expected.maxPhaseError);
            EXPECT_EQ(got.maxCosSinError, expected.maxCosSinError);
        }
    }
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
