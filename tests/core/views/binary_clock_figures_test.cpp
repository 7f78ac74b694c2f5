// The binary clock figure: its parts and its errors.
#include "poslab/views/binary_clock_figures.hpp"

#include <gtest/gtest.h>

#include "figure_checks.hpp"

namespace poslab {
namespace {

TEST(BinaryClockFiguresTest, BinaryClockNamesEachBitsPeriodAndRefusesNoBits) {
    auto clock = binaryClockFigure({}, 1200, 800, paperTheme());
    ASSERT_TRUE(clock.ok());
    EXPECT_GE(count(*clock).polylines, 10);  // square wave and sinusoid per bit
    EXPECT_TRUE(hasText(*clock, "bit 3: period 16"));
    BinaryClockOptions bad;
    bad.bits = 0;
    EXPECT_EQ(binaryClockFigure(bad, 800, 600, paperTheme()).error().message,
              "bits must be 1..12 (got 0)");
}

}  // namespace
}  // namespace poslab

namespace poslab {
namespace {

// Issue #28: on a projector (F5, 1024x768) the title wrapped onto two lines at full size
// instead of one line shrunk to 20.8 px, under the presentation check's 0.8 x title size.
TEST(BinaryClockFiguresTest, PresentationTitleWrapsAtFullSize) {
    const Theme theme = scaledTheme(darkTheme(), 1.75f);
    for (int panel = 1; panel <= 3; ++panel) {
        auto clock = binaryClockFigure({}, 1008, 512, theme, panel);
        ASSERT_TRUE(clock.ok());
        int titleLines = 0;
        for (const auto& item : clock->items) {
            const auto* text = std::get_if<TextItem>(&item);
            if (!text) continue;
            if (text->text.find("binary clock") != std::string::npos ||
                text->text.find("twice as slowly") != std::string::npos) {
                ++titleLines;
                EXPECT_GE(text->size, 0.8f * theme.titleSize) << text->text;
            }
        }
        EXPECT_EQ(titleLines, 2) << "panel " << panel;
    }
}

}  // namespace
}  // namespace poslab
