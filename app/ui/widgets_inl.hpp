// widgets_inl.hpp — template definitions for widgets.hpp.
#pragma once

#include <imgui.h>

namespace poslab::ui {

template <class Enum, class NameFn, class List>
bool comboEnum(const char* label, Enum* value, const List& choices, NameFn name, const char* tooltip) {
    bool changed = false;
    const std::string current(name(*value));
    if (ImGui::BeginCombo(label, current.c_str())) {
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

template <class Enum, std::size_t N>
void stateTabBar(const char* id, const std::pair<Enum, const char*> (&tabs)[N], Enum* chosen,
                 Enum* shown) {
    if (!ImGui::BeginTabBar(id, ImGuiTabBarFlags_FittingPolicyScroll)) return;  // whole labels
    const bool forced = *chosen != *shown;
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
