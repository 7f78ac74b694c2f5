// heatmap_textures.hpp — GPU copies of the heatmaps a figure shows, colourised by a shader.
//
// Each HeatmapItem::version is uploaded once as a float texture; shaders/heatmap.frag maps it
// through the colormap's lookup table into an RGBA texture that Dear ImGui draws. A new colormap
// or range reruns only the shader pass. Entries not used for a few frames are released.
#pragma once

#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "gfx/gl_objects.hpp"
#include "poslab/figure.hpp"

namespace poslab::gfx {

class HeatmapTextures {
public:
    Status initialize();                         // compiles the shader; needs a current context
    GLuint textureFor(const HeatmapItem& item);  // RGBA texture for the item (0 on failure)
    void endFrame();                             // releases textures unused for a few frames
    std::size_t cachedCount() const { return entries_.size(); }
    // NaN texels uploaded so far. Views must never draw NaN silently (they mask with -inf or
    // report the problem); the soak test fails when this is not zero.
    std::size_t nanTexelsUploaded() const { return nanTexels_; }

private:
    struct Entry {
        Texture values;     // R32F, one texel per cell
        Texture colored;    // RGBA8, what ImGui draws
        Framebuffer target; // renders into `colored`
        int width = 0, height = 0;
        ColormapId colormap = ColormapId::Viridis;
        double low = 0, high = 0;
        bool colorized = false;
        std::uint64_t lastUsedFrame = 0;
    };
    void colorize(Entry& entry, ColormapId colormap, ValueRange range);
    GLuint lookupTable(ColormapId colormap);

    Program program_;
    VertexArray emptyVertexArray_;
    GLint locationLow_ = -1, locationHigh_ = -1, locationValues_ = -1, locationLut_ = -1;
    std::array<Texture, 8> lookupTables_;
    std::unordered_map<std::uint64_t, Entry> entries_;
    std::vector<float> uploadBuffer_;
    std::uint64_t frame_ = 0;
    std::size_t nanTexels_ = 0;
    GLint maxTextureSize_ = 4096;
};

}  // namespace poslab::gfx
