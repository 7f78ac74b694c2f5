// learned_panel.hpp — the learned absolute position view: a table from a seeded normal
// initialisation, a .npy file or a .safetensors checkpoint, its cosine similarity between
// positions, and chosen dimensions against position. "Positions to show" may exceed the table:
// those positions were never trained and have no vector, and every figure marks them undefined.
// The Structure tab shows the table's principal components and spectrum (or a sinusoidal
// table's, to compare), analysed on a worker thread: about 1.5 s for GPT-2's 1024 x 768. Its
// PC1-PC3 trajectories turn as the mouse drags them (or with the clock, for lectures).
#pragma once

#include <array>
#include <future>
#include <memory>
#include <optional>

#include "panels/figure_cache.hpp"
#include "panels/live_figure.hpp"
#include "poslab/base/memo.hpp"
#include "poslab/views/learned_figures.hpp"
#include "poslab/views/learned_structure_figures.hpp"
#include "state/session_files.hpp"
#include "state/table_file.hpp"
#include "ui/panel.hpp"

namespace poslab::panels {

class LearnedPanel : public ui::Panel {
  public:
    const char* title() const override { return "Learned"; }
    Figure exportFigure(const state::AppState& state, float width, float height,
                        const Theme& theme) const override;
    // The table as shown: positionsShown rows, NaN past the table's end.
    Result<Matrix> exportData(const state::AppState& state) const override;

    // Loads a .npy or .safetensors table into the view (the Load button, a dropped file). tensor:
    // .safetensors only, "" for the position table found by name. On failure the view is
    // unchanged and the error says what is wrong with the file.
    static void fitPositionsShown(state::LearnedViewState& view);  // a table and a quarter beyond
    static Status loadTable(state::LearnedViewState& view, const std::string& path,
                            const std::string& tensor = "");
    // The table the view shows; generated tables are made on demand.
    static Result<std::shared_ptr<const Matrix>> tableFor(const state::LearnedViewState& view);

  protected:
    void prepare(state::AppState& state, ui::FrameContext& context) override;
    void drawControls(state::AppState& state, ui::FrameContext& context) override;
    void drawFigures(state::AppState& state, ui::FrameContext& context) override;

  private:
    void drawControls(state::LearnedViewState& view, ui::FrameContext& context);
    void drawFigure(state::LearnedViewState& view, ui::FrameContext& context);
    void drawStructure(state::LearnedViewState& view, ui::FrameContext& context);
    void loadAndReport(state::LearnedViewState& view, ui::FrameContext& context,
                       const std::string& path, const std::string& tensor);
    void collectLoad(state::LearnedViewState& view,
                     ui::FrameContext& context);  // a finished read, if any
    void showTooltip(const LearnedFigureOptions& options, const LearnedFigureFrames& frames,
                     Point mouse) const;
    LearnedFigureOptions optionsFor(const state::LearnedViewState& view) const;

    // The generated table, rebuilt when its parameters change.
    struct TableKey {
        int seqLen = 0, dModel = 0, seed = 0;
        double std = 0;
        bool operator==(const TableKey& o) const = default;
    };
    struct Generated {
        std::shared_ptr<const Matrix> table;  // a failure keeps the previous table
        std::string error;                    // why the parameters gave no table
    };
    Memo<TableKey, Generated> generated_;
    const std::string& tableError() const {
        static const std::string none;
        return generated_.value() ? generated_.value()->error : none;
    }

    // Layout and figure data, rebuilt when the table or the display choices change.
    struct DataKey {
        std::shared_ptr<const Matrix> table;  // held, so its address is never reused meanwhile
        int positionsShown = 0, firstCurveDimension = 0, curveCount = 0;
        bool operator==(const DataKey& o) const = default;
    };
    LiveCachedFigure<DataKey, LearnedLayout, LearnedFigureData> cache_;
    // The coarse data shown while a control moves (made on the UI thread only). They depend on
    // the visible rows, not on positionsShown past the table's end (learned_figures.hpp), so
    // they are kept while only that moves: no recompute, and the heatmaps keep their versions,
    // so no texture is uploaded again.
    struct CoarseKey {
        std::shared_ptr<const Matrix> table;
        int visibleRows = 0, firstCurveDimension = 0, curveCount = 0;
        std::array<float, 16> boxes{};  // the layout's area, table, cosine and curves boxes
        bool operator==(const CoarseKey& o) const = default;
    };
    static CoarseKey coarseKeyFor(const LearnedFigureOptions& options, const LearnedLayout& layout);
    Memo<CoarseKey, Result<LearnedFigureData>> coarse_;
    std::string loadMessage_;  // the last Load result, shown under the button
    bool loadFailed_ = false;
    // A Load (button, dropped or named file) reads on a worker so the window stays live; its
    // result is put into the view on the frame it is ready. A second Load waits for the first.
    std::future<Result<state::LearnedTableRead>> loading_;
    std::string loadingPath_;

    // The Structure tab: one analysis at a time on a worker, its result kept for its key.
    struct StructureKey {
        std::shared_ptr<const Matrix> table;  // the shown table (held: its address stays unique)
        state::StructureSource source = state::StructureSource::Shown;
        int components = 12;
        bool operator==(const StructureKey& o) const = default;
    };
    struct StructureResult {
        Result<TableStructure> structure = Error{"not computed"};
        std::string title;  // the analysed table, for the figure's title
        double base = 10000;
    };
    std::optional<StructureKey> pendingKey_;  // the job running (not a cache: no result yet)
    std::future<StructureResult> pending_;
    Memo<StructureKey, std::shared_ptr<const StructureResult>> done_;  // the last one finished
    // The figure: for one finished analysis (by identity), the bars asked for and the camera.
    struct StructureFigureKey {
        std::shared_ptr<const StructureResult> result;
        int components = 12;
        TrajectoryStyle trajectory = TrajectoryStyle::Rotatable;
        ViewAngles angles;
        bool operator==(const StructureFigureKey& o) const = default;
    };
    FigureCache<StructureFigureKey> structureFigure_;
    LearnedStructureFrames structureFrames_;  // where the figure shown put its plots: hover, drag
    void rotateAndHover(state::LearnedViewState& view, const ui::Canvas& canvas,
                        const StructureResult& result);
    std::optional<state::LearnedTab>
        shownTab_;  // the tab the tab bar shows (a session may ask another)
};

}  // namespace poslab::panels
