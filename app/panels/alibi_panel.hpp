// alibi_panel.hpp — the ALiBi view: every head's bias matrix as a grid (click a head to enlarge
// it), the enlarged head, the slopes across heads, and an attention preview: the softmax of one
// query row per head, showing how strongly each head prefers recent keys.
#pragma once

#include <cstdint>
#include <memory>
#include <tuple>

#include "panels/figure_cache.hpp"
#include "panels/live_figure.hpp"
#include "poslab/views/alibi_figures.hpp"
#include "ui/panel.hpp"

namespace poslab::panels {

class AlibiPanel : public ui::Panel {
  public:
    const char* title() const override { return "ALiBi"; }
    Figure exportFigure(const state::AppState& state, float width, float height,
                        const Theme& theme) const override;
    Result<Matrix> exportData(
        const state::AppState& state) const override;  // the enlarged head's bias

    static AlibiFigureOptions optionsFor(const state::AlibiViewState& view);

  protected:
    void drawControls(state::AppState& state, ui::FrameContext& context) override;
    void drawFigures(state::AppState& state, ui::FrameContext& context) override;

  private:
    void drawControls(state::AlibiViewState& view);
    void drawFigure(state::AlibiViewState& view, ui::FrameContext& context);
    void showTooltip(const state::AlibiViewState& view, const AlibiFigureFrames& frames,
                     Point mouse) const;

    // What the layout and data depend on: every option but the colormap, which only colours
    // them. heads, seqLen, symmetric, enlargedHead, queryIndex, previewKeys, contentScale,
    // contentSeed.
    using CacheKey = std::tuple<int, int, bool, int, int, int, double, std::uint64_t>;
    static CacheKey cacheKey(const AlibiFigureOptions& options);
    LiveCachedFigure<CacheKey, AlibiLayout, AlibiFigureData> cache_;
    // The bias heatmaps of the last build, shared with the worker that makes the next.
    std::shared_ptr<AlibiBiasCache> biasCache_ = std::make_shared<AlibiBiasCache>();
};

}  // namespace poslab::panels
