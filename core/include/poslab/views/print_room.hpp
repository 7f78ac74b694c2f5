// print_room.hpp — a view asking a file for the height its text needs at one column.
//
// `poslab render VIEW --width 600` (and the export dialog's "height from width") derives the
// height and shows every panel (Theme::panelRoom, figure_controls' buildWithAllPanels): the
// figure is built again as much taller as any part of it asked for. Views that lay out their own
// notes, captions and labels ask here, so text wraps at its legible size instead of being cut.
#pragma once

#include <algorithm>
#include <cmath>

#include "poslab/figure/theme.hpp"

namespace poslab {

// Asks for `missing` more pixels of height (ignored on screen, where panelRoom is null, and for
// a non-positive or non-finite amount).
inline void askForHeight(const Theme& theme, float missing) {
    if (!theme.panelRoom || !std::isfinite(missing) || !(missing > 0)) return;
    theme.panelRoom->missingHeight = std::max(theme.panelRoom->missingHeight, missing);
}

// Whether the canvas may grow (a file): text may then take the lines it needs.
inline bool heightMayGrow(const Theme& theme) {
    return theme.panelRoom != nullptr;
}

}  // namespace poslab
