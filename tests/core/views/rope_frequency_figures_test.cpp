#include "poslab/views/rope_frequency_figures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "rope_figure_checks.hpp"

namespace poslab {
namespace {

using namespace rope_checks;

TEST(RopeFrequencyFiguresTest, FrequencyChartMarksThePairsThatNeverCompleteATurn) {
    const RopeParams p = params(64, 1000);
    const Theme theme = darkTheme();
    Figure figure = emptyFigure(1000, 700, theme);
    drawRopeFrequencies(figure, {0, 0, 1000, 700}, p, {}, theme);
    int expected = 0;  // wavelength 2 pi base^(2i/d) longer than the context
    for (int i = 0; i < 32; ++i) expected += 2 * kPi * std::pow(10000.0, 2.0 * i / 64) > 1000;
    ASSERT_GT(expected, 0);
    int highlighted = 0;
    for (const FigureItem& item : figure.items) {
        if (auto* circle = std::get_if<CircleItem>(&item))
            highlighted += circle->fill == theme.accent;
    }
    EXPECT_EQ(highlighted, expected + 1);  // one dot per pair, plus the legend's
    EXPECT_TRUE(hasText(figure, std::to_string(expected) +
                                    " of 32 pairs never complete a turn within the "
                                    "context 1000"));
    EXPECT_TRUE(hasText(figure, "context = training length 1000"));
    EXPECT_TRUE(hasText(figure, "Wavelength $2π/θ_i$ of each pair"));

    RopeParams longer = p;
    longer.trainingLength = 200;
    Figure two = emptyFigure(1000, 700, theme);
    drawRopeFrequencies(two, {0, 0, 1000, 700}, longer, {RopeTurnReference::Training}, theme);
    EXPECT_TRUE(hasText(two, "context length 1000"));
    EXPECT_TRUE(hasText(two, "training length 200"));
    EXPECT_TRUE(hasText(two, "within the training length 200"));
}

TEST(RopeFrequencyFiguresTest, FrequencyChartOverlaysUnscaledWavelengthsWhenScaling) {
    RopeParams p = params(128, 32768, 500000);
    p.trainingLength = 8192;
    p.scaling.type = RopeScaling::Llama3;
    p.scaling.factor = 8;
    Figure figure = emptyFigure(1000, 700, paperTheme());
    drawRopeFrequencies(figure, {0, 0, 1000, 700}, p, {}, paperTheme());
    EXPECT_TRUE(hasText(figure, "unscaled"));
    EXPECT_TRUE(hasText(figure, "scaled: llama3 ×8"));
    int polylines = 0;
    for (const FigureItem& item : figure.items)
        polylines += std::holds_alternative<PolylineItem>(item);
    EXPECT_GE(polylines, 2);
}

}  // namespace
}  // namespace poslab
