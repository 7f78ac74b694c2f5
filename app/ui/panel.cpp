// panel.cpp — the frame every view shares (panel.hpp).
#include "ui/panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace poslab::ui {

void Panel::prepare(state::AppState&, FrameContext&) {}

void Panel::draw(state::AppState& state, FrameContext& context) {
    prepare(state, context);
    if (state.showControls) {
        // At most 45 % of a small window (480 px): the figures keep room to be read.
        const float width = std::min(330.0f * context.uiScale,
                                     std::floor(ImGui::GetContentRegionAvail().x * 0.45f));
        ImGui::BeginChild("controls", ImVec2(width, 0), true);
        ImGui::PushItemWidth(-ImGui::GetFontSize() * 7.5f);
        drawControls(state, context);
        ImGui::PopItemWidth();
        ImGui::EndChild();
        ImGui::SameLine();
    }
    ImGui::BeginChild("figures", ImVec2(0, 0), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    drawFigures(state, context);
    ImGui::EndChild();
}

}  // namespace poslab::ui
