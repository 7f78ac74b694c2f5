#include "poslab/views/relative_figures.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "figure_checks.hpp"
#include "poslab/encodings/alibi.hpp"
#include "poslab/views/relative_oscillators.hpp"

namespace poslab {
namespace {

constexpr RelativeTab kTabs[] = {RelativeTab::Family, RelativeTab::Xpos, RelativeTab::Kerple,
                                 RelativeTab::Sandwich, RelativeTab::Fire};

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

TEST(RelativeFiguresTest, SandwichHeadsAreTheKeptKernelScaled) {
    // The Sandwich tab scales one kernel per head: each head's texels equal that head's own
    // block means (relative 1e-13), with the memo and without, as the head slider moves.
    RelativeFigureOptions o;
    o.seqLen = 5000;
    o.sandwich = {64, 16, 0};
    const RelativeLayout layout =
        relativeLayout({0, 0, 900, 600}, RelativeTab::Sandwich, darkTheme());
    RelativeFigureMemo memo;
    for (int head : {0, 5, 15}) {
        o.sandwich.head = head;
        for (RelativeFigureMemo* m : {&memo, static_cast<RelativeFigureMemo*>(nullptr)}) {
            auto data = computeRelativeFigureData(o, RelativeTab::Sandwich, layout, m);
            ASSERT_TRUE(data.ok());
            const Box box = layout.panel(0);
            const HeatmapSample direct =
                causalOscillatorSample(sandwichOscillators(o.sandwich), o.seqLen,
                                       texelBudget(box.height), texelBudget(box.width));
            const Matrix& got = *data->maps[0].values;
            ASSERT_EQ(got.values.size(), direct.values->values.size());
            for (std::size_t k = 0; k < got.values.size(); ++k) {
                const double want = direct.values->values[k];
                if (std::isinf(want)) {
                    EXPECT_EQ(got.values[k], want);
                } else {
                    EXPECT_NEAR(got.values[k], want, 1e-13 * std::max(1.0, std::abs(want)));
                }
            }
        }
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
