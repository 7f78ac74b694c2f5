// share_menu.hpp — File > Copy link and the page address links are made for: a figure made on
// the desktop handed to a class as a link to the web build (state/share_link.hpp).
#pragma once

#include <string>

#include "state/app_state.hpp"

namespace poslab::ui {

// Inside the open File menu. fragment: Application::linkFragment(); status: the status line.
void drawShareLinkMenu(state::AppState& state, const std::string& fragment, std::string& status);

}  // namespace poslab::ui
