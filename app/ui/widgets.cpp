#include "ui/widgets.hpp"

#include <imgui.h>

#include "gfx/figure_renderer.hpp"

namespace poslab::ui {

void tooltipForLastItem(const char* text) {
    // Not while the item is being dragged: the user is watching the value and the figures.
    if (text && ImGui::IsItemHovered() && !ImGui::IsItemActive()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
        ImGui::TextUnformatted(text);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

void sectionHeader(const char* text) {
    ImGui::Spacing();
    ImGui::TextDisabled("%s", text);
    ImGui::Separator();
}

bool sliderInt(const char* label, int* value, int low, int high, const char* tooltip, bool logarithmic) {
    const bool changed = ImGui::SliderInt(label, value, low, high, "%d",
                                          logarithmic ? ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp
                                                      : ImGuiSliderFlags_AlwaysClamp);
    tooltipForLastItem(tooltip);
    return changed;
}

bool sliderDouble(const char* label, double* value, double low, double high, const char* format,
                  const char* tooltip, bool logarithmic) {
    const bool changed = ImGui::SliderScalar(
        label, ImGuiDataType_Double, value, &low, &high, format,
        logarithmic ? ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp : ImGuiSliderFlags_AlwaysClamp);
    tooltipForLastItem(tooltip);
    return changed;
}

Canvas beginCanvas(const char* id, float height) {
    Canvas canvas;
    ImVec2 size = ImGui::GetContentRegionAvail();
    if (height > 0) size.y = height;
    size.x = std::max(size.x, 32.0f);
    size.y = std::max(size.y, 32.0f);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton(id, size, ImGuiButtonFlags_MouseButtonLeft);
    canvas.box = {origin.x, origin.y, size.x, size.y};
    canvas.hovered = ImGui::IsItemHovered();
    const ImGuiIO& io = ImGui::GetIO();
    canvas.mouse = {io.MousePos.x - origin.x, io.MousePos.y - origin.y};
    if (canvas.hovered) canvas.wheel = io.MouseWheel;
    canvas.dragging = ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 1.0f);
    if (canvas.dragging) canvas.dragDelta = {io.MouseDelta.x, io.MouseDelta.y};
    canvas.doubleClicked = canvas.hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left);
    canvas.clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left);
    return canvas;
}

void drawCanvasFigure(const Canvas& canvas, const Figure& figure, const FrameContext& context) {
    gfx::FigureTarget target;
    target.drawList = ImGui::GetWindowDrawList();
    target.origin = {canvas.box.x, canvas.box.y};
    target.fonts = context.fonts;
    target.heatmaps = context.heatmaps;
    gfx::drawFigure(target, figure);
}

}  // namespace poslab::ui
