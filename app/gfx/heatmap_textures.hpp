// heatmap_textures.hpp — the heatmaps a figure shows, drawn by a shader into Dear ImGui's output.
//
// Each HeatmapItem::version is colourised on the CPU (core's colorize(), the same colours the
// Cairo renderer writes) and uploaded once as an RGBA8 texture, one texel per cell. When Dear
// ImGui renders, a draw callback runs shaders/heatmap.frag over the heatmap's rectangle, one
// texel fetch per pixel: on software GL (llvmpipe) the per-pixel work is the cost, so the
// colormap lookup is done once per cell here rather than once per pixel there. A new colormap
// or range re-colourises the cached cells. Textures not used for a few frames go to a small pool
// and are refilled in place when a heatmap of the same size arrives (a slider being dragged).
#pragma once

#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

#include "gfx/gl_objects.hpp"
#include "poslab/figure.hpp"

struct ImDrawList;
struct ImDrawCmd;
struct ImVec2;

namespace poslab::gfx {

class HeatmapTextures {
  public:
    Status initialize();  // compiles the shader; needs a current context

    // Draws `item` into [topLeft, bottomRight) of `list` (screen coordinates) when the list is
    // rendered, clipped to the list's current clip rectangle. False when the item cannot be shown.
    bool addToDrawList(ImDrawList* list, const HeatmapItem& item, ImVec2 topLeft,
                       ImVec2 bottomRight);
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
        bool hasMaskedCells = false;  // -inf present: draw with blending so the mask shows through
        ColormapId colormap = ColormapId::Viridis;  // what the texels were colourised with
        ValueRange range;
        std::uint64_t lastUsedFrame = 0;
    };
    struct Draw {  // one heatmap queued for this frame's render
        HeatmapTextures* owner = nullptr;
        const Entry* entry = nullptr;
        float left = 0, top = 0, right = 0, bottom = 0;  // screen coordinates
    };
    struct PooledTexture {
        Texture texture;
        int width = 0, height = 0;
    };

    const Entry* entryFor(const HeatmapItem& item);
    Texture textureOfSize(int width, int height);  // from the pool, or new
    static void drawCallback(const ImDrawList* list, const ImDrawCmd* command);
    void draw(const Draw& draw, const ImDrawCmd& command);

    Program program_;
    VertexArray emptyVertexArray_;
    GLint locationImage_ = -1, locationRect_ = -1;
    std::unordered_map<std::uint64_t, Entry> entries_;
    std::vector<PooledTexture> pool_;
    std::deque<Draw> draws_;  // stable addresses: the draw commands point at them
    std::uint64_t frame_ = 0;
    std::size_t nanTexels_ = 0;
    std::size_t uploads_ = 0;
    GLint maxTextureSize_ = 4096;
};

}  // namespace poslab::gfx
