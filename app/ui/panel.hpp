// panel.hpp — one view of PosLab: controls on the left, figures on the right.
//
// A panel owns only caches derived from AppState; the state itself stays in AppState. Every view
// has the same frame (Panel::draw, final): prepare(), the controls column, the figure area. A
// view writes only its three parts and its exports.
#pragma once

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"
#include "poslab/figure/figure.hpp"
#include "poslab/figure/plot.hpp"
#include "state/app_state.hpp"
#include "ui/frame_context.hpp"

namespace poslab::ui {

class Panel {
  public:
    virtual ~Panel() = default;
    virtual const char* title() const = 0;  // tab label, also the --view name
    // The one entry point, the same for every view (ImHex's View::draw() -> drawContent()):
    // prepare(), then a fixed-width controls column (hidden when !state.showControls; at most
    // 330 px, or 45 % of a small window) calling drawControls(), then the figure area calling
    // drawFigures().
    virtual void draw(state::AppState& state, FrameContext& context) final;

    // ---- Export (File > Export, Ctrl+E): what the user sees, as a file
    // The panel's figures composed into one figure of the given size, drawn from AppState alone
    // (no caches needed), with the given theme.
    virtual Figure exportFigure(const state::AppState& state, float width, float height,
                                const Theme& theme) const = 0;
    // The numbers behind the panel's main figure, for CSV/NPY.
    virtual Result<Matrix> exportData(const state::AppState& state) const = 0;

    // ---- A file handed to the view (Application::openFile): whether the view shows its data
    // (`read`), or why it refused it (`problem`); neither while it has not read it yet (a worker
    // still reading, the view not drawn since). Views that open no files: neither.
    struct FileRead {
        bool read = false;
        std::string problem;
    };
    virtual FileRead fileRead(const state::AppState& state, const std::string& path) const;

  protected:
    // ---- One frame, in this order
    // What both columns read, once a frame: dropped files, animation, caches. Nothing by default.
    virtual void prepare(state::AppState& state, FrameContext& context);
    virtual void drawControls(state::AppState& state, FrameContext& context) = 0;  // left column
    virtual void drawFigures(state::AppState& state, FrameContext& context) = 0;   // the rest
};

// Whether `name` (--view, a lesson step's "view", a session) names the view titled `title`:
// its title in any case.
inline bool isViewNamed(std::string_view title, std::string_view name) {
    return title.size() == name.size() &&
           std::equal(title.begin(), title.end(), name.begin(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) ==
                      std::tolower(static_cast<unsigned char>(b));
           });
}

}  // namespace poslab::ui
