#include "poslab/views/frequency_resolution_figures.hpp"

#include <gtest/gtest.h>

#include "figure_checks.hpp"

namespace poslab {
namespace {

TEST(FrequencyResolutionFiguresTest, FrequencyResolutionNamesItsNumbers) {
    auto figure = frequencyResolutionFigure({}, 1200, 800, paperTheme());
    ASSERT_TRUE(figure.ok()) << figure.error().message;
    EXPECT_TRUE(hasText(*figure, "neighbours, D = 1"));
    EXPECT_TRUE(hasText(*figure, "far apart, D = 256"));
    EXPECT_GE(count(*figure).polylines, 4);
    EXPECT_EQ(frequencyResolutionFigure({63, 10000, 64, 0}, 800, 600, paperTheme()).error().message,
              "d_model must be even, 2..1024 (got 63)");
}

}  // namespace
}  // namespace poslab

namespace poslab {
namespace {

// Issue #28: at 1024x768 F5 the title shrank to 19.4 px on one line; it wraps at full size.
TEST(FrequencyResolutionFiguresTest, PresentationTitleWrapsAtFullSize) {
    const Theme theme = scaledTheme(darkTheme(), 1.75f);
    auto figure = frequencyResolutionFigure({}, 1008, 512, theme, 1);
    ASSERT_TRUE(figure.ok());
    int titleLines = 0;
    for (const auto& item : figure->items) {
        const auto* text = std::get_if<TextItem>(&item);
        if (!text || (text->text.find("Why many") == std::string::npos &&
                      text->text.find("positions apart") == std::string::npos))
            continue;
        ++titleLines;
        EXPECT_GE(text->size, 0.8f * theme.titleSize) << text->text;
    }
    EXPECT_EQ(titleLines, 2);
}

}  // namespace
}  // namespace poslab
