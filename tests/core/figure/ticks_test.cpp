// Tick generators against tick lists written out by hand: integer axes ticked at integers only,
// log axes with 2·10^k and 5·10^k where whole decades leave them bare, one label style per axis
// and the minus sign U+2212.
#include "poslab/figure/ticks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace poslab {
namespace {

std::vector<double> values(const std::vector<Tick>& ticks) {
    std::vector<double> out;
    for (const Tick& t : ticks) out.push_back(t.value);
    return out;
}
std::vector<std::string> labels(const std::vector<Tick>& ticks) {
    std::vector<std::string> out;
    for (const Tick& t : ticks) out.push_back(t.label);
    return out;
}

TEST(TicksTest, IntegerAxesNeverGetHalfTicks) {
    // 0..5 in 12 labels' room: the plain step would be 0.5 ("pair 2.5"); integers step by 1.
    EXPECT_EQ(values(linearTicks(0, 5, 12)),
              (std::vector<double>{0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5}));
    EXPECT_EQ(values(linearTicks(0, 5, 12, true)), (std::vector<double>{0, 1, 2, 3, 4, 5}));
    // 0..25 in 10: 2.5 is no integer step; 5 is the next.
    EXPECT_EQ(values(linearTicks(0, 25, 10, true)), (std::vector<double>{0, 5, 10, 15, 20, 25}));
    // A padded range (-1.5 .. 31.5, room for 14): steps of 2.5 ("position 12.5"); as integers 5.
    EXPECT_EQ(values(linearTicks(-1.5, 31.5, 14)).at(5), 12.5);
    EXPECT_EQ(values(linearTicks(-1.5, 31.5, 14, true)),
              (std::vector<double>{0, 5, 10, 15, 20, 25, 30}));
    EXPECT_EQ(values(linearTicks(0.2, 0.8, 5, true)), (std::vector<double>{}));  // none inside
    EXPECT_EQ(values(linearTicks(0.2, 1.8, 5, true)), (std::vector<double>{1}));
    EXPECT_EQ(labels(linearTicks(0, 3, 5, true)), (std::vector<std::string>{"0", "1", "2", "3"}));
}

// Whether `step` is 1, 2, 2.5 or 5 times a power of ten (2.5 not for integer axes).
bool niceStep(double step, bool integers) {
    const double decade = std::pow(10.0, std::floor(std::log10(step) + 1e-9));
    for (double factor : {1.0, 2.0, 2.5, 5.0}) {
        if (integers && factor == 2.5) continue;
        if (std::abs(step - factor * decade) <= step * 1e-9) return true;
    }
    return false;
}

TEST(TicksTest, AxesThroughZeroAreTickedAtZeroInNiceSteps) {
    // Compare's offsets j − i in two labels' room read −50 and 50; the short-axis fallback
    // took every second multiple of 50 from the first, counting ticks instead of steps.
    EXPECT_EQ(values(linearTicks(-63, 63, 2, true)), (std::vector<double>{-50, 0, 50}));
    EXPECT_EQ(values(linearTicks(-63, 64, 2)), (std::vector<double>{-50, 0, 50}));
    // ALiBi's log₂-slope axis (−8.4 .. 0.4 padded) in a one-column PDF read −7.5, −2.5.
    EXPECT_EQ(values(linearTicks(-8.4, 0.4, 2)), (std::vector<double>{-5, 0}));
    // Every range through 0, every room: a 0 tick, equal steps of 1, 2, 2.5 or 5 times a power
    // of ten (integers: whole, no 2.5), at least two ticks where two such multiples fit.
    for (double low : {-0.7, -3.0, -8.4, -63.0, -511.0, -4095.0, -1e5}) {
        for (double high : {0.3, 1.0, 7.5, 63.0, 1000.0, 2.5e5}) {
            for (int maxCount = 2; maxCount <= 12; ++maxCount) {
                for (bool integers : {false, true}) {
                    const std::vector<double> v =
                        values(linearTicks(low, high, maxCount, integers));
                    const std::string at = std::to_string(low) + " .. " + std::to_string(high) +
                                           " in " + std::to_string(maxCount) +
                                           (integers ? " (integers)" : "");
                    ASSERT_FALSE(v.empty()) << at;
                    EXPECT_NE(std::find(v.begin(), v.end(), 0.0), v.end()) << at;
                    for (std::size_t k = 1; k < v.size(); ++k) {
                        const double step = v[k] - v[k - 1];
                        EXPECT_NEAR(step, v[1] - v[0], std::abs(step) * 1e-9) << at;
                        EXPECT_TRUE(niceStep(step, integers)) << at << ": step " << step;
                        if (integers) {
                            EXPECT_EQ(v[k], std::round(v[k])) << at;
                        }
                    }
                    if (v.size() >= 2 && (v.size() - 1) > std::size_t(maxCount))
                        ADD_FAILURE() << at << ": " << v.size() - 1 << " steps";
                }
            }
        }
    }
}

TEST(TicksTest, SparseLogAxesGetTwoAndFiveTimesDecades) {
    // Scalings' θ'/θ axis, 0.08 .. 1.5: decades alone give 0.1 and 1.
    EXPECT_EQ(labels(logTicks(0.08, 1.5, 10)),
              (std::vector<std::string>{"0.1", "0.2", "0.5", "1"}));
    const std::vector<double> v = values(logTicks(0.08, 1.5, 10));
    ASSERT_EQ(v.size(), 4u);
    EXPECT_DOUBLE_EQ(v[1], 0.2);
    EXPECT_DOUBLE_EQ(v[2], 0.5);
    // Within one decade: 2 and 5 only; too little room for 1/2/5: 1 and 3.
    EXPECT_EQ(labels(logTicks(1.5, 8, 10)), (std::vector<std::string>{"2", "5"}));
    EXPECT_EQ(labels(logTicks(1, 10, 3)), (std::vector<std::string>{"1", "3", "10"}));
    // Enough decades: decades only, every stride-th when crowded.
    EXPECT_EQ(labels(logTicks(1, 1000, 10)), (std::vector<std::string>{"1", "10", "100", "1000"}));
    EXPECT_EQ(values(logTicks(1, 1e8, 3)), (std::vector<double>{1, 1e3, 1e6}));
    // Room for two steps between labels holds three decades: Extrapolation's "angle at L ÷ angle
    // seen" axis (0.06 .. 15 in a short plot) was ticked 0.1 and 10 only, leaving out the 1 its
    // "1: no new angles" line marks. Lesson 10's wavelengths (6 .. 60000 with room for three
    // steps) showed 10 and 1000 only, nothing above the training length.
    EXPECT_EQ(labels(logTicks(0.06, 15, 2)), (std::vector<std::string>{"0.1", "1", "10"}));
    EXPECT_EQ(labels(logTicks(6, 60000, 3)),
              (std::vector<std::string>{"10", "100", "1000", "10000"}));
    // Every stride-th decade at exponents that are multiples of the stride: Linear shift's
    // residual axis read 10^-18, 10^-13, 10^-8, 10^-3.
    EXPECT_EQ(values(logTicks(4, 3e5, 3)), (std::vector<double>{10, 1e3, 1e5}));  // every other
    EXPECT_EQ(labels(logTicks(1e-18, 0.5, 4)),
              (std::vector<std::string>{"$10^{-15}$", "$10^{-10}$", "$10^{-5}$"}));
}

// A log axis over many decades is labelled every 1, 2, 3 or 5 decades, at most eight labels and
// at most maxCount steps between them, with the decades between left to unlabelled minor ticks.
// Linear shift's residual axis (10^-18 .. 10 in three labels' room) read 10^0, 10^-7, 10^-14:
// every seventh decade (#28). Spans of 1, 3, 8, 16 and 30 decades, with room and short.
TEST(TicksTest, LongLogAxesStepOneTwoThreeOrFiveDecades) {
    using Labels = std::vector<std::string>;
    // 1 decade: 1, 2 and 5 times it; 3 decades: each.
    EXPECT_EQ(labels(logTicks(1, 10, 10)), (Labels{"1", "2", "5", "10"}));
    EXPECT_EQ(labels(logTicks(1e-3, 1, 10)), (Labels{"0.001", "0.01", "0.1", "1"}));
    EXPECT_EQ(logMinorTicks(1e-3, 1, logTicks(1e-3, 1, 10)), (std::vector<double>{}));
    // 8 decades: nine labels are too many; every other one.
    EXPECT_EQ(labels(logTicks(1, 1e8, 10)),
              (Labels{"$10^{0}$", "$10^{2}$", "$10^{4}$", "$10^{6}$", "$10^{8}$"}));
    EXPECT_EQ(logMinorTicks(1, 1e8, logTicks(1, 1e8, 10)),
              (std::vector<double>{1e1, 1e3, 1e5, 1e7}));
    // 16 decades: every other one is nine labels; every third, at multiples of three.
    EXPECT_EQ(labels(logTicks(1e-16, 1, 10)), (Labels{"$10^{-15}$", "$10^{-12}$", "$10^{-9}$",
                                                      "$10^{-6}$", "$10^{-3}$", "$10^{0}$"}));
    EXPECT_EQ(logMinorTicks(1e-16, 1, logTicks(1e-16, 1, 10)).size(), 11u);
    // 30 decades: every fifth.
    EXPECT_EQ(labels(logTicks(1e-30, 1, 10)),
              (Labels{"$10^{-30}$", "$10^{-25}$", "$10^{-20}$", "$10^{-15}$", "$10^{-10}$",
                      "$10^{-5}$", "$10^{0}$"}));
    // Three labels' room: 8 decades every third, 16 every fifth, 30 every tenth.
    EXPECT_EQ(values(logTicks(1, 1e8, 3)), (std::vector<double>{1, 1e3, 1e6}));
    EXPECT_EQ(labels(logTicks(1e-16, 1, 3)),
              (Labels{"$10^{-15}$", "$10^{-10}$", "$10^{-5}$", "$10^{0}$"}));
    EXPECT_EQ(labels(logTicks(1e-30, 1, 3)),
              (Labels{"$10^{-30}$", "$10^{-20}$", "$10^{-10}$", "$10^{0}$"}));
    // Linear shift's residual axis in three labels' room: every fifth decade, not every seventh.
    EXPECT_EQ(labels(logTicks(1e-18, 10, 3)),
              (Labels{"$10^{-15}$", "$10^{-10}$", "$10^{-5}$", "$10^{0}$"}));
    EXPECT_EQ(logMinorTicks(1e-18, 10, logTicks(1e-18, 10, 3)).size(), 20u - 4u);
}

TEST(TicksTest, OneLabelStylePerAxis) {
    // A log axis reaching 1e-4 writes every decade as a power of ten, never 0.001 beside 1e-4.
    EXPECT_EQ(
        labels(logTicks(1e-4, 1, 10)),
        (std::vector<std::string>{"$10^{-4}$", "$10^{-3}$", "$10^{-2}$", "$10^{-1}$", "$10^{0}$"}));
    // ... and one reaching 1e5 likewise, never 1000 beside 1e5.
    EXPECT_EQ(labels(logTicks(100, 1e5, 10)),
              (std::vector<std::string>{"$10^{2}$", "$10^{3}$", "$10^{4}$", "$10^{5}$"}));
    // Linear: 0 .. 1e7 in 5 was "0 ... 8000000, 1e+07"; now powers of ten throughout.
    EXPECT_EQ(labels(linearTicks(0, 1e7, 5)),
              (std::vector<std::string>{"0", "$2·10^{6}$", "$4·10^{6}$", "$6·10^{6}$", "$8·10^{6}$",
                                        "$10^{7}$"}));
    // Small steps: 0, 2e-5, ... as powers of ten, signs kept.
    EXPECT_EQ(labels(linearTicks(-4e-5, 4e-5, 4)),
              (std::vector<std::string>{"$-4·10^{-5}$", "$-2·10^{-5}$", "0", "$2·10^{-5}$",
                                        "$4·10^{-5}$"}));
    // Plain numbers when everything reads plainly, with no exponent for non-integers.
    EXPECT_EQ(tickStyleFor({0, 0.001, 500000}), TickStyle::Plain);
    EXPECT_EQ(tickStyleFor({0, 0.0005}), TickStyle::PowersOfTen);
    EXPECT_EQ(tickLabel(12500.5, TickStyle::Plain), "12500.5");
    EXPECT_EQ(tickLabel(1.5e-4, TickStyle::PowersOfTen), "$1.5·10^{-4}$");
}

TEST(TicksTest, NegativeLabelsUseTheMinusSign) {
    // Colour bars used to read "--0.25" where the tick met a hyphen-minus.
    EXPECT_EQ(labels(linearTicks(-0.5, 0.5, 4)),
              (std::vector<std::string>{"\u22120.5", "\u22120.25", "0", "0.25", "0.5"}));
    for (const Tick& t : linearTicks(-1000, 1000, 9))
        EXPECT_EQ(t.label.find('-'), std::string::npos);
    EXPECT_EQ(labels(piTicks(-3.141592653589793, 3.141592653589793, 5)),
              (std::vector<std::string>{"\u2212π", "\u2212π/2", "0", "π/2", "π"}));
    EXPECT_EQ(labels(piTicks(-3 * 3.141592653589793 / 2, 0, 5)),
              (std::vector<std::string>{"\u22123π/2", "\u2212π", "\u2212π/2", "0"}));
}

}  // namespace
}  // namespace poslab
