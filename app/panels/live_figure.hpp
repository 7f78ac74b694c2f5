// live_figure.hpp — FigureCache for a figure that takes longer than a frame to build: the build
// runs on a worker (base/refining_memo.hpp) while the last finished figure stays on screen,
// marked "updating…", so the window stays live while a control moves. With a coarse build the
// current key's coarse figure shows at once and the exact one follows when the control holds
// still. Until the exact figure is drawn the frame is marked waiting, so --screenshot,
// --check-layout and --tour-check see the exact figure only.
//
//   LiveFigure<OrthogonalityKey> orthogonality_;
//   orthogonality_.show("near-orthogonality", key, context,
//       [key](float w, float h, const Theme& theme, Detail) { return figureFor(key, w, h, theme);
//       });
//
// build(width, height, theme, detail) runs on another thread: it must copy what it reads (the
// key, a shared_ptr to a table), never reference the view's state.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <type_traits>
#include <utility>

#include <imgui.h>

#include "panels/figure_cache.hpp"
#include "poslab/base/refining_memo.hpp"

namespace poslab::panels {

// While its control moves, a figure that is drawn whole on every arrival (no coarse figure, no
// part stacked apart) is rebuilt at most this often, and its worker is busy at most half the
// time (RefiningMemo::pace: Compare's ~0.15 s builds then arrive every ~0.3 s). Each arrival costs
// a frame several times a usual one (Compare's every encoding at its top: ~42 k triangles against
// ~2 k; RoPE's decay curve on a log axis); at most five a second keep the picture following the
// control while most frames stay cheap, and the worker's core is free between builds. The exact
// figure still comes as soon as the control holds still.
inline constexpr std::chrono::milliseconds kWholeFigurePace{200};

template <class Key>
class LiveFigure {
  public:
    LiveFigure() = default;
    // Paced: while the key moves, a new build starts at most every `interval`.
    explicit LiveFigure(std::chrono::steady_clock::duration interval) : figures_(interval) {}
    // A figure filling the canvas (or `height` pixels). coarse: build takes Detail::Coarse too.
    template <class Build>
    ui::Canvas show(const char* id, const Key& key, ui::FrameContext& context, Build build,
                    bool coarse = false, float height = 0) {
        const ui::Canvas canvas = ui::beginCanvas(id, height);
        // As FigureCache::show: in presentation mode the text takes the frame's full scale when
        // the figure then fits, else the largest smaller scale that does (found in the build).
        const float fullScale = context.uiScale;
        const ThemeId themeId = context.theme.id;
        draw(
            canvas, key, 0, context,
            [build, fullScale, themeId](float w, float h, const Theme& theme, int,
                                        Detail detail) -> Result<Figure> {
                for (float scale = fullScale;; scale = std::max(1.0f, scale / 1.12f)) {
                    const Theme shown =
                        scale >= fullScale ? theme : scaledTheme(themeFor(themeId), scale);
                    Result<Figure> figure = build(w, h, shown, detail);
                    if (!figure || scale <= 1.0f ||
                        (overlappingTexts(*figure).empty() && textsOutsideFigure(*figure).empty()))
                        return figure;
                }
            },
            coarse);
        return canvas;
    }
    // A figure of several panels that reflows (panel_grid.hpp), as FigureCache::showPanels:
    // build(width, height, theme, selected, detail).
    template <class Panels, class Build>
    ui::Canvas showPanels(const char* id, const Key& key, ui::FrameContext& context, Panels panels,
                          Build build, bool coarse = false) {
        auto byBox = [&](Box area, const Theme& theme, int selected) {
            return panels(area.width, area.height, theme, selected);
        };
        const ui::Canvas canvas = beginPanelCanvas(id, key, context, byBox, &selectedPanel_).first;
        draw(canvas, key, selectedPanel_, context, std::move(build), coarse);
        return canvas;
    }
    bool exact() const { return exact_; }                // the figure last shown is the exact one
    const std::string& error() const { return error_; }  // the figure shown's error, "" if none
    void clear() { figures_.clear(); }  // build again (inputs behind the key changed)

  private:
    using Stamp = FigureStamp<Key>;
    using Built = BuiltFigure;
    template <class Build>
    void draw(const ui::Canvas& canvas, const Key& key, int panel, ui::FrameContext& context,
              Build build, bool coarse) {
        const Theme theme = context.theme;
        const float width = canvas.box.width, height = canvas.box.height;
        const Stamp stamp{key, width, height, theme.id, theme.fontSize, panel};
        const Refined<Built> shown = figures_.get(
            stamp,
            [build, theme](const Stamp& s, Detail detail, const std::atomic<bool>&) {
                Built made;
                Result<Figure> figure = build(s.width, s.height, theme, s.panel, detail);
                if (figure) {
                    made.figure = std::move(figure).value();
                } else {
                    made.error = figure.error().message;
                    made.figure = emptyFigure(s.width, s.height, theme);
                    drawNote(made.figure, {0, 0, s.width, s.height}, made.error, theme);
                }
                return made;
            },
            coarse);
        exact_ = shown.exact;
        error_ = shown.value ? shown.value->error : std::string();
        if (!shown.exact) {
            context.waiting = true;    // a scripted screenshot waits for the exact figure
            context.animating = true;  // frames keep coming until it is here
        }
        if (shown.value) {
            ui::drawCanvasFigure(canvas, shown.value->figure, context);
        } else {
            Figure note = emptyFigure(width, height, theme);
            drawNote(note, {0, 0, width, height}, "computing…", theme);
            ui::drawCanvasFigure(canvas, note, context);
        }
        if (shown.value && !shown.exact) {  // coarse, or an earlier key's: say so
            const char* label = shown.current ? "refining…" : "updating…";
            const ImVec2 size = ImGui::CalcTextSize(label);
            ImGui::GetWindowDrawList()->AddText(
                ImVec2(canvas.box.x + canvas.box.width - size.x - 8, canvas.box.y + 4),
                ImGui::GetColorU32(ImGuiCol_TextDisabled), label);
        }
    }
    RefiningMemo<Stamp, Built> figures_;
    int selectedPanel_ = 0;
    bool exact_ = false;
    std::string error_;
};

// CachedFigure for data that takes longer than a frame: the layout is made on this thread, the
// data for it on a worker; until the current key's data is in, the last finished data is drawn
// with the layout and key it was made for (draw(figure, layout, data, key)), marked "updating…".
template <class Key, class Layout, class Data>
class LiveCachedFigure {
  public:
    // As CachedFigure::showPanels; compute(layout) runs on a worker (copy what it reads).
    template <class Panels, class MakeLayout, class Compute, class Draw>
    ui::Canvas showPanels(const char* id, const Key& key, ui::FrameContext& context, Panels panels,
                          MakeLayout makeLayout, Compute compute, Draw draw) {
        return showRefining(
            id, key, context, std::move(panels), std::move(makeLayout),
            [compute](const Layout& layout, Detail) { return compute(layout); }, std::move(draw),
            false);
    }
    // The same with a coarse value: compute(layout, detail) is called with Detail::Coarse on
    // this thread while the key moves, with Detail::Exact on a worker once it holds still.
    template <class Panels, class MakeLayout, class Compute, class Draw>
    ui::Canvas showRefining(const char* id, const Key& key, ui::FrameContext& context,
                            Panels panels, MakeLayout makeLayout, Compute compute, Draw draw,
                            bool coarse = true) {
        const auto [canvas, stamp] = beginPanelCanvas(id, key, context, panels, &selectedPanel_);
        const Box area{0, 0, stamp.width, stamp.height};
        Layout layout = makeLayout(area, selectedPanel_);
        const Refined<Made> shown = made_.get(
            stamp,
            [layout, compute](const Stamp&, Detail detail, const std::atomic<bool>&) {
                return Made{layout, compute(layout, detail)};
            },
            coarse);
        exact_ = shown.exact;
        if (!shown.exact) context.waiting = context.animating = true;
        Figure figure = emptyFigure(area.width, area.height, context.theme);
        // A Draw that takes a fifth argument may put what changes more often than the rest in
        // this figure, drawn over the first: the first then stays the same and is copied from
        // its figure layer (gfx/figure_layers.hpp). A layout audit sees one whole figure.
        Figure overlay = emptyFigure(area.width, area.height, context.theme);
        overlay.background = {0, 0, 0, 0};
        if (!shown.value) {
            drawNote(figure, area, "computing…", context.theme);
        } else if (shown.value->data) {
            // The key the data was made for: this one (exact or coarse), or the last exact.
            const Key& made = shown.current ? key : made_.exactKey()->key;
            if constexpr (std::is_invocable_v<Draw&, Figure&, const Layout&, const Data&,
                                              const Key&, Figure*>) {
                draw(figure, std::as_const(shown.value->layout), shown.value->data.value(), made,
                     context.layoutAudit ? nullptr : &overlay);
            } else {
                draw(figure, std::as_const(shown.value->layout), shown.value->data.value(), made);
            }
        } else {
            drawNote(figure, area, shown.value->data.error().message, context.theme);
        }
        ui::drawCanvasFigure(canvas, figure, context);
        if (!overlay.items.empty()) ui::drawCanvasFigure(canvas, overlay, context);
        if (shown.value && !shown.exact) {
            const char* label = shown.current ? "refining…" : "updating…";
            const ImVec2 size = ImGui::CalcTextSize(label);
            ImGui::GetWindowDrawList()->AddText(
                ImVec2(canvas.box.x + canvas.box.width - size.x - 8, canvas.box.y + 4),
                ImGui::GetColorU32(ImGuiCol_TextDisabled), label);
        }
        ok_ = shown.value && shown.value->data;
        data_ = ok_ ? &shown.value->data.value() : nullptr;
        return canvas;
    }
    bool ok() const { return ok_; }              // data was drawn (no error)
    bool exact() const { return exact_; }        // ... and it is the current key's
    const Data& data() const { return *data_; }  // when ok(): the data drawn

  private:
    using Stamp = FigureStamp<Key>;
    struct Made {
        Layout layout;
        Result<Data> data;
    };
    RefiningMemo<Stamp, Made> made_;
    const Data* data_ = nullptr;
    bool ok_ = false, exact_ = false;
    int selectedPanel_ = 0;
};

}  // namespace poslab::panels
