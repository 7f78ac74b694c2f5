#include "poslab/views/frequency_resolution_figures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

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

// A moving slider's coarse figure: the same texts (the numbers are exact), the distance curves'
// envelopes at a quarter of the columns: at most two points a column of 4 px (min and max), and
// on the log axis the short offsets fill fewer columns, so about a quarter of the exact points.
TEST(FrequencyResolutionFiguresTest, CoarseFigureHasTheSameTextsAndAQuarterOfTheColumns) {
    // d 64: the pair plot's curves (32 points) are shorter than the distance curves.
    const FrequencyResolutionParams params{64, 10000, kMaxResolutionPositions, 11};
    auto resolution = frequencyResolution(params);
    ASSERT_TRUE(resolution.ok());
    auto draw = [&](bool coarse) {
        Figure figure = emptyFigure(1100, 760, darkTheme());
        drawFrequencyResolution(figure, {0, 40, 1100, 720}, *resolution, params, darkTheme(), 0,
                                coarse);
        return figure;
    };
    const Figure exact = draw(false), coarse = draw(true);
    auto texts = [](const Figure& f) {
        std::vector<std::string> all;
        for (const auto& item : f.items)
            if (const auto* t = std::get_if<TextItem>(&item)) all.push_back(t->text);
        return all;
    };
    EXPECT_EQ(texts(coarse), texts(exact));
    auto longest = [](const Figure& f) {  // the offset curves: the polylines of most points
        std::vector<std::size_t> sizes;
        for (const auto& item : f.items)
            if (const auto* p = std::get_if<PolylineItem>(&item)) sizes.push_back(p->points.size());
        std::sort(sizes.rbegin(), sizes.rend());
        sizes.resize(2);
        return sizes;
    };
    const auto exactSizes = longest(exact), coarseSizes = longest(coarse);
    const std::size_t columns = 1100 - 80;  // drawFrequencyResolution's envelope width
    for (int k = 0; k < 2; ++k) {
        EXPECT_LE(exactSizes[k], 2 * columns) << k;
        EXPECT_LE(coarseSizes[k], 2 * (columns / 4)) << k;
        EXPECT_LT(3 * coarseSizes[k], exactSizes[k]) << k;
    }
}

}  // namespace
}  // namespace poslab
