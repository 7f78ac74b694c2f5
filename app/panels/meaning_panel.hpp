// meaning_panel.hpp — how position and meaning coexist in one added vector. Three figures: the
// attention logit of (word + position) split into content·content, content·position,
// position·content and position·position beside their sum (hover: all five values of a cell);
// the histogram of cosines between random word vectors and position vectors, narrowing as
// 1/sqrt(d); and addition against concatenation.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "panels/figure_cache.hpp"
#include "panels/live_figure.hpp"
#include "poslab/analysis/meaning.hpp"
#include "poslab/base/memo.hpp"
#include "poslab/base/refining_memo.hpp"
#include "ui/panel.hpp"

namespace poslab::panels {

class MeaningPanel : public ui::Panel {
  public:
    const char* title() const override { return "Meaning"; }
    Figure exportFigure(const state::AppState& state, float width, float height,
                        const Theme& theme) const override;
    Result<Matrix> exportData(const state::AppState& state) const override;

  protected:
    void drawControls(state::AppState& state, ui::FrameContext& context) override;
    void drawFigures(state::AppState& state, ui::FrameContext& context) override;

  private:
    void drawControls(state::MeaningViewState& view);
    void drawTerms(const state::MeaningViewState& view, ui::FrameContext& context);
    void drawOrthogonality(const state::MeaningViewState& view, ui::FrameContext& context);
    void drawAddVersusConcat(const state::MeaningViewState& view, ui::FrameContext& context);
    Result<MeaningParams> effectiveParams(
        const state::MeaningViewState& view);  // loaded tokens attached

    // The word and position vectors, keyed on the parameters (hover computes a cell's five
    // values from them exactly); the heatmaps' block means (logitTermMaps), keyed on the
    // parameters and the texels the canvas shows; their figure (and its frames, for hover)
    // keyed on the maps and the canvas. No L x L term is ever held.
    Memo<state::MeaningViewState, Result<MeaningSequence>> sequence_;
    struct MapsKey {
        state::MeaningViewState view;
        int texels = 0;
        bool operator==(const MapsKey&) const = default;
    };
    // The maps take longer than a frame at L 256, d 2,048 (five products of L x L x d): made on
    // a worker, the last ones drawn meanwhile (with the parameters they were made for).
    struct TermMaps {
        Result<MeaningParams> params = Error{""};
        Result<LogitTermMaps> maps = Error{""};
    };
    RefiningMemo<MapsKey, TermMaps> maps_;
    struct FigureKey {
        std::uint64_t mapsVersion = 0;  // the maps drawn (a reloaded file gives new ones)
        bool exact = false;             // the maps are the current key's
        float width = 0, height = 0;
        ThemeId theme{};
        float fontSize = 0;
        int panel = 0;
        bool operator==(const FigureKey&) const = default;
    };
    int termPanel_ = 0;  // the logit term shown when they come one at a time
    struct TermsFigure {
        Figure figure;
        std::vector<PlotFrame> frames;  // for hover
    };
    Memo<FigureKey, TermsFigure> termsFigure_;
    // Near-orthogonality's inputs: d_model, samples, seed.
    // Both take longer than a frame at the sliders' tops (200,000 draws of d 8,192; five L x L
    // products of d 2,048): built on a worker, the last figure shown meanwhile.
    LiveFigure<std::tuple<int, int, std::uint64_t>> orthogonality_;
    LiveFigure<state::MeaningViewState> addConcat_;
    state::MeaningFigure shownTab_ =
        state::MeaningFigure::Terms;  // the tab ImGui showed last frame
    // Loaded word vectors.
    std::string tokensPath_;
    std::shared_ptr<const Matrix> tokens_;
    std::string tokensError_;
};

}  // namespace poslab::panels
