// widgets_inl.hpp — template definitions for widgets.hpp.
#pragma once

#include <imgui.h>

namespace poslab::ui {

template <class Enum, class NameFn, class List>
bool comboEnum(const char* label, Enum* value, const List& choices, NameFn name, const char* tooltip) {
    bool changed = false;
    std::vector<std::string> names;
    for (Enum choice : choices) names.emplace_back(name(choice));
    if (beginCombo(label, std::string(name(*value)), names)) {
        for (Enum choice : choices) {
            const std::string text(name(choice));
            if (ImGui::Selectable(text.c_str(), choice == *value)) {
                changed = choice != *value;
                *value = choice;
            }
        }
        ImGui::EndCombo();
    }
    if (tooltip) tooltipForLastItem(tooltip);
    return changed;
}

template <class Selected>
int tabButtonRows(const char* id, const char* const* labels, int count, Selected selected) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    int clicked = -1;
    ImGui::PushID(id);
    for (int i = 0; i < count; ++i) {
        const float width = ImGui::CalcTextSize(labels[i]).x + style.FramePadding.x * 2;
        if (i > 0) {
            ImGui::SameLine(0, style.ItemInnerSpacing.x);
            if (ImGui::GetCursorScreenPos().x + width > right) ImGui::NewLine();
        }
        const bool chosen = selected(i);
        ImGui::PushStyleColor(ImGuiCol_Button,
                              style.Colors[chosen ? ImGuiCol_TabActive : ImGuiCol_Tab]);
        ImGui::PushStyleColor(ImGuiCol_ButtonHovered, style.Colors[ImGuiCol_TabHovered]);
        ImGui::PushStyleColor(ImGuiCol_ButtonActive, style.Colors[ImGuiCol_TabActive]);
        if (ImGui::Button(labels[i])) clicked = i;
        ImGui::PopStyleColor(3);
    }
    ImGui::PopID();
    ImGui::Separator();
    return clicked;
}

template <class Enum, std::size_t N>
void stateTabBar(const char* id, const std::pair<Enum, const char*> (&tabs)[N], Enum* chosen,
                 Enum* shown) {
    const char* labels[N];
    for (std::size_t i = 0; i < N; ++i) labels[i] = tabs[i].second;
    // Labels too wide for one row but not for two (RoPE's nine at 1024 pixels in presentation
    // mode): two rows of tab buttons, as the views' bar, not tabs behind scroll arrows. In a
    // window under 1024x768 (480x320) the second row would take the figures' height (legends
    // pushed over data): a scrolled bar there.
    const ImVec2 window = ImGui::GetMainViewport()->Size;
    const bool roomForRows = window.x >= 1024 && window.y >= 768;
    ImGui::PushID(id);
    const ImGuiID wrappedKey = ImGui::GetID("##wrapped");
    ImGui::PopID();
    ImGuiStorage* storage = ImGui::GetStateStorage();
    if (roomForRows && tabRows(labels, int(N), ImGui::GetContentRegionAvail().x) == 2) {
        storage->SetBool(wrappedKey, true);
        const int clicked = tabButtonRows(
            id, labels, int(N), [&](int i) { return tabs[std::size_t(i)].first == *chosen; });
        if (clicked >= 0) *chosen = tabs[std::size_t(clicked)].first;
        *shown = *chosen;
        return;
    }
    // Back from the rows: the tab bar opens on the tab they showed.
    const bool fromRows = storage->GetBool(wrappedKey, false);
    storage->SetBool(wrappedKey, false);
    if (!ImGui::BeginTabBar(id, ImGuiTabBarFlags_FittingPolicyScroll)) return;  // whole labels
    const bool forced = *chosen != *shown || fromRows;
    for (const auto& [value, label] : tabs) {
        const ImGuiTabItemFlags flags =
            forced && value == *chosen ? ImGuiTabItemFlags_SetSelected : 0;
        if (ImGui::BeginTabItem(label, nullptr, flags)) {
            if (!forced) *chosen = value;
            *shown = value;
            ImGui::EndTabItem();
        }
    }
    ImGui::EndTabBar();
}

}  // namespace poslab::ui
