// The Intuition view's header includes every figure of the view: each builds, small and large,
// with every coordinate finite and its text inside the figure.
#include "poslab/views/intuition_figures.hpp"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "figure_checks.hpp"

namespace poslab {
namespace {

TEST(IntuitionFiguresTest, EveryFigureOfTheViewBuildsSmallAndLarge) {
    for (const auto& [width, height] : {std::pair{320.f, 240.f}, std::pair{1600.f, 1000.f}}) {
        std::vector<Result<Figure>> figures;
        figures.push_back(binaryClockFigure({}, width, height, paperTheme()));
        figures.push_back(linearShiftFigure({}, width, height, darkTheme()));
        figures.push_back(attentionShuffleFigure({}, width, height, paperTheme()));
        figures.push_back(frequencyResolutionFigure({}, width, height, darkTheme()));
        for (const Result<Figure>& figure : figures) {
            ASSERT_TRUE(figure.ok()) << figure.error().message;
            EXPECT_TRUE(allCoordinatesFinite(*figure)) << width;
            EXPECT_TRUE(count(*figure).insideFigure) << width;
            EXPECT_GT(count(*figure).texts, 3) << width;
        }
    }
}

}  // namespace
}  // namespace poslab
