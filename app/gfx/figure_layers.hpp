// figure_layers.hpp — figures that did not change since the last frame are copied, not drawn.
//
// On software GL (llvmpipe under Xvfb) a frame's cost is rasterising the figures' thin triangles
// (text, curves). A figure built on a worker changes only when a build arrives, and a figure drawn
// from data that holds still is the same item list frame after frame, yet both were tessellated
// and rasterised again every frame. FigureLayers keeps one texture the size of the framebuffer
// (the layer). A figure seen unchanged in two frames running is drawn as usual and, right after
// its draw commands, its rectangle is copied from the frame into the layer, at the same place;
// from then on, while it stays the same, every frame copies that rectangle back instead of
// drawing it (glBlitFramebuffer, no scaling: exact). The copy is bit-identical to drawing it:
// the pixels are the frame's own (a figure drawn into a texture instead would be rasterised
// differently: Mesa draws window framebuffers upside down), and the figure's opaque background
// repaints its whole rectangle first, so its pixels depend on its items only. What a panel draws
// on top (hover marks, "updating…") is drawn after the copy as before.
//
//   frame:   drawFigure(target with target.layers = &layers, figure)   (any number of figures)
//   after the frame has been rendered:  layers.endFrame()
//
// A figure that changes every frame (one rebuilt while a slider moves) is split in two when it
// has changed in two frames running: the items it had in the last frame too go into a figure
// below (opaque, with the figure's background), which the layer copies while they hold, and the
// rest into a clear figure stacked on it (see below), drawn every frame. So the Compare view's
// RoPE A/B, rebuilt every frame while B's base moves, draws B's curves and the title, and copies
// A's curve, the axes and the labels (FigureSplitter). The pixels are those of the figure drawn
// whole: an item goes below only when no item before it that stays on top may touch a pixel it
// touches (itemFootprints, figure_renderer.hpp), so every pixel gets its items in the same order.
//
// A figure is drawn as usual (not through the layer) when its background is not opaque, its
// rectangle is not whole pixels, is not entirely inside the clip rectangle and the display, or
// overlaps another figure of the same frame; and when it is cheaper to draw than to copy (a few
// glyphs on a clear, such as a "computing…" note).
//
// One exception to the opaque background: a figure with a clear background drawn right over an
// opaque one at the same rectangle, nothing drawn between them (a view's part that changes more
// often than the rest: the RoPE rotation's trails, ALiBi's attention preview), is a stacked
// figure. Its pixels are the two together, so its identity is both figures' and it is kept in a
// second layer texture: while both stay the same that layer is copied (and the one below is
// not); when only the stacked figure changes, the one below is still copied from its own layer
// and only the stacked one is drawn. A third figure over the two is drawn as usual.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "gfx/figure_renderer.hpp"
#include "gfx/gl_objects.hpp"
#include "poslab/figure/figure.hpp"

struct ImDrawList;
struct ImDrawCmd;

namespace poslab::gfx {

struct FigureTarget;

// ---- The figure's identity: every item and its drawing parameters, hashed.
// Equal figures hash equal; a change to any item (a point, a colour, a heatmap's version or
// colours, a text) changes the hash but for a 2^-64 chance.
std::uint64_t figureFingerprint(const Figure& figure);
std::uint64_t itemFingerprint(const FigureItem& item);  // one item's part of it

// ---- Which figures go through the layer (GL-free, so that tests can drive it frame by frame).
// Pixel rectangle [x0, x1) x [y0, y1) in screen (framebuffer) pixels.
struct LayerRect {
    long x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    bool operator==(const LayerRect&) const = default;
    bool overlaps(const LayerRect& o) const {
        return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1;
    }
};

enum class LayerUse {
    Direct,   // draw the figure as usual: changed since the last frame (or cannot use the layer)
    Capture,  // draw it as usual, then copy its pixels into the layer: unchanged, not cached
    Copy,     // copy it from the layer: the layer holds exactly this figure at this rectangle
};

// Depth 0: a figure with an opaque background; 1: one stacked over it (see above).
inline constexpr int kLayerDepths = 2;

class FigureLayerCache {
  public:
    // What to do with a figure of identity `key` at `rect` this frame. A stacked figure (depth
    // 1) follows the depth-0 figure at the same rectangle in the same frame, and its key covers
    // that figure's too; each depth has its own layer.
    LayerUse use(const LayerRect& rect, std::uint64_t key, int depth = 0);
    // The figure at `rect` (just told Capture) is cheaper to draw than to copy: drawn as usual
    // until it changes.
    void keepDrawing(const LayerRect& rect, int depth = 0);
    void endFrame();                  // the next frame begins: rectangles may be claimed again
    void clear();                     // the layer's pixels are gone (resized, fonts re-baked)
    std::size_t cachedCount() const;  // figures whose pixels the layer holds

  private:
    struct Slot {
        LayerRect rect;
        int depth = 0;               // which layer
        std::uint64_t key = 0;       // the figure last seen at rect
        bool cached = false;         // the layer holds its pixels
        bool copied = false;         // ... and they were copied back at least once
        bool cheap = false;          // cheaper to draw than to copy (keepDrawing): never cached
        std::uint64_t lastSeen = 0;  // frame number
    };
    struct Claim {
        LayerRect rect;
        int depth = 0;
    };
    std::vector<Slot> slots_;
    std::vector<Claim> claimed_;  // rectangles drawn this frame
    std::uint64_t frame_ = 1;
};

// ---- A moving figure's split (GL-free, so that tests can drive it frame by frame).
// Each item is named by its identity (itemFingerprint); its footprint is where it may touch
// pixels (empty for clip items, which go into both parts).
enum class ItemPart : std::uint8_t { Below, Above, Both };
enum class ItemTie : std::uint8_t {
    Own,           // goes where the split puts it
    Clip,          // ClipPush / ClipPop: in both parts, so that every item keeps its clip
    WithPrevious,  // where the item before it (clips aside) goes: a translucent rectangle,
                   // which the renderer folds into a heatmap drawn right before it
};

class FigureSplitter {
  public:
    // This frame's figure at `rect` (identity `whole`, items `items`): true when it changed in
    // this frame and in the last one too (moving: split it); false when it held still or only
    // just changed (a worker's build arriving, captured whole at once as before).
    bool moving(const LayerRect& rect, std::uint64_t whole,
                const std::vector<std::uint64_t>& items);
    // Right after moving() said true: each item's part. An item goes below when it was in the
    // figure's last frame too (or, once a part below is chosen, while every item of that part
    // is still there: the part stays the same and the layer keeps it), its tied items can go
    // with it, and no item before it going above may touch its pixels. False (draw it whole)
    // when either part would be empty.
    bool split(const LayerRect& rect, const std::vector<std::uint64_t>& items,
               const std::vector<ItemBox>& footprints, const std::vector<ItemTie>& ties,
               std::vector<ItemPart>& parts);
    void endFrame() { ++frame_; }
    void clear() { tracks_.clear(); }

  private:
    struct Track {
        LayerRect rect;
        std::uint64_t whole = 0;
        int changes = 0;                    // frames running in which it changed
        std::vector<std::uint64_t> last;    // this frame's items, sorted
        std::vector<std::uint64_t> before;  // the last frame's, sorted
        std::vector<std::uint64_t> below;   // the part below chosen last, sorted
        std::uint64_t lastSeen = 0;
    };
    Track* find(const LayerRect& rect);
    std::vector<Track> tracks_;
    std::uint64_t frame_ = 1;
};

// ---- The copies' rectangles, as glBlitFramebuffer's (x0, y0, x1, y1) for source and destination
// (GL rows count from the bottom). The layer holds the frame's row r at its own row r counted from
// the bottom, so every copy is mirrored in GL's terms: software GL (Mesa) keeps a window's rows
// top-down in memory, a texture's bottom-up, and the mirrored copy then moves each row to the same
// memory row (llvmpipe copies memory instead of drawing a textured quad: 0.3 ms instead of 5 ms
// for 1100 x 800 pixels, also because the layer has the window's BGRA byte order).
struct LayerBlit {
    long source[4] = {0, 0, 0, 0}, destination[4] = {0, 0, 0, 0};
};
LayerBlit layerBlit(const LayerRect& rect, long framebufferHeight, bool capture);

// ---- The GL side.
class FigureLayers {
  public:
    FigureLayers();
    ~FigureLayers();
    FigureLayers(const FigureLayers&) = delete;
    FigureLayers& operator=(const FigureLayers&) = delete;

    // Draws `figure` through the layer when it can (see above) and returns true; false: the
    // caller draws it as usual and then calls drawnDirectly. target.layers is ignored (the
    // layer's own pass draws directly).
    bool draw(const FigureTarget& target, const Figure& figure);
    // The figure `draw` returned false for has been drawn as usual into `list`.
    void drawnDirectly(const ImDrawList* list);
    void endFrame();  // after the frame's render
    void clear() {    // fonts re-baked: glyphs moved in the atlas
        cache_.clear();
        splitter_.clear();
    }

    std::size_t copies() const { return copies_; }      // figures copied from the layer so far
    std::size_t captured() const { return captured_; }  // figures copied into the layer so far

  private:
    struct Copy {  // one figure copied this frame (its draw command points here)
        FigureLayers* owner = nullptr;
        LayerRect rect;
        int depth = 0;
        bool capture = false;  // from the frame into the layer (else the layer into the frame)
        bool skip = false;     // a copy of the stacked figure over it covers it
    };
    // The last depth-0 figure of this frame, which a figure with a clear background may stack
    // on: its draw list and how far it had filled it when the figure ended.
    struct Below {
        const ImDrawList* list = nullptr;  // null: none
        LayerRect rect;
        std::uint64_t key = 0;
        int vertices = -1, commands = -1;  // -1: not ended yet
        Copy* copy = nullptr;              // its copy from the layer, if it was copied
    };
    // The figure through the layer whole (the figure's identity `whole`), or false as draw().
    bool drawWhole(const FigureTarget& target, const Figure& figure, std::uint64_t whole);
    void drawPart(const FigureTarget& target, const Figure& part);  // through the layer or not
    // The figure's rectangle in framebuffer pixels when it can go through the layer at all.
    std::optional<LayerRect> placeOf(const FigureTarget& target, const Figure& figure) const;
    static void copyCallback(const ImDrawList* list, const ImDrawCmd* command);
    void copy(const Copy& copy) const;
    bool ensureLayer(int width, int height, int depth);
    void ended(const ImDrawList* list);  // the figure below_ names was drawn: where it ends

    FigureLayerCache cache_;
    FigureSplitter splitter_;
    Texture textures_[kLayerDepths];
    Framebuffer framebuffers_[kLayerDepths];
    Below below_;
    int width_ = 0, height_ = 0;  // the layers' size; 0: none yet
    bool failed_ = false;         // the layer could not be made: every figure is drawn directly
    std::vector<std::unique_ptr<Copy>> queuedCopies_;  // this frame's (stable addresses)
    std::size_t copies_ = 0, captured_ = 0;
};

}  // namespace poslab::gfx
