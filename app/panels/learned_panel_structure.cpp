// learned_panel_structure.cpp — the Learned view's Structure tab (principal components on a
// worker, the 3-D trajectory turned by dragging) and the figure export of either tab; the Table
// tab, the controls and table loading are learned_panel.cpp's.
#include "panels/learned_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include "poslab/base/background.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/encodings/sinusoidal.hpp"
#include "state/ranges.hpp"
#include "ui/markup_text.hpp"
#include "ui/widgets.hpp"

namespace poslab::panels {

namespace {

// The table to analyse for the Structure tab: the shown one, or a sinusoidal one of its size.
struct StructureInput {
    std::shared_ptr<const Matrix> table;
    std::string title;
    double base = 10000;
};

Result<StructureInput> structureInput(std::shared_ptr<const Matrix> shown, std::string shownTitle,
                                      state::StructureSource source) {
    if (source == state::StructureSource::Shown)
        return StructureInput{std::move(shown), shownTitle};
    SinusoidalParams params;
    params.seqLen = int(shown->rows);
    params.dModel = int(shown->cols);
    auto table = sinusoidalTable(params);
    if (!table) return table.error();
    return StructureInput{std::make_shared<const Matrix>(std::move(table).value()),
                          "sinusoidal, " + std::to_string(shown->rows) + " x " +
                              std::to_string(shown->cols) + ", base 10000",
                          params.base};
}

// The camera as the view state holds it, made valid (a session is checked; a drag may overshoot).
ViewAngles viewAngles(const state::LearnedViewState& view) {
    return {wrapDegrees(std::isfinite(view.structureYaw) ? view.structureYaw : 0),
            std::clamp(std::isfinite(view.structurePitch) ? view.structurePitch : 0,
                       state::kStructurePitchRange.low, state::kStructurePitchRange.high)};
}

LearnedStructureOptions structureOptions(const std::string& title, double base, int components,
                                         const state::LearnedViewState& view) {
    LearnedStructureOptions options;
    options.source = title;
    options.sinusoidalBase = base;
    options.components = std::clamp(components, 1, kMaxStructureComponents);
    options.trajectory = view.structureTrajectory;
    options.angles = viewAngles(view);
    return options;
}

constexpr float kDegreesPerPixel = 0.5f;  // dragging a 3-D trajectory
constexpr float kHoverRadius = 10;        // pixels from a dot that still name its position

}  // namespace

Figure LearnedPanel::exportFigure(const state::AppState& state, float width, float height,
                                  const Theme& theme) const {
    Figure figure = emptyFigure(width, height, theme);
    const Box area{0, 0, width, height};
    auto table = tableFor(state.learned);
    if (!table) {
        drawNote(figure, area, table.error().message, theme);
        return figure;
    }
    LearnedFigureOptions options = optionsFor(state.learned);
    options.table = *table;
    if (state.learned.tab == state::LearnedTab::Structure) {
        auto input = structureInput(*table, options.source, state.learned.structureSource);
        if (!input) {
            drawNote(figure, area, input.error().message, theme);
            return figure;
        }
        const LearnedStructureOptions structure = structureOptions(
            input->title, input->base, state.learned.structureComponents, state.learned);
        return figureOrNote(learnedStructureFigure(*input->table, structure, width, height, theme),
                            width, height, theme);
    }
    if (auto status = drawLearnedFigure(figure, area, options, theme); !status) {
        drawNote(figure, area, status.error().message, theme);
    }
    return figure;
}

void LearnedPanel::drawStructure(state::LearnedViewState& view, ui::FrameContext& context) {
    const LearnedFigureOptions shown = optionsFor(view);
    if (!shown.table) {
        ui::noteCanvas("structure", tableError().empty() ? "no table" : tableError(), context);
        return;
    }
    const StructureKey key{shown.table, view.structureSource,
                           std::clamp(view.structureComponents, 1, kMaxStructureComponents)};
    // Collect a finished analysis; start the wanted one when none is running.
    if (pending_.valid() &&
        pending_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
        done_.store(*pendingKey_, std::make_shared<const StructureResult>(pending_.get()));
        pendingKey_.reset();
        structureFigure_.invalidate();
    }
    if (!pending_.valid() && !done_.holds(key)) {
        pendingKey_ = key;
        pending_ = runInBackground([key, title = shown.source] {
            StructureResult result;
            auto input = structureInput(key.table, title, key.source);
            if (!input) {
                result.structure = input.error();
                return result;
            }
            StructureOptions options;
            options.components = key.components;
            result.structure = analyzeTableStructure(*input->table, options);
            result.title = input->title;
            result.base = input->base;
            return result;
        });
    }
    const bool current = done_.holds(key);
    if (!current) {
        context.animating = true;  // keep frames coming until the worker is done
        context.waiting = true;
        ui::noteCanvas("structure",
                       "computing the principal components and spectrum of " +
                           std::to_string(shown.table->rows) + " x " +
                           std::to_string(shown.table->cols) + " ...",
                       context);
        return;
    }
    const std::shared_ptr<const StructureResult> result = *done_.value();
    const bool rotatable = view.structureTrajectory == TrajectoryStyle::Rotatable;
    if (rotatable && view.autoRotate) {  // the clock turns it: the angle is the animation's time
        view.structureYaw =
            wrapDegrees(view.structureYaw + state::kAutoRotateDegreesPerSecond *
                                                std::min(double(ImGui::GetIO().DeltaTime), 0.1));
        context.animating = true;
    }
    const LearnedStructureOptions options =
        structureOptions(result->title, result->base, key.components, view);
    const StructureFigureKey figureKey{result, key.components, options.trajectory, options.angles};
    // Full presentation fonts: the six plots reflow (fewer columns, or one at a time).
    const ui::Canvas canvas = structureFigure_.showPanels(
        "structure", figureKey, context,
        [&](float width, float height, const Theme& theme, int selected) {
            const std::string note = result->structure ? result->structure->note : "";
            const std::string title =
                result->structure ? learnedStructureTitle(options, *result->structure) : "";
            return learnedStructureLayout({0, 0, width, height}, theme, selected, note, title).grid;
        },
        [&](float width, float height, const Theme& theme, int selected) -> Result<Figure> {
            if (!result->structure) return result->structure.error();
            Figure figure = emptyFigure(width, height, theme);
            structureFrames_ = {};
            drawLearnedStructureFigure(
                figure,
                learnedStructureLayout({0, 0, width, height}, theme, selected,
                                       result->structure->note,
                                       learnedStructureTitle(options, *result->structure)),
                options, *result->structure, theme, &structureFrames_);
            return figure;
        });
    if (structureFigure_.error().empty() && rotatable) rotateAndHover(view, canvas, *result);
}

void LearnedPanel::rotateAndHover(state::LearnedViewState& view, const ui::Canvas& canvas,
                                  const StructureResult& result) {
    const Trajectory3dFrame* plots[] = {&structureFrames_.trajectory3d,
                                        &structureFrames_.shuffled3d};
    auto plotAt = [&](Point p) -> const Trajectory3dFrame* {
        for (const Trajectory3dFrame* frame : plots)
            if (frame->plot.contains(p)) return frame;
        return nullptr;
    };
    // A drag that began on either 3-D plot turns both: sideways is yaw, up and down is pitch.
    const ImVec2 pressed = ImGui::GetIO().MouseClickedPos[ImGuiMouseButton_Left];
    const Point start{pressed.x - canvas.box.x, pressed.y - canvas.box.y};
    if (canvas.dragging && plotAt(start)) {
        view.structureYaw = wrapDegrees(view.structureYaw + canvas.dragDelta.x * kDegreesPerPixel);
        view.structurePitch =
            std::clamp(view.structurePitch + double(canvas.dragDelta.y * kDegreesPerPixel),
                       state::kStructurePitchRange.low, state::kStructurePitchRange.high);
        ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeAll);
        return;
    }
    const Trajectory3dFrame* hovered = canvas.hovered ? plotAt(canvas.mouse) : nullptr;
    if (!hovered) return;
    if (canvas.doubleClicked) {
        view.structureYaw = state::kStructureYawRange.fallback;
        view.structurePitch = state::kStructurePitchRange.fallback;
        return;
    }
    ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
    const bool shuffled = hovered == &structureFrames_.shuffled3d;
    const auto position = nearestPosition(*hovered, canvas.mouse, kHoverRadius);
    ImGui::BeginTooltip();
    if (position && result.structure) {
        const TablePca& pca = shuffled ? result.structure->shuffledPca : result.structure->pca;
        ui::tooltipText(shuffled ? "shuffled row %zu" : "position %zu", *position);
        for (std::size_t j = 0; j < pca.projections.cols && j < 3; ++j) {
            ui::tooltipText("PC%zu  %.4g", j + 1, pca.projections(*position, j));
        }
        if (shuffled) ImGui::TextDisabled("a table row put at this place by the shuffle");
    }
    ui::tooltipTextDisabled("drag to turn (yaw %.0f, pitch %.0f); double-click to reset",
                            wrapDegrees(view.structureYaw), view.structurePitch);
    ImGui::EndTooltip();
}

}  // namespace poslab::panels
