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

}  // namespace poslab::ui
