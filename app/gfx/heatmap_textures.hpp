// heatmap_textures.hpp — the heatmaps a figure shows, drawn by a shader into Dear ImGui's output.
//
// Each HeatmapItem::version is colourised on the CPU (core's colorize(), the same colours the
// Cairo renderer writes) and uploaded once as an RGBA8 texture, one texel per cell. When Dear
// ImGui renders, a draw callback runs shaders/heatmap.frag over the heatmap's rectangle, one
// nearest-texel lookup per pixel: on software GL (llvmpipe) the per-pixel work is the cost, so
// the colormap lookup is done once per cell here rather than once per pixel there, and a
// translucent shade drawn right over a heatmap is folded into its pass. A new colormap
// or range re-colourises the cached cells. Textures not used for a few frames go to a small pool
// and are refilled in place when a heatmap of the same size arrives (a slider being dragged).
#pragma once

#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

#include "gfx/gl_objects.hpp"
#include "poslab/figure/figure.hpp"

struct ImDrawList;
struct ImDrawCmd;
struct ImVec2;

namespace poslab::gfx {

class HeatmapTextures {
  public:
    Status initialize();  // compiles the shader; needs a current context

    using DrawId = std::size_t;                    // a heatmap queued this frame
    static constexpr DrawId kNoDraw = DrawId(-1);  // nothing was queued

    // Draws `item` into [topLeft, bottomRight) of `list` (screen coordinates) when the list is
    // rendered, clipped to the list's current clip rectangle. kNoDraw when it cannot be shown.
    DrawId addToDrawList(ImDrawList* list, const HeatmapItem& item, ImVec2 topLeft,
                         ImVec2 bottomRight);
    // Darkens [topLeft, bottomRight) of a queued heatmap, clipped to the list's current clip
    // rectangle, as `colour` blended over it would, but in the heatmap's own pass: software GL
    // pays for every blended pixel, and a "beyond training length" shade can cover half a
    // heatmap. Only for a shade drawn right after the heatmap, nothing between. False, changing
    // nothing, when it cannot be folded in (outside the heatmap's visible part, masked cells,
    // already shaded): then draw the rectangle as usual.
    bool addShade(DrawId draw, const ImDrawList* list, ImVec2 topLeft, ImVec2 bottomRight,
                  Rgba colour);
    // Whether addToDrawList would cover every visible pixel of `item` without blending (no
    // transparent masked cells): then what is drawn under it need not be. Prepares the texture.
    bool drawsOpaque(const HeatmapItem& item);
    // `item` is shown without being drawn (copied from a figure layer): its texture is kept as
    // if it had been, for the frame the figure changes and draws it again.
    void keepAlive(const HeatmapItem& item);
    void endFrame();  // after rendering: forgets this frame's draws, retires unused textures

    std::size_t cachedCount() const { return entries_.size(); }  // textures holding live versions
    std::size_t uploadCount() const { return uploads_; }         // versions uploaded so far
    // NaN texels uploaded so far. Views must never draw NaN silently (they mask with -inf or
    // report the problem); the soak test fails when this is not zero.
    std::size_t nanTexelsUploaded() const { return nanTexels_; }

  private:
    struct Entry {
        Texture image;  // RGBA8, one texel per cell, row 0 = the top row
        int width = 0, height = 0;
        bool hasMaskedCells = false;                // -inf present
        ColormapId colormap = ColormapId::Viridis;  // what the texels were colourised with
        ValueRange range;
        Rgba masked;
        // Masked cells left (partly) transparent: drawn with blending so what is under shows.
        bool translucent() const { return hasMaskedCells && masked.a < 255; }
        std::uint64_t lastUsedFrame = 0;
    };
    struct ScreenBox {  // [left, right) x [top, bottom) in screen coordinates
        float left = 0, top = 0, right = 0, bottom = 0;
    };
    struct Draw {  // one heatmap queued for this frame's render
        HeatmapTextures* owner = nullptr;
        const Entry* entry = nullptr;
        ScreenBox image;    // where the whole heatmap goes
        ScreenBox visible;  // the part inside the clip rectangle it was queued with
        bool shaded = false;
        ScreenBox shade;      // darkened part, inside `visible`
        float shadeKeep = 1;  // colour = texel * keep + add
        float shadeAdd[3] = {0, 0, 0};
    };
    struct PooledTexture {
        Texture texture;
        int width = 0, height = 0;
    };

    const Entry* entryFor(const HeatmapItem& item);
    Texture textureOfSize(int width, int height);  // from the pool, or new
    // [topLeft, bottomRight) cut to the list's current clip rectangle (empty: right <= left).
    static ScreenBox clipped(const ImDrawList* list, ImVec2 topLeft, ImVec2 bottomRight);
    static void drawCallback(const ImDrawList* list, const ImDrawCmd* command);
    void draw(const Draw& draw, const ImDrawCmd& command);

    Program plain_;   // heatmap.frag: the texels as they are
    Program shaded_;  // heatmap_shaded.frag: the texels under a folded-in shade
    GLint locationPlainImage_ = -1, locationShadedImage_ = -1, locationKeep_ = -1,
          locationAdd_ = -1;
    VertexArray emptyVertexArray_;
    std::unordered_map<std::uint64_t, Entry> entries_;
    std::vector<PooledTexture> pool_;
    std::deque<Draw> draws_;  // stable addresses: the draw commands point at them
    std::uint64_t frame_ = 0;
    std::size_t nanTexels_ = 0;
    std::size_t uploads_ = 0;
    GLint maxTextureSize_ = 4096;
};

}  // namespace poslab::gfx
