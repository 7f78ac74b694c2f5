// panel.cpp — the frame every view shares (panel.hpp).
#include "ui/panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace poslab::ui {

namespace {

// In lines of UI text: a figure area shorter than kScrollBelowLines is laid out on a page
// kPageLines tall that scrolls. Between the two the figures fit the window as they are (640x480
// keeps its 334 px: a page 50 px taller moved more texts onto data than it freed).
constexpr float kScrollBelowLines = 18;
constexpr float kPageLines = 24;

}  // namespace

void Panel::prepare(state::AppState&, FrameContext&) {}

Panel::FileRead Panel::fileRead(const state::AppState&, const std::string&) const {
    return {};
}

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
    if (context.controlsOnly) return;
    // A window too short for the figures' text (a 480x320 window keeps 180 px for a plot, its
    // title, ticks and legend: the legend could only go over the curves) lays them out on a
    // taller page that scrolls, with its own scroll bar: the wheel stays the figures' zoom. Not
    // in presentation mode: a projector shows the whole figure, under a lesson's card too.
    const float tallest = ImGui::GetContentRegionAvail().y;
    const float line = ImGui::GetFontSize() / std::max(1.0f, context.uiScale);
    const float page = kPageLines * line;
    const bool scrolls = tallest < kScrollBelowLines * line && !state.tour.presentation;
    // A slim bar: every pixel of a small window's width goes to the figures.
    ImGui::PushStyleVar(ImGuiStyleVar_ScrollbarSize, std::floor(ImGui::GetFontSize() * 0.7f));
    ImGui::BeginChild(
        "figures", ImVec2(0, 0), false,
        (scrolls ? 0 : ImGuiWindowFlags_NoScrollbar) | ImGuiWindowFlags_NoScrollWithMouse);
    ImGui::PopStyleVar();
    if (scrolls)
        ImGui::BeginChild("figures page", ImVec2(0, page), false,
                          ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    drawFigures(state, context);
    if (scrolls) ImGui::EndChild();
    ImGui::EndChild();
}

}  // namespace poslab::ui
