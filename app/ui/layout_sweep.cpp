#include "ui/layout_sweep.hpp"

#include <nlohmann/json.hpp>

#include "state/bias_state.hpp"
#include "state/contextual_state.hpp"
#include "state/relative_state.hpp"
#include "state/rope_state.hpp"
#include "state/understanding_state.hpp"
#include "state/vision_rope_state.hpp"

namespace poslab::ui {

namespace {

template <class Names>
void addNamed(std::vector<FigureTab>& tabs, const std::string& view, const char* section,
              const char* key, const Names& names) {
    for (const auto& entry : names.entries) {
        nlohmann::json state;
        state[section][key] = std::string(entry.name);
        tabs.push_back({view, std::string(entry.name), state.dump()});
    }
}

}  // namespace

std::vector<FigureTab> figureTabs(const std::vector<std::string>& views) {
    std::vector<FigureTab> tabs;
    for (const std::string& view : views) {
        if (view == "RoPE") {
            // Saved by number (rope_state.hpp); Usage, the last, needs a checkpoint: its note.
            for (int id = 0; id <= int(state::RopeFigureId::Usage); ++id) {
                nlohmann::json state;
                state["rope"]["figure"] = id;
                tabs.push_back({view, "figure " + std::to_string(id), state.dump()});
            }
        } else if (view == "Learned") {
            addNamed(tabs, view, "learned", "tab", state::kLearnedTabNames);
        } else if (view == "Meaning") {
            addNamed(tabs, view, "meaning", "figure", state::kMeaningFigureNames);
        } else if (view == "Intuitions") {
            addNamed(tabs, view, "intuition", "figure", state::kIntuitionFigureNames);
        } else if (view == "Vision RoPE") {
            addNamed(tabs, view, "visionRope", "figure", state::kVisionRopeFigureNames);
        } else if (view == "Compare") {
            addNamed(tabs, view, "compare", "mode", state::kCompareModeNames);
        } else if (view == "Relative") {
            addNamed(tabs, view, "relative", "tab", state::kRelativeTabNames);
        } else if (view == "Context") {
            addNamed(tabs, view, state::kContextualKey, "tab", state::kContextualTabNames);
        } else {
            tabs.push_back({view, "", ""});
        }
    }
    return tabs;
}

PanelSweep& panelSweep() {
    static PanelSweep sweep;  // one GUI thread draws the panels
    return sweep;
}

}  // namespace poslab::ui
