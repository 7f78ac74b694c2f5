// drawFigure leaves the figure's background unpainted under the largest item that repaints all it
// shows (an opaque heatmap, a large opaque filled rectangle) and clears the rest as up to four
// strips. A wrong hole leaves stale pixels on screen, which the headless renderer (it clears to
// the background first) cannot show, so the geometry is checked here pixel by pixel against the
// rule the GL side applies: framebufferRect rounds every edge to the nearest pixel (std::lround)
// and a clear or heatmap pass paints [round(left), round(right)) x [round(top), round(bottom)),
// cut to its clip rectangle, i.e. the pixels inside every rounded rectangle of its clip stack.
//   - the strips (cut to the figure, as Dear ImGui cuts them) and the hole tile the figure's
//     pixels: every one painted or under the hole exactly once;
//   - the hole's pixels are the pixels the covering item paints, worked out here from the item's
//     box and the clip boxes it is drawn in, with no rectangle cutting of the code's.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "gfx/figure_background.hpp"
#include "poslab/figure/figure.hpp"

namespace poslab::test {
namespace {

using gfx::BackgroundClears;
using gfx::ScreenRect;

// Pixels [x0, x1) x [y0, y1): each edge rounded to the nearest pixel as framebufferRect does.
struct PixelRect {
    long x0, y0, x1, y1;
    bool holds(long x, long y) const { return x >= x0 && x < x1 && y >= y0 && y < y1; }
};
PixelRect pixels(float left, float top, float right, float bottom) {
    return {std::lround(left), std::lround(top), std::lround(right), std::lround(bottom)};
}
PixelRect pixels(const ScreenRect& r) {
    return pixels(r.min.x, r.min.y, r.max.x, r.max.y);
}

struct Scene {
    Figure figure;
    Point origin;                              // screen position of the figure's (0, 0)
    float scale = 1;                           // screen pixels per figure pixel
    Box window{-1000, -1000, 4000, 4000};      // the clip rectangle the figure is drawn in
    ScreenRect onScreen(const Box& b) const {  // the mapping FigureTarget defines
        return {ImVec2(origin.x + b.x * scale, origin.y + b.y * scale),
                ImVec2(origin.x + b.right() * scale, origin.y + b.bottom() * scale)};
    }
    // The figure's rectangle cut to the window, as drawFigure's PushClipRect(..., true) cuts it.
    ScreenRect whole() const {
        const ScreenRect f = onScreen({0, 0, figure.width, figure.height});
        const Box& w = window;
        return {ImVec2(std::max(f.min.x, w.x), std::max(f.min.y, w.y)),
                ImVec2(std::min(f.max.x, w.right()), std::min(f.max.y, w.bottom()))};
    }
};

// A heatmap paints every pixel it shows unless it has -inf cells in a see-through masked colour.
bool opaqueHeatmap(const HeatmapItem& item) {
    for (double v : item.values->values)
        if (v == -INFINITY && item.masked.a < 255) return false;
    return true;
}

BackgroundClears clearsOf(const Scene& scene) {
    return gfx::backgroundClears(scene.figure, scene.origin, scene.scale, scene.whole(),
                                 opaqueHeatmap);
}

// Whether item `index` paints pixel (x, y): inside its own box, the figure, the window and every
// clip box pushed around it, each rounded on its own.
struct ItemPixels {
    std::vector<PixelRect> rects;
    bool holds(long x, long y) const {
        for (const PixelRect& r : rects)
            if (!r.holds(x, y)) return false;
        return true;
    }
};
ItemPixels itemPixels(const Scene& scene, std::size_t index) {
    const Figure& f = scene.figure;
    ItemPixels result;
    result.rects.push_back(pixels(scene.onScreen({0, 0, f.width, f.height})));
    result.rects.push_back(
        pixels(scene.window.x, scene.window.y, scene.window.right(), scene.window.bottom()));
    std::vector<Box> clips;
    for (std::size_t i = 0; i < index; ++i) {
        if (const auto* push = std::get_if<ClipPush>(&f.items[i])) clips.push_back(push->box);
        if (std::holds_alternative<ClipPop>(f.items[i])) clips.pop_back();
    }
    for (const Box& clip : clips) result.rects.push_back(pixels(scene.onScreen(clip)));
    const FigureItem& item = f.items[index];
    const Box box = std::holds_alternative<HeatmapItem>(item) ? std::get<HeatmapItem>(item).box
                                                              : std::get<RectItem>(item).box;
    result.rects.push_back(pixels(scene.onScreen(box)));
    return result;
}

// The figure's pixels (and a margin around them) with how often a strip paints each.
struct Coverage {
    PixelRect figure, grid;
    std::vector<int> painted;
    int& at(long x, long y) {
        return painted[std::size_t((y - grid.y0) * (grid.x1 - grid.x0) + (x - grid.x0))];
    }
};
Coverage stripCoverage(const Scene& scene, const BackgroundClears& clears) {
    Coverage c;
    c.figure = pixels(scene.whole());
    c.grid = {c.figure.x0 - 3, c.figure.y0 - 3, std::max(c.figure.x0, c.figure.x1) + 3,
              std::max(c.figure.y0, c.figure.y1) + 3};
    c.painted.assign(std::size_t((c.grid.x1 - c.grid.x0) * (c.grid.y1 - c.grid.y0)), 0);
    for (const ScreenRect& strip : clears.strips) {
        if (strip.area() <= 0) continue;  // drawFigure skips these
        const PixelRect p = pixels(strip);
        for (long y = c.grid.y0; y < c.grid.y1; ++y)
            for (long x = c.grid.x0; x < c.grid.x1; ++x)
                if (p.holds(x, y) && c.figure.holds(x, y)) ++c.at(x, y);  // clipped to the figure
    }
    return c;
}

// Every pixel of the figure painted by a strip or under the hole, exactly once; the hole's pixels
// exactly those `covering` paints (none when null). Returns how many pixels the hole saves.
long expectTiling(const Scene& scene, const BackgroundClears& clears, const ItemPixels* item) {
    Coverage c = stripCoverage(scene, clears);
    const PixelRect hole = pixels(clears.hole);
    const ItemPixels covering = item ? *item : ItemPixels{{PixelRect{0, 0, 0, 0}}};
    long holePixels = 0, failures = 0;
    for (long y = c.grid.y0; y < c.grid.y1 && failures < 5; ++y) {
        for (long x = c.grid.x0; x < c.grid.x1 && failures < 5; ++x) {
            const bool inHole = hole.holds(x, y);
            holePixels += inHole;
            const int times = c.at(x, y) + int(inHole);
            const int want = c.figure.holds(x, y) ? 1 : 0;
            if (times != want || inHole != covering.holds(x, y)) {
                ++failures;
                ADD_FAILURE() << "pixel " << x << "," << y << ": painted " << c.at(x, y)
                              << " times, in the hole " << inHole << ", painted by item "
                              << covering.holds(x, y) << ", in the figure " << want;
            }
        }
    }
    return holePixels;
}
long expectHole(const Scene& scene, std::size_t item) {
    const BackgroundClears clears = clearsOf(scene);
    EXPECT_GT(clears.hole.area(), 0) << "no hole";
    const ItemPixels covering = itemPixels(scene, item);
    return expectTiling(scene, clears, &covering);
}

void expectNoHole(const Scene& scene) {
    EXPECT_EQ(clearsOf(scene).hole.area(), 0.0f);  // drawFigure then paints the whole figure
}

constexpr Rgba kWhite{255, 255, 255, 255}, kGrey{200, 200, 200, 255};
constexpr Box kPlot{40, 20, 160, 120};

HeatmapItem heatmap(Box box, bool maskedCell = false, Rgba masked = {0, 0, 0, 0}) {
    auto m = std::make_shared<Matrix>(3, 4);
    for (std::size_t i = 0; i < m->values.size(); ++i) m->values[i] = double(i);
    if (maskedCell) (*m)(1, 2) = -INFINITY;
    HeatmapItem item;
    item.box = box;
    item.values = m;
    item.range = {0, 11};
    item.masked = masked;
    item.version = nextMatrixVersion();
    return item;
}
RectItem filled(Box box, Rgba fill = kGrey) {
    RectItem r;
    r.box = box;
    r.fill = fill;
    return r;
}
Scene sceneOf(float width = 240, float height = 160) {
    Scene s;
    s.figure.width = width;
    s.figure.height = height;
    s.figure.background = kWhite;
    return s;
}

TEST(FigureBackground, OpaqueHeatmapFillingThePlot) {
    Scene s = sceneOf();
    s.figure.add(LineItem{{0, 10}, {240, 10}, {0, 0, 0, 255}, 1, false});
    s.figure.add(ClipPush{kPlot});
    s.figure.add(heatmap(kPlot));
    s.figure.add(ClipPop{});
    s.figure.add(RectItem{kPlot, {0, 0, 0, 0}, {0, 0, 0, 255}, 1});  // frame: stroke only
    EXPECT_EQ(expectHole(s, 2), 160 * 120);
}

TEST(FigureBackground, HeatmapWithSeeThroughMaskedCellsLeavesNoHole) {
    Scene s = sceneOf();
    s.figure.add(heatmap(kPlot, true, {0, 0, 0, 0}));
    expectNoHole(s);
    Scene opaqueMask = sceneOf();  // masked cells in an opaque colour hide what is under them
    opaqueMask.figure.add(heatmap(kPlot, true, {58, 58, 62, 255}));
    EXPECT_EQ(expectHole(opaqueMask, 0), 160 * 120);
}

TEST(FigureBackground, FilledPlotAreaRectangle) {
    Scene s = sceneOf();
    s.figure.add(filled(kPlot));
    s.figure.add(filled({50, 30, 20, 20}, {255, 0, 0, 255}));  // smaller: not the hole
    EXPECT_EQ(expectHole(s, 0), 160 * 120);
}

TEST(FigureBackground, OnlyFillsThatBecomeClearsMakeAHole) {
    Scene small = sceneOf();  // 63 x 64 < 64 x 64: drawn as triangles, edges not pixel-exact
    small.figure.add(filled({40, 20, 63, 64}));
    expectNoHole(small);
    Scene translucent = sceneOf();
    translucent.figure.add(filled(kPlot, {200, 200, 200, 254}));
    expectNoHole(translucent);
    Scene outline = sceneOf();
    outline.figure.add(RectItem{kPlot, {0, 0, 0, 0}, {0, 0, 0, 255}, 3});
    expectNoHole(outline);
    Scene none = sceneOf();
    none.figure.add(LineItem{{0, 0}, {240, 160}, {0, 0, 0, 255}, 2, false});
    expectNoHole(none);
}

TEST(FigureBackground, LargestCoveringItemIsTheHole) {
    Scene s = sceneOf();
    s.figure.add(heatmap({10, 10, 80, 80}));
    s.figure.add(filled({100, 10, 130, 140}));
    s.figure.add(heatmap({20, 100, 60, 50}));
    EXPECT_EQ(expectHole(s, 1), 130 * 140);
}

TEST(FigureBackground, HoleCutByTheClipRectangles) {
    Scene s = sceneOf();
    s.figure.add(ClipPush{{60, 40, 100, 60}});
    s.figure.add(ClipPush{{0, 50, 240, 200}});  // nested: cuts the first one's top
    s.figure.add(heatmap(kPlot));
    s.figure.add(ClipPop{});
    s.figure.add(ClipPop{});
    EXPECT_EQ(expectHole(s, 2), 100 * 50);

    Scene afterPop = sceneOf();  // a clip popped no longer cuts what follows
    afterPop.figure.add(ClipPush{{0, 0, 50, 50}});
    afterPop.figure.add(filled({0, 0, 50, 50}, {1, 2, 3, 255}));
    afterPop.figure.add(ClipPop{});
    afterPop.figure.add(heatmap({30, 30, 100, 100}));
    EXPECT_EQ(expectHole(afterPop, 3), 100 * 100);

    Scene disjoint = sceneOf();  // clipped away entirely: nothing covered
    disjoint.figure.add(ClipPush{{0, 0, 30, 30}});
    disjoint.figure.add(ClipPush{{100, 100, 30, 30}});
    disjoint.figure.add(heatmap(kPlot));
    expectNoHole(disjoint);
}

TEST(FigureBackground, HoleReachingTheFigureEdges) {
    Scene s = sceneOf();  // past every edge: the hole is the whole figure, no strip left
    s.figure.add(heatmap({-10, -5, 300, 200}));
    EXPECT_EQ(expectHole(s, 0), 240 * 160);
    for (const ScreenRect& strip : clearsOf(s).strips) EXPECT_EQ(strip.area(), 0.0f);

    Scene band = sceneOf();  // edge to edge across, strips above and below only
    band.figure.add(filled({0, 50, 240, 60}));
    EXPECT_EQ(expectHole(band, 0), 240 * 60);

    Scene window = sceneOf();  // the figure itself cut by the window it is drawn in
    window.origin = {100, 50};
    window.window = {150, 0, 120, 130};
    window.figure.add(heatmap(kPlot));
    EXPECT_EQ(expectHole(window, 0), (270 - 150) * (130 - 70));
}

TEST(FigureBackground, FractionalCoordinates) {
    Scene s = sceneOf(241.3f, 161.7f);
    s.origin = {10.3f, 7.5f};  // y edges of whole figure pixels fall on .5
    s.scale = 1.25f;
    s.window = {0, 0, 290.6f, 200.2f};
    s.figure.add(ClipPush{{40.2f, 19.6f, 160.3f, 120.5f}});
    s.figure.add(heatmap({35.7f, 15.1f, 200.9f, 121.2f}));
    s.figure.add(ClipPop{});
    expectHole(s, 1);

    Scene ties = sceneOf(200, 100);  // every edge exactly half-way between two pixels
    ties.origin = {0.5f, 0.5f};
    ties.scale = 2;
    ties.figure.add(filled({20.25f, 10.25f, 100.5f, 60}));
    expectHole(ties, 0);

    Scene hiDpi = sceneOf(240, 160);
    hiDpi.origin = {3.4f, 2.6f};
    hiDpi.scale = 1.5f;
    hiDpi.window = {0, 0, 300.4f, 190.6f};  // cuts the figure's right and bottom
    hiDpi.figure.add(ClipPush{kPlot});
    hiDpi.figure.add(heatmap({39.9f, 19.8f, 160.3f, 150.7f}));
    hiDpi.figure.add(ClipPop{});
    expectHole(hiDpi, 1);
}

// Random figures: clip pushes (nested, overlapping, disjoint), heatmaps with and without
// see-through cells, rectangles of every kind, fractional origins, scales and windows.
TEST(FigureBackground, RandomFiguresTileExactly) {
    std::mt19937 random(20261126);
    const auto uniform = [&](float low, float high) {
        return std::uniform_real_distribution<float>(low, high)(random);
    };
    const auto coordinate = [&](float low, float high) {  // a third on quarter pixels: ties
        const float v = uniform(low, high);
        return random() % 3 == 0 ? std::round(v * 4) / 4 : v;
    };
    int holes = 0;
    for (int round = 0; round < 150; ++round) {
        Scene s = sceneOf(coordinate(20, 150), coordinate(20, 110));
        s.origin = {coordinate(-20, 30), coordinate(-20, 30)};
        s.scale = std::vector<float>{1, 1, 1.25f, 1.5f, 2, 0.75f}[random() % 6];
        s.window = {coordinate(-30, 60), coordinate(-30, 60), coordinate(60, 300),
                    coordinate(60, 250)};
        const float w = s.figure.width, h = s.figure.height;
        const auto box = [&] {
            const float x = coordinate(-0.2f * w, w), y = coordinate(-0.2f * h, h);
            return Box{x, y, coordinate(0, 1.2f * w), coordinate(0, 1.2f * h)};
        };
        int depth = 0;
        std::vector<std::size_t> candidates;  // items that may make the hole
        for (int n = int(random() % 8); n >= 0; --n) {
            switch (random() % 6) {
                case 0:
                    s.figure.add(ClipPush{box()});
                    ++depth;
                    break;
                case 1:
                    if (depth > 0) {
                        s.figure.add(ClipPop{});
                        --depth;
                    }
                    break;
                case 2:
                case 3: {
                    const bool masked = random() % 3 == 0;
                    const HeatmapItem item =
                        heatmap(box(), masked, {9, 9, 9, std::uint8_t(random() % 2 ? 255 : 0)});
                    if (opaqueHeatmap(item)) candidates.push_back(s.figure.items.size());
                    s.figure.add(item);
                    break;
                }
                default: {
                    const Rgba fill{1, 2, 3, std::uint8_t(random() % 4 ? 255 : 128)};
                    const RectItem item = filled(box(), fill);
                    const ScreenRect r = s.onScreen(item.box);
                    if (fill.a == 255 && r.area() >= 64 * 64)
                        candidates.push_back(s.figure.items.size());
                    s.figure.add(item);
                }
            }
        }
        for (; depth > 0; --depth) s.figure.add(ClipPop{});
        SCOPED_TRACE("random figure " + std::to_string(round));
        const BackgroundClears clears = clearsOf(s);
        // Which candidate's pixels the hole is: the one whose rounded rectangles bound it.
        bool anyVisible = false;
        std::size_t match = s.figure.items.size();
        const PixelRect hole = pixels(clears.hole);
        for (std::size_t index : candidates) {
            const ItemPixels p = itemPixels(s, index);
            PixelRect bound{-100000, -100000, 100000, 100000};
            for (const PixelRect& r : p.rects) {
                bound = {std::max(bound.x0, r.x0), std::max(bound.y0, r.y0),
                         std::min(bound.x1, r.x1), std::min(bound.y1, r.y1)};
            }
            const bool visible = bound.x1 > bound.x0 && bound.y1 > bound.y0;
            anyVisible = anyVisible || visible;
            if (visible && bound.x0 == hole.x0 && bound.y0 == hole.y0 && bound.x1 == hole.x1 &&
                bound.y1 == hole.y1)
                match = index;
        }
        if (clears.hole.area() <= 0) {
            // An item showing any pixel has a visible area, so the hole would not be empty.
            EXPECT_FALSE(anyVisible) << "a covering item shows pixels but no hole was made";
            continue;
        }
        if (hole.x1 <= hole.x0 || hole.y1 <= hole.y0) {  // rounds to no pixel: strips still tile
            expectTiling(s, clears, nullptr);
            continue;
        }
        ASSERT_LT(match, s.figure.items.size()) << "the hole is no covering item's pixels";
        const ItemPixels covering = itemPixels(s, match);
        expectTiling(s, clears, &covering);  // pixel by pixel, with the strips
        ++holes;
    }
    EXPECT_GT(holes, 30);  // the random figures do exercise holes
}

}  // namespace
}  // namespace poslab::test
