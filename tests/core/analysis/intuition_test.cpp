// Binary clock and linear shift: the identities T_k PE(p) = PE(p + k), T_a T_b = T_(a+b),
// T_k^-1 = T_k^T, and the binary digits written out by hand.
#include "poslab/analysis/intuition.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <utility>
#include <vector>

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

TEST(IntuitionTest, SampledShiftCheckIsTheFullCheckAtEvenlySpacedPositions) {
    for (SinusoidalLayout layout : {SinusoidalLayout::Interleaved, SinusoidalLayout::Concat,
                                    SinusoidalLayout::Tensor2Tensor}) {
        for (int d : {16, 15}) {
            const SinusoidalParams params{d, 16, 100, layout};
            const ShiftCheck full = checkShift(params, 3.5, 5000).value();
            const auto sampled = sampledShiftCheck(params, 3.5, 5000, 64);
            ASSERT_TRUE(sampled.ok());
            ASSERT_EQ(sampled->positions.size(), 64u);
            EXPECT_EQ(sampled->positions.front(), 0);
            EXPECT_EQ(sampled->positions.back(), 4999);
            EXPECT_FALSE(sampled->everyPosition());
            double largest = 0;
            for (std::size_t s = 0; s < sampled->positions.size(); ++s) {
                const int p = sampled->positions[s];
                if (s > 0) {
                    EXPECT_NEAR(p - sampled->positions[s - 1], 4999.0 / 63, 1);
                }
                EXPECT_EQ(sampled->residual[s], full.residual[std::size_t(p)]) << p;
                largest = std::max(largest, full.residual[std::size_t(p)]);
            }
            EXPECT_EQ(sampled->maxResidual, largest);
            EXPECT_LE(sampled->maxResidual, full.maxResidual);
            // Fewer positions than samples: every one, and the same answer.
            const auto every = sampledShiftCheck(params, 3.5, 50, 64);
            ASSERT_TRUE(every.ok());
            EXPECT_TRUE(every->everyPosition());
            const ShiftCheck small = checkShift(params, 3.5, 50).value();
            EXPECT_EQ(every->maxResidual, small.maxResidual);
            EXPECT_EQ(every->worstPosition, small.worstPosition);
            EXPECT_EQ(every->worstColumn, small.worstColumn);
        }
    }
    EXPECT_EQ(
        sampledShiftCheck({16, 16, 10000, SinusoidalLayout::Interleaved}, 1, 0).error().message,
        "positions must be 1..1048576 (got 0)");
}

TEST(IntuitionTest, SparseShiftIsTheShiftMatrixWithoutItsZeros) {
    for (SinusoidalLayout layout : {SinusoidalLayout::Interleaved, SinusoidalLayout::Concat,
                                    SinusoidalLayout::Tensor2Tensor}) {
        for (int d : {16, 15}) {
            const SinusoidalParams params{d, 64, 100, layout};
            const Matrix dense = shiftMatrix(params, -2.75).value();
            const SparseRows sparse = sparseShift(params, -2.75);
            ASSERT_EQ(sparse.size(), std::size_t(d));
            for (std::size_t r = 0; r < sparse.size(); ++r) {
                EXPECT_LE(sparse[r].size(), 2u);
                std::vector<std::pair<int, double>> nonZero;
                for (std::size_t c = 0; c < dense.cols; ++c) {
                    if (dense(r, c) != 0) nonZero.emplace_back(int(c), dense(r, c));
                }
                ASSERT_EQ(sparse[r].size(), nonZero.size()) << "row " << r;
                for (std::size_t e = 0; e < nonZero.size(); ++e) {
                    EXPECT_EQ(sparse[r][e].first, nonZero[e].first);
                    EXPECT_NEAR(sparse[r][e].second, nonZero[e].second, 1e-15);
                }
            }
        }
    }
}

TEST(IntuitionTest, SparseShiftMovesEveryPositionByK) {
    // T_k PE(p) = PE(p + k) for an even width, with PE written out as sin/cos of p / base^(2i/d).
    const int d = 32;
    const double base = 10000, k = 7.5;
    const SparseRows t = sparseShift({d, 64, base, SinusoidalLayout::Interleaved}, k);
    auto pe = [&](double p) {
        std::vector<double> row(std::size_t(d), 0.0);
        for (int c = 0; c < d; ++c) {
            const double angle = p / std::pow(base, 2.0 * (c / 2) / d);
            row[std::size_t(c)] = c % 2 == 0 ? std::sin(angle) : std::cos(angle);
        }
        return row;
    };
    for (double p : {0.0, 1.0, 100.0, 12345.0}) {
        const std::vector<double> moved = applySparse(t, pe(p));
        const std::vector<double> expected = pe(p + k);
        for (int c = 0; c < d; ++c)
            EXPECT_NEAR(moved[std::size_t(c)], expected[std::size_t(c)], 1e-9) << p << "," << c;
    }
}

TEST(IntuitionTest, SineOnlyRowsAreTheSinesWrittenOut) {
    const SinusoidalParams params{16, 64, 10000, SinusoidalLayout::Interleaved};
    EXPECT_EQ(sineColumns(params), (std::vector<int>{0, 2, 4, 6, 8, 10, 12, 14}));
    const std::vector<double> s = sineOnlyRow(params, 37);
    ASSERT_EQ(s.size(), 8u);
    for (int i = 0; i < 8; ++i)
        EXPECT_NEAR(s[std::size_t(i)], std::sin(37 / std::pow(10000.0, 2.0 * i / 16)), 1e-15);
    EXPECT_EQ(sineColumns({6, 8, 100, SinusoidalLayout::Concat}), (std::vector<int>{0, 1, 2}));
}

TEST(IntuitionTest, SineOnlyShiftHasNoLinearMapWhileSinAndCosRotateExactly) {
    // d = 16, k = 5: the fastest sine needs sin(5) cos(p), |sin 5| = 0.96, which no sine supplies.
    const SinusoidalParams params{16, 256, 10000, SinusoidalLayout::Interleaved};
    auto fit = sineOnlyShiftFit(params, 5, 256);
    ASSERT_TRUE(fit.ok()) << fit.error().message;
    EXPECT_TRUE(fit->everyPosition());
    EXPECT_GT(fit->rmsResidual, 0.1);
    EXPECT_GT(fit->maxResidual, 0.5);
    EXPECT_EQ(fit->map.rows, 8u);
    const auto exact = sampledShiftCheck(params, 5, 256);
    ASSERT_TRUE(exact.ok());
    EXPECT_LT(exact->maxResidual, 1e-12);
    // Least squares beats the obvious candidate, diag(cos wk) (what T_k does to the sines alone),
    // in the summed squared error it minimises.
    const std::vector<double> w = sinusoidalFrequencies(params);
    double fitted = 0, naive = 0;
    for (int p = 0; p < 256; ++p) {
        const std::vector<double> now = sineOnlyRow(params, p), later = sineOnlyRow(params, p + 5);
        for (std::size_t r = 0; r < 8; ++r) {
            double value = 0;
            for (std::size_t c = 0; c < 8; ++c) value += fit->map(r, c) * now[c];
            fitted += (value - later[r]) * (value - later[r]);
            const double diagonal = std::cos(w[r] * 5) * now[r] - later[r];
            naive += diagonal * diagonal;
        }
    }
    EXPECT_LE(fitted, naive * (1 + 1e-9));
    EXPECT_NEAR(std::sqrt(fitted / (256 * 8)), fit->rmsResidual, 1e-12);
}

TEST(IntuitionTest, SineOnlyShiftByZeroIsFittedExactly) {
    auto fit = sineOnlyShiftFit({16, 64, 10000, SinusoidalLayout::Concat}, 0, 200);
    ASSERT_TRUE(fit.ok());
    EXPECT_LT(fit->maxResidual, 1e-12);
    EXPECT_EQ(sineOnlyShiftFit({1024, 64, 10000, SinusoidalLayout::Concat}, 1, 10).error().message,
              "d_model must be 1..512 (got 1024)");
}

// Lesson 3's map. d = 16, k = 5, 256 positions: the slow sines sin(w p), w = 10000^(-i/8), are
// nearly linear in p and so nearly parallel; plain least squares trades them against each other
// with entries in the millions. The ridge fit keeps every entry near 1 and misses each slow sine
// by |sin wk| (its shift, sin wp cos wk + cos wp sin wk, differs by about sin wk cos wp, and
// cos wp stays near 1 for them), as the lesson says.
TEST(IntuitionTest, SineOnlyRidgeFitIsWellConditionedAndMissesBySinWk) {
    const SinusoidalParams params{16, 256, 10000, SinusoidalLayout::Interleaved};
    auto plain = sineOnlyShiftFit(params, 5, 256);
    ASSERT_TRUE(plain.ok());
    double plainLargest = 0;
    for (double v : plain->map.values) plainLargest = std::max(plainLargest, std::abs(v));
    EXPECT_GT(plainLargest, 1e5);  // why the ridge: 5.6e6, colour-clipped into noise
    auto ridge = sineOnlyShiftFit(params, 5, 256, kShiftCheckSamples, kSineOnlyRidge);
    ASSERT_TRUE(ridge.ok()) << ridge.error().message;
    double largest = 0;
    for (double v : ridge->map.values) largest = std::max(largest, std::abs(v));
    EXPECT_LT(largest, 1.5);
    for (int i = 4; i < 8; ++i) {
        const double w = std::pow(10000.0, -i / 8.0);
        double worst = 0;
        for (int p = 0; p < 256; ++p) {
            const std::vector<double> now = sineOnlyRow(params, p);
            double value = 0;
            for (std::size_t c = 0; c < 8; ++c) value += ridge->map(std::size_t(i), c) * now[c];
            worst = std::max(worst, std::abs(value - std::sin(w * (p + 5))));
        }
        EXPECT_NEAR(worst, std::abs(std::sin(5 * w)), 0.02 * std::abs(std::sin(5 * w))) << i;
    }
    EXPECT_EQ(sineOnlyShiftFit(params, 5, 256, kShiftCheckSamples, -1).error().message,
              "ridge must be 0..1");
}

}  // namespace
}  // namespace poslab
