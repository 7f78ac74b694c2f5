// extrapolation_panel.hpp — past the training length: one panel of small multiples (sinusoidal,
// learned, RoPE's angles per pair, RoPE with each scaling, ALiBi, T5), each with two or three
// sentences on what happens beyond the marker and why; a second tab shows the relative-position
// family (KERPLE, Sandwich, FIRE, xPos, DeBERTa, all of them on shared axes) the same way.
#pragma once

#include "panels/live_figure.hpp"
#include "ui/panel.hpp"

namespace poslab::panels {

class ExtrapolationPanel : public ui::Panel {
  public:
    const char* title() const override { return "Extrapolation"; }
    Figure exportFigure(const state::AppState& state, float width, float height,
                        const Theme& theme) const override;
    // Per RoPE pair: pair, wavelength, largest angle seen in training, largest angle at the
    // evaluation length without scaling and with linear, ntk, yarn and llama3.
    Result<Matrix> exportData(const state::AppState& state) const override;

  protected:
    void drawControls(state::AppState& state, ui::FrameContext& context) override;
    void drawFigures(state::AppState& state, ui::FrameContext& context) override;

  private:
    // Every size at its top takes seconds to build: on a worker, the last figure shown meanwhile.
    LiveFigure<state::ExtrapolationViewState> figure_;
    ExtrapolationSet shownSet_ = ExtrapolationSet::Textbook;  // the tab ImGui showed last frame
};

}  // namespace poslab::panels
