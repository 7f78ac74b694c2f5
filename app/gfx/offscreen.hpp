// offscreen.hpp — figures rendered to pixels with no window and no X server.
//
// An OpenGL 3.3 core context on EGL's Mesa surfaceless platform (llvmpipe on machines without a
// GPU), a framebuffer object as the target, and the same Dear ImGui figure renderer the GUI uses:
// `poslab render --renderer gl`, the screen's exact pixels. Start-up (EGL, llvmpipe) costs
// about 100 ms; fonts are baked per figure, only the sizes and characters it draws.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gfx/figure_renderer.hpp"
#include "poslab/base/result.hpp"
#include "poslab/figure/colormap.hpp"
#include "poslab/figure/figure.hpp"

namespace poslab::gfx {

class FigureLayers;

class OffscreenRenderer {
  public:
    static Result<std::unique_ptr<OffscreenRenderer>> create();  // EGL context + ImGui
    ~OffscreenRenderer();
    OffscreenRenderer(const OffscreenRenderer&) = delete;
    OffscreenRenderer& operator=(const OffscreenRenderer&) = delete;

    // The figure at `scale` device pixels per figure pixel; transparent where it has no background.
    Result<ImageRgba> render(const Figure& figure, float scale = 1.0f);
    // The same onto a framebuffer first filled with `underlay` instead of the background: a
    // colour no figure paints shows the pixels drawFigure leaves as they were (tests).
    // `over`, when given, is drawn right after `figure` in the same frame (a stacked figure).
    Result<ImageRgba> renderOver(Rgba underlay, const Figure& figure, float scale = 1.0f,
                                 const Figure* over = nullptr);
    // From now on every render is one frame through figure layers, as the GUI's frames are
    // (figure_layers.hpp: a figure unchanged since the last render is drawn into the layer
    // once, then copied from it): tests compare those pixels with a direct render's.
    void useFigureLayers();
    const FigureLayers* figureLayers() const;  // null until useFigureLayers()
    // From now on small dots are drawn as sprites, as the GUI draws them (dot_sprites.hpp); off
    // again with false. `poslab render --renderer gl` draws ImGui's polygons.
    void useDotSprites(bool use = true);
    int lastTriangles() const;  // what the last render submitted (tests: the tessellation)
    // Where each item of `figure`, rendered as render() renders it, may touch pixels
    // (itemFootprints, figure_renderer.hpp; tests check that it never falls short).
    std::vector<ItemBox> footprints(const Figure& figure, float scale = 1.0f);

  private:
    OffscreenRenderer() = default;
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace poslab::gfx
