#include "poslab/views/icon_figures.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <variant>

namespace poslab {
namespace {

TEST(IconFiguresTest, IsASquareTileWithTheTableInsetByAnEighth) {
    auto figure = iconFigure(256);
    ASSERT_TRUE(figure) << figure.error().message;
    EXPECT_EQ(figure->width, 256);
    EXPECT_EQ(figure->height, 256);
    ASSERT_EQ(figure->items.size(), 2u);
    const auto& tile = std::get<RectItem>(figure->items[0]);
    EXPECT_EQ(tile.box.width, 256);
    EXPECT_EQ(tile.fill.a, 255);
    const auto& heatmap = std::get<HeatmapItem>(figure->items[1]);
    EXPECT_FLOAT_EQ(heatmap.box.x, 32);
    EXPECT_FLOAT_EQ(heatmap.box.width, 192);
    EXPECT_FLOAT_EQ(heatmap.box.height, 192);
}

// The cells are Vaswani et al.'s table, written out here: PE(p, 2i) = sin(p / b^(2i/d)),
// PE(p, 2i+1) = cos(p / b^(2i/d)), with b = kIconBase and d = kIconDimensions, at the rows'
// positions p = row * kIconPositionStep.
TEST(IconFiguresTest, CellsAreTheSinusoidalTable) {
    auto figure = iconFigure(64);
    ASSERT_TRUE(figure);
    const auto& values = *std::get<HeatmapItem>(figure->items[1]).values;
    ASSERT_EQ(values.rows, std::size_t(kIconPositions));
    ASSERT_EQ(values.cols, std::size_t(kIconDimensions));
    for (int p = 0; p < kIconPositions; ++p) {
        for (int c = 0; c < kIconDimensions; ++c) {
            const int i = c / 2;
            const double angle = p * kIconPositionStep / std::pow(kIconBase, 2.0 * i / kIconDimensions);
            const double expected = c % 2 == 0 ? std::sin(angle) : std::cos(angle);
            EXPECT_NEAR(values(std::size_t(p), std::size_t(c)), expected, 1e-12) << "p=" << p << " c=" << c;
        }
    }
}

TEST(IconFiguresTest, RefusesSizesOutsideTheRange) {
    for (float bad : {0.f, 15.f, 1025.f, std::nanf("")}) {
        auto figure = iconFigure(bad);
        ASSERT_FALSE(figure) << bad;
        EXPECT_NE(figure.error().message.find("16..1024"), std::string::npos);
    }
}

}  // namespace
}  // namespace poslab
