#include "panels/learned_panel.hpp"

#include "state/session_files.hpp"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>

#include "poslab/base/background.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/encodings/sinusoidal.hpp"
#include "state/ranges.hpp"
#include "state/table_file.hpp"
#include "ui/markup_text.hpp"
#include "ui/widgets.hpp"

namespace poslab::panels {

namespace {

// With d_model <= 2048: at most 256 MB of doubles.
constexpr int kMaxGuiTableLength = state::kLearnedTableLength.high;
constexpr int kMaxGuiDModel = state::kLearnedDModel.high;

std::string baseName(const std::string& path) {
    return std::filesystem::path(path).filename().string();
}

LearnedParams paramsOf(const state::LearnedViewState& view) {
    LearnedParams params;
    params.seqLen = std::clamp(view.seqLen, 1, kMaxGuiTableLength);
    params.dModel = std::clamp(view.dModel, 1, kMaxGuiDModel);
    params.seed = std::uint64_t(std::max(0, view.seed));
    params.std = view.std;
    return params;
}

const ImVec4 kErrorColor{1.0f, 0.45f, 0.4f, 1.0f};

}  // namespace

Status LearnedPanel::loadTable(state::LearnedViewState& view, const std::string& path,
                               const std::string& tensor) {
    if (Status s = state::loadLearnedTable(view, path, tensor); !s)
        return s;  // as a session re-reads it
    fitPositionsShown(view);
    return success();
}

void LearnedPanel::fitPositionsShown(state::LearnedViewState& view) {
    // Show a quarter more than the table, so the undefined region is in view from the start.
    const std::size_t rows = view.loaded->rows;
    view.positionsShown = int(
        std::min<std::size_t>(rows + std::max<std::size_t>(1, rows / 4), std::size_t(kMaxSeqLen)));
}

Result<std::shared_ptr<const Matrix>> LearnedPanel::tableFor(const state::LearnedViewState& view) {
    if (view.useLoaded && view.loaded) return view.loaded;
    auto table = learnedTable(paramsOf(view));
    if (!table) return table.error();
    return std::shared_ptr<const Matrix>(std::make_shared<Matrix>(std::move(table).value()));
}

LearnedFigureOptions LearnedPanel::optionsFor(const state::LearnedViewState& view) const {
    LearnedFigureOptions options;
    const bool loaded = view.useLoaded && view.loaded;
    options.table =
        loaded ? view.loaded : (generated_.value() ? generated_.value()->table : nullptr);
    options.source = loaded ? baseName(view.loadedPath) +
                                  (view.loadedTensor.empty() ? "" : ": " + view.loadedTensor)
                            : learnedSourceText(paramsOf(view));
    const int columns = options.table ? int(options.table->cols) : 1;
    options.positionsShown = std::clamp(view.positionsShown, 1, kMaxSeqLen);
    options.firstCurveDimension = std::clamp(view.firstCurveDimension, 0, columns - 1);
    options.curveCount = std::clamp(view.curveCount, 1, 8);
    options.colormap = view.colormap;
    return options;
}

void LearnedPanel::prepare(state::AppState& state, ui::FrameContext& context) {
    state::LearnedViewState& view = state.learned;
    // A .npy or .safetensors file dropped onto the window loads like the Load button.
    if (!context.droppedFiles.empty()) {
        view.npyPath = context.droppedFiles.front();
        context.droppedFiles.clear();
        loadAndReport(view, context, view.npyPath, view.tensor);
    }
    collectLoad(view, context);
    // The generated table follows its parameters; a failure keeps the previous table.
    const LearnedParams params = paramsOf(view);
    const TableKey key{params.seqLen, params.dModel, int(params.seed), params.std};
    generated_.get(key, [&] {
        auto table = learnedTable(params);
        if (table) return Generated{std::make_shared<const Matrix>(std::move(table).value()), {}};
        const Generated* previous = generated_.value();
        return Generated{previous ? previous->table : nullptr, table.error().message};
    });
}

void LearnedPanel::drawControls(state::AppState& state, ui::FrameContext& context) {
    state::LearnedViewState& view = state.learned;
    drawControls(view, context);
}

void LearnedPanel::drawFigures(state::AppState& state, ui::FrameContext& context) {
    state::LearnedViewState& view = state.learned;
    drawFigure(view, context);
}

void LearnedPanel::loadAndReport(state::LearnedViewState&, ui::FrameContext& context,
                                 const std::string& path, const std::string& tensor) {
    if (loading_.valid()) waitForJob(loading_);  // one at a time: the later Load wins
    loadingPath_ = path;
    loading_ = runInBackground([path, tensor] { return state::readLearnedTable(path, tensor); });
    loadFailed_ = false;
    loadMessage_ = "reading " + baseName(path) + " ...";
    if (context.statusMessage) *context.statusMessage = loadMessage_;
}

void LearnedPanel::collectLoad(state::LearnedViewState& view, ui::FrameContext& context) {
    if (!loading_.valid()) return;
    if (loading_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
        context.animating = true;  // keep frames coming until the worker is done
        context.waiting = true;
        return;
    }
    auto read = loading_.get();
    loadFailed_ = !read;
    if (read) {
        state::showLearnedTable(view, std::move(read).value());
        fitPositionsShown(view);
        loadMessage_ = "loaded " + baseName(view.loadedPath) +
                       (view.loadedTensor.empty() ? "" : ": " + view.loadedTensor);
    } else {
        loadMessage_ = read.error().message;
    }
    if (context.statusMessage) *context.statusMessage = loadMessage_;
}

Result<Matrix> LearnedPanel::exportData(const state::AppState& state) const {
    auto table = tableFor(state.learned);
    if (!table) return table.error();
    LearnedFigureOptions options = optionsFor(state.learned);
    options.table = *table;
    return learnedShownTable(options);
}

void LearnedPanel::drawControls(state::LearnedViewState& view, ui::FrameContext& context) {
    ui::sectionHeader("Table");
    int source = view.useLoaded && view.loaded ? 1 : 0;
    if (ImGui::RadioButton("seeded normal", &source, 0)) view.useLoaded = false;
    ui::tooltipForLastItem(
        "An nn.Embedding at initialisation: every entry std * N(0, 1). Untrained, "
        "so there is no structure across positions yet.");
    ImGui::SameLine();
    ImGui::BeginDisabled(!view.loaded);
    if (ImGui::RadioButton("loaded file", &source, 1)) view.useLoaded = true;
    ImGui::EndDisabled();
    ui::tooltipForLastItem(
        "The table last loaded from a .npy or .safetensors file (load one below).");

    if (source == 0) {
        ui::inputInt("seed", &view.seed, "The same seed always gives the same table.");
        ui::sliderDouble(state::kLearnedStd, &view.std,
                         "Standard deviation of the initial values. GPT-2 and BERT use 0.02.");
        ui::sliderInt(state::kLearnedTableLength, &view.seqLen,
                      "Rows of the table: the positions that have a vector. Positions from here on "
                      "do not exist for the model.");
        ui::sliderInt(state::kLearnedDModel, &view.dModel,
                      "Columns: the width of each position's vector.");
        if (!tableError().empty()) {
            ImGui::PushStyleColor(ImGuiCol_Text, kErrorColor);
            ImGui::TextWrapped("%s", tableError().c_str());
            ImGui::PopStyleColor();
        }
    } else if (view.loaded) {
        ImGui::TextWrapped("%s: %zu positions x %zu dimensions", baseName(view.loadedPath).c_str(),
                           view.loaded->rows, view.loaded->cols);
        if (view.tensorChoices.size() > 1) {
            std::string chosen = view.loadedTensor;
            if (ui::beginCombo("tensor", chosen, view.tensorChoices)) {
                for (const std::string& name : view.tensorChoices) {
                    if (ImGui::Selectable(name.c_str(), name == chosen)) chosen = name;
                }
                ImGui::EndCombo();
            }
            ui::tooltipForLastItem(
                "The file's float tensors. The position table found by its name is chosen "
                "first; any 1-D or 2-D tensor can be looked at as a table.");
            if (chosen != view.loadedTensor) {
                const std::string path = view.loadedPath;
                loadAndReport(view, context, path, chosen);
            }
        } else if (!view.loadedTensor.empty()) {
            ImGui::TextWrapped("tensor %s", view.loadedTensor.c_str());
        }
        if (!view.loadedNote.empty()) {
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
            ImGui::TextWrapped("%s", view.loadedNote.c_str());
            ImGui::PopStyleColor();
        }
    }

    ui::sectionHeader("Load a trained table");
    const bool enter = ui::inputString("path", &view.npyPath, ImGuiInputTextFlags_EnterReturnsTrue);
    ui::tooltipForLastItem(
        "A .safetensors checkpoint (its position table is found by name: wpe.weight, "
        "position_embeddings.weight, embed_positions.weight, ...; OPT's two offset rows are "
        "dropped when config.json is beside it) or a .npy file from numpy.save, a 2-D float32 "
        "or float64 array, rows = positions. Dropping a file onto the window loads it too.");
    if (ImGui::Button("Load") || enter) loadAndReport(view, context, view.npyPath, view.tensor);
    ui::tooltipForLastItem(
        "Read the file. A file that is not a 2-D float .npy or a readable .safetensors is "
        "refused with a message and the view stays as it was.");
    if (!loadMessage_.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, loadFailed_
                                                 ? kErrorColor
                                                 : ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("%s", loadMessage_.c_str());
        ImGui::PopStyleColor();
    }

    ui::sectionHeader("Display");
    const int rows = view.useLoaded && view.loaded ? int(view.loaded->rows) : paramsOf(view).seqLen;
    const int columns =
        view.useLoaded && view.loaded ? int(view.loaded->cols) : paramsOf(view).dModel;
    const int most = std::max(16, int(std::min<long long>(4LL * rows, kMaxSeqLen)));
    view.positionsShown = std::clamp(view.positionsShown, 1, most);
    ui::sliderInt(state::kLearnedPositionsShown, &view.positionsShown, ui::SliderBounds{1, most},
                  "Positions on the axes. Past the table's length they are undefined: a learned "
                  "table simply has no vector there, which is why learned positions cannot "
                  "extrapolate to longer sequences.");
    if (ImGui::Button("= table length")) view.positionsShown = rows;
    ui::tooltipForLastItem("Show exactly the table.");
    ImGui::SameLine();
    if (ImGui::Button("+25%")) view.positionsShown = std::min(most, rows + std::max(1, rows / 4));
    ui::tooltipForLastItem("Show a quarter more than the table: the undefined region.");
    view.firstCurveDimension = std::clamp(view.firstCurveDimension, 0, std::max(0, columns - 1));
    ui::sliderInt(state::kCurveFirstDimension, &view.firstCurveDimension,
                  ui::SliderBounds{0, columns - 1},
                  "The first of the dimensions plotted against position.");
    ui::sliderInt(state::kCurveCountRange, &view.curveCount,
                  "How many consecutive dimensions to plot.");
    ui::comboEnum("colormap", &view.colormap, allColormaps(), colormapName,
                  "Colour scale of the table. Blue-white-red is centred at zero. The cosine "
                  "similarity always uses blue-white-red on [-1, 1].");

    ui::sectionHeader("Structure tab");
    int structure = view.structureSource == state::StructureSource::Shown ? 0 : 1;
    if (ImGui::RadioButton("this table", &structure, 0))
        view.structureSource = state::StructureSource::Shown;
    ui::tooltipForLastItem("Analyse the table shown: seeded or loaded.");
    ImGui::SameLine();
    if (ImGui::RadioButton("sinusoidal", &structure, 1))
        view.structureSource = state::StructureSource::Sinusoidal;
    ui::tooltipForLastItem(
        "Analyse a sinusoidal table of the same size (base 10000) instead, to compare: its "
        "rows lie on a smooth curve and its dimensions oscillate on the ladder of frequencies.");
    ui::sliderInt(state::kLearnedComponents, &view.structureComponents,
                  "Principal components in the explained-variance plot.");
    int trajectory = view.structureTrajectory == TrajectoryStyle::Rotatable ? 1 : 0;
    if (ImGui::RadioButton("2-D", &trajectory, 0)) view.structureTrajectory = TrajectoryStyle::Flat;
    ui::tooltipForLastItem("The trajectories as PC1 against PC2: a flat picture.");
    ImGui::SameLine();
    if (ImGui::RadioButton("3-D trajectory", &trajectory, 1))
        view.structureTrajectory = TrajectoryStyle::Rotatable;
    ui::tooltipForLastItem(
        "The trajectories through PC1, PC2 and PC3, consecutive positions joined: a trained "
        "table's path (GPT-2's helix) reads as a curve. Drag the plot to turn it; "
        "double-click it to reset.");
    if (view.structureTrajectory == TrajectoryStyle::Rotatable) {
        view.structureYaw = wrapDegrees(view.structureYaw);
        ui::sliderDouble(state::kStructureYawRange, &view.structureYaw,
                         "Turn about PC2, in degrees. 0 looks down PC3 (PC1 across, PC2 up); 90 "
                         "looks down PC1. Dragging the plot sideways does the same.");
        ui::sliderDouble(state::kStructurePitchRange, &view.structurePitch,
                         "Tilt, in degrees: 90 looks straight down PC2 onto PC1 and PC3. Dragging "
                         "the plot up and down does the same.");
        if (ImGui::Button("reset view")) {
            view.structureYaw = state::kStructureYawRange.fallback;
            view.structurePitch = state::kStructurePitchRange.fallback;
        }
        ui::tooltipForLastItem(
            "Back to yaw 30, pitch 20 (double-clicking the plot does the same).");
        ImGui::SameLine();
        ImGui::Checkbox("auto-rotate", &view.autoRotate);
        ui::tooltipForLastItem(
            "Turn the trajectory slowly about PC2, for a lecture: the depth of the path shows "
            "as it moves. Dragging still works.");
    }
}

void LearnedPanel::drawFigure(state::LearnedViewState& view, ui::FrameContext& context) {
    // A tab asked for by a session or the tour is selected once; after that the tab bar decides.
    const bool requested = !shownTab_ || *shownTab_ != view.tab;
    std::optional<state::LearnedTab> visible;
    if (ImGui::BeginTabBar("learned figures", ImGuiTabBarFlags_FittingPolicyScroll)) {
        for (state::LearnedTab tab : {state::LearnedTab::Table, state::LearnedTab::Structure}) {
            const ImGuiTabItemFlags flags =
                requested && tab == view.tab ? ImGuiTabItemFlags_SetSelected : 0;
            if (ImGui::BeginTabItem(tab == state::LearnedTab::Table ? "Table" : "Structure",
                                    nullptr, flags)) {
                visible = tab;
                ImGui::EndTabItem();
            }
        }
        ImGui::EndTabBar();
    }
    if (requested) {
        shownTab_ = view.tab;  // the tab bar switches on the next frame
        context.animating = true;
    } else if (visible) {
        view.tab = *visible;
        shownTab_ = view.tab;
    }
    const state::LearnedTab tab = requested ? view.tab : visible.value_or(view.tab);
    if (tab == state::LearnedTab::Structure && !requested) {
        drawStructure(view, context);
        return;
    }
    if (requested && tab == state::LearnedTab::Structure) {  // one frame until the tab switches
        context.waiting = true;
        return;
    }
    const LearnedFigureOptions options = optionsFor(view);
    if (!options.table) {
        const ui::Canvas canvas = ui::beginCanvas("learned");
        const Box area{0, 0, canvas.box.width, canvas.box.height};
        Figure figure = emptyFigure(area.width, area.height, context.theme);
        drawNote(figure, area, tableError().empty() ? "no table" : tableError(), context.theme);
        ui::drawCanvasFigure(canvas, figure, context);
        return;
    }
    const DataKey key{options.table, options.positionsShown, options.firstCurveDimension,
                      options.curveCount};
    LearnedFigureFrames frames;
    const ui::Canvas canvas = cache_.showRefining(
        "learned", key, context,
        [](Box area, const Theme& theme, int panel) { return learnedPanels(area, theme, panel); },
        [&](Box area, int panel) { return learnedLayout(area, context.theme, panel); },
        // A 16,384 x 2,048 table's block means and cosines take longer than a frame: while a
        // control moves, coarse data from every n-th row here; the exact data on a worker when
        // it holds still (the options copied in; the table is shared, never changed).
        // The coarse data are called for on this thread only (RefiningMemo), so they may use
        // coarse_; the worker's exact data read nothing of the panel.
        [this, options](const LearnedLayout& layout, Detail detail) {
            if (detail == Detail::Exact) return computeLearnedFigureData(options, layout);
            return coarse_.get(coarseKeyFor(options, layout),
                               [&] { return computeCoarseLearnedFigureData(options, layout); });
        },
        [&](Figure& figure, const LearnedLayout& layout, const LearnedFigureData& data,
            const DataKey& made) {
            // Meanwhile the last data is drawn with the settings it was made for.
            LearnedFigureOptions drawn = options;
            drawn.table = made.table;
            drawn.positionsShown = made.positionsShown;
            drawn.firstCurveDimension = made.firstCurveDimension;
            drawn.curveCount = made.curveCount;
            drawLearnedFigure(figure, layout, drawn, data, context.theme, &frames);
        });
    if (cache_.ok() && cache_.exact() && canvas.hovered) showTooltip(options, frames, canvas.mouse);
}

LearnedPanel::CoarseKey LearnedPanel::coarseKeyFor(const LearnedFigureOptions& options,
                                                   const LearnedLayout& layout) {
    CoarseKey key;
    key.table = options.table;
    const long long rows = options.table ? (long long)options.table->rows : 0;
    key.visibleRows = int(std::min<long long>(learnedPositionsShown(options), rows));
    key.firstCurveDimension = options.firstCurveDimension;
    key.curveCount = options.curveCount;
    std::size_t i = 0;
    for (const Box& box : {layout.area, layout.table, layout.cosine, layout.curves}) {
        for (float v : {box.x, box.y, box.width, box.height}) key.boxes[i++] = v;
    }
    return key;
}

void LearnedPanel::showTooltip(const LearnedFigureOptions& options,
                               const LearnedFigureFrames& frames, Point mouse) const {
    const Matrix& table = *options.table;
    const LearnedFigureData& data = cache_.data();
    const long long rows = (long long)table.rows;
    const long long shown = learnedPositionsShown(options);
    auto undefinedLine = [&](long long position) {
        ImGui::Text("position %lld: undefined", position);
        ImGui::TextDisabled("the table has %lld positions (0..%lld); nothing was trained here",
                            rows, rows - 1);
    };
    if (frames.table.plot.contains(mouse)) {
        const auto [x, y] = frames.table.toData(mouse);
        const long long position = std::clamp<long long>(std::llround(std::floor(y)), 0, shown - 1);
        const int dimension = std::clamp(int(std::floor(x)), 0, int(table.cols) - 1);
        ImGui::BeginTooltip();
        if (position >= rows) {
            undefinedLine(position);
        } else {
            ui::tooltipText("position %lld, dimension %d", position, dimension);
            ui::tooltipText("value %.6g", table(std::size_t(position), std::size_t(dimension)));
            if (data.table.rowsPerTexel > 1 || data.table.colsPerTexel > 1) {
                ui::tooltipTextDisabled("zoomed out: a pixel is the mean of %lld x %lld cells",
                                        data.table.rowsPerTexel, data.table.colsPerTexel);
            }
        }
        ImGui::EndTooltip();
    } else if (frames.cosine.plot.contains(mouse)) {
        const auto [x, y] = frames.cosine.toData(mouse);
        const long long a = std::clamp<long long>(std::llround(std::floor(y)), 0, shown - 1);
        const long long b = std::clamp<long long>(std::llround(std::floor(x)), 0, shown - 1);
        ImGui::BeginTooltip();
        if (a >= rows || b >= rows) {
            undefinedLine(std::max(a, b));
        } else {
            ui::tooltipText("positions %lld and %lld", a, b);
            const double cosine = cosineSimilarity(table, std::size_t(a), std::size_t(b));
            // Undefined is kUndefinedCosine (-inf, masked in the heatmap), or NaN: never a number.
            if (!std::isfinite(cosine)) {
                ImGui::TextUnformatted("cosine undefined (masked): a zero or non-finite vector");
            } else {
                ui::tooltipText("cosine similarity %.6f", cosine);
            }
            if (data.cosine.rowsPerTexel > 1) {
                ui::tooltipTextDisabled("zoomed out: a pixel is the mean of %lld x %lld pairs",
                                        data.cosine.rowsPerTexel, data.cosine.rowsPerTexel);
            }
        }
        ImGui::EndTooltip();
    } else if (frames.curves.plot.contains(mouse)) {
        const long long position =
            std::clamp<long long>(std::llround(frames.curves.toData(mouse).first), 0, shown - 1);
        ImGui::BeginTooltip();
        if (position >= rows) {
            undefinedLine(position);
        } else {
            ui::tooltipText("position %lld", position);
            for (const LearnedCurve& curve : data.curves) {
                ui::tooltipText("dim %d: %.6g", curve.dimension,
                                table(std::size_t(position), std::size_t(curve.dimension)));
            }
        }
        ImGui::EndTooltip();
    }
}

}  // namespace poslab::panels
