// learned_panel.hpp — the learned absolute position view: a table from a seeded normal
// initialisation or a .npy file, its cosine similarity between positions, and chosen dimensions
// against position. "Positions to show" may exceed the table: those positions were never
// trained and have no vector, and every figure marks them undefined.
#pragma once

#include <memory>
#include <optional>

#include "panels/figure_cache.hpp"
#include "poslab/views/learned_figures.hpp"
#include "ui/panel.hpp"

namespace poslab::ui {

class LearnedPanel : public Panel {
  public:
    const char* title() const override { return "Learned"; }
    void draw(AppState& state, FrameContext& context) override;
    Figure exportFigure(const AppState& state, float width, float height,
                        const Theme& theme) const override;
    // The table as shown: positionsShown rows, NaN past the table's end.
    Result<Matrix> exportData(const AppState& state) const override;

    // Loads a .npy table into the view (the Load button; a file-drop hook may call it too). On
    // failure the view is unchanged and the error says what is wrong with the file.
    static Status loadTable(LearnedViewState& view, const std::string& path);
    // The table the view shows; generated tables are made on demand.
    static Result<std::shared_ptr<const Matrix>> tableFor(const LearnedViewState& view);

  private:
    void drawControls(LearnedViewState& view, FrameContext& context);
    void drawFigure(LearnedViewState& view, FrameContext& context);
    void showTooltip(const LearnedFigureOptions& options, const LearnedFigureFrames& frames,
                     Point mouse) const;
    LearnedFigureOptions optionsFor(const LearnedViewState& view) const;

    // The generated table, rebuilt when its parameters change.
    struct TableKey {
        int seqLen = 0, dModel = 0, seed = 0;
        double std = 0;
        bool operator==(const TableKey& o) const = default;
    };
    std::optional<TableKey> tableKey_;
    std::shared_ptr<const Matrix> generated_;
    std::string tableError_;

    // Layout and figure data, rebuilt when the table or the display choices change.
    struct DataKey {
        std::shared_ptr<const Matrix> table;  // held, so its address is never reused meanwhile
        int positionsShown = 0, firstCurveDimension = 0, curveCount = 0;
        bool operator==(const DataKey& o) const = default;
    };
    CachedFigure<DataKey, LearnedLayout, LearnedFigureData> cache_;
    std::string loadMessage_;  // the last Load result, shown under the button
    bool loadFailed_ = false;
};

}  // namespace poslab::ui
