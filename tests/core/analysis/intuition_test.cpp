// Binary clock and linear shift: the identities T_k PE(p) = PE(p + k), T_a T_b = T_(a+b),
// T_k^-1 = T_k^T, and the binary digits written out by hand.
#include "poslab/analysis/intuition.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace poslab {
namespace {

TEST(IntuitionTest, BitsAreTheBinaryDigits) {
    // 37 = 100101b
    const int expected[] = {1, 0, 1, 0, 0, 1, 0};
    for (int b = 0; b < 7; ++b) EXPECT_EQ(positionBit(37, b), expected[b]) << b;
    const Matrix table = binaryTable(16, 4).value();
    EXPECT_EQ(table(11, 0), 1);  // 1011b
    EXPECT_EQ(table(11, 1), 1);
    EXPECT_EQ(table(11, 2), 0);
    EXPECT_EQ(table(11, 3), 1);
    EXPECT_FALSE(binaryTable(0, 4).ok());
}

TEST(IntuitionTest, BitSinusoidHasTheSquareWavesSignAtEveryPosition) {
    for (int b = 0; b < 8; ++b) {
        for (int p = 0; p < 1024; ++p) {
            const double wave = bitSinusoid(p, b);
            EXPECT_EQ(wave > 0, positionBit(p, b) == 1) << "bit " << b << " position " << p;
        }
    }
}

TEST(IntuitionTest, NearestFrequencyMatchesTheWavelength) {
    SinusoidalParams params;
    params.dModel = 128;
    // Pair i has wavelength 2 pi 10000^(2i/128); i = 32 gives 2 pi 100.
    EXPECT_EQ(nearestFrequencyIndex(params, 2 * M_PI * 100), 32);
    EXPECT_EQ(nearestFrequencyIndex(params, 1.0), 0);  // faster than the fastest pair
}

struct ShiftCase {
    int d;
    SinusoidalLayout layout;
};
class ShiftTest : public ::testing::TestWithParam<ShiftCase> {};

TEST_P(ShiftTest, ShiftMatrixMovesEveryPositionAtRoundingError) {
    SinusoidalParams params;
    params.dModel = GetParam().d;
    params.layout = GetParam().layout;
    for (double k : {1.0, 7.0, -3.0, 100.0, 0.5}) {
        const ShiftCheck check = checkShift(params, k, 2000).value();
        // sin and cos of angles up to ~2100 carry absolute errors of a few ulp(2100) ~ 1e-13.
        EXPECT_LT(check.maxResidual, 2e-12) << "k=" << k << " worst at p=" << check.worstPosition;
        // And independently: T_k PE(p) by dense multiplication, against sin/cos written out here.
        const Matrix t = shiftMatrix(params, k).value();
        for (int p : {0, 5, 999}) {
            std::vector<double> row(std::size_t(params.dModel));
            sinusoidalRow(params, p, row.data());
            for (int r = 0; r < params.dModel; ++r) {
                double value = 0;
                for (int c = 0; c < params.dModel; ++c) value += t(r, c) * row[std::size_t(c)];
                EXPECT_NEAR(value, sinusoidalValue(params, p + k, r), 1e-12);
            }
        }
    }
}

TEST_P(ShiftTest, ShiftsComposeAndInvertByTransposition) {
    SinusoidalParams params;
    params.dModel = GetParam().d;
    params.layout = GetParam().layout;
    const Matrix a = shiftMatrix(params, 5).value(), b = shiftMatrix(params, 12).value();
    const Matrix ab = shiftMatrix(params, 17).value(), back = shiftMatrix(params, -5).value();
    const int d = params.dModel;
    for (int r = 0; r < d; ++r) {
        for (int c = 0; c < d; ++c) {
            double product = 0;
            for (int m = 0; m < d; ++m) product += a(r, m) * b(m, c);
            EXPECT_NEAR(product, ab(r, c), 1e-14);
            EXPECT_NEAR(back(r, c), a(c, r), 1e-15);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Layouts, ShiftTest,
                         ::testing::Values(ShiftCase{64, SinusoidalLayout::Interleaved},
                                           ShiftCase{64, SinusoidalLayout::Concat},
                                           ShiftCase{64, SinusoidalLayout::Tensor2Tensor},
                                           ShiftCase{33, SinusoidalLayout::Tensor2Tensor},
                                           ShiftCase{2, SinusoidalLayout::Interleaved}));

TEST(IntuitionTest, LoneSineOfAnOddWidthCannotBeShifted) {
    SinusoidalParams params;
    params.dModel = 9;
    params.base = 10;  // lone sine at w = 10^(-8/9): visible within a few positions
    const double k = 3;
    const ShiftCheck check = checkShift(params, k, 50).value();
    const double w = std::pow(10.0, -8.0 / 9);
    EXPECT_EQ(check.worstColumn, 8);
    for (int p = 0; p < 50; ++p) {
        EXPECT_NEAR(check.residual[std::size_t(p)], std::abs(std::sin(w * k) * std::cos(w * p)),
                    1e-14)
            << p;
    }
}

}  // namespace
}  // namespace poslab
