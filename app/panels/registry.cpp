#include "panels/registry.hpp"

#include <algorithm>

#include "panels/compare_panel.hpp"
#include "panels/extrapolation_panel.hpp"
#include "panels/intuition_panel.hpp"
#include "panels/learned_panel.hpp"
#include "panels/meaning_panel.hpp"
#include "panels/rope_panel.hpp"
#include "panels/similarity_panel.hpp"
#include "panels/sinusoidal_panel.hpp"
#include "panels/t5_panel.hpp"
#include "panels/vision_rope_panel.hpp"
#include "state/encoding_registry.hpp"

namespace poslab::panels {

std::vector<std::unique_ptr<ui::Panel>> makePanels() {
    std::vector<std::unique_ptr<ui::Panel>> panels;
    panels.push_back(std::make_unique<SinusoidalPanel>());
    panels.push_back(std::make_unique<RopePanel>());
    panels.push_back(std::make_unique<VisionRopePanel>());
    panels.push_back(std::make_unique<T5Panel>());
    panels.push_back(std::make_unique<LearnedPanel>());
    panels.push_back(std::make_unique<SimilarityPanel>());
    panels.push_back(std::make_unique<MeaningPanel>());
    panels.push_back(std::make_unique<IntuitionPanel>());
    panels.push_back(std::make_unique<ExtrapolationPanel>());
    panels.push_back(std::make_unique<ComparePanel>());
    // Encodings registered as plug-ins (app/encodings/), each after the tab it names.
    for (const state::EncodingPlugin& plugin : state::encodingPlugins()) {
        if (!plugin.makePanel) continue;
        auto after = std::find_if(panels.begin(), panels.end(), [&](const auto& panel) {
            return plugin.after == panel->title();
        });
        panels.insert(after == panels.end() ? after : after + 1, plugin.makePanel());
    }
    return panels;
}

}  // namespace poslab::panels
