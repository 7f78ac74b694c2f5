#include "poslab/views/icon_figures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <variant>

namespace poslab {
namespace {

// A dark tile with rounded corners (transparent in the PNGs: the desktop shows the icon's shape,
// not a square), the table inset by an eighth and wholly on the tile.
TEST(IconFiguresTest, IsARoundedTileWithTheTableInsetByAnEighth) {
    auto figure = iconFigure(256);
    ASSERT_TRUE(figure) << figure.error().message;
    EXPECT_EQ(figure->width, 256);
    EXPECT_EQ(figure->height, 256);
    EXPECT_EQ(figure->background.a, 0);
    ASSERT_EQ(figure->items.size(), 2u);
    const auto& tile = std::get<PolygonItem>(figure->items[0]);
    EXPECT_EQ(tile.fill.a, 255);
    float left = 256, right = 0, top = 256, bottom = 0;
    for (const Point& p : tile.points) {
        left = std::min(left, p.x), right = std::max(right, p.x);
        top = std::min(top, p.y), bottom = std::max(bottom, p.y);
    }
    EXPECT_NEAR(left, 4, 1e-3);  // size / 64 inside each edge
    EXPECT_NEAR(right, 252, 1e-3);
    EXPECT_NEAR(top, 4, 1e-3);
    EXPECT_NEAR(bottom, 252, 1e-3);
    // Inside a convex polygon: on the same side of every edge.
    auto inside = [&](Point q) {
        int positive = 0, negative = 0;
        for (std::size_t i = 0; i < tile.points.size(); ++i) {
            const Point a = tile.points[i], b = tile.points[(i + 1) % tile.points.size()];
            const float cross = (b.x - a.x) * (q.y - a.y) - (b.y - a.y) * (q.x - a.x);
            positive += cross > 0;
            negative += cross < 0;
        }
        return positive == 0 || negative == 0;
    };
    for (Point corner : {Point{6, 6}, Point{250, 6}, Point{6, 250}, Point{250, 250}})
        EXPECT_FALSE(inside(corner)) << corner.x << ", " << corner.y;
    for (Point cell :
         {Point{32, 32}, Point{224, 32}, Point{32, 224}, Point{224, 224}, Point{128, 128}})
        EXPECT_TRUE(inside(cell)) << cell.x << ", " << cell.y;
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
            const double angle =
                p * kIconPositionStep / std::pow(kIconBase, 2.0 * i / kIconDimensions);
            const double expected = c % 2 == 0 ? std::sin(angle) : std::cos(angle);
            EXPECT_NEAR(values(std::size_t(p), std::size_t(c)), expected, 1e-12)
                << "p=" << p << " c=" << c;
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
