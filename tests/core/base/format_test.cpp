// formatValue: whole numbers without decimals, others to four significant digits, and the
// non-finite values spelled out.
#include "poslab/base/format.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

namespace poslab {
namespace {

TEST(FormatTest, WholeNumbersPrintWithoutDecimals) {
    EXPECT_EQ(formatValue(0), "0");
    EXPECT_EQ(formatValue(-0.0), "0");  // no "-0" in a title
    EXPECT_EQ(formatValue(512), "512");
    EXPECT_EQ(formatValue(-48), "-48");
    EXPECT_EQ(formatValue(10000), "10000");
    EXPECT_EQ(formatValue(9999999), "9999999");
    EXPECT_EQ(formatValue(500000), "500000");
}

// Issue 28: Layers printed Qwen3-Next's rope_theta 10000000 as "1e+07" beside SmolLM3's
// "5000000". Whole numbers below 1e15 (exact in a double) print every digit, the style of every
// other figure number; the text reads back to the value, with no '+' the options refuse.
TEST(FormatTest, RoundPowersOfTenPrintInFull) {
    EXPECT_EQ(formatValue(10000000), "10000000");
    EXPECT_EQ(formatValue(1e9, 6), "1000000000");  // Devstral's and Mistral Small's base
    EXPECT_EQ(formatValue(-1e12), "-1000000000000");
    EXPECT_EQ(formatValue(15000000), "15000000");
    EXPECT_EQ(formatValue(999999999999999.0), "999999999999999");
    for (const double v : {1e7, 1e9, 1e12, 123456789012.0, 1e14}) {
        const std::string text = formatValue(v);
        EXPECT_EQ(text.find_first_not_of("0123456789"), std::string::npos) << text;
        EXPECT_EQ(std::stod(text), v) << text;
    }
    // From 1e15 on, significant digits again (a bound of 1e300 stays short).
    EXPECT_EQ(formatValue(1e15), "1e+15");
    EXPECT_EQ(formatValue(2e300), "2e+300");
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

TEST(FormatTest, ValuesAreCompact) {
    EXPECT_EQ(formatValue(0.25), "0.25");
    EXPECT_EQ(formatValue(4096), "4096");
    EXPECT_EQ(formatValue(-0.0), "0");
    EXPECT_EQ(formatValue(1.7e308), "1.7e+308");
    EXPECT_EQ(formatValue(-INFINITY), "-inf");
    EXPECT_EQ(formatValue(NAN), "nan");
}

struct Quoted {
    std::string input, expected;
};
class QuoteForMessageTest : public ::testing::TestWithParam<Quoted> {};

TEST_P(QuoteForMessageTest, ControlsAreEscapedAndTextKept) {
    EXPECT_EQ(quoteForMessage(GetParam().input), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(
    Texts, QuoteForMessageTest,
    ::testing::Values(Quoted{"emb.npy", "'emb.npy'"}, Quoted{"", "''"},
                      Quoted{"a\nb\rc\td", "'a\\nb\\rc\\td'"},
                      Quoted{"\x1b[31mred", "'\\x1b[31mred'"},             // ESC: colours
                      Quoted{"\x1b]0;title\x07", "'\\x1b]0;title\\x07'"},  // OSC, BEL
                      Quoted{"del\x7f", "'del\\x7f'"},
                      Quoted{"csi\xc2\x9b"
                             "2J",
                             "'csi\\xc2\\x9b2J'"},                         // U+009B: 8-bit CSI
                      Quoted{"bad\xff\xfe", "'bad\\xff\\xfe'"},            // not UTF-8
                      Quoted{"over\xc0\xaflong", "'over\\xc0\\xaflong'"},  // overlong '/'
                      Quoted{"cut\xe2\x82", "'cut\\xe2\\x82'"},            // truncated sequence
                      Quoted{"caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x99\x82",
                             "'caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x99\x82'"},
                      Quoted{"back\\slash", "'back\\slash'"},  // as it is: readable paths
                      Quoted{std::string("nul\0byte", 8), "'nul\\x00byte'"}));

TEST(QuoteForMessageTest, LongTextIsCutAtACharacterWithAnEllipsis) {
    EXPECT_EQ(quoteForMessage(std::string(200, 'a')), "'" + std::string(80, 'a') + "…'");
    EXPECT_EQ(quoteForMessage(std::string(80, 'a')), "'" + std::string(80, 'a') + "'");
    std::string arrows;
    for (int i = 0; i < 100; ++i) arrows += "\xe2\x86\x92";
    std::string expected = "'";
    for (int i = 0; i < 10; ++i) expected += "\xe2\x86\x92";
    EXPECT_EQ(quoteForMessage(arrows, 10), expected + "…'");
    EXPECT_EQ(escapeForMessage("a\nb"), "a\\nb");
}

// Hover text sets its numbers as the figures do (the GUI's tooltips read "value -0.895758" and
// "12 x 12 cells"): a minus that begins a number is U+2212, x between numbers is ×.
TEST(FormatTest, RunningTextSetsMinusSignsAndTimes) {
    EXPECT_EQ(typesetNumbers("value -0.895758"), "value \u22120.895758");
    EXPECT_EQ(typesetNumbers("-1 and (-2.5, -.5) = -3"),
              "\u22121 and (\u22122.5, \u2212.5) = \u22123");
    EXPECT_EQ(typesetNumbers("mean of 12 x 12 cells"), "mean of 12 \u00d7 12 cells");
    // Not numbers' signs: words, ranges in words, exponents, a lone hyphen, an x in a word.
    EXPECT_EQ(typesetNumbers("lag-1, i-j, 1e-05, a - b, x = 3, max x 2"),
              "lag-1, i-j, 1e-05, a - b, x = 3, max x 2");
    EXPECT_EQ(typesetNumbers(""), "");
}

}  // namespace
}  // namespace poslab
