// parseDecimal / parseDecimalInteger: the one number syntax. Accepted texts are checked against
// the values they spell (written out here), refused ones by their status.
#include "poslab/base/decimal.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <string>

namespace poslab {
namespace {

struct DecimalCase {
    std::string text;
    DecimalStatus status;
    double value;  // when Ok
};

class DecimalTest : public ::testing::TestWithParam<DecimalCase> {};

TEST_P(DecimalTest, ParsesOnlyPlainDecimal) {
    const ParsedDecimal parsed = parseDecimal(GetParam().text);
    EXPECT_EQ(parsed.status, GetParam().status) << GetParam().text;
    if (GetParam().status == DecimalStatus::Ok) {
        EXPECT_EQ(parsed.value, GetParam().value);
    }
}

constexpr auto kOk = DecimalStatus::Ok;
constexpr auto kBad = DecimalStatus::NotANumber;
constexpr auto kRange = DecimalStatus::OutOfRange;

INSTANTIATE_TEST_SUITE_P(
    Table, DecimalTest,
    ::testing::Values(
        DecimalCase{"0", kOk, 0.0}, DecimalCase{"10000", kOk, 10000.0},
        DecimalCase{"-3.25", kOk, -3.25}, DecimalCase{".5", kOk, 0.5}, DecimalCase{"5.", kOk, 5.0},
        DecimalCase{"1e4", kOk, 1e4}, DecimalCase{"1E-2", kOk, 0.01},
        DecimalCase{"1e+300", kOk, 1e300},
        DecimalCase{"1.7976931348623157e308", kOk, 1.7976931348623157e308},
        DecimalCase{"4.9e-324", kOk, 4.9e-324},  // the smallest subnormal
        DecimalCase{"1e400", kRange, 0}, DecimalCase{"-1e400", kRange, 0},
        DecimalCase{"1e-400", kRange, 0}, DecimalCase{"", kBad, 0}, DecimalCase{"-", kBad, 0},
        DecimalCase{".", kBad, 0}, DecimalCase{"+1", kBad, 0}, DecimalCase{" 1", kBad, 0},
        DecimalCase{"1 ", kBad, 0}, DecimalCase{"0x10", kBad, 0}, DecimalCase{"0x1p3", kBad, 0},
        DecimalCase{"inf", kBad, 0}, DecimalCase{"-inf", kBad, 0}, DecimalCase{"nan", kBad, 0},
        DecimalCase{"Infinity", kBad, 0}, DecimalCase{"1e", kBad, 0}, DecimalCase{"1e+", kBad, 0},
        DecimalCase{"1,5", kBad, 0}, DecimalCase{"--1", kBad, 0}, DecimalCase{"1.2.3", kBad, 0},
        DecimalCase{std::string("1\0", 2), kBad, 0}));

TEST(DecimalIntegerTest, DigitsWithAnOptionalMinusOnly) {
    EXPECT_EQ(parseDecimalInteger("4096").value, 4096);
    EXPECT_EQ(parseDecimalInteger("-12").value, -12);
    EXPECT_EQ(parseDecimalInteger("9223372036854775807").value,
              std::numeric_limits<long long>::max());
    EXPECT_EQ(parseDecimalInteger("9223372036854775808").status, DecimalStatus::OutOfRange);
    for (const char* bad : {"", "-", "+5", "0x10", "1e3", "1.0", " 7", "7 ", "inf", "1_000"}) {
        EXPECT_EQ(parseDecimalInteger(bad).status, DecimalStatus::NotANumber) << bad;
    }
}

}  // namespace
}  // namespace poslab
