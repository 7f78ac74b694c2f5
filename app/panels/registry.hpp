// registry.hpp — every view PosLab shows, in tab order. The one place that names each built-in
// panel; encodings registered as plug-ins (state/encoding_registry.hpp) bring theirs, placed
// after the tab they name. main.cpp hands the list to the Application, so ui/ includes no panel.
#pragma once

#include <memory>
#include <vector>

#include "ui/panel.hpp"

namespace poslab::panels {

std::vector<std::unique_ptr<ui::Panel>> makePanels();  // Sinusoidal, RoPE, ALiBi, … Compare

}  // namespace poslab::panels
