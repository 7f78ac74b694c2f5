// Figure layers (gfx/figure_layers.hpp): a figure is copied from the layer only while the layer
// holds exactly that figure at exactly that rectangle. Driven frame by frame without GL:
//   - a figure changing every frame is drawn as usual every frame (no layer work);
//   - one unchanged for a frame is copied into the layer once (captured), then copied back;
//   - a changed item, a moved or resized rectangle, a figure captured over it in the layer, or a
//     cleared layer (resize, fonts) draws it again;
//   - figures overlapping in one frame: the later one is drawn as usual.
// And the fingerprint: equal figures hash equal, any one changed field changes the hash.
// And the split of a figure changing every frame (FigureSplitter): items it had in the last frame
// go below unless an item before them going above may touch their pixels; clips go into both.
// And on GL (EGL, llvmpipe): the pixels of a figure copied from the layer are byte for byte those
// of the same figure drawn directly, and a changed figure shows its new pixels at once; a moving
// figure split in two (the Compare view's RoPE A/B while B's base moves) too.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gfx/figure_layers.hpp"
#include "gfx/offscreen.hpp"
#include "offscreen_fixture.hpp"
#include "poslab/figure/figure.hpp"
#include "poslab/figure/theme.hpp"
#include "poslab/views/compare_ab_figures.hpp"

namespace poslab::test {
namespace {

using gfx::FigureLayerCache;
using gfx::LayerRect;
using gfx::LayerUse;

// One figure a frame at `rect`, its identity `key`: what the cache says, frame after frame.
std::vector<LayerUse> uses(FigureLayerCache& cache, const LayerRect& rect,
                           const std::vector<std::uint64_t>& keys) {
    std::vector<LayerUse> out;
    for (std::uint64_t key : keys) {
        out.push_back(cache.use(rect, key));
        cache.endFrame();
    }
    return out;
}

constexpr LayerRect kRect{10, 20, 410, 320};

TEST(FigureLayerCacheTest, AChangingFigureIsAlwaysDrawnDirectly) {
    FigureLayerCache cache;
    EXPECT_EQ(uses(cache, kRect, {1, 2, 3, 4, 5}), std::vector<LayerUse>(5, LayerUse::Direct));
    EXPECT_EQ(cache.cachedCount(), 0u);
}

TEST(FigureLayerCacheTest, AnUnchangedFigureIsCapturedOnceThenCopied) {
    FigureLayerCache cache;
    EXPECT_EQ(uses(cache, kRect, {7, 7, 7, 7}),
              (std::vector<LayerUse>{LayerUse::Direct, LayerUse::Capture, LayerUse::Copy,
                                     LayerUse::Copy}));
    EXPECT_EQ(cache.cachedCount(), 1u);
}

TEST(FigureLayerCacheTest, AChangedFigureIsDrawnAgain) {
    FigureLayerCache cache;
    // A worker's figure: the same between arrivals, a new one when a build arrives. Once it has
    // held still, each new one is captured as it is drawn.
    EXPECT_EQ(uses(cache, kRect, {1, 1, 1, 2, 2, 2, 1}),
              (std::vector<LayerUse>{LayerUse::Direct, LayerUse::Capture, LayerUse::Copy,
                                     LayerUse::Capture, LayerUse::Copy, LayerUse::Copy,
                                     LayerUse::Capture}));
    // Changing every frame from one that was never copied back: drawn as usual until it holds
    // still.
    EXPECT_EQ(uses(cache, kRect, {3, 4, 5, 5, 5}),
              (std::vector<LayerUse>{LayerUse::Direct, LayerUse::Direct, LayerUse::Direct,
                                     LayerUse::Capture, LayerUse::Copy}));
}

TEST(FigureLayerCacheTest, AMovedOrResizedFigureIsDrawnAgain) {
    FigureLayerCache cache;
    uses(cache, kRect, {5, 5, 5});
    const LayerRect moved{11, 20, 411, 320}, resized{10, 20, 410, 321};
    EXPECT_EQ(cache.use(moved, 5), LayerUse::Direct);  // the key: a new rectangle is a new slot
    cache.endFrame();
    EXPECT_EQ(cache.use(resized, 5), LayerUse::Direct);
    cache.endFrame();
    // Back where it was and untouched in the layer meanwhile: still there.
    EXPECT_EQ(cache.use(kRect, 5), LayerUse::Copy);
}

TEST(FigureLayerCacheTest, AFigureCapturedOverAnotherEvictsIt) {
    FigureLayerCache cache;
    uses(cache, kRect, {5, 5});  // cached
    const LayerRect over{200, 100, 600, 400};
    EXPECT_EQ(uses(cache, over, {9, 9, 9}),
              (std::vector<LayerUse>{LayerUse::Direct, LayerUse::Capture, LayerUse::Copy}));
    // Its pixels were painted over in the layer: drawn again, then cached again.
    EXPECT_EQ(uses(cache, kRect, {5, 5, 5}),
              (std::vector<LayerUse>{LayerUse::Capture, LayerUse::Copy, LayerUse::Copy}));
    EXPECT_EQ(cache.use(over, 9), LayerUse::Capture);  // and that one lost its own
}

TEST(FigureLayerCacheTest, ACheapFigureIsDrawnUntilItChanges) {
    FigureLayerCache cache;
    EXPECT_EQ(cache.use(kRect, 5), LayerUse::Direct);
    cache.endFrame();
    EXPECT_EQ(cache.use(kRect, 5), LayerUse::Capture);
    cache.keepDrawing(kRect);  // it drew few vertices: a copy would cost more
    cache.endFrame();
    EXPECT_EQ(uses(cache, kRect, {5, 5, 5}), std::vector<LayerUse>(3, LayerUse::Direct));
    EXPECT_EQ(cache.cachedCount(), 0u);
    // A new figure there (a worker's first, after its "computing…" note) is captured as it is
    // drawn, not drawn again the next frame to be captured then.
    EXPECT_EQ(uses(cache, kRect, {6, 6, 6}),
              (std::vector<LayerUse>{LayerUse::Capture, LayerUse::Copy, LayerUse::Copy}));
}

TEST(FigureLayerCacheTest, AFigureChangingEveryFrameAfterACheapOneIsCapturedOnlyOnce) {
    FigureLayerCache cache;
    uses(cache, kRect, {5});
    EXPECT_EQ(cache.use(kRect, 5), LayerUse::Capture);
    cache.keepDrawing(kRect);  // a "computing…" note
    cache.endFrame();
    // A coarse figure following a slider: the first one captured (one copy into the layer
    // wasted), the rest drawn as usual until one holds still.
    EXPECT_EQ(uses(cache, kRect, {6, 7, 8, 9, 9, 9}),
              (std::vector<LayerUse>{LayerUse::Capture, LayerUse::Direct, LayerUse::Direct,
                                     LayerUse::Direct, LayerUse::Capture, LayerUse::Copy}));
}

TEST(FigureLayerCacheTest, ClearForgetsEverything) {
    FigureLayerCache cache;
    uses(cache, kRect, {5, 5, 5});
    cache.clear();  // the layer was resized, or the fonts re-baked
    EXPECT_EQ(uses(cache, kRect, {5, 5, 5}),
              (std::vector<LayerUse>{LayerUse::Direct, LayerUse::Capture, LayerUse::Copy}));
}

TEST(FigureLayerCacheTest, OverlappingFiguresOfOneFrameAreDrawnDirectly) {
    FigureLayerCache cache;
    const LayerRect inside{50, 50, 100, 100}, beside{410, 20, 500, 320};
    std::vector<LayerUse> first, over, next;
    for (int frame = 0; frame < 4; ++frame) {
        first.push_back(cache.use(kRect, 1));
        over.push_back(cache.use(inside, 2));  // drawn over the first
        next.push_back(cache.use(beside, 3));  // touching edges do not overlap
        cache.endFrame();
    }
    const std::vector<LayerUse> kept{LayerUse::Direct, LayerUse::Capture, LayerUse::Copy,
                                     LayerUse::Copy};
    EXPECT_EQ(first, kept);
    EXPECT_EQ(over, std::vector<LayerUse>(4, LayerUse::Direct));
    EXPECT_EQ(next, kept);
}

// The RoPE rotation's trails over its circles: the figure below holds still, the one stacked on
// it (same rectangle, a layer of its own) changes now and then; each is copied while it holds
// still, and a change below draws the stacked one again (its pixels are both figures').
TEST(FigureLayerCacheTest, AStackedFigureHasALayerOfItsOwn) {
    FigureLayerCache cache;
    std::vector<LayerUse> below, stacked;
    const std::uint64_t belowKeys[] = {1, 1, 1, 1, 1, 1, 1, 1, 2, 2};
    const std::uint64_t stackedKeys[] = {10, 10, 10, 10, 11, 11, 11, 11, 12, 12};
    for (std::size_t frame = 0; frame < std::size(belowKeys); ++frame) {
        below.push_back(cache.use(kRect, belowKeys[frame]));
        stacked.push_back(cache.use(kRect, stackedKeys[frame], 1));
        cache.endFrame();
    }
    using enum LayerUse;
    EXPECT_EQ(below, (std::vector<LayerUse>{Direct, Capture, Copy, Copy, Copy, Copy, Copy, Copy,
                                            Capture, Copy}));
    EXPECT_EQ(stacked, (std::vector<LayerUse>{Direct, Capture, Copy, Copy, Capture, Copy, Copy,
                                              Copy, Capture, Copy}));
    EXPECT_EQ(cache.cachedCount(), 2u);
}

TEST(FigureLayerCacheTest, AStackedFigureNeedsTheFigureBelowAtItsRectangle) {
    FigureLayerCache cache;
    const LayerRect inside{50, 50, 100, 100};
    for (int frame = 0; frame < 3; ++frame) {
        EXPECT_EQ(cache.use(inside, 5, 1), LayerUse::Direct);  // nothing below
        cache.endFrame();
        cache.use(kRect, 1);
        EXPECT_EQ(cache.use(inside, 5, 1), LayerUse::Direct);  // over part of it only
        EXPECT_EQ(cache.use(kRect, 6, 2), LayerUse::Direct);   // no third layer
        cache.endFrame();
    }
}

// ---- The split of a moving figure (GL-free).

using gfx::FigureSplitter;
using gfx::ItemBox;
using gfx::ItemPart;
using gfx::ItemTie;

// Frame by frame: moving() and, when it says so, split(); the parts of the last frame split.
struct SplitFrame {
    std::vector<std::uint64_t> items;
    std::vector<ItemBox> boxes;
    std::vector<ItemTie> ties;
};
std::uint64_t wholeOf(const std::vector<std::uint64_t>& items) {
    std::uint64_t h = 1469598103934665603ull;
    for (std::uint64_t i : items) h = (h ^ i) * 1099511628211ull;
    return h;
}

TEST(FigureSplitterTest, OnlyAFigureChangedInTwoFramesRunningIsSplit) {
    FigureSplitter splitter;
    const std::vector<std::uint64_t> a{1, 2, 3}, b{1, 2, 4}, c{1, 2, 5};
    std::vector<bool> moving;
    // New, held, held, changed once (a worker's build arriving), held, then changing every frame.
    for (const auto* items : {&a, &a, &a, &b, &b, &c, &b, &c}) {
        moving.push_back(splitter.moving(kRect, wholeOf(*items), *items));
        splitter.endFrame();
    }
    EXPECT_EQ(moving, (std::vector<bool>{false, false, false, false, false, false, true, true}));
}

TEST(FigureSplitterTest, AnItemGoesBelowUnlessAChangedOneBeforeItMayTouchItsPixels) {
    // 0 a title that changes; 1 text far from it; 2 text touching the title's box; 3, 6 a clip;
    // 4 a still curve; 5 a changing curve over it; 7 a still label on the changing curve, after
    // it; 8 a still axis label beside the plot.
    const ItemBox title{100, 0, 500, 20}, far{0, 400, 80, 420}, touching{480, 18, 600, 40},
        plot{100, 100, 500, 300}, beside{520, 200, 560, 220};
    const std::vector<ItemBox> boxes{title, far, touching, {}, plot, plot, {}, {300, 150, 340, 170},
                                     beside};
    const std::vector<ItemTie> ties{ItemTie::Own,  ItemTie::Own, ItemTie::Own,
                                    ItemTie::Clip, ItemTie::Own, ItemTie::Own,
                                    ItemTie::Clip, ItemTie::Own, ItemTie::Own};
    FigureSplitter splitter;
    std::vector<ItemPart> parts;
    for (std::uint64_t frame = 0; frame < 4; ++frame) {
        const std::vector<std::uint64_t> items{100 + frame, 1, 2, 3, 4, 200 + frame, 6, 7, 8};
        const bool moving = splitter.moving(kRect, wholeOf(items), items);
        EXPECT_EQ(moving, frame >= 1) << frame;
        if (moving) {
            ASSERT_TRUE(splitter.split(kRect, items, boxes, ties, parts)) << frame;
            using enum ItemPart;
            EXPECT_EQ(parts, (std::vector<ItemPart>{Above, Below, Above, Both, Below, Above, Both,
                                                    Above, Below}))
                << frame;
        }
        splitter.endFrame();
    }
}

TEST(FigureSplitterTest, ATranslucentRectangleGoesWhereTheItemBeforeItGoes) {
    // 0 a heatmap that changes, 1 its shade (tied: the renderer folds it into the heatmap), a clip
    // between; 2 a still heatmap, 3 its shade, which changes: both go above.
    const ItemBox left{0, 0, 100, 100}, right{200, 0, 300, 100};
    const std::vector<ItemBox> boxes{left, {}, left, right, right};
    const std::vector<ItemTie> ties{ItemTie::Own, ItemTie::Clip, ItemTie::WithPrevious,
                                    ItemTie::Own, ItemTie::WithPrevious};
    FigureSplitter splitter;
    std::vector<ItemPart> parts;
    for (std::uint64_t frame = 0; frame < 3; ++frame) {
        // A still item elsewhere, so that there is a part below.
        std::vector<std::uint64_t> items{10 + frame, 1, 2, 3, 40 + frame, 5};
        std::vector<ItemBox> allBoxes = boxes;
        allBoxes.push_back({400, 0, 450, 50});
        std::vector<ItemTie> allTies = ties;
        allTies.push_back(ItemTie::Own);
        if (splitter.moving(kRect, wholeOf(items), items)) {
            ASSERT_TRUE(splitter.split(kRect, items, allBoxes, allTies, parts));
            using enum ItemPart;
            EXPECT_EQ(parts, (std::vector<ItemPart>{Above, Both, Above, Above, Above, Below}));
        }
        splitter.endFrame();
    }
}

TEST(FigureSplitterTest, ThePartBelowIsKeptWhileItsItemsAreThere) {
    // Item 1 changes in frames 1 and 2, then holds while item 0 keeps changing: it stays above
    // (the part below is the same, so the layer keeps it) until an item below changes.
    const std::vector<ItemBox> boxes{{0, 0, 10, 10}, {20, 0, 30, 10}, {40, 0, 50, 10}};
    const std::vector<ItemTie> ties(3, ItemTie::Own);
    FigureSplitter splitter;
    std::vector<std::vector<ItemPart>> seen;
    const std::vector<std::vector<std::uint64_t>> frames{{10, 20, 30}, {11, 21, 30}, {12, 22, 30},
                                                         {13, 22, 30}, {14, 22, 30}, {15, 22, 31},
                                                         {16, 22, 31}, {17, 22, 31}};
    for (const auto& items : frames) {
        std::vector<ItemPart> parts;
        if (splitter.moving(kRect, wholeOf(items), items) &&
            splitter.split(kRect, items, boxes, ties, parts))
            seen.push_back(parts);
        else
            seen.push_back({});
        splitter.endFrame();
    }
    using enum ItemPart;
    const std::vector<ItemPart> only2{Above, Above, Below}, only1{Above, Below, Above};
    // Frames 1-4: item 2 alone below (item 1 changed in frame 2 and is not taken in while the
    // part below holds); frame 5: item 2 changed, so the part below is made again from frame 4's
    // items still there (item 1), and holds after.
    EXPECT_EQ(seen, (std::vector<std::vector<ItemPart>>{
                        {}, only2, only2, only2, only2, only1, only1, only1}));
}

Figure sampleFigure() {
    Figure f;
    f.width = 300;
    f.height = 200;
    f.background = {255, 255, 255, 255};
    f.items.push_back(TextItem{{10, 10}, "θ = 1", 14, {0, 0, 0, 255}});
    f.items.push_back(PolylineItem{{{0, 0}, {1, 2}, {3, 4}}, {10, 20, 30, 255}, 1.5f});
    HeatmapItem heatmap;
    heatmap.box = {20, 20, 100, 100};
    heatmap.values = std::make_shared<Matrix>(2, 2);  // made again: the version names it
    heatmap.version = 42;
    f.items.push_back(heatmap);
    f.items.push_back(ClipPush{{0, 0, 50, 50}});
    f.items.push_back(ClipPop{});
    return f;
}

TEST(FigureFingerprintTest, EqualFiguresHashEqualAndAnyChangeDiffers) {
    const Figure base = sampleFigure();
    EXPECT_EQ(gfx::figureFingerprint(base), gfx::figureFingerprint(sampleFigure()));
    std::vector<Figure> changed(8, base);
    std::get<TextItem>(changed[0].items[0]).text = "θ = 2";
    std::get<TextItem>(changed[1].items[0]).color.a = 254;
    std::get<PolylineItem>(changed[2].items[1]).points[2].y = 4.0001f;
    std::get<HeatmapItem>(changed[3].items[2]).version = 43;
    std::get<HeatmapItem>(changed[4].items[2]).range.high = 2;
    std::get<ClipPush>(changed[5].items[3]).box.width = 51;
    changed[6].items.pop_back();  // an unbalanced clip: still a different figure
    changed[7].background.g = 254;
    const std::uint64_t baseHash = gfx::figureFingerprint(base);
    for (std::size_t i = 0; i < changed.size(); ++i)
        EXPECT_NE(gfx::figureFingerprint(changed[i]), baseHash) << i;
    // The same items in another order draw differently (what is on top).
    Figure swapped = base;
    std::swap(swapped.items[0], swapped.items[1]);
    EXPECT_NE(gfx::figureFingerprint(swapped), baseHash);
}

// ---- GL: the copied pixels are the drawn pixels.

// Text (glyphs from the font atlas), an anti-aliased curve, a translucent shade folded into a
// heatmap, a dashed line and a dot: every kind of draw command a figure makes.
Figure drawnFigure(double phase, std::uint64_t heatmapVersion) {
    Figure f;
    f.width = 320;
    f.height = 200;
    f.background = {250, 250, 245, 255};
    auto cells = std::make_shared<Matrix>(3, 4);
    for (std::size_t r = 0; r < 3; ++r)
        for (std::size_t c = 0; c < 4; ++c) (*cells)(r, c) = double(r * 4 + c) + phase;
    HeatmapItem heatmap;
    heatmap.box = {20, 20, 160, 120};
    heatmap.values = cells;
    heatmap.range = {0, 12};
    heatmap.version = heatmapVersion;
    f.items.push_back(heatmap);
    RectItem shade;
    shade.box = {100, 20, 80, 120};
    shade.fill = {0, 0, 0, 90};
    f.items.push_back(shade);
    PolylineItem curve;
    for (int i = 0; i <= 60; ++i)
        curve.points.push_back({float(190 + 2 * i), float(100 + 40 * std::sin(0.2 * i + phase))});
    curve.color = {200, 40, 40, 255};
    f.items.push_back(curve);
    f.items.push_back(TextItem{{20, 150}, "cos θ = 0.5, p95 16.7 ms", 15, {20, 20, 20, 255}});
    // Enough glyphs that the figure is worth copying (a few are cheaper to draw again).
    for (int i = 0; i < 200; ++i) {
        f.items.push_back(TextItem{{float(190 + 13 * (i % 10)), float(20 + 8 * (i / 10))},
                                   "key " + std::to_string(i),
                                   8,
                                   {60, 60, 60, 255}});
    }
    f.items.push_back(LineItem{{20, 180}, {300, 180}, {60, 60, 200, 255}, 1.5f, true});
    CircleItem dot;
    dot.center = {250, 40};
    dot.radius = 6;
    dot.fill = {40, 160, 40, 140};
    f.items.push_back(dot);
    return f;
}

// The copies keep each pixel where it is: captured then copied back, frame pixel (x, y) (GL rows
// from the bottom) comes back to (x, y); in between it is in the layer at row H - 1 - y, mirrored
// (the frame's rows from the top), which is what makes the copy a memory copy on Mesa.
TEST(LayerBlitTest, ARoundTripPutsEveryPixelBackAndTheLayerHoldsRowsTopDown) {
    constexpr long kHeight = 900;
    const LayerRect rect{100, 40, 1300, 840};  // screen pixels, rows from the top
    const gfx::LayerBlit in = gfx::layerBlit(rect, kHeight, true);
    const gfx::LayerBlit out = gfx::layerBlit(rect, kHeight, false);
    // glBlitFramebuffer's mapping for equal sizes: a coordinate's offset from the first edge
    // goes to the same offset from the other side's first edge (mirrored when they run opposite).
    auto map = [](const long* from, const long* to, long x, long y) {
        const double fx = (x + 0.5 - double(from[0])) / double(from[2] - from[0]);
        const double fy = (y + 0.5 - double(from[1])) / double(from[3] - from[1]);
        return std::pair<long, long>{long(std::floor(double(to[0]) + fx * double(to[2] - to[0]))),
                                     long(std::floor(double(to[1]) + fy * double(to[3] - to[1])))};
    };
    for (long x : {100L, 101L, 700L, 1299L}) {
        for (long y : {60L, 61L, 400L, 859L}) {  // GL rows of the rectangle: 900-840 .. 900-40
            const auto [lx, ly] = map(in.source, in.destination, x, y);
            EXPECT_EQ(lx, x);
            EXPECT_EQ(ly, kHeight - 1 - y) << "layer row of frame row " << y;
            const auto [bx, by] = map(out.source, out.destination, lx, ly);
            EXPECT_EQ(bx, x);
            EXPECT_EQ(by, y);
        }
    }
    // Same size on both sides: no scaling.
    for (const gfx::LayerBlit* b : {&in, &out}) {
        EXPECT_EQ(std::abs(b->source[2] - b->source[0]),
                  std::abs(b->destination[2] - b->destination[0]));
        EXPECT_EQ(std::abs(b->source[3] - b->source[1]),
                  std::abs(b->destination[3] - b->destination[1]));
    }
}

class FigureLayersGlTest : public test::OffscreenRendererTest<FigureLayersGlTest> {};

TEST_F(FigureLayersGlTest, CopiedPixelsAreTheDrawnPixels) {
    ASSERT_TRUE(renderer_) << failure_;
    constexpr Rgba kUnderlay{255, 0, 255, 255};  // a colour the figure never paints
    const Figure first = drawnFigure(0, 1001), second = drawnFigure(1.5, 1002);
    // Drawn directly (no layers yet): the reference pixels.
    auto directFirst = renderer_->renderOver(kUnderlay, first);
    auto directSecond = renderer_->renderOver(kUnderlay, second);
    ASSERT_TRUE(directFirst.ok() && directSecond.ok());
    ASSERT_NE(directFirst.value().pixels, directSecond.value().pixels);

    renderer_->useFigureLayers();
    const gfx::FigureLayers& layers = *renderer_->figureLayers();
    // Frame by frame: drawn, drawn and captured, copied, copied; then the second figure (a new
    // build arriving): drawn and captured at once (a changed figure is never copied stale),
    // copied, copied.
    const Figure* shown[] = {&first, &first, &first, &first, &second, &second, &second};
    const std::size_t copiesAfter[] = {0, 0, 1, 2, 2, 3, 4};
    const std::size_t capturedAfter[] = {0, 1, 1, 1, 2, 2, 2};
    for (std::size_t frame = 0; frame < std::size(shown); ++frame) {
        auto image = renderer_->renderOver(kUnderlay, *shown[frame]);
        ASSERT_TRUE(image.ok()) << image.error().message;
        const auto& expected = shown[frame] == &first ? directFirst.value() : directSecond.value();
        EXPECT_TRUE(image.value().pixels == expected.pixels) << "frame " << frame;
        EXPECT_EQ(layers.copies(), copiesAfter[frame]) << "frame " << frame;
        EXPECT_EQ(layers.captured(), capturedAfter[frame]) << "frame " << frame;
    }
}

// A clear figure stacked on the one above (the same rectangle): every frame's pixels are those
// of the two drawn directly, while the stacked one changes over a still one and when both do.
TEST_F(FigureLayersGlTest, StackedFigureCopiesAreTheDrawnPixels) {
    ASSERT_TRUE(renderer_) << failure_;
    constexpr Rgba kUnderlay{255, 0, 255, 255};
    const Figure below[] = {drawnFigure(0, 2001), drawnFigure(0.7, 2002)};
    auto over = [](float shift) {
        Figure f;
        f.width = 320;
        f.height = 200;
        f.background = {0, 0, 0, 0};
        for (int i = 0; i < 120; ++i) {
            CircleItem dot;
            dot.center = {30 + 2.3f * float(i) + shift, 60 + 30 * std::sin(0.3f * float(i))};
            dot.radius = 2.5f;
            dot.fill = {20, 90, 200, std::uint8_t(60 + i)};
            f.items.push_back(dot);
        }
        f.items.push_back(TextItem{{40, 170}, "m = " + std::to_string(shift), 14, {0, 0, 0, 255}});
        return f;
    };
    const Figure trails[] = {over(0), over(5)};
    // (figure below, figure stacked) per frame: the stacked one changes, then the one below.
    const std::pair<int, int> frames[] = {{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 1},
                                          {0, 1}, {0, 1}, {1, 1}, {1, 1}, {1, 1}};
    // The reference: each pair as one figure (the stacked items after the others), each drawn
    // once, so drawn directly even where the test before left the layers on (never copied).
    std::vector<std::uint8_t> direct[2][2];
    for (const auto& [b, t] : {std::pair{0, 0}, std::pair{0, 1}, std::pair{1, 1}}) {
        Figure one = below[b];
        one.items.insert(one.items.end(), trails[t].items.begin(), trails[t].items.end());
        auto image = renderer_->renderOver(kUnderlay, one);
        ASSERT_TRUE(image.ok());
        direct[b][t] = image.value().pixels;
    }
    ASSERT_NE(direct[0][0], direct[0][1]);
    ASSERT_NE(direct[0][1], direct[1][1]);
    renderer_->useFigureLayers();
    const gfx::FigureLayers& layers = *renderer_->figureLayers();
    const std::size_t capturedBefore = layers.captured(), copiesBefore = layers.copies();
    for (std::size_t frame = 0; frame < std::size(frames); ++frame) {
        const auto& [b, t] = frames[frame];
        auto image = renderer_->renderOver(kUnderlay, below[b], 1.0f, &trails[t]);
        ASSERT_TRUE(image.ok()) << image.error().message;
        EXPECT_TRUE(image.value().pixels == direct[b][t]) << "frame " << frame;
    }
    // Both layers were used: each of the three stacks captured, then copied.
    EXPECT_GE(layers.captured() - capturedBefore, 3u);
    EXPECT_GE(layers.copies() - copiesBefore, 5u);
}

// A figure rebuilt every frame, one part of it moving: the Compare view's RoPE A/B while B's base
// moves (A's curves, the axes and most labels hold). Split, every frame's pixels are those of the
// same figure drawn directly, while the part that holds is copied from the layer. Its own suite:
// the reference frames are drawn on a renderer that has never had layers.
class FigureSplitGlTest : public test::OffscreenRendererTest<FigureSplitGlTest> {};

TEST_F(FigureSplitGlTest, ASplitMovingFigureHasTheDrawnPixels) {
    ASSERT_TRUE(renderer_) << failure_;
    constexpr Rgba kUnderlay{255, 0, 255, 255};
    const Theme theme = darkTheme();
    RopeConfiguration a;
    a.label = "A: base 10000";
    a.rope.base = 10000;
    a.rope.headDim = 256;
    a.rope.trainingLength = 1 << 20;
    std::vector<Figure> frames;
    for (int frame = 0; frame < 8; ++frame) {
        RopeConfiguration b = a;
        b.rope.base = 500000 * std::pow(1.01, frame);
        b.label = "B: base " + std::to_string(int(b.rope.base));
        auto figure = abComparisonFigure(a, b, 16384, 900, 640, theme, 0, kAbCoarseSamples);
        ASSERT_TRUE(figure.ok()) << figure.error().message;
        frames.push_back(std::move(figure).value());
    }
    std::vector<std::vector<std::uint8_t>> direct;
    for (const Figure& f : frames) {
        auto image = renderer_->renderOver(kUnderlay, f);
        ASSERT_TRUE(image.ok()) << image.error().message;
        direct.push_back(image.value().pixels);
    }
    ASSERT_NE(direct[0], direct[1]);
    renderer_->useFigureLayers();
    const gfx::FigureLayers& layers = *renderer_->figureLayers();
    for (std::size_t frame = 0; frame < frames.size(); ++frame) {
        auto image = renderer_->renderOver(kUnderlay, frames[frame]);
        ASSERT_TRUE(image.ok()) << image.error().message;
        EXPECT_TRUE(image.value().pixels == direct[frame]) << "frame " << frame;
    }
    // Frame 0 drawn whole, 1 split (drawn), 2 the part below captured, 3..7 copied.
    EXPECT_GE(layers.captured(), 1u);
    EXPECT_GE(layers.copies(), 5u);
}

// The split is exact only if no item touches a pixel outside its footprint. Each kind of item
// drawn alone over a plain background: every pixel it changed lies in its footprint (the
// footprint may be larger, never smaller). Text plain, with markup (sub- and superscripts,
// italics), turned 90 degrees and aligned every way; a noisy polyline's near-reversals and an
// acute join's mitre; a dashed line; a framed rectangle; dots as sprites and as polygons.
class FootprintGlTest : public test::OffscreenRendererTest<FootprintGlTest> {};

TEST_F(FootprintGlTest, NoItemTouchesAPixelOutsideItsFootprint) {
    ASSERT_TRUE(renderer_) << failure_;
    renderer_->useDotSprites();
    constexpr Rgba kInk{20, 20, 20, 255};
    std::vector<FigureItem> items;
    items.push_back(TextItem{{30, 40}, "Wavelength Åg ∫ gjpq|", 19, kInk});
    items.push_back(TextItem{{200, 90},
                             "$q_m·k_n$ ($q=k$ random) $10^{6}$",
                             16,
                             kInk,
                             HorizontalAlign::Center,
                             VerticalAlign::Middle});
    items.push_back(TextItem{{40, 260},
                             "wavelength (turns)",
                             15,
                             kInk,
                             HorizontalAlign::Center,
                             VerticalAlign::Bottom,
                             true});
    items.push_back(TextItem{
        {390, 290}, "offset $m-n$", 14, kInk, HorizontalAlign::Right, VerticalAlign::Bottom});
    PolylineItem noise;
    for (int i = 0; i < 300; ++i)
        noise.points.push_back({float(60 + i), float(i % 2 ? 120 : 250) + float(i % 7)});
    noise.color = {200, 60, 30, 255};
    noise.width = 2;
    items.push_back(noise);
    items.push_back(PolylineItem{{{100, 150}, {330, 160}, {100, 170}}, {30, 90, 200, 255}, 3});
    items.push_back(LineItem{{20, 200}, {380, 230}, {60, 60, 200, 255}, 1.5f, true});
    RectItem frame;
    frame.box = {50, 60, 120, 80};
    frame.fill = {90, 160, 90, 120};
    frame.stroke = kInk;
    frame.strokeWidth = 2;
    items.push_back(frame);
    for (float radius : {2.5f, 3.7f, 8.0f}) {
        CircleItem dot;
        dot.center = {200 + 20 * radius, 200.4f + radius};
        dot.radius = radius;
        dot.fill = {40, 160, 40, 200};
        items.push_back(dot);
    }
    items.push_back(PolygonItem{{{300, 30}, {340, 60}, {290, 70}}, {150, 40, 150, 255}});

    constexpr Rgba kUnderlay{255, 0, 255, 255};
    Figure empty;
    empty.width = 400;
    empty.height = 300;
    empty.background = {250, 250, 245, 255};
    auto plain = renderer_->renderOver(kUnderlay, empty);
    ASSERT_TRUE(plain.ok()) << plain.error().message;
    for (std::size_t k = 0; k < items.size(); ++k) {
        Figure one = empty;
        one.items = {items[k]};
        auto image = renderer_->renderOver(kUnderlay, one);
        ASSERT_TRUE(image.ok()) << image.error().message;
        const std::vector<gfx::ItemBox> boxes = renderer_->footprints(one);
        ASSERT_EQ(boxes.size(), 1u);
        const gfx::ItemBox& box = boxes[0];
        const auto& pixels = image.value().pixels;
        const auto& before = plain.value().pixels;
        ASSERT_EQ(pixels.size(), before.size());
        int changed = 0, outside = 0;
        for (int y = 0; y < 300; ++y) {
            for (int x = 0; x < 400; ++x) {
                const std::size_t at = (std::size_t(y) * 400 + std::size_t(x)) * 4;
                if (std::equal(pixels.begin() + long(at), pixels.begin() + long(at) + 4,
                               before.begin() + long(at)))
                    continue;
                ++changed;
                // The pixel's centre inside the box.
                if (!(x + 0.5f >= box.x0 && x + 0.5f <= box.x1 && y + 0.5f >= box.y0 &&
                      y + 0.5f <= box.y1))
                    ++outside;
            }
        }
        EXPECT_GT(changed, 0) << "item " << k;
        EXPECT_EQ(outside, 0) << "item " << k << ": footprint " << box.x0 << ", " << box.y0
                              << " .. " << box.x1 << ", " << box.y1;
    }
}

}  // namespace
}  // namespace poslab::test
