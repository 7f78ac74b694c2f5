// RoPE A/B (compare_ab_figures.hpp): two configurations, their three plots and the refusals.
#include "poslab/views/compare_ab_figures.hpp"

#include <gtest/gtest.h>

#include <string>

#include "figure_checks.hpp"
#include "poslab/base/limits.hpp"

namespace poslab {
namespace {

TEST(CompareAbFiguresTest, DrawsBothConfigurationsAndTheirDifference) {
    RopeConfiguration a{"A: base 10000", {}}, b{"B: base 500000", {}};
    b.rope.base = 500000;
    auto ab = abComparisonFigure(a, b, 4096, 1200, 800, paperTheme());
    ASSERT_TRUE(ab.ok()) << ab.error().message;
    EXPECT_TRUE(hasText(*ab, "RoPE A/B: A: base 10000  vs  B: base 500000"));
    EXPECT_TRUE(hasText(*ab, "Wavelength of each pair"));
    EXPECT_TRUE(hasText(*ab, "Difference B − A"));
    // Two wavelength curves, two expected-cosine curves and their difference at least.
    EXPECT_GE(count(*ab).polylines, 5);
    EXPECT_TRUE(allCoordinatesFinite(*ab));
}

TEST(CompareAbFiguresTest, ThreePanelsAndEachAlone) {
    const PanelGrid all = abComparisonPanels(1200, 800, paperTheme());
    EXPECT_EQ(all.count, kAbPanels.count);
    EXPECT_EQ(kAbPanels.count, 3);
    RopeConfiguration a{"A", {}}, b{"B", {}};
    for (int panel = 1; panel <= 3; ++panel) {
        auto alone = abComparisonFigure(a, b, 512, 800, 600, paperTheme(), panel);
        ASSERT_TRUE(alone.ok()) << panel << ": " << alone.error().message;
        EXPECT_GE(count(*alone).polylines, 1) << panel;
    }
}

// Offsets 0..K are K + 1 positions: K is 2..kMaxSeqLen - 1; a configuration that cannot be
// drawn is named by its side.
TEST(CompareAbFiguresTest, RefusesAnOffsetRangeOrConfigurationOutOfBounds) {
    RopeConfiguration a{"A", {}}, b{"B", {}};
    auto tooShort = abComparisonFigure(a, b, 1, 800, 600, paperTheme());
    ASSERT_FALSE(tooShort.ok());
    EXPECT_EQ(tooShort.error().message,
              "max_offset must be 2.." + std::to_string(kMaxSeqLen - 1) + " (got 1)");
    b.rope.base = 0.5;
    auto badBase = abComparisonFigure(a, b, 512, 800, 600, paperTheme());
    ASSERT_FALSE(badBase.ok());
    EXPECT_EQ(badBase.error().message.rfind("B: ", 0), 0u) << badBase.error().message;
}

}  // namespace
}  // namespace poslab
