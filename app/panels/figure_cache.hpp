// figure_cache.hpp — a whole Figure kept until its key changes, for the understanding panels whose
// figures are composites built by core (understanding_figures.hpp): rebuilt when a parameter, the
// canvas size or the theme changes, never every frame. The heatmaps inside keep their versions,
// so the renderer's textures are reused as well.
#pragma once

#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "poslab/figure.hpp"
#include "poslab/plot.hpp"
#include "poslab/result.hpp"
#include "ui/frame_context.hpp"
#include "ui/widgets.hpp"

namespace poslab::ui {

// The figure theme for a composite figure of several plots in a width x height canvas. In
// presentation mode the fonts grow only as far as the canvas has room for the layout the figure
// was designed at (about minWidth x minHeight at normal size), so small multiples stay legible.
inline Theme fittedTheme(const FrameContext& context, float width, float height,
                         float minWidth = 1000, float minHeight = 620) {
    if (context.uiScale <= 1.0f) return context.theme;
    const float fit =
        std::clamp(std::min(width / minWidth, height / minHeight), 1.0f, context.uiScale);
    return scaledTheme(themeFor(context.theme.id), fit);
}

class FigureCache {
  public:
    // The canvas fills the remaining space (or `height` pixels); `parameters` identify the
    // figure's inputs; build(width, height, theme) makes it. Errors are drawn in the canvas.
    template <class Build>
    Canvas show(const char* id, const nlohmann::json& parameters, const FrameContext& context,
                Build build, float height = 0) {
        const Canvas canvas = beginCanvas(id, height);
        const Theme theme = fittedTheme(context, canvas.box.width, canvas.box.height);
        const std::string key = parameters.dump() + "|" + std::to_string(int(canvas.box.width)) +
                                "x" + std::to_string(int(canvas.box.height)) + "|" +
                                std::string(themeName(theme.id)) + "|" +
                                std::to_string(theme.fontSize);
        if (key != key_) {
            key_ = key;
            Result<Figure> built = build(canvas.box.width, canvas.box.height, theme);
            if (built) {
                figure_ = std::move(built).value();
                error_.clear();
            } else {
                error_ = built.error().message;
                figure_ = emptyFigure(canvas.box.width, canvas.box.height, context.theme);
                drawNote(figure_, {0, 0, canvas.box.width, canvas.box.height}, error_,
                         context.theme);
            }
        }
        drawCanvasFigure(canvas, figure_, context);
        return canvas;
    }
    const std::string& error() const { return error_; }  // the last build's error, "" if none
    void invalidate() { key_.clear(); }

  private:
    std::string key_;
    Figure figure_;
    std::string error_;
};

}  // namespace poslab::ui
