#include "poslab/views/relative_family.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace poslab {
namespace {

TEST(RelativeFamilyTest, FamilyValuesAreZeroAtDistanceZeroAndFollowFormulas) {
    const RelativeFigureOptions o;
    for (int k = 0; k < kFamilyMembers; ++k) {
        EXPECT_NEAR(familyValue(o, FamilyMember(k), 0), 0.0, 1e-12) << k;
    }
    // ALiBi: -m r with m = 1/2 for head 0 of 8.
    EXPECT_DOUBLE_EQ(familyValue(o, FamilyMember::Alibi, 10), -5.0);
    // KERPLE log with r1 = r2 = 1: -log(1 + r).
    EXPECT_NEAR(familyValue(o, FamilyMember::KerpleLog, 9), -std::log(10.0), 1e-14);
    // KERPLE power r1 = 0.5, r2 = 0.8.
    EXPECT_NEAR(familyValue(o, FamilyMember::KerplePower, 32), -0.5 * std::pow(32.0, 0.8), 1e-12);
    // xPos: log of the mean of zeta_i^(r/512) over d/2 = 32 pairs, written out.
    double mean = 0;
    for (int i = 0; i < 32; ++i) mean += std::pow((2.0 * i / 64 + 0.4) / 1.4, 700.0 / 512);
    EXPECT_NEAR(familyValue(o, FamilyMember::Xpos, 700), std::log(mean / 32), 1e-12);
    // RoPE's bound falls: the log-ratio is negative away from 0.
    EXPECT_LT(familyValue(o, FamilyMember::Rope, 100), -0.5);
}

TEST(RelativeFamilyTest, DistancesCoverTheRangeWithinTheBudget) {
    const auto all = familyDistances(100, 400, false);
    EXPECT_EQ(all.size(), 101u);
    const auto grid = familyDistances(65535, 500, false);
    EXPECT_LE(grid.size(), 1002u);
    EXPECT_EQ(grid.front(), 0.0);
    EXPECT_EQ(grid.back(), 65535.0);
    const auto logs = familyDistances(65535, 500, true);
    EXPECT_EQ(logs.front(), 1.0);
    EXPECT_EQ(logs.back(), 65535.0);
    for (std::size_t k = 1; k < logs.size(); ++k) EXPECT_GT(logs[k], logs[k - 1]);
}

TEST(RelativeFamilyTest, ToeplitzOffsetsAreCausal) {
    RelativeFigureOptions o;
    const auto byOffset = toeplitzByOffset(o, FamilyMember::Alibi, 5);
    ASSERT_EQ(byOffset.size(), 9u);
    EXPECT_EQ(byOffset[4], 0.0);           // j - i = 0
    EXPECT_DOUBLE_EQ(byOffset[1], -1.5);   // j - i = -3: -m 3, m = 1/2
    EXPECT_TRUE(std::isinf(byOffset[6]));  // a future key
}

TEST(RelativeFamilyTest, RotaryOffsetsAgreeWithTheDirectSum) {
    // The recurrence (phase grid, scales multiplied step by step) against xposOnesScore's pow
    // and cos at every distance: relative 1e-11 (scores are up to d = 64).
    RelativeFigureOptions o;
    const int length = 3000;
    const auto xpos = toeplitzByOffset(o, FamilyMember::Xpos, length);
    const auto rope = toeplitzByOffset(o, FamilyMember::Rope, length);
    for (int r = 0; r < length; r += 7) {
        EXPECT_NEAR(xpos[std::size_t(length - 1 - r)], xposOnesScore(o.xpos, r), 1e-9) << r;
        EXPECT_NEAR(rope[std::size_t(length - 1 - r)], ropeOnesScore(o.xpos, r), 1e-9) << r;
    }
}

TEST(RelativeFamilyTest, FamilyCurvesFollowTheWrittenOutFormulasAtEveryDistanceShown) {
    // The rotary members' curves come from oscillator sums, not from familyValue: check them at
    // each distance drawn against the papers' formulas, at a length where the distances are
    // spread out (65,536, a plot 300 pixels wide, both axes).
    RelativeFigureOptions o;
    o.seqLen = 65536;
    o.biasFloor = -1e6;  // nothing cut
    o.sandwich.headDim = 64;
    o.sandwich.head = 3;
    for (bool logarithmic : {false, true}) {
        o.logDistance = logarithmic;
        const auto curves = relativeTabCurves(o, RelativeTab::Family, 300);
        ASSERT_EQ(curves.size(), std::size_t(kFamilyMembers));
        const LineSeries& sandwich = curves[std::size_t(FamilyMember::Sandwich)];
        const LineSeries& xpos = curves[std::size_t(FamilyMember::Xpos)];
        ASSERT_GT(sandwich.x.size(), 300u);
        ASSERT_EQ(xpos.x, sandwich.x);
        for (std::size_t n = 0; n < sandwich.x.size(); ++n) {
            const double r = sandwich.x[n];
            // Sandwich (NeMo): (sum_{i=1..32} cos(r 10000^(-2i/64)) - 32) / (8 * 4 / 8).
            double cosines = 0;
            for (int i = 1; i <= 32; ++i) cosines += std::cos(r * std::pow(10000.0, -2.0 * i / 64));
            EXPECT_NEAR(sandwich.y[n], (cosines - 32) / 4.0, 1e-10) << r;
            // xPos: log of the mean over 32 pairs of zeta_i^(r/512), zeta_i = (2i + 25.6) / 89.6.
            double mean = 0;
            for (int i = 0; i < 32; ++i)
                mean += std::pow((2.0 * i + 0.4 * 64) / (1.4 * 64), r / 512);
            EXPECT_NEAR(xpos.y[n], std::log(mean / 32), 1e-11) << r;
        }
    }
}

TEST(RelativeFamilyTest, XposTabCurvesEnvelopeTheScoresAtLongContext) {
    // 2^20 distances on 200 columns: each column's band holds the written-out score at the
    // column's first sampled distance (RoPE: sum 2 cos(r theta_i), theta_i = 10000^(-i/32)).
    RelativeFigureOptions o;
    o.seqLen = 1 << 20;
    const auto curves = relativeTabCurves(o, RelativeTab::Xpos, 200);
    ASSERT_EQ(curves.size(), 3u);
    const LineSeries& rope = curves[0];
    ASSERT_FALSE(rope.y.empty());
    double low = 1e300, high = -1e300;
    for (double y : rope.y) {
        low = std::min(low, y);
        high = std::max(high, y);
    }
    EXPECT_NEAR(high, 64.0, 1e-9);  // r = 0: every cosine is 1
    EXPECT_LT(low, 0.0);
}

}  // namespace
}  // namespace poslab
