// similarity_panel.hpp — how alike positions look: the L x L similarity between positions
// (sinusoidal or learned rows, or RoPE's q_m·k_n) as a zoomable heatmap, beside the similarity
// against offset j - i. Sinusoidal and RoPE matrices depend on j - i only: one O(L d) profile is
// computed per parameter change, and each visible texel is an O(1) block mean of it, so 65536
// positions stay live. Learned tables (up to 4096 positions) use their Gram matrix when it costs
// at most kGramBudget multiply-adds; past that, each texel is the dot product of two blocks' mean
// rows (exact block means) and hover values are single dot products, so nothing freezes.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "poslab/analysis/similarity.hpp"
#include "poslab/base/memo.hpp"
#include "poslab/base/refining_memo.hpp"
#include "poslab/views/similarity_figures.hpp"
#include "ui/panel.hpp"

namespace poslab::panels {

class SimilarityPanel : public ui::Panel {
  public:
    const char* title() const override { return "Similarity"; }
    Figure exportFigure(const state::AppState& state, float width, float height,
                        const Theme& theme) const override;
    Result<Matrix> exportData(const state::AppState& state) const override;

  protected:
    void prepare(state::AppState& state, ui::FrameContext& context) override;
    void drawControls(state::AppState& state, ui::FrameContext& context) override;
    void drawFigures(state::AppState& state, ui::FrameContext& context) override;

  private:
    void drawControls(state::SimilarityViewState& view, ui::FrameContext& context);
    void drawHeatmap(state::SimilarityViewState& view, ui::FrameContext& context);
    void drawCurve(state::SimilarityViewState& view, ui::FrameContext& context);
    // The parameters with the loaded table attached; an error when the table cannot be used.
    Result<SimilarityParams> effectiveParams(const state::SimilarityViewState& view);
    Status refresh(
        const state::SimilarityViewState& view);     // rebuilds the caches when the key changes
    Status refreshed_ = success();                   // this frame's refresh(), from prepare()
    double valueAt(long long i, long long j) const;  // exact entry, from the caches

    // Cache of the similarity itself, keyed on the parameters.
    struct DataKey {  // what the similarity data are computed from
        SimilarityParams params;
        std::string tablePath;
        bool operator==(const DataKey&) const = default;
    };
    struct SimilarityData {
        Status status = success();
        SimilarityParams params;
        std::shared_ptr<const OffsetSimilarity> offsets;  // sinusoidal, RoPE (shared with workers)
        std::shared_ptr<const Matrix> full;  // learned: the Gram matrix, within kGramBudget
        long long undefinedRows = 0;  // learned cosine: zero or non-finite rows (masked, noted)
        std::shared_ptr<const Matrix> rows;  // learned, past the budget: the rows compared
    };
    SimilarityData computeData(Result<SimilarityParams> params) const;
    const SimilarityData& data() const { return *data_.value(); }  // after refresh()
    Memo<DataKey, SimilarityData> data_;
    struct CurveKey {  // the data (its version) and the reference query
        std::uint64_t data = 0;
        int reference = 0;
        bool operator==(const CurveKey&) const = default;
    };
    Memo<CurveKey, SimilarityCurve> curve_;
    // Cache of the visible texels, keyed on the similarity, the window and the canvas size.
    struct SampleKey {  // the heatmap's texels: the data (its version), the window, the canvas
        std::uint64_t data = 0;
        CellWindow window;
        int width = 0, height = 0;
        bool operator==(const SampleKey&) const = default;
    };
    // Each texel of a zoomed-out window is a block mean (an offset profile's prefix sums, a Gram
    // matrix's cells, or for a learned table past the Gram budget a dot product of block-mean
    // rows: ~0.3 s for the whole 1024-wide table on 800 x 800 pixels). While the window moves,
    // a coarse sample (a quarter of the texels a side) on this thread; the exact one on a
    // worker when the window holds still.
    RefiningMemo<SampleKey, HeatmapSample> sample_;
    // The loaded .npy table.
    std::string tablePath_;
    std::shared_ptr<const Matrix> table_;
    std::string tableError_;
};

}  // namespace poslab::panels
