// layout_sweep.hpp — what --check-layout visits: every figure tab of every view, and every panel
// of a view that shows its panels one at a time.
#pragma once

#include <string>
#include <vector>

namespace poslab::ui {

// One figure tab: the view's tab title and the state (as a lesson step writes it) that selects
// the tab. Views without figure tabs have one entry with an empty state.
struct FigureTab {
    std::string view;   // Panel::title()
    std::string name;   // the tab's session name ("scalings"), "" for a view without tabs
    std::string state;  // JSON for applyStateJson: {"rope": {"figure": 7}}
};
// Every tab of the views named in `views`, in order (views this file does not know: one entry).
std::vector<FigureTab> figureTabs(const std::vector<std::string>& views);

// While a sweep runs, panelSelector shows panel `panel` (or the last) and records how many panels
// the view offers; outside a sweep panel is -1 and nothing changes.
struct PanelSweep {
    int panel = -1;
    int count = 1;  // the most panels a selector offered since the last reset
};
PanelSweep& panelSweep();

}  // namespace poslab::ui
