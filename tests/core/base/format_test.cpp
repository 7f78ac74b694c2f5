// formatValue: whole numbers without decimals, others to four significant digits, and the
// non-finite values spelled out.
#include "poslab/base/format.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace poslab {
namespace {

TEST(FormatTest, WholeNumbersPrintWithoutDecimals) {
    EXPECT_EQ(formatValue(0), "0");
    EXPECT_EQ(formatValue(-0.0), "0");  // no "-0" in a title
    EXPECT_EQ(formatValue(512), "512");
    EXPECT_EQ(formatValue(-48), "-48");
    EXPECT_EQ(formatValue(10000), "10000");
    EXPECT_EQ(formatValue(9999999), "9999999");  // below 1e7: every digit
    EXPECT_EQ(formatValue(10000000), "1e+07");   // from 1e7 on: significant digits
    EXPECT_EQ(formatValue(500000), "500000");
}

TEST(FormatTest, OtherNumbersToSignificantDigits) {
    EXPECT_EQ(formatValue(0.25), "0.25");
    EXPECT_EQ(formatValue(3.14159265), "3.142");
    EXPECT_EQ(formatValue(3.14159265, 6), "3.14159");
    EXPECT_EQ(formatValue(-3.2e-05), "-3.2e-05");
    EXPECT_EQ(formatValue(0.125, 2), "0.12");  // round half to even, as printf does
    EXPECT_EQ(formatValue(123456.7), "1.235e+05");
    EXPECT_EQ(formatValue(1.0 / 3), "0.3333");
}

TEST(FormatTest, NonFiniteValuesAreSpelledOut) {
    EXPECT_EQ(formatValue(std::numeric_limits<double>::infinity()), "inf");
    EXPECT_EQ(formatValue(-std::numeric_limits<double>::infinity()), "-inf");
    EXPECT_EQ(formatValue(std::numeric_limits<double>::quiet_NaN()), "nan");
}

}  // namespace
}  // namespace poslab
