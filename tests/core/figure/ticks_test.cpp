// Tick generators against tick lists written out by hand: integer axes ticked at integers only,
// log axes with 2·10^k and 5·10^k where whole decades leave them bare, one label style per axis
// and the minus sign U+2212.
#include "poslab/figure/ticks.hpp"

#include <gtest/gtest.h>

#include <cmath>

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
