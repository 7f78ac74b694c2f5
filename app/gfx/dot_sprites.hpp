// dot_sprites.hpp — small filled circles drawn as one textured quad each (2 triangles) instead of
// Dear ImGui's anti-aliased polygon (an 8-gon and its fringe at the radii below: 22 triangles).
//
// On software GL (llvmpipe under Xvfb) a frame of many small dots is bound by triangle set-up:
// RoPE rotation's trails are 64 panels x 32 positions x 2 dots, about 90 k triangles a frame
// drawn as polygons. Each sprite is the pixels ImGui's own polygon gives for that radius: the
// polygon is made by ImDrawList::AddCircleFilled and rasterised here at pixel centres, its alpha
// interpolated as the GPU does (inner vertices opaque, the fringe's outer ones clear), for
// kPhases x kPhases sub-pixel positions of the centre. A dot is drawn with the sprite of the
// nearest phase, at whole pixels, sampled texel for texel (GL_NEAREST): the picture moves by at
// most half a phase (1/32 px), an alpha change of a few levels on the edge pixels.
//
//   frame:  sprites.add(list, centre, radius, colour)  (false: draw it as usual)
//   after the frame has been rendered:  sprites.endFrame()
#pragma once

#include <cstdint>
#include <vector>

#include "gfx/gl_objects.hpp"

struct ImDrawList;

namespace poslab::gfx {

// ---- The sprites' pixels (GL-free, for tests): a sheet of kPhases x kPhases sprites, each
// kSpriteSide pixels a side, row-major; sprite (i, j) has its centre at (kSpriteCentre + i /
// kPhases, kSpriteCentre + j / kPhases) in its own pixels. Values are alpha 0..255.
inline constexpr int kDotPhases = 16;
inline constexpr int kDotSpriteSide = 12;
inline constexpr int kDotSpriteCentre = 5;
inline constexpr float kLargestSpriteDot = 4.0f;  // radius in pixels; larger dots are polygons
inline constexpr int kDotSheetSide = kDotPhases * kDotSpriteSide;
inline constexpr int kDotSheets = 4;  // radii kept at once (a window shows one or two)
// `list` gives ImGui's circle segment counts and anti-aliasing flags (a list of the frame).
std::vector<std::uint8_t> dotSheetAlpha(const ImDrawList& list, float radius);

class DotSprites {
  public:
    // Draws a filled circle of `radius` pixels at `centre` (screen pixels) in `colour` as a sprite
    // and returns true; false when it cannot (too large, anti-aliased fill off, every sheet taken
    // by other radii this frame): the caller draws it as usual.
    bool add(ImDrawList* list, float centreX, float centreY, float radius, std::uint32_t colour);
    void endFrame() { ++frame_; }
    std::size_t sheetsMade() const { return sheetsMade_; }

  private:
    struct Sheet {
        float radius = -1;  // < 0: empty
        std::uint64_t lastUsed = 0;
    };
    int sheetFor(const ImDrawList& list, float radius);  // -1: none free this frame
    Texture texture_;                                    // the kDotSheets sheets side by side
    Sheet sheets_[kDotSheets];
    std::uint64_t frame_ = 1;
    std::size_t sheetsMade_ = 0;
};

}  // namespace poslab::gfx
