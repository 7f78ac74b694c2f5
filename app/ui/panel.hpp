// panel.hpp — one view of PosLab: controls on the left, figures on the right.
//
// A panel owns only caches derived from AppState; the state itself stays in AppState.
#pragma once

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
    virtual void draw(state::AppState& state, FrameContext& context) = 0;  // the one entry point

    // ---- Export (File > Export, Ctrl+E): what the user sees, as a file
    // The panel's figures composed into one figure of the given size, drawn from AppState alone
    // (no caches needed), with the given theme.
    virtual Figure exportFigure(const state::AppState& state, float width, float height,
                                const Theme& theme) const = 0;
    // The numbers behind the panel's main figure, for CSV/NPY.
    virtual Result<Matrix> exportData(const state::AppState& state) const = 0;
};

// The standard layout: a fixed-width controls column (hidden when !state.showControls), then the
// figure area. Calls drawControls() and drawFigures() in that order.
template <class DrawControls, class DrawFigures>
void panelLayout(const state::AppState& state, const FrameContext& context,
                 DrawControls drawControls, DrawFigures drawFigures);

}  // namespace poslab::ui

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace poslab::ui {

template <class DrawControls, class DrawFigures>
void panelLayout(const state::AppState& state, const FrameContext& context,
                 DrawControls drawControls, DrawFigures drawFigures) {
    if (state.showControls) {
        // At most 45 % of a small window (480 px): the figures keep room to be read.
        const float width = std::min(330.0f * context.uiScale,
                                     std::floor(ImGui::GetContentRegionAvail().x * 0.45f));
        ImGui::BeginChild("controls", ImVec2(width, 0), true);
        ImGui::PushItemWidth(-ImGui::GetFontSize() * 7.5f);
        drawControls();
        ImGui::PopItemWidth();
        ImGui::EndChild();
        ImGui::SameLine();
    }
    ImGui::BeginChild("figures", ImVec2(0, 0), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    drawFigures();
    ImGui::EndChild();
}

}  // namespace poslab::ui
