#include "ui/layout_sweep.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <string_view>

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
        tabs.push_back({view, std::string(entry.name), state.dump(), ""});
    }
}

// "gemma-3-4b-it.json" of ".../configs/gemma-3-4b-it.json"; a folder's own name ("ckpt" of
// "/tmp/ckpt/").
std::string lastPathPart(std::string path) {
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    const std::size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Controls hidden until a setting shows them, each group with the settings that do.
struct HiddenControls {
    const char* view;
    const char* name;
    const char* state;
};
constexpr HiddenControls kHiddenControls[] = {
    {"RoPE", "typed-in q and k", R"({"rope": {"customVectors": true, "keyEqualsQuery": false}})"},
    {"RoPE", "k seed, YaRN's settings",
     R"({"rope": {"keyEqualsQuery": false, "params": {"scaling": {"type": "yarn"}}}})"},
    {"RoPE", "Llama 3's settings", R"({"rope": {"params": {"scaling": {"type": "llama3"}}}})"},
    {"ALiBi", "random content logits", R"({"alibi": {"randomContent": true}})"},
    {"T5", "per-bucket bias values", ""},  // a closed section: opened (collapsingSection)
    {"Similarity", "a learned table", R"({"similarity": {"params": {"encoding": "learned"}}})"},
    {"Compare", "config paths",
     R"({"compare": {"a": {"useConfig": true}, "b": {"useConfig": true}}})"},
};

}  // namespace

std::vector<FigureTab> figureTabs(const std::vector<std::string>& views, const LayoutData& data) {
    std::vector<FigureTab> tabs;
    for (const std::string& view : views) {
        if (view == "RoPE") {
            // Saved by number (rope_state.hpp); Usage, the last, needs a checkpoint: its note.
            for (int id = 0; id <= int(state::RopeFigureId::Usage); ++id) {
                nlohmann::json state;
                state["rope"]["figure"] = id;
                tabs.push_back({view, "figure " + std::to_string(id), state.dump(), ""});
            }
            // Layers and Usage again with data (without, each shows a note): a config.json
            // opened fills the Layers tab, a checkpoint the Usage tab.
            auto withFile = [&](state::RopeFigureId id, const char* name, const std::string& path) {
                nlohmann::json state;
                state["rope"]["figure"] = int(id);
                tabs.push_back(
                    {view, std::string(name) + " " + lastPathPart(path), state.dump(), path});
            };
            for (const std::string& config : data.configs)
                withFile(state::RopeFigureId::Layers, "layers of", config);
            if (!data.checkpoint.empty())
                withFile(state::RopeFigureId::Usage, "usage of", data.checkpoint);
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
            tabs.push_back({view, "", "", ""});
        }
        for (const HiddenControls& hidden : kHiddenControls) {
            if (view == hidden.view)
                tabs.push_back(
                    {view, std::string(hidden.name) + " (controls)", hidden.state, "", true});
        }
    }
    return tabs;
}

PanelSweep& panelSweep() {
    static PanelSweep sweep;  // one GUI thread draws the panels
    return sweep;
}

ControlSweep& controlSweep() {
    static ControlSweep sweep;  // one GUI thread draws the panels
    return sweep;
}

void auditControlWidth(const char* label, const std::string& value, float valueWidth,
                       float fieldWidth) {
    ControlSweep& sweep = controlSweep();
    if (!sweep.checking || valueWidth <= fieldWidth) return;
    const std::string_view whole(label);
    const std::string shown(whole.substr(0, whole.find("##")));
    // A path is named by its start: the line stays one line.
    const std::string start = value.size() > 40 ? value.substr(0, 40) + "..." : value;
    char line[256];
    std::snprintf(line, sizeof line, "the control '%s' is %.0f px wide, its value '%s' needs %.0f",
                  shown.empty() ? std::string(whole).c_str() : shown.c_str(), fieldWidth,
                  start.c_str(), valueWidth);
    sweep.squeezed.push_back(line);
}

}  // namespace poslab::ui
