// intuition_panel.hpp — intuitions about position encodings, made checkable. Why position: one
// attention head over a typed sentence and a reordering of it. Binary clock: the bits of the
// position counter as square waves beside sinusoids of the same period. Linear shift: pick k,
// see T_k as a block-diagonal matrix, and the residual of T_k·PE(p) = PE(p + k) checked live for
// every p (and with the cosines dropped, the best least-squares map failing). Frequencies: how
// far apart positions are with many frequencies and with one.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "panels/figure_cache.hpp"
#include "panels/live_figure.hpp"
#include "poslab/analysis/intuition.hpp"
#include "poslab/base/memo.hpp"
#include "poslab/base/refining_memo.hpp"
#include "ui/panel.hpp"

namespace poslab::panels {

class IntuitionPanel : public ui::Panel {
  public:
    const char* title() const override { return "Intuitions"; }
    Figure exportFigure(const state::AppState& state, float width, float height,
                        const Theme& theme) const override;
    Result<Matrix> exportData(const state::AppState& state) const override;

  protected:
    void prepare(state::AppState& state, ui::FrameContext& context) override;
    void drawControls(state::AppState& state, ui::FrameContext& context) override;
    void drawFigures(state::AppState& state, ui::FrameContext& context) override;

  private:
    void drawControls(state::IntuitionViewState& view);
    void drawAttentionControls(ToyAttentionParams& p);
    void drawShiftControls(LinearShiftOptions& s);
    void drawFrequencyControls(FrequencyResolutionParams& r);
    struct ShiftFigureKey {
        LinearShiftOptions options;
        std::uint64_t numbers = 0;  // shownShift_.version: coarse and exact are two figures
        bool operator==(const ShiftFigureKey&) const = default;
    };
    FigureCache<BinaryClockOptions> clock_;
    FigureCache<ShiftFigureKey> shift_;
    FigureCache<ToyAttentionParams> attention_;
    LiveFigure<FrequencyResolutionParams> frequencies_;  // built on a worker
    state::IntuitionFigure shownTab_ = state::IntuitionFigure::AttentionShuffle;
    // The numbers the controls print (and the figures draw), keyed on what they are computed
    // from; prepare() brings them up to date before anything reads them.
    struct ShiftNumbers {
        Result<SampledShiftCheck> check = Error{"not computed"};  // the residual check
        Result<SineOnlyShiftFit> fit = Error{"not computed"};     // sinOnly: the least squares
    };
    // The check rotates 2 x 2,048 rows of d_model phases (~40 ms at d 512): while the shift
    // moves, a coarse check over kCoarseShiftSamples positions on this thread, the exact one on
    // a worker once it holds still (RefiningMemo).
    RefiningMemo<LinearShiftOptions, ShiftNumbers> shiftNumbers_;
    Refined<ShiftNumbers> shownShift_;  // this frame's (set by draw() before anything reads it)
    Memo<ToyAttentionParams, Result<ShuffleComparison>> comparison_;
    // Shared with the figure's worker.
    Memo<FrequencyResolutionParams, std::shared_ptr<const Result<FrequencyResolution>>> resolution_;
    const Result<SampledShiftCheck>& check() const { return shownShift_.value->check; }
    const Result<SineOnlyShiftFit>& fit() const { return shownShift_.value->fit; }
    const Result<ShuffleComparison>& comparison() const { return *comparison_.value(); }
    const Result<FrequencyResolution>& resolution() const { return **resolution_.value(); }
};

}  // namespace poslab::panels
