// t5_panel.hpp — the T5 view: the L x L bucket ids of key - query (hover: bucket and the
// distances it covers), the bias matrix from per-bucket values (seeded, editable per bucket),
// and the bucket edges and the bias as step functions of the relative position.
#pragma once

#include <cstdint>
#include <tuple>
#include <vector>

#include "panels/figure_cache.hpp"
#include "panels/live_figure.hpp"
#include "poslab/base/memo.hpp"
#include "poslab/views/t5_figures.hpp"
#include "ui/panel.hpp"

namespace poslab::panels {

class T5Panel : public ui::Panel {
  public:
    const char* title() const override { return "T5"; }
    Figure exportFigure(const state::AppState& state, float width, float height,
                        const Theme& theme) const override;
    Result<Matrix> exportData(const state::AppState& state) const override;  // the bucket ids

    static T5FigureOptions optionsFor(const state::T5ViewState& view);

  protected:
    void drawControls(state::AppState& state, ui::FrameContext& context) override;
    void drawFigures(state::AppState& state, ui::FrameContext& context) override;

  private:
    void drawControls(state::T5ViewState& view);
    void drawBucketEditor(state::T5ViewState& view);
    void drawFigure(state::T5ViewState& view, ui::FrameContext& context);
    void showTooltip(const T5FigureOptions& options, const T5FigureFrames& frames,
                     Point mouse) const;

    // What the layout and data depend on: seqLen, numBuckets, maxDistance, bidirectional,
    // bucketBiases, biasSeed.
    using CacheKey = std::tuple<int, int, int, bool, std::vector<double>, std::uint64_t>;
    static CacheKey cacheKey(const T5FigureOptions& options);
    // The 2L-1 offsets' buckets and the two samples at L = 65,536 take longer than a frame with
    // their textures: built on a worker, the last figure drawn with the settings it was made for.
    LiveCachedFigure<CacheKey, T5Layout, T5FigureData> cache_;
    Memo<T5Params, std::vector<BucketRange>> ranges_;  // the bucket list's range texts
};

}  // namespace poslab::panels
