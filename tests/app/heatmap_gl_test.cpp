// The GL renderer's heatmap pass, drawn headless (EGL, llvmpipe) and checked pixel by pixel
// against colours worked out here: the colormap's table entry for each cell, the masked colour
// for -inf cells, and the source-over blend c (1 - a) + s a wherever a translucent shade covers
// them. A shade drawn right after a heatmap is folded into the heatmap's own pass; one that
// cannot be (something drawn between, or reaching past the heatmap) is blended as usual. Both
// must look the same.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>

#include "gfx/offscreen.hpp"
#include "offscreen_fixture.hpp"
#include "poslab/figure/colormap.hpp"
#include "poslab/figure/figure.hpp"

namespace poslab::test {
namespace {

constexpr float kWidth = 240, kHeight = 160;
constexpr Box kHeatmapBox{40, 20, 160, 120};  // 4 columns x 3 rows of 40 px cells
constexpr Rgba kMasked{58, 58, 62, 255};
constexpr Rgba kBackground{255, 255, 255, 255};
constexpr int kMaskedRow = 1, kMaskedCol = 2;

double cellValue(int row, int col) {
    return row * 4 + col;
}  // 0..11, range [0, 11]

std::shared_ptr<const Matrix> cells() {
    auto m = std::make_shared<Matrix>(3, 4);
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 4; ++c) (*m)(r, c) = cellValue(r, c);
    (*m)(kMaskedRow, kMaskedCol) = -INFINITY;
    return m;
}

// What a cell shows with no shade: its viridis entry (value v of [0, 11] is entry
// round(v / 11 * 255)), or the masked colour.
Rgba cellColour(int row, int col) {
    if (row == kMaskedRow && col == kMaskedCol) return kMasked;
    const int entry = int(std::lround(cellValue(row, col) / 11.0 * 255.0));
    return colormapTable(ColormapId::Viridis)[std::size_t(entry)];
}

Rgba blend(Rgba under, Rgba shade) {
    const double a = shade.a / 255.0;
    auto channel = [&](int u, int s) { return std::uint8_t(std::lround(u * (1 - a) + s * a)); };
    return {channel(under.r, shade.r), channel(under.g, shade.g), channel(under.b, shade.b), 255};
}

struct Shade {
    Box box;
    Rgba colour;
    bool clippedToHeatmap = true;  // drawn inside ClipPush{heatmap box}, as plot markers are
    bool lineBefore = false;       // something drawn between the heatmap and the shade
};

Figure figureWith(const Shade& shade) {
    Figure figure;
    figure.width = kWidth;
    figure.height = kHeight;
    figure.background = kBackground;
    HeatmapItem heatmap;
    heatmap.box = kHeatmapBox;
    heatmap.values = cells();
    heatmap.colormap = ColormapId::Viridis;
    heatmap.range = {0, 11};
    heatmap.masked = kMasked;
    heatmap.version = nextMatrixVersion();
    figure.add(ClipPush{kHeatmapBox});
    figure.add(heatmap);
    figure.add(ClipPop{});
    // A line along the figure's top edge, away from every pixel checked.
    if (shade.lineBefore) figure.add(LineItem{{0, 2}, {kWidth, 2}, {0, 0, 255, 255}, 1, false});
    if (shade.clippedToHeatmap) figure.add(ClipPush{kHeatmapBox});
    RectItem rect;
    rect.box = shade.box;
    rect.fill = shade.colour;
    figure.add(rect);
    if (shade.clippedToHeatmap) figure.add(ClipPop{});
    return figure;
}

class HeatmapGlTest : public test::OffscreenRendererTest<HeatmapGlTest> {
  protected:
    // Renders the figure and checks every cell centre and the margins beside the heatmap.
    void expectPixels(const Shade& shade) {
        ASSERT_TRUE(renderer_) << failure_;
        auto image = renderer_->render(figureWith(shade));
        ASSERT_TRUE(image.ok()) << image.error().message;
        ASSERT_EQ(image->width, int(kWidth));
        auto at = [&](float x, float y) {
            const std::uint8_t* p =
                &image->pixels[(std::size_t(y) * std::size_t(image->width) + std::size_t(x)) * 4];
            return Rgba{p[0], p[1], p[2], p[3]};
        };
        const Box visibleShade =
            shade.clippedToHeatmap
                ? Box{std::max(shade.box.x, kHeatmapBox.x), std::max(shade.box.y, kHeatmapBox.y),
                      std::min(shade.box.right(), kHeatmapBox.right()) -
                          std::max(shade.box.x, kHeatmapBox.x),
                      std::min(shade.box.bottom(), kHeatmapBox.bottom()) -
                          std::max(shade.box.y, kHeatmapBox.y)}
                : shade.box;
        auto expected = [&](Rgba under, float x, float y) {
            return visibleShade.contains({x, y}) ? blend(under, shade.colour) : under;
        };
        auto near = [](Rgba a, Rgba b) {
            return std::abs(a.r - b.r) <= 2 && std::abs(a.g - b.g) <= 2 &&
                   std::abs(a.b - b.b) <= 2 && a.a == b.a;
        };
        auto show = [](Rgba c) {
            return std::to_string(c.r) + "," + std::to_string(c.g) + "," + std::to_string(c.b) +
                   "," + std::to_string(c.a);
        };
        for (int row = 0; row < 3; ++row) {
            for (int col = 0; col < 4; ++col) {
                // Centre and two points near opposite corners of each cell.
                for (auto [dx, dy] : {std::pair{20.f, 20.f}, {3.f, 3.f}, {36.f, 36.f}}) {
                    const float x = kHeatmapBox.x + col * 40 + dx,
                                y = kHeatmapBox.y + row * 40 + dy;
                    const Rgba want = expected(cellColour(row, col), x + 0.5f, y + 0.5f);
                    EXPECT_PRED2(near, at(x, y), want)
                        << "cell " << row << "," << col << " at " << x << "," << y << ": got "
                        << show(at(x, y)) << ", want " << show(want);
                }
            }
        }
        for (auto [x, y] : {std::pair{10.f, 80.f}, {220.f, 80.f}, {120.f, 150.f}}) {
            const Rgba want = expected(kBackground, x + 0.5f, y + 0.5f);
            EXPECT_PRED2(near, at(x, y), want)
                << "margin at " << x << "," << y << ": got " << show(at(x, y));
        }
    }
};

constexpr Rgba kDarkShade{0, 0, 0, 110}, kPaperShade{0, 0, 0, 28};

TEST_F(HeatmapGlTest, BandBelowALine) {  // beyond a training length, rows growing downwards
    expectPixels({{40, 60, 160, 80}, kDarkShade});
}

TEST_F(HeatmapGlTest, BandRightOfALine) {  // a vertical marker
    expectPixels({{120, 20, 80, 120}, kPaperShade});
}

TEST_F(HeatmapGlTest, HoleInTheMiddle) {  // the unshaded rest is four pieces
    expectPixels({{80, 60, 80, 40}, kDarkShade});
}

TEST_F(HeatmapGlTest, ShadeReachingPastTheClipIsCutAtTheHeatmap) {
    expectPixels({{0, 100, 240, 60}, kDarkShade});
}

TEST_F(HeatmapGlTest, ColouredShadeAddsItsColour) {
    expectPixels({{40, 20, 80, 80}, {200, 30, 30, 100}});
}

TEST_F(HeatmapGlTest, SomethingDrawnBetweenKeepsTheBlendedRectangle) {
    Shade shade{{40, 60, 160, 80}, kDarkShade};
    shade.lineBefore = true;
    expectPixels(shade);
}

TEST_F(HeatmapGlTest, ShadeOverTheMarginsToo) {  // unclipped, wider than the heatmap
    Shade shade{{0, 60, 240, 100}, kDarkShade};
    shade.clippedToHeatmap = false;
    expectPixels(shade);
}

TEST_F(HeatmapGlTest, NoShade) {  // a zero-alpha fill draws nothing
    expectPixels({{40, 20, 160, 120}, {0, 0, 0, 0}});
}

// drawFigure leaves the background unpainted under an opaque heatmap or filled rectangle and
// clears the rest in strips: drawn over a sentinel colour that no figure here paints, no pixel
// may keep it, at whole and fractional scales (edges between pixels), with the covering item cut
// by a clip rectangle or reaching past the figure's edges.
class BackgroundHoleGlTest : public HeatmapGlTest {
  protected:
    void expectNoSentinel(const Figure& figure, float scale) {
        ASSERT_TRUE(renderer_) << failure_;
        constexpr Rgba kSentinel{255, 0, 255, 255};
        auto image = renderer_->renderOver(kSentinel, figure, scale);
        ASSERT_TRUE(image.ok()) << image.error().message;
        int left = 0;
        for (int y = 0; y < image->height; ++y) {
            for (int x = 0; x < image->width; ++x) {
                const std::uint8_t* p =
                    &image->pixels[(std::size_t(y) * std::size_t(image->width) + std::size_t(x)) *
                                   4];
                if (p[0] == 255 && p[1] == 0 && p[2] == 255 && ++left <= 3)
                    ADD_FAILURE() << "pixel " << x << "," << y << " left unpainted at scale "
                                  << scale;
            }
        }
        EXPECT_EQ(left, 0);
    }
    static Figure withItems(std::vector<FigureItem> items) {
        Figure figure;
        figure.width = kWidth;
        figure.height = kHeight;
        figure.background = kBackground;
        for (FigureItem& item : items) figure.items.push_back(std::move(item));
        return figure;
    }
    static HeatmapItem heatmap(Box box, bool masked = false) {
        HeatmapItem item;
        item.box = box;
        auto values = std::make_shared<Matrix>(*cells());
        if (!masked) (*values)(kMaskedRow, kMaskedCol) = 5;
        item.values = values;
        item.range = {0, 11};
        item.masked = {0, 0, 0, 0};  // see-through: the background must show under -inf
        item.version = nextMatrixVersion();
        return item;
    }
};

TEST_F(BackgroundHoleGlTest, OpaqueHeatmapOrRectangleLeavesNoPixelUnpainted) {
    RectItem plotArea;
    plotArea.box = kHeatmapBox;
    plotArea.fill = {230, 230, 230, 255};
    const std::vector<Figure> figures = {
        withItems({ClipPush{kHeatmapBox}, heatmap(kHeatmapBox), ClipPop{}}),
        withItems({heatmap({40.3f, 19.6f, 159.5f, 120.7f})}),
        withItems({ClipPush{{60.5f, 30.25f, 90, 70}}, heatmap(kHeatmapBox), ClipPop{}}),
        withItems({heatmap({-10, 30, 260, 200})}),  // past the left, right and bottom edges
        withItems({plotArea}),
        withItems({heatmap(kHeatmapBox, true)}),  // see-through cells: no hole, all cleared
    };
    for (const Figure& figure : figures) {
        for (float scale : {1.0f, 1.37f, 2.0f, 0.83f}) expectNoSentinel(figure, scale);
    }
}

}  // namespace
}  // namespace poslab::test
