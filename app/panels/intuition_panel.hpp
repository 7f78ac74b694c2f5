// intuition_panel.hpp — two intuitions about the sinusoidal table, made checkable. Binary clock:
// the bits of the position counter as square waves beside sinusoids of the same period. Linear
// shift: pick k, see T_k as a block-diagonal matrix, and the residual of T_k·PE(p) = PE(p + k)
// checked live for every p.
#pragma once

#include <string>

#include "panels/figure_cache.hpp"
#include "poslab/analysis/intuition.hpp"
#include "ui/panel.hpp"

namespace poslab::ui {

class IntuitionPanel : public Panel {
  public:
    const char* title() const override { return "Intuitions"; }
    void draw(AppState& state, FrameContext& context) override;
    Figure exportFigure(const AppState& state, float width, float height,
                        const Theme& theme) const override;
    Result<Matrix> exportData(const AppState& state) const override;

  private:
    void drawControls(IntuitionViewState& view);
    FigureCache<BinaryClockOptions> clock_;
    FigureCache<LinearShiftOptions> shift_;
    IntuitionFigure shownTab_ = IntuitionFigure::BinaryClock;
    // The residual check, keyed on the shift options (shown in the controls as numbers too).
    std::optional<LinearShiftOptions> checkKey_;  // what check_ was computed for
    Result<SampledShiftCheck> check_ = Error{"not computed"};
};

}  // namespace poslab::ui
