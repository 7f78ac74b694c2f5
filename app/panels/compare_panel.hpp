// compare_panel.hpp — every encoding side by side under one width and length (what each adds,
// and what a query in the middle sees), and an A/B mode for two RoPE configurations — two
// Hugging Face config.json files, or two bases such as 10000 and 500000 — with their difference.
#pragma once

#include <memory>
#include <string>

#include "panels/live_figure.hpp"
#include "poslab/views/compare_ab_figures.hpp"
#include "poslab/views/compare_figures.hpp"
#include "ui/panel.hpp"

namespace poslab::panels {

class ComparePanel : public ui::Panel {
  public:
    const char* title() const override { return "Compare"; }
    Figure exportFigure(const state::AppState& state, float width, float height,
                        const Theme& theme) const override;
    // All encodings: rows = offsets from the middle query; columns offset, sinusoidal, learned,
    // RoPE (cosines), ALiBi, T5 (biases). A/B: offset, A, B, B - A (expected RoPE cosines).
    Result<Matrix> exportData(const state::AppState& state) const override;

  protected:
    void drawControls(state::AppState& state, ui::FrameContext& context) override;
    void drawFigures(state::AppState& state, ui::FrameContext& context) override;

  private:
    void drawControls(state::CompareViewState& view);
    // Built on a worker (every encoding at its top: ~0.3 s); the last figure shown meanwhile,
    // a new one at most every kWholeFigurePace while a control moves.
    LiveFigure<CompareOptions> all_{kWholeFigurePace};
    LiveFigure<state::CompareViewState> ab_;
    // A/B's last curves, shared with the builds: while B's base moves A's curve is reused.
    std::shared_ptr<AbCurveCache> abCurves_ = std::make_shared<AbCurveCache>();
    state::CompareMode shownTab_ = state::CompareMode::AllEncodings;
    // The last config.json read for each side (the label says what was read, or why not).
    std::string sideInfo_[2];
};

}  // namespace poslab::panels
