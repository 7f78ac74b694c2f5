// frame_context.hpp — what a panel may use while it draws one frame (besides AppState).
#pragma once

#include <string>
#include <vector>

#include "poslab/figure/plot.hpp"

namespace poslab::gfx {
class FontSet;
class HeatmapTextures;
class FigureLayers;
class DotSprites;
}  // namespace poslab::gfx

namespace poslab::ui {

// --check-layout and --tour-check: the figures drawn in a frame and their text faults
// (auditFigureLayout: texts over each other, over data marks, past the figure's edge, cut
// short, or too small for presentation mode).
struct LayoutAudit {
    int figures = 0;
    std::vector<std::string> faults;  // "…" overlaps "…", "…" leaves the figure, hides data, ...
    int overlapping = 0, outside = 0, overData = 0, cut = 0, small = 0;  // faults by kind
    int narrowControls = 0;  // --check-layout: controls narrower than their value's text
    bool checkCuts = false;  // a window of 1024x768 or more: a text cut with "…" is a fault
    float minTextSize = 0;   // presentation mode: a figure text smaller than this is a fault
    // --tour-check: a plot squeezed flat is a fault too (kMaxPlotAspect; a lesson's figure must
    // be readable on the projector, not a strip under its card)
    bool checkSqueezed = false;
    int squeezed = 0;
};

struct FrameContext {
    const gfx::FontSet* fonts = nullptr;
    gfx::HeatmapTextures* heatmaps = nullptr;
    gfx::FigureLayers* layers = nullptr;  // unchanged figures copied, not drawn (figure_layers)
    gfx::DotSprites* dots = nullptr;      // small dots drawn as sprites (dot_sprites)
    Theme theme = darkTheme();      // figure theme for this frame
    float uiScale = 1.0f;           // 1 normally, larger in presentation mode
    std::string* statusMessage = nullptr;  // panels report errors and results here
    bool animating = false;         // a panel sets this to keep frames coming (animations)
    bool waiting = false;           // a panel's worker is still computing what it shows: a
                                    // scripted --screenshot waits for it (up to 30 s)
    // --check-layout auditing the controls alone (presentation mode, Ctrl+Tab): the views draw
    // their controls column and no figures, whose workers would start for a narrower area.
    bool controlsOnly = false;
    LayoutAudit* layoutAudit = nullptr;     // non-null: drawCanvasFigure checks every figure's text
                                            // (--check-layout, --tour-check)
    std::vector<std::string> droppedFiles;  // dropped on the window; the panel using them clears it
    int requestedPanel = 0;  // > 0: a lesson step's "panel" (1-based), for the view's first frame:
                             // shown when it shows one panel at a time (takeRequestedPanel)
    Box* figureArea = nullptr;  // non-null: drawCanvasFigure grows it to hold every figure's
                                // canvas (screen pixels; the page's "Download figure PNG")
};

// The panel a lesson asked for, 0-based and clamped to the view's `count`; `selected` unchanged
// when none was asked for. The application asks for one frame of the view only: from then on
// Up/Down and the arrow buttons choose.
inline void takeRequestedPanel(const FrameContext& context, int count, int* selected) {
    if (context.requestedPanel <= 0 || count <= 0) return;
    *selected = (context.requestedPanel > count ? count : context.requestedPanel) - 1;
}

}  // namespace poslab::ui
