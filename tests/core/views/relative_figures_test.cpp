#include "poslab/views/relative_figures.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "figure_checks.hpp"
#include "poslab/encodings/alibi.hpp"

namespace poslab {
namespace {

constexpr RelativeTab kTabs[] = {RelativeTab::Family, RelativeTab::Xpos, RelativeTab::Kerple,
                                 RelativeTab::Sandwich, RelativeTab::Fire};

TEST(RelativeFiguresTest, FamilyValuesAreZeroAtDistanceZeroAndFollowFormulas) {
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

TEST(RelativeFiguresTest, DistancesCoverTheRangeWithinTheBudget) {
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

TEST(RelativeFiguresTest, ToeplitzOffsetsAreCausal) {
    RelativeFigureOptions o;
    const auto byOffset = toeplitzByOffset(o, FamilyMember::Alibi, 5);
    ASSERT_EQ(byOffset.size(), 9u);
    EXPECT_EQ(byOffset[4], 0.0);           // j - i = 0
    EXPECT_DOUBLE_EQ(byOffset[1], -1.5);   // j - i = -3: -m 3, m = 1/2
    EXPECT_TRUE(std::isinf(byOffset[6]));  // a future key
}

TEST(RelativeFiguresTest, RotaryOffsetsAgreeWithTheDirectSum) {
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

TEST(RelativeFiguresTest, FireSampleShowsCentreCells) {
    FireParams p;
    const HeatmapSample s = fireSample(p, 1000, 100, 100, false);
    ASSERT_TRUE(s.values);
    EXPECT_EQ(s.rowsPerTexel, 10);
    // Texel (7, 3) holds cell (75, 35).
    EXPECT_DOUBLE_EQ((*s.values)(7, 3), firePhi(p, 75, 35));
    EXPECT_TRUE(std::isinf((*s.values)(3, 7)));
}

TEST(RelativeFiguresTest, EveryTabDrawsAtScreenAndProjectorSizes) {
    for (RelativeTab tab : kTabs) {
        for (Box area : {Box{0, 0, 1100, 800}, Box{0, 0, 640, 520}}) {
            Figure figure = emptyFigure(area.width, area.height, darkTheme());
            ASSERT_TRUE(drawRelativeFigure(figure, area, RelativeFigureOptions{}, tab, darkTheme()))
                << int(tab);
            const Counts c = count(figure);
            EXPECT_GT(c.heatmaps + c.polylines, 0) << int(tab);
            EXPECT_TRUE(c.insideFigure) << int(tab);
            EXPECT_TRUE(allCoordinatesFinite(figure)) << int(tab);
        }
    }
}

TEST(RelativeFiguresTest, StaysFastAtLongContext) {
    RelativeFigureOptions o;
    o.seqLen = 65536;
    o.logDistance = true;
    finishesPromptly([&] {
        for (RelativeTab tab : kTabs) {
            Figure figure = emptyFigure(1000, 700, darkTheme());
            EXPECT_TRUE(drawRelativeFigure(figure, {0, 0, 1000, 700}, o, tab, darkTheme()));
        }
    });
}

TEST(RelativeFiguresTest, MemoRebuildsOnlyTheMemberThatChanged) {
    RelativeFigureOptions o;
    const RelativeLayout layout =
        relativeLayout({0, 0, 1100, 800}, RelativeTab::Family, darkTheme());
    RelativeFigureMemo memo;
    auto first = computeRelativeFigureData(o, RelativeTab::Family, layout, &memo);
    ASSERT_TRUE(first.ok());
    o.kerpleLog.r1 = 2;
    auto second = computeRelativeFigureData(o, RelativeTab::Family, layout, &memo);
    ASSERT_TRUE(second.ok());
    for (int k = 0; k < kFamilyMembers; ++k) {
        const bool changed = FamilyMember(k) == FamilyMember::KerpleLog;
        EXPECT_EQ(first->maps[std::size_t(k)].version != second->maps[std::size_t(k)].version,
                  changed)
            << k;
    }
    // The same data as without the memo: values and curves.
    auto fresh = computeRelativeFigureData(o, RelativeTab::Family, layout);
    ASSERT_TRUE(fresh.ok());
    for (int k = 0; k < kFamilyMembers; ++k) {
        EXPECT_EQ(fresh->maps[std::size_t(k)].values->values,
                  second->maps[std::size_t(k)].values->values)
            << k;
        EXPECT_EQ(fresh->curves[std::size_t(k)].y, second->curves[std::size_t(k)].y) << k;
    }
}

TEST(RelativeFiguresTest, BadOptionsGiveOneLineErrors) {
    RelativeFigureOptions o;
    o.seqLen = 1;
    EXPECT_EQ(validate(o).error().message.rfind("seq_len must be", 0), 0u);
    o = {};
    o.biasFloor = 0;
    EXPECT_EQ(validate(o).error().message.rfind("bias_floor must be", 0), 0u);
    o = {};
    o.fire.c = -1;
    EXPECT_EQ(validate(o).error().message.rfind("c must be", 0), 0u);
    Figure figure = emptyFigure(400, 300, darkTheme());
    EXPECT_FALSE(drawRelativeFigure(figure, {0, 0, 400, 300}, o, RelativeTab::Fire, darkTheme()));
}

}  // namespace
}  // namespace poslab
