#include "ui/share_menu.hpp"

#include <imgui.h>

#include "state/share_link.hpp"
#include "ui/widgets.hpp"

namespace poslab::ui {

void drawShareLinkMenu(state::AppState& state, const std::string& fragment, std::string& status) {
    if (ImGui::MenuItem("Copy link")) {
        const std::string address = state::linkAddress(state.linkBase, fragment);
        ImGui::SetClipboardText(address.c_str());
        status = "Copied the link " + address;
    }
    tooltipForLastItem(
        "Copies the page address below with this view and its settings after '#': opened in a "
        "browser (the web build) or with `poslab 'URL#…'`, it shows the same figure.");
    if (ImGui::BeginMenu("Link address")) {
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 24);
        inputString("##link base", &state.linkBase);
        tooltipForLastItem(
            "Where the web build (build-web/) is hosted, e.g. https://example.org/poslab/. "
            "Remembered with the session.");
        ImGui::EndMenu();
    }
}

}  // namespace poslab::ui
