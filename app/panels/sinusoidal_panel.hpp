// sinusoidal_panel.hpp — the live sinusoidal view: the position x dimension heatmap (zoom with
// the wheel, pan by dragging, double-click to reset; hover for value and formula) above the
// curves of chosen dimensions against position.
#pragma once

#include <optional>

#include "poslab/base/heatmap_sample.hpp"
#include "poslab/base/memo.hpp"
#include "poslab/base/refining_memo.hpp"
#include "poslab/views/sinusoidal_figures.hpp"
#include "ui/panel.hpp"

namespace poslab::panels {

class SinusoidalPanel : public ui::Panel {
  public:
    const char* title() const override { return "Sinusoidal"; }
    Figure exportFigure(const state::AppState& state, float width, float height,
                        const Theme& theme) const override;
    Result<Matrix> exportData(const state::AppState& state) const override;

  protected:
    void drawControls(state::AppState& state, ui::FrameContext& context) override;
    void drawFigures(state::AppState& state, ui::FrameContext& context) override;

  private:
    void drawControls(state::SinusoidalViewState& view);
    void drawHeatmap(state::SinusoidalViewState& view, ui::FrameContext& context, float height);
    void drawCurves(state::SinusoidalViewState& view, ui::FrameContext& context);
    static SinusoidalCurveOptions curveOptions(const state::SinusoidalViewState& view);

    // The heatmap texels, rebuilt only when the key changes: coarse while it moves, exact on a
    // worker once it holds still.
    struct SampleKey {
        SinusoidalParams params;
        CellWindow window;
        int width = 0, height = 0;
        bool operator==(const SampleKey&) const = default;
    };
    RefiningMemo<SampleKey, HeatmapSample> sample_;
    int shownPanel_ = 0;  // presentation mode on a short window: 0 the map, 1 the curves
};

}  // namespace poslab::panels
