// Range checks: the one message pattern "<name> must be <range> (got <value>)", the edges of each
// range, and numbers printed so they read back to the same double.
#include "poslab/base/validate.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include "../test_math.hpp"

namespace poslab {
namespace {

TEST(ValidateTest, IntegerRangesIncludeBothEnds) {
    EXPECT_TRUE(requireIntInRange("d_model", 1, 1, 8192).ok());
    EXPECT_TRUE(requireIntInRange("d_model", 8192, 1, 8192).ok());
    EXPECT_EQ(requireIntInRange("d_model", 0, 1, 8192).error().message,
              "d_model must be 1..8192 (got 0)");
    EXPECT_EQ(requireIntInRange("seq_len", 8193, 1, 8192).error().message,
              "seq_len must be 1..8192 (got 8193)");
    EXPECT_EQ(requireIntInRange("offset", -5, -4, 4).error().message,
              "offset must be -4..4 (got -5)");
}

TEST(ValidateTest, RealRangesAndTheirOpenLowEnd) {
    EXPECT_TRUE(requireInRange("scale", 0, 0, 100).ok());
    EXPECT_TRUE(requireInRange("scale", 100, 0, 100).ok());
    EXPECT_EQ(requireInRange("scale", 100.5, 0, 100).error().message,
              "scale must be 0..100 (got 100.5)");
    EXPECT_EQ(requireInRange("base", 1, 1, 1e12, false).error().message,
              "base must be > 1 and <= 1e+12 (got 1)");
    EXPECT_TRUE(requireInRange("base", 1.0000001, 1, 1e12, false).ok());
    EXPECT_EQ(requireInRange("scale", kNaN, 0, 100).error().message,
              "scale must be 0..100 (got nan)");
    EXPECT_EQ(requireInRange("scale", kInf, 0, kInf).error().message,
              "scale must be 0..inf (got inf)");
}

TEST(ValidateTest, FiniteAndGreaterThan) {
    EXPECT_TRUE(requireFinite("shift", -1e300).ok());
    EXPECT_EQ(requireFinite("shift", kNaN).error().message,
              "shift must be a finite number (got nan)");
    EXPECT_EQ(requireFinite("shift", -kInf).error().message,
              "shift must be a finite number (got -inf)");
    EXPECT_TRUE(requireGreaterThan("factor", 1e-300, 0).ok());
    EXPECT_EQ(requireGreaterThan("factor", 0, 0).error().message,
              "factor must be a finite number > 0 (got 0)");
    EXPECT_EQ(requireGreaterThan("factor", kInf, 0).error().message,
              "factor must be a finite number > 0 (got inf)");
}

TEST(ValidateTest, NumbersPrintShortestAndReadBackExactly) {
    EXPECT_EQ(formatNumber(0.1), "0.1");
    EXPECT_EQ(formatNumber(10000), "10000");
    EXPECT_EQ(formatNumber(1.0 / 3), "0.3333333333333333");
    EXPECT_EQ(formatNumber(-2.5e-300), "-2.5e-300");
    EXPECT_EQ(formatNumber(-kInf), "-inf");
    EXPECT_EQ(formatNumber(kNaN), "nan");
    std::mt19937_64 random(5);
    std::uniform_real_distribution<double> mantissa(-1, 1);
    std::uniform_int_distribution<int> exponent(-300, 300);
    for (int i = 0; i < 1000; ++i) {
        const double v = std::ldexp(mantissa(random), exponent(random));
        EXPECT_EQ(std::stod(formatNumber(v)), v) << formatNumber(v);
    }
}

}  // namespace
}  // namespace poslab
