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
    std::string file;   // opened (as `poslab FILE` opens it) before the tab is shown, or ""
    // Controls a view shows only in some state (ALiBi's seed behind "random content logits",
    // RoPE's typed-in q and k): `state` shows them, and only the controls are audited.
    bool controlsOnly = false;
};
// Files that give the tabs which show nothing without one their data (--layout-configs,
// --layout-checkpoint): RoPE's Layers tab once per config.json, its Usage tab with a checkpoint.
struct LayoutData {
    std::vector<std::string> configs;
    std::string checkpoint;
};
// Every tab of the views named in `views`, in order (views this file does not know: one entry);
// RoPE's tabs are followed by one entry per file in `data`; a view's tabs by its entries for
// controls hidden in its first state (controlsOnly).
std::vector<FigureTab> figureTabs(const std::vector<std::string>& views,
                                  const LayoutData& data = {});

// While a sweep runs, panelSelector shows panel `panel` (or the last) and records how many panels
// the view offers; outside a sweep panel is -1 and nothing changes.
struct PanelSweep {
    int panel = -1;
    int count = 1;  // the most panels a selector offered since the last reset
};
PanelSweep& panelSweep();

// While --check-layout audits a frame (checking is true), the controls whose value is wider than
// the field that shows it (a seed's digits cut by its - and + buttons), one line each.
struct ControlSweep {
    bool checking = false;
    std::vector<std::string> squeezed;
    bool openSections = false;  // collapsingSection opens (the controls audited alone)
};
ControlSweep& controlSweep();
// Reported to controlSweep() when `valueWidth` (the value's text and the frame's padding) is more
// than `fieldWidth`, both in pixels; `label` as ImGui shows it ("seed", "##id" parts dropped;
// a hidden label, "##config", as it is).
void auditControlWidth(const char* label, const std::string& value, float valueWidth,
                       float fieldWidth);

}  // namespace poslab::ui
