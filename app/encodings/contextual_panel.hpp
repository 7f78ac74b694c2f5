// contextual_panel.hpp — the Context view: encodings whose positions depend on something other
// than the token index. CoPE (positions that count what a gate selects, over a typed sentence),
// DeBERTa (relative-position buckets and the c2c/c2p/p2c terms), NoPE & iRoPE (what a causal mask
// alone gives away, Llama 4's layer pattern, chunk mask and temperature) and randomized positions
// (sorted draws from a larger range, with their order statistics).
#pragma once

#include <optional>

#include "panels/figure_cache.hpp"
#include "panels/live_figure.hpp"
#include "poslab/views/contextual_figures.hpp"
#include "state/contextual_state.hpp"
#include "ui/panel.hpp"

namespace poslab::encodings {

class ContextualPanel : public ui::Panel {
  public:
    const char* title() const override { return "Context"; }
    Figure exportFigure(const state::AppState& state, float width, float height,
                        const Theme& theme) const override;
    // CoPE: the positions p_ij; DeBERTa: the summed scores; NoPE & iRoPE: the shown layer's
    // mask (1 visible, 0 masked); randomized: one row per draw.
    Result<Matrix> exportData(const state::AppState& state) const override;

  protected:
    void drawControls(state::AppState& state, ui::FrameContext& context) override;
    void drawFigures(state::AppState& state, ui::FrameContext& context) override;

  private:
    void drawControls(state::ContextualViewState& view);
    void drawCopeControls(CopeSentenceParams& p);
    void drawDebertaControls(DebertaParams& p);
    void drawNopeControls(NopeFigureOptions& o);
    void drawRandomizedControls(RandomizedPositionsParams& p);
    panels::FigureCache<CopeSentenceParams> cope_;
    // Exact on a worker: at L = 65,536 the DeBERTa scores and 16 draws of 4,096 positions take
    // longer than a frame; a coarse figure here while a control moves. DeBERTa's memos keep what
    // the buckets do not change; the worker alone uses debertaMemo_ while it runs (declared
    // before deberta_, which joins it first).
    DebertaFigureMemo debertaMemo_, debertaCoarseMemo_;
    std::optional<DebertaParams> lastDeberta_;  // last frame's: did the seed or head_dim move?
    panels::LiveFigure<DebertaParams> deberta_;
    panels::FigureCache<NopeFigureOptions> nope_;
    NopeFigureMemo nopeMemo_;  // nope_'s mask and layer stack, kept while the temperature moves
    panels::LiveFigure<RandomizedPositionsParams> randomized_;  // coarse here while moving
    state::ContextualTab shownTab_ = state::ContextualTab::Cope;
};

}  // namespace poslab::encodings
