// relative_panel.hpp — the Relative view: the relative-position family (xPos, KERPLE power and
// log, Sandwich, FIRE) one tab each, and the Family tab that sets them beside ALiBi, T5 and RoPE:
// bias against distance on shared axes and a small-multiples grid of their L x L matrices.
// Registered as a plug-in (relative_encoding.cpp); its state is AppState::plugins' "relative".
#pragma once

#include "panels/figure_cache.hpp"
#include "panels/live_figure.hpp"
#include "poslab/views/relative_figures.hpp"
#include "state/relative_state.hpp"
#include "ui/panel.hpp"

namespace poslab::encodings {

class RelativePanel : public ui::Panel {
  public:
    const char* title() const override { return "Relative"; }
    Figure exportFigure(const state::AppState& state, float width, float height,
                        const Theme& theme) const override;
    // The tab's main matrix (Family: KERPLE log) as a causal L x L matrix, -inf for j > i.
    Result<Matrix> exportData(const state::AppState& state) const override;

  protected:
    void drawControls(state::AppState& state, ui::FrameContext& context) override;
    void drawFigures(state::AppState& state, ui::FrameContext& context) override;

  private:
    void drawControls(state::RelativeViewState& view);
    struct Key {
        RelativeTab tab;
        RelativeFigureOptions options;
        friend bool operator==(const Key&, const Key&) = default;
    };
    RelativeFigureMemo memo_;  // per-member heatmaps and curves: a slider rebuilds its member only
    RelativeFigureMemo coarseMemo_;  // the same for the coarse figures, built on this thread
    // The exact figure is built on a worker (xPos at head_dim 512 or Sandwich at d 1,024 over
    // L = 65,536 take longer than a frame) once the controls hold still, a coarse one here while
    // they move. The worker alone uses memo_ while it runs; declared after the memos, so it is
    // stopped and joined before they go.
    panels::LiveFigure<Key> cache_;
    RelativeTab shownTab_ = RelativeTab::Family;
};

}  // namespace poslab::encodings
