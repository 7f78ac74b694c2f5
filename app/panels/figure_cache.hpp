// figure_cache.hpp — figures, or what they are drawn from, kept until their key changes: rebuilt
// when a parameter, the canvas size or the theme changes, never every frame. The heatmaps inside
// keep their versions, so the renderer's textures are reused as well.
//   FigureCache<Key>                 a whole Figure: the Compare, Extrapolation and Intuitions
//                                    panels, whose figures are composites built by core views/
//   CachedFigure<Key, Layout, Data>  a layout and the data computed for it, from which the panel
//                                    draws its figure every frame (hover highlights, clicks):
//                                    the ALiBi and T5 views (views/alibi_figures.hpp,
//                                    t5_figures.hpp)
// Both stamp the key, the canvas size, the theme and its font size (FigureStamp), through Memo.
#pragma once

#include <algorithm>
#include <string>
#include <utility>
#include <variant>

#include <imgui.h>

#include "poslab/base/memo.hpp"
#include "poslab/base/result.hpp"
#include "poslab/figure/figure.hpp"
#include "poslab/figure/panel_grid.hpp"
#include "poslab/figure/plot.hpp"
#include "poslab/figure/text_boxes.hpp"
#include "ui/frame_context.hpp"
#include "ui/widgets.hpp"

namespace poslab::panels {

// What a cached figure was made for: the key (the parameter struct the figure is built from,
// compared with its defaulted ==), the canvas size, the theme and its font size, and the panel
// shown alone. Both caches below stamp all of it, so a theme or zoom change rebuilds either.
template <class Key>
struct FigureStamp {
    Key key;
    float width = 0, height = 0;
    ThemeId theme{};
    float fontSize = 0;
    int panel = 0;  // the panel shown alone (showPanels)
    bool operator==(const FigureStamp&) const = default;
};

// A built figure, or the note that stands in for it (FigureCache, LiveFigure).
struct BuiltFigure {
    Figure figure;
    std::string error;  // "" when built; else the figure is this note
};

// Opens the canvas of a figure of panels (panel_grid.hpp): a lesson's requested panel is taken,
// the "panel 2 of 6" row (arrow buttons, Up/Down keys) comes first when the panels are shown one
// at a time, then the canvas. Returns it with the stamp the figure is cached under.
template <class Key, class Panels>
std::pair<ui::Canvas, FigureStamp<Key>> beginPanelCanvas(const char* id, const Key& key,
                                                         const ui::FrameContext& context,
                                                         Panels& panels, int* selected) {
    const ImVec2 room = ImGui::GetContentRegionAvail();
    ui::takeRequestedPanel(context, panels(Box{0, 0, room.x, room.y}, context.theme, 0).count,
                           selected);  // a lesson's "panel"
    const PanelGrid grid = panels(Box{0, 0, room.x, room.y}, context.theme, *selected);
    // The selector's row makes the canvas shorter, which never fits more columns: the figure
    // below shows one panel at a time as well.
    if (grid.oneAtATime()) ui::panelSelector(grid, selected);
    const ui::Canvas canvas = ui::beginCanvas(id);
    return {canvas, FigureStamp<Key>{key, canvas.box.width, canvas.box.height, context.theme.id,
                                     context.theme.fontSize, *selected}};
}

// Key: e.g. ExtrapolationViewState; the figure is rebuilt when its FigureStamp changes.
template <class Key>
class FigureCache {
  public:
    // The canvas fills the remaining space (or `height` pixels); `key` identifies the figure's
    // inputs; build(width, height, theme) makes it. Errors are drawn in the canvas.
    // In presentation mode the figure's text takes the frame's full scale when it then fits
    // (no text over another or past the figure's edge); else the largest smaller scale that
    // does, found once per canvas size and kept while the figure changes (animations rebuild
    // it every frame: one build each then).
    template <class Build>
    ui::Canvas show(const char* id, const Key& key, const ui::FrameContext& context, Build build,
                    float height = 0) {
        const ui::Canvas canvas = ui::beginCanvas(id, height);
        const float width = canvas.box.width, tall = canvas.box.height;
        const Stamp stamp{key, width, tall, context.theme.id, context.theme.fontSize};
        const Built& built = rebuildIfChanged(stamp, canvas, context, [&]() -> Result<Figure> {
            const FitStamp size{width, tall, context.theme.id, context.theme.fontSize};
            if (!(size == fitFor_)) {
                fitFor_ = size;
                fitScale_ = context.uiScale;
            }
            for (;;) {
                const bool full = fitScale_ >= context.uiScale;
                const Theme theme =
                    full ? context.theme : scaledTheme(themeFor(context.theme.id), fitScale_);
                Result<Figure> figure = build(width, tall, theme);
                if (!figure || fitScale_ <= 1.0f || textFits(*figure)) return figure;
                fitScale_ = std::max(1.0f, fitScale_ / 1.12f);
            }
        });
        ui::drawCanvasFigure(canvas, built.figure, context);
        return canvas;
    }
    // A figure of several panels that reflows (panel_grid.hpp) at the frame's full theme: no
    // shrinking of presentation fonts. panels(width, height, theme, selected) is the view's
    // PanelGrid for a figure of that size; when it shows one panel at a time, a "panel 2 of 6"
    // row (arrow buttons, Up/Down keys) comes first, and build(width, height, theme, selected)
    // draws the selected panel.
    template <class Panels, class Build>
    ui::Canvas showPanels(const char* id, const Key& key, const ui::FrameContext& context,
                          Panels panels, Build build) {
        auto byBox = [&](Box area, const Theme& theme, int selected) {
            return panels(area.width, area.height, theme, selected);
        };
        // Named, not structured bindings: the lambda below captures them (clang 14, the page's
        // compiler, cannot capture a structured binding).
        const auto opened = beginPanelCanvas(id, key, context, byBox, &selectedPanel_);
        const ui::Canvas& canvas = opened.first;
        const Stamp& stamp = opened.second;
        const Theme& theme = context.theme;
        const Built& built = rebuildIfChanged(stamp, canvas, context, [&] {
            return build(canvas.box.width, canvas.box.height, theme, selectedPanel_);
        });
        ui::drawCanvasFigure(canvas, built.figure, context);
        return canvas;
    }
    // The last build's error, "" if none.
    const std::string& error() const { return memo_.empty() ? kNoError : memo_.value()->error; }
    void invalidate() { memo_.clear(); }

  private:
    using Stamp = FigureStamp<Key>;
    using Built = BuiltFigure;
    template <class Build>
    const Built& rebuildIfChanged(const Stamp& stamp, const ui::Canvas& canvas,
                                  const ui::FrameContext& context, Build build) {
        return memo_.get(stamp, [&] {
            Built made;
            Result<Figure> figure = build();
            if (figure) {
                made.figure = std::move(figure).value();
            } else {
                made.error = figure.error().message;
                made.figure = emptyFigure(canvas.box.width, canvas.box.height, context.theme);
                drawNote(made.figure, {0, 0, canvas.box.width, canvas.box.height}, made.error,
                         context.theme);
            }
            return made;
        });
    }
    static bool textFits(const Figure& figure) {
        return overlappingTexts(figure).empty() && textsOutsideFigure(figure).empty();
    }
    struct FitStamp {
        float width = 0, height = 0;
        ThemeId theme{};
        float fontSize = 0;
        bool operator==(const FitStamp&) const = default;
    };
    static inline const std::string kNoError;
    Memo<Stamp, Built> memo_;
    int selectedPanel_ = 0;  // showPanels: the panel shown when they come one at a time
    FitStamp fitFor_;        // show: the canvas fitScale_ was found for
    float fitScale_ = 1;     // show: the largest text scale the figure fits at, <= uiScale
};

// A view's layout and derived data, kept while `Key` (the options they depend on, compared with
// ==; a std::tuple of the fields will do), the canvas size and the theme stay the same. The
// figure itself is drawn from them every frame, so hover and colour changes cost no recompute.
//
// Usage (a panel member `CachedFigure<Key, AlibiLayout, AlibiFigureData> cache_`):
//   const Canvas canvas = cache_.show("alibi", key, context,
//       [&](Box area) { return alibiLayout(area, options, context.theme); },
//       [&](const AlibiLayout& layout) { return computeAlibiFigureData(options, layout); },
//       [&](Figure& figure, const AlibiLayout& layout, const AlibiFigureData& data) {
//           drawAlibiFigure(figure, layout, options, data, context.theme, &frames); });
//   if (cache_.ok() && canvas.hovered) ... cache_.data() ...
template <class Key, class Layout, class Data>
class CachedFigure {
  public:
    // The canvas fills the remaining space. When the key, its size or the font size changed,
    // layout = makeLayout(area) and data = compute(layout) (a Result<Data>); then the figure is
    // draw(figure, layout, data), or the compute error as a note. Returns the canvas for hover.
    template <class MakeLayout, class Compute, class Draw>
    ui::Canvas show(const char* id, const Key& key, const ui::FrameContext& context,
                    MakeLayout makeLayout, Compute compute, Draw draw) {
        return showPanels(
            id, key, context, [](Box area, const Theme&, int) { return PanelGrid{area}; },
            [&](Box area, int) { return makeLayout(area); }, compute, draw);
    }
    // The same for a view of several panels that reflows (panel_grid.hpp): panels(area, theme,
    // selected) is its PanelGrid for a canvas of that size; when it shows one panel at a time, a
    // "panel 2 of 6" row (arrow buttons, Up/Down keys) comes first, and makeLayout(area,
    // selected) lays out the selected panel alone. The layout is what hover and clicks read, so
    // they follow whichever panels are shown.
    template <class Panels, class MakeLayout, class Compute, class Draw>
    ui::Canvas showPanels(const char* id, const Key& key, const ui::FrameContext& context,
                          Panels panels, MakeLayout makeLayout, Compute compute, Draw draw) {
        const auto [canvas, stamp] = beginPanelCanvas(id, key, context, panels, &selectedPanel_);
        const Box area{0, 0, stamp.width, stamp.height};
        if (!stamp_.holds(stamp)) {
            layout_ = makeLayout(area, selectedPanel_);
            auto data = compute(std::as_const(layout_));
            if (data) {
                data_ = std::move(data).value();
                error_.clear();
            } else {
                error_ = data.error().message;  // data_ keeps the last good data
            }
            stamp_.store(stamp, {});
        }
        Figure figure = emptyFigure(area.width, area.height, context.theme);
        if (error_.empty()) {
            draw(figure, std::as_const(layout_), std::as_const(data_));
        } else {
            drawNote(figure, area, error_, context.theme);
        }
        ui::drawCanvasFigure(canvas, figure, context);
        return canvas;
    }
    bool ok() const { return error_.empty(); }           // the last compute succeeded
    const Data& data() const { return data_; }           // the last good data (default before any)
    const std::string& error() const { return error_; }  // the last compute's error, "" if none

  private:
    using Stamp = FigureStamp<Key>;
    // Only the stamp: layout_ and data_ live outside it, because a failed compute keeps the last
    // good data for the figure while the stamp moves on.
    Memo<Stamp, std::monostate> stamp_;
    Layout layout_;
    Data data_;
    std::string error_;
    int selectedPanel_ = 0;  // showPanels: the panel shown when they come one at a time
};

}  // namespace poslab::panels
